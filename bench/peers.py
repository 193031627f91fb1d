"""bitka beside the group-money app people would run instead, on the same machine, in one run.

    python bench/peers.py [--clients 8 --clients 32] [--seconds 10] [--json out.json]

The peer is ihatemoney (https://ihatemoney.org), the self-hosted app for sharing a group's
expenses. The bench installs it, with gunicorn, into an environment of its own (under
``$BITKA_PEERS_DIR``, else ``~/.cache/bitka-bench/peers``; made once, reused after), never
into bitka's. Both servers run under gunicorn with bitka serve's defaults (2 workers x 16
threads, gthread), each on a new SQLite file, warmed up for 2 seconds, then loaded by ``wrk``
for ``--seconds``: one keep-alive connection per client, each client on a group (a project)
of its own.

Measured, at each client count:
  ihatemoney  adding a bill (POST /api/projects/<id>/bills, its project token as Bearer)
  bitka       logging a hand's result (POST .../tables/<t>/hands {"result"}, a seated
              member's token), at its defaults (confirmations by the payers: each result
              waits) and with confirmations off
  bitka       whole Kop hands, a deal then four tricks, one request each (bench/http_load.py),
              at its defaults and with confirmations off
Target: bitka logs a result at 3 times or more the rate ihatemoney adds a bill, at each
client count, at its defaults. Exit 1 while it is missed.
"""
from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.http_load import SETUP, WRK, _call, _lua, _server, _stop, bitka, plan, wrk  # noqa: E402
from bench.run import free_port  # noqa: E402

TARGET = 3.0
PEER = ("ihatemoney", "gunicorn")
WORKERS, THREADS = 2, 16  # bitka serve's defaults (cli/main.py)
# The old ones (seats 1 and 3) win with 70: the logger (seat 0) and seat 2 pay, and seat 2 has to agree.
RESULT = {"result": {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}}


def peer_environment() -> Path:
    """The peer's own virtual environment, made (and ihatemoney installed) on first use."""
    home = Path(os.environ.get("BITKA_PEERS_DIR") or Path.home() / ".cache" / "bitka-bench" / "peers")
    python = home / "bin" / "python"
    if not (home / "bin" / "gunicorn").exists():
        print(f"bench/peers.py: installing {', '.join(PEER)} into {home} (once)", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(home)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEER], check=True)
    return home


