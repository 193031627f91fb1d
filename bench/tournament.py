"""A tournament as a hall plays it (issue 34's target): 64 players in a points group, 5 rounds
of 32 deals (2,560 hands), each round's 16 tables logging their hands at once over HTTP to
``bitka serve`` (its defaults), and after every hand the table's client reads the standings.
Those reads must answer in under 50 ms at p99, and their cost must not grow with the hands
played: each round's p50 and p99 are printed beside the hands played before it.

    python bench/tournament.py [--players 64] [--rounds 5] [--deals 32] [--pace 0.25] [--json out.json]
    python bench/tournament.py --pace 0          # the tables log back to back: the CPU saturated
    python bench/tournament.py --pace 0 --serve '--threads 4'   # and fewer threads in each worker
    python bench/tournament.py --in-process      # what each request costs, one at a time

A hall's table logs a hand every one to three minutes. Here each table waits about ``--pace``
seconds between its hands (a quarter of a second: 16 tables log some 60 hands a second, about
500 times a hall's pace, and the server is far from idle); ``--pace 0`` logs them back to back,
and then every read waits its turn behind the other tables' hands for the two cores.
``--in-process`` plays the same tournament through the app in this one process, one request
at a time, and prints the CPU milliseconds a hand and a standings read cost in each round:
the cost itself, with no queue in it.

Each round is drawn as a tournament created now is (API.md, "A draw nobody can arrange"):
every player checks in for it from their own token with 32 fresh random bytes, then the
organizer draws it; the check-ins are not timed.

The standings are kept in rows of their own (projections/standings_row.py), moved as each
hand is logged: a hand moves the totals and its round's row, and a read reads the totals and
a row per round drawn, the size of the answer itself.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import _wait, free_port, hand_bodies  # noqa: E402 - the repository's root comes first
from service.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETUP = "bench-setup-token"


class Client:
    """One keep-alive connection, as a phone or a scorer's laptop holds it."""

    def __init__(self, port: int, token: str | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = token

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token or self.token:
            headers["Authorization"] = f"Bearer {token or self.token}"
        try:
            self.conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            answer = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed a connection left idle (the organizer's, while a round plays):
            # nothing was read of the request, so it is sent again on a new one
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.conn.port, timeout=60)
            self.conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            answer = self.conn.getresponse()
        data = json.loads(answer.read() or b"null")
        if answer.status >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status} {data}")
        return data


class InProcess:
    """The app itself, called through Flask's test client: no sockets, no other requests."""

    def __init__(self, app, token: str | None = None):
        self.client, self.token = app.test_client(), token

    def call(self, method: str, path: str, body=None, token: str | None = None):
        answer = self.client.open(path, method=method, json=body,
                                  headers={"Authorization": f"Bearer {token or self.token}"})
        if answer.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.json}")
        return answer.json


def tournament(client, players: int, rounds: int, deals: int) -> tuple[str, str, str, dict[str, str]]:
    """A points group of ``players`` members and its tournament: (admin token, group path,
    tournament id, each player's token)."""
    g = client.call("POST", "/v1/groups", {"name": "Hala", "currency": "points", "confirmations": "off"}, SETUP)
    client.token, base = g["admin_token"], f"/v1/groups/{g['id']}"
    members = [client.call("POST", f"{base}/members", {"name": f"Gracz {i + 1}"}) for i in range(players)]
    t = client.call("POST", f"{base}/tournaments", {"name": "Bench", "game": "kop",
                                                    "players": [m["id"] for m in members], "rounds": rounds,
                                                    "deals": deals})
    return g["admin_token"], base, t["id"], {m["id"]: m["token"] for m in members}


def draw_round(client, base: str, tid: str, number: int, tokens: dict[str, str]) -> dict:
    """Every player checks in for round ``number`` from their own token, then the round is drawn."""
    for token in tokens.values():
        client.call("POST", f"{base}/tournaments/{tid}/rounds/{number}/check-in", {"entropy": secrets.token_hex(32)},
                    token)
    answer = client.call("POST", f"{base}/tournaments/{tid}/rounds")
    assert answer["absent"] == [], answer["absent"]
    return answer


def table_plays(client, base: str, table: str, deals: int, pool, seed: int, pace: float) -> list[float]:
    """A table's client logs its deals, each a whole hand, and reads the standings after each:
    the seconds each read took. Between hands it waits about ``pace`` seconds (a half to one and
    a half times it, so that the tables do not keep step)."""
    rng, took = random.Random(seed), []
    for _ in range(deals):
        if pace:
            time.sleep(pace * rng.uniform(0.5, 1.5))
        at = client.call("GET", f"{base}/tables/{table}")
        client.call("POST", f"{base}/tables/{table}/hands", rng.choice(pool[at["next_dealer"]]))
        start = time.perf_counter()
        client.call("GET", f"{base}/tournaments/{at['tournament']}/standings")
        took.append(time.perf_counter() - start)
    return took


