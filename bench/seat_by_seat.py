"""A Kop hand logged seat by seat against the same hand logged whole, over HTTP, in one run.

    python bench/seat_by_seat.py [--hands 60] [--clients 1]

Seat by seat is what a table of phones sends: the deal naming its dealer, four
``seat_cards`` (each from its seat's own token) and sixteen plays, each request its own
write transaction, the last card of each trick appending the trick too. Whole is one request
with the deal and its four tricks. Both go to one `bitka serve` (its defaults), interleaved
hand by hand so that a noisy spell slows both; ``--clients`` keep-alive clients each play
at tables of their own group. It prints milliseconds per hand and per request, and hands/s.
"""
from __future__ import annotations

import argparse
import http.client
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import _post, _wait, free_port, hand_bodies  # noqa: E402


def _group(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    json_only = {"Content-Type": "application/json"}
    g = _post(conn, "/v1/groups", {"name": "bench", "currency": "PLN"}, json_only)
    admin = {"Authorization": f"Bearer {g['admin_token']}", **json_only}
    members = [_post(conn, f"/v1/groups/{g['id']}/members", {"name": n}, admin) for n in "NESW"]
    seats = [m["id"] for m in members]
    tables = {entry: _post(conn, f"/v1/groups/{g['id']}/tables", {"game": "kop", "seats": seats, "stake": "0.50",
                                                                  "rules": {"entry": entry}}, admin)["id"]
              for entry in ("scorer", "seats")}
    tokens = [{"Authorization": f"Bearer {m['token']}", **json_only} for m in members]
    return {"id": g["id"], "tables": tables, "tokens": tokens}


def whole(conn, group: dict, body: dict) -> int:
    _post(conn, f"/v1/groups/{group['id']}/tables/{group['tables']['scorer']}/hands", body, group["tokens"][0])
    return 1


def seat_by_seat(conn, group: dict, body: dict) -> int:
    """The hand as four phones send it; the number of requests."""
    base, tokens, hands = f"/v1/groups/{group['id']}", group["tokens"], body["deal"]["hands"]
    dealer = body["deal"]["dealer"]
    hand = _post(conn, f"{base}/tables/{group['tables']['seats']}/hands", {"deal": {"dealer": dealer}},
                 tokens[dealer])["id"]
    for seat, cards in enumerate(hands):
        _post(conn, f"{base}/hands/{hand}/cards", {"seat": seat, "cards": cards}, tokens[seat])
    for trick in body["tricks"]:
        for card in trick["cards"]:
            seat = next(s for s, h in enumerate(hands) if card in h)
            _post(conn, f"{base}/hands/{hand}/plays", {"seat": seat, "card": card}, tokens[seat])
    return 1 + len(hands) + sum(len(t["cards"]) for t in body["tricks"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=60, help="hands of each kind, per client")
    ap.add_argument("--clients", type=int, default=1)
    args = ap.parse_args()
    pool = hand_bodies(random.Random(2026), 50)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(Path(tmp) / "seats.db"), "serve",
                                 "--port", str(port), "--key", str(Path(tmp) / "bench.key")],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait(port)
            groups = [_group(port) for _ in range(args.clients)]
            times: dict[str, list[float]] = {"whole": [], "seat by seat": []}
            requests = {"whole": 0, "seat by seat": 0}
            lock = threading.Lock()

            def client(i: int) -> None:
                conn = http.client.HTTPConnection("127.0.0.1", port)
                for n in range(args.hands):
                    body = pool[n % 4][(n // 4 + i) % len(pool[0])]  # the tables deal in turn: dealer n % 4
                    for kind, log in (("whole", whole), ("seat by seat", seat_by_seat)):
                        start = time.perf_counter()
                        sent = log(conn, groups[i], body)
                        took = time.perf_counter() - start
                        with lock:
                            times[kind].append(took)
                            requests[kind] += sent

            threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
            start = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"Kop hands over HTTP, {args.clients} client(s), {args.hands} hands of each kind per client, "
          f"interleaved; {elapsed:.1f} s in all\n")
    print(f"{'logged':<14} {'requests/hand':>13} {'ms/hand (median)':>17} {'ms/request':>11} {'hands/s':>8}")
    for kind, took in times.items():
        per_hand = requests[kind] / len(took)
        median = statistics.median(took) * 1000
        print(f"{kind:<14} {per_hand:>13.0f} {median:>17.1f} {median / per_hand:>11.2f} "
              f"{len(took) / sum(took) * args.clients:>8.1f}")
    ratio = statistics.median(times["seat by seat"]) / statistics.median(times["whole"])
    print(f"\na hand seat by seat takes {ratio:.1f} times as long as the same hand logged whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