def _version(home: Path) -> str:
    out = subprocess.run([str(home / "bin" / "python"), "-m", "pip", "show", "ihatemoney"], capture_output=True,
                         text=True, check=True).stdout
    return next((line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Version:")), "?")


def _peer_plan(port: int, clients: int) -> str:
    """A project of four members per client, and its token, as one_post.lua reads them."""
    entries = []
    for i in range(clients):
        project, password = f"bench{i}-{secrets.token_hex(3)}", secrets.token_hex(8)
        basic = {"Authorization": "Basic " + base64.b64encode(f"{project}:{password}".encode()).decode(),
                 "Content-Type": "application/x-www-form-urlencoded"}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        post = _poster(conn)
        post("/api/projects", {"name": f"Table {i}", "id": project, "password": password,
                               "contact_email": "bench@example.org", "default_currency": "PLN"},
             {"Content-Type": "application/x-www-form-urlencoded"})
        members = [post(f"/api/projects/{project}/members", {"name": n}, basic) for n in ("Ala", "Bob", "Cyd", "Dan")]
        conn.request("GET", f"/api/projects/{project}/token", headers=basic)
        token = json.loads(conn.getresponse().read())["token"]
        conn.close()
        bill = json.dumps({"what": "Kop, hand 1", "payer": members[0], "payed_for": members, "amount": "12.50",
                           "date": "2026-12-01", "original_currency": "PLN"})
        entries.append("{path = %s, headers = {[\"Authorization\"] = %s, [\"Content-Type\"] = \"application/json\"}, "
                       "body = %s}" % (_lua(f"/api/projects/{project}/bills"), _lua(f"Bearer {token}"), _lua(bill)))
    return "return {\n" + ",\n".join(entries) + "\n}\n"


def _poster(conn: http.client.HTTPConnection):
    def post(path: str, form: dict, headers: dict):
        conn.request("POST", path, urllib.parse.urlencode(form, doseq=True), headers)
        answer = conn.getresponse()
        body = answer.read()
        if answer.status != 201:
            raise RuntimeError(f"ihatemoney {path}: {answer.status} {body[:300]!r}")
        return json.loads(body)
    return post


def ihatemoney(home: Path, tmp: Path, clients: int, seconds: int) -> dict:
    port = free_port()
    settings = tmp / f"ihatemoney-{port}.cfg"
    settings.write_text(f'SQLALCHEMY_DATABASE_URI = "sqlite:///{tmp}/ihatemoney-{port}.db"\n'
                        f'SECRET_KEY = "{secrets.token_hex(16)}"\nACTIVATE_DEMO_PROJECT = False\n'
                        'MAIL_SUPPRESS_SEND = True\nSESSION_COOKIE_SECURE = False\n')
    env = {"IHATEMONEY_SETTINGS_FILE_PATH": str(settings)}
    # Its schema made once, before the workers start (each would run the migrations itself).
    subprocess.run([str(home / "bin" / "python"), "-c", "from ihatemoney.run import create_app; create_app()"],
                   env={**os.environ, **env}, cwd=tmp, check=True, capture_output=True)
    proc = _server([str(home / "bin" / "gunicorn"), "-w", str(WORKERS), "--threads", str(THREADS), "-k", "gthread",
                    "--keep-alive", "5", "-b", f"127.0.0.1:{port}", "ihatemoney.wsgi:application"], env, port)
    try:
        warm, script = tmp / f"peer-warm-{port}.lua", tmp / f"peer-{port}.lua"
        warm.write_text(_peer_plan(port, clients))
        script.write_text(_peer_plan(port, clients))
        wrk(port, clients, 2, WRK / "one_post.lua", str(warm))
        return wrk(port, clients, seconds, WRK / "one_post.lua", str(script))
    finally:
        _stop(proc)


def _result_plan(confirmations: str):
    def made(port: int, clients: int, rng) -> str:
        entries = []
        for i in range(clients):
            g = _call(port, "POST", "/v1/groups", {"name": f"Table {i}", "currency": "PLN",
                                                   "confirmations": confirmations}, SETUP)
            base = f"/v1/groups/{g['id']}"
            members = [_call(port, "POST", f"{base}/members", {"name": n}, g["admin_token"]) for n in "NESW"]
            table = _call(port, "POST", f"{base}/tables", {"game": "kop", "stake": "0.50",
                                                           "seats": [m["id"] for m in members]}, g["admin_token"])
            entries.append("{path = %s, headers = {[\"Authorization\"] = %s, [\"Content-Type\"] = "
                           "\"application/json\"}, body = %s}" % (
                               _lua(f"{base}/tables/{table['id']}/hands"), _lua(f"Bearer {members[0]['token']}"),
                               _lua(json.dumps(RESULT))))
        return "return {\n" + ",\n".join(entries) + "\n}\n"
    return made


def _hands_plan(confirmations: str):
    return lambda port, clients, rng: plan(port, clients, rng, confirmations)


def _row(name: str, found: dict) -> str:
    return (f"  {name:<44} {found['rate']:>7.0f} req/s  p50 {found['p50_ms']:5.1f} ms  p99 {found['p99_ms']:6.1f} ms"
            f"  refused {found['refused']}, errors {found['errors']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, action="append", help="concurrent clients (repeat; 8 and 32 by default)")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    home = peer_environment()
    print(f"bench/peers.py: ihatemoney {_version(home)} and bitka, gunicorn {WORKERS} workers x {THREADS} threads, "
          f"SQLite, wrk for {args.seconds} s a row")
    results, met = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for clients in args.clients or [8, 32]:
            row = {"clients": clients, "ihatemoney bill": ihatemoney(home, Path(tmp), clients, args.seconds)}
            for name, load in (("bitka result, defaults", (WRK / "one_post.lua", _result_plan("payers"))),
                               ("bitka result, confirmations off", (WRK / "one_post.lua", _result_plan("off"))),
                               ("bitka whole Kop hands, defaults", (WRK / "kop_hands.lua", _hands_plan("payers"))),
                               ("bitka whole Kop hands, confirmations off",
                                (WRK / "kop_hands.lua", _hands_plan("off")))):
                row[name] = bitka(Path(tmp), clients, args.seconds, [], {}, load=load)
                time.sleep(1)
            peer = row["ihatemoney bill"]["rate"]
            ratio = row["bitka result, defaults"]["rate"] / peer
            met = met and ratio >= TARGET
            row["ratio"] = ratio
            results.append(row)
            print(f"{clients} clients:")
            for name, found in row.items():
                if isinstance(found, dict):
                    times = f"   {found['rate'] / peer:4.1f} x ihatemoney" if name != "ihatemoney bill" else ""
                    print(_row(name, found) + times)
            print(f"  a result at the defaults: {ratio:.1f} times a bill (target {TARGET:.0f})", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