def over_http(args, pool) -> tuple[list[dict], float, dict]:
    tmp = Path(tempfile.mkdtemp(prefix="bitka-tournament-"))
    port = free_port()
    env = {**os.environ, "BITKA_SETUP_TOKEN": SETUP, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(tmp / "hall.db"), "serve", "--port",
                               str(port), "--key", str(tmp / "hall.key"), *args.serve.split()], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(tmp / "serve.log", "w"))
    try:
        _wait(port)
        admin = Client(port)
        token, base, tid, players = tournament(admin, args.players, args.rounds, args.deals)
        rows, every = [], []
        for number in range(1, args.rounds + 1):
            drawn = draw_round(admin, base, tid, number, players)
            started = time.perf_counter()
            tables = [(table["id"], number * 1000 + i) for i, table in enumerate(drawn["tables"])]
            with ThreadPoolExecutor(len(tables)) as at_once:
                took = [s for table_took in at_once.map(
                    lambda at: table_plays(Client(port, token), base, at[0], args.deals, pool, at[1], args.pace),
                    tables) for s in table_took]
            seconds = time.perf_counter() - started
            every += took
            quantiles = statistics.quantiles(took, n=100)
            rows.append({"round": number, "hands_before": (number - 1) * len(drawn["tables"]) * args.deals,
                         "tables": len(drawn["tables"]), "hands": len(took), "seconds": round(seconds, 1),
                         "p50_ms": round(statistics.median(took) * 1000, 1), "p99_ms": round(quantiles[98] * 1000, 1)})
            print(f"round {number}: {len(took)} hands by {len(drawn['tables'])} tables at once in {seconds:.1f} s; "
                  f"standings after each: p50 {rows[-1]['p50_ms']} ms, p99 {rows[-1]['p99_ms']} ms "
                  f"({rows[-1]['hands_before']} hands played before the round)", flush=True)
        final = admin.call("GET", f"{base}/tournaments/{tid}/standings")
        return rows, statistics.quantiles(every, n=100)[98] * 1000, final
    finally:
        server.terminate()
        server.wait(10)


def in_process(args, pool) -> tuple[list[dict], dict]:
    tmp = Path(tempfile.mkdtemp(prefix="bitka-tournament-"))
    os.environ["BITKA_KEY"] = str(tmp / "hall.key")
    app = create_app({"BITKA_DB": str(tmp / "hall.db"), "BITKA_SETUP_TOKEN": SETUP})
    client = InProcess(app)
    _token, base, tid, players = tournament(client, args.players, args.rounds, args.deals)
    rng, rows = random.Random(1), []
    for number in range(1, args.rounds + 1):
        drawn = draw_round(client, base, tid, number, players)
        hands, reads = [], []
        for _ in range(args.deals):
            for table in drawn["tables"]:  # the tables take turns, a hand each
                at = client.call("GET", f"{base}/tables/{table['id']}")
                start = time.process_time()
                client.call("POST", f"{base}/tables/{table['id']}/hands", rng.choice(pool[at["next_dealer"]]))
                hands.append(time.process_time() - start)
                start = time.process_time()
                client.call("GET", f"{base}/tournaments/{tid}/standings")
                reads.append(time.process_time() - start)
        rows.append({"round": number, "hands_before": (number - 1) * len(hands),
                     "hand_cpu_ms": round(statistics.mean(hands) * 1000, 2),
                     "read_cpu_ms": round(statistics.mean(reads) * 1000, 2)})
        print(f"round {number}: a hand logged costs {rows[-1]['hand_cpu_ms']} ms of CPU, a standings read "
              f"{rows[-1]['read_cpu_ms']} ms ({rows[-1]['hands_before']} hands played before the round)", flush=True)
    return rows, client.call("GET", f"{base}/tournaments/{tid}/standings")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=32)
    ap.add_argument("--pace", type=float, default=0.25,
                    help="seconds each table waits between its hands, about (0: back to back)")
    ap.add_argument("--serve", default="", help="more options for bitka serve, as one string: '--threads 4'")
    ap.add_argument("--in-process", action="store_true",
                    help="one request at a time in this process: the CPU each costs, round by round")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    pool = hand_bodies(random.Random(7), 25)
    if args.in_process:
        rows, final = in_process(args, pool)
        figures, met = {"rounds": rows}, True
    else:
        rows, overall, final = over_http(args, pool)
        print(f"all {sum(r['hands'] for r in rows)} reads: p99 {overall:.1f} ms (target: under 50 ms)")
        figures, met = {"rounds": rows, "pace": args.pace, "p99_ms": round(overall, 1)}, overall < 50
    print(f"rounds played {final['rounds_played']}; leader {final['players'][0]['name']} with "
          f"{final['players'][0]['points']}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if met and final["rounds_played"] == args.rounds else 1


if __name__ == "__main__":
    sys.exit(main())
