"""Many tables at once: whole Kop hands (a deal, then four tricks) POSTed to ``bitka serve``
by ``wrk`` (Debian's package: its Lua scripts are in bench/wrk/), one keep-alive connection
per client and a group of its own per client, against the minimal endpoint in the same run.

    python bench/http_load.py --clients 8 --clients 32 [--seconds 10] [--json out.json]
    python bench/http_load.py --clients 32 --flush-delay-ms 5     # a slow disk's flush, stood for
    python bench/http_load.py --clients 8 --postgres [URL]       # and on PostgreSQL: 1, 2 and 4 servers

Each server configuration is started fresh on a new store, warmed up, then loaded for
``--seconds``. wrk costs little CPU (C, one thread per connection here), so the 2 cores
go to the servers. The rows: requests/s, p50 and p99 latency, requests per commit (bitka's
group commit), and the ratio of bitka's rate to the minimal endpoint's fastest config.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import _wait, free_port, hand_bodies  # noqa: E402 - the repository's root comes first

WRK = Path(__file__).resolve().parent / "wrk"
ROOT = Path(__file__).resolve().parent.parent
SETUP = "bench-setup-token"  # groups made with it are not counted against an address's hourly limit


def _call(port: int, method: str, path: str, body=None, token=None):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    answer = conn.getresponse()
    data = json.loads(answer.read() or b"null")
    conn.close()
    if answer.status >= 300:
        raise RuntimeError(f"{method} {path}: {answer.status} {data}")
    return data


def plan(port: int, clients: int, rng: random.Random, confirmations: str = "off") -> str:
    """A group, four members and a Kop table per client, and four whole hands (one per
    dealer), as the Lua table kop_hands.lua reads."""
    pool = hand_bodies(rng, 1)
    entries = []
    for i in range(clients):
        g = _call(port, "POST", "/v1/groups", {"name": f"Table {i}", "currency": "PLN",
                                               "confirmations": confirmations}, SETUP)
        admin = g["admin_token"]
        base = f"/v1/groups/{g['id']}"
        seats = [_call(port, "POST", f"{base}/members", {"name": n}, admin)["id"] for n in "NESW"]
        table = _call(port, "POST", f"{base}/tables", {"game": "kop", "stake": "0.50", "seats": seats}, admin)
        deals = [json.dumps({"deal": pool[d][0]["deal"]}) for d in range(4)]
        tricks = [[json.dumps(t) for t in pool[d][0]["tricks"]] for d in range(4)]
        entries.append("{token = %s, tables = %s, hands = %s, deals = {%s}, tricks = {%s}}" % (
            _lua(admin), _lua(f"{base}/tables/{table['id']}/hands"), _lua(f"{base}/hands/"),
            ", ".join(_lua(d) for d in deals),
            ", ".join("{" + ", ".join(_lua(t) for t in hand) + "}" for hand in tricks)))
    return "return {\n" + ",\n".join(entries) + "\n}\n"


def _lua(text: str) -> str:
    return "[==[" + text + "]==]"


def wrk(port: int, clients: int, seconds: int, script: Path, *args: str) -> dict:
    out = subprocess.run(["wrk", "-t", str(clients), "-c", str(clients), "-d", f"{seconds}s", "--timeout", "10s",
                          "-s", str(script), f"http://127.0.0.1:{port}", "--", *args],
                         capture_output=True, text=True, check=True)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("{")][-1]
    found = json.loads(line)
    found["rate"] = found["requests"] / found["seconds"]
    return found


def _server(cmd: list[str], env: dict, port: int) -> subprocess.Popen:
    log = tempfile.TemporaryFile()  # the server's own log, shown if it does not start
    proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=log,
                            start_new_session=True)
    try:
        _wait(port)
    except RuntimeError:
        _stop(proc)
        log.seek(0)
        said = log.read().decode(errors="replace")[-2000:]
        raise RuntimeError(f"{' '.join(cmd[:4])} did not start:\n{said}") from None
    return proc


def _stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def bitka(tmp: Path, clients: int, seconds: int, options: list[str], env: dict, db: str | None = None,
          servers: int = 1, load=None) -> dict:
    """``servers`` bitka serve processes on one store (SQLite in ``tmp`` unless ``db`` names
    one), each loaded by a wrk of its own with an equal share of the clients. ``load``:
    (script, plan(port, clients, rng) -> Lua text), whole Kop hands by default."""
    script_of, plan_of = load or (WRK / "kop_hands.lua", plan)
    ports = [free_port() for _ in range(servers)]
    db = db or str(tmp / f"bitka-{ports[0]}.db")
    procs = []
    try:
        for port in ports:
            procs.append(_server([sys.executable, "-m", "cli", "--db", db, "serve", "--port", str(port), *options],
                                 {"BITKA_BENCH_STATS": str(tmp / f"commits-{ports[0]}.json"),
                                  "BITKA_SETUP_TOKEN": SETUP, **env}, port))
        shares = [clients // servers + (i < clients % servers) for i in range(servers)]
        scripts = []
        for port, share in zip(ports, shares, strict=True):
            warm, script = tmp / f"warm-{port}.lua", tmp / f"plan-{port}.lua"
            warm.write_text(plan_of(port, share, random.Random(share)))  # tables of their own: hands left half
            script.write_text(plan_of(port, share, random.Random(share)))  # played when wrk stops stay there
            scripts.append((port, share, warm, script))
        for port, share, warm, _ in scripts:
            wrk(port, share, 2, script_of, str(warm))  # warm up: connections, caches
        with ThreadPoolExecutor(servers) as pool:
            runs = list(pool.map(lambda s: wrk(s[0], s[1], seconds, script_of, str(s[3])), scripts))
    finally:
        for proc in procs:
            _stop(proc)
    found = {"requests": sum(r["requests"] for r in runs), "seconds": max(r["seconds"] for r in runs),
             "p50_ms": max(r["p50_ms"] for r in runs), "p99_ms": max(r["p99_ms"] for r in runs),
             "errors": sum(r["errors"] for r in runs), "refused": sum(r["refused"] for r in runs)}
    found["rate"] = sum(r["rate"] for r in runs)
    found.update(_commits(tmp / f"commits-{ports[0]}.json"))
    return found


def _commits(path: Path) -> dict:
    """Requests per commit, as the server processes wrote it at exit (BITKA_BENCH_STATS)."""
    totals = {"commits": 0, "writes": 0}
    for stats in sorted(path.parent.glob(path.name + ".*")):
        seen = json.loads(stats.read_text())
        totals["commits"] += seen["commits"]
        totals["writes"] += seen["writes"]
    if totals["commits"]:
        totals["per_commit"] = totals["writes"] / totals["commits"]
    return totals


def minimal(tmp: Path, clients: int, seconds: int, workers: int, threads: int) -> dict:
    from bench.minimal_app import setup
    port = free_port()
    db = tmp / f"minimal-{port}.db"
    setup(str(db))
    cmd = [sys.executable, "-m", "gunicorn", "-w", str(workers), "--threads", str(threads), "-b",
           f"127.0.0.1:{port}", "--keep-alive", "5", "bench.minimal_app:app"]
    proc = _server(cmd, {"BENCH_MINIMAL_DB": str(db), "PYTHONPATH": str(ROOT)}, port)
    try:
        wrk(port, clients, 2, WRK / "minimal.lua")
        return wrk(port, clients, seconds, WRK / "minimal.lua")
    finally:
        _stop(proc)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, action="append", help="concurrent clients (repeat: 8 and 32)")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--flush-delay-ms", type=float, default=0, help="sleep this long in each commit (a slow disk)")
    ap.add_argument("--serve", default="", help="options for bitka serve, e.g. '--threads 1'")
    ap.add_argument("--postgres", nargs="?", const="", metavar="URL",
                    help="also load bitka on this PostgreSQL server (1, 2 and 4 bitka serve processes, each "
                         "in a schema of its own; $BITKA_TEST_POSTGRES or the local server when no URL is given) "
                         "beside the same server on SQLite")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    env = {"BITKA_TEST_FLUSH_DELAY_MS": str(args.flush_delay_ms)} if args.flush_delay_ms else {}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for clients in args.clients or [8, 32]:
            fastest = max((minimal(Path(tmp), clients, args.seconds, w, t) | {"config": f"{w} x {t}"}
                           for w, t in ((2, 1), (2, 4))), key=lambda r: r["rate"])
            ours = bitka(Path(tmp), clients, args.seconds, args.serve.split(), env)
            ours["ratio"] = ours["rate"] / fastest["rate"]
            results.append({"clients": clients, "bitka": ours, "minimal": fastest})
            print(f"{clients:>3} clients  bitka serve {args.serve or '(defaults)'}: {ours['rate']:7.0f} req/s, "
                  f"p50 {ours['p50_ms']:.1f} ms, p99 {ours['p99_ms']:.1f} ms, refused {ours['refused']}, "
                  f"errors {ours['errors']}, {ours.get('per_commit', 1):.2f} requests per commit | minimal "
                  f"({fastest['config']}): {fastest['rate']:7.0f} req/s, p99 {fastest['p99_ms']:.1f} ms | "
                  f"ratio {ours['ratio']:.0%}", flush=True)
            time.sleep(1)
            if args.postgres is not None:
                from bench import postgres
                for servers in (1, 2, 4):
                    with postgres.schema_of_its_own(args.postgres or postgres.DEFAULT_URL, "bitka_load") as url:
                        pg = bitka(Path(tmp), clients, args.seconds, args.serve.split(), env, db=url, servers=servers)
                    pg["ratio_to_sqlite"] = pg["rate"] / ours["rate"]
                    results[-1][f"postgres_{servers}"] = pg
                    print(f"{clients:>3} clients  bitka serve on PostgreSQL, {servers} server(s): {pg['rate']:7.0f} "
                          f"req/s, p50 {pg['p50_ms']:.1f} ms, p99 {pg['p99_ms']:.1f} ms, refused {pg['refused']}, "
                          f"errors {pg['errors']} | {pg['ratio_to_sqlite']:.0%} of the same on SQLite", flush=True)
                    time.sleep(1)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
