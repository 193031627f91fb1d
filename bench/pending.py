"""What waits for confirmation does not slow a group down, measured in one run.

    python bench/pending.py [--waiting 20000] [--appends 300]

One store, two groups at their defaults (``confirmations: "payers"``), each a Kop table of
four. The first is filled with ``--waiting`` results that wait for a payer's word (a member
logs a hand she loses with her partner: the partner has to agree); the second has none.
Then results are logged to each, one transaction each, through the store as the service
logs them, five rounds interleaved, the best round of each counting (this machine is
shared, and noise only ever slows a run). Target: the waiting group's rate at least 90% of
the other's. Printed beside: the stored size of each group's balances row, and how long
the reads that list what waits take (the first page of ``GET .../balances``, one table's
waiting hands, one hand's entry) in the waiting group.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from events.database import open_store  # noqa: E402
from projections.projector import project  # noqa: E402
from service import handlers  # noqa: E402
from service.commands import AddMember, CreateGroup, NewHand, OpenTable  # noqa: E402
from service.handlers import lookups  # noqa: E402

TARGET = 0.90
ROUNDS = 5
# The old ones (seats 1 and 3) win with 70: seat 0, who logs it, and seat 2 pay; seat 2 has to agree.
LOST = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


def new_group(store, name: str) -> tuple[str, str, list[str]]:
    with store.writing() as w:
        group = handlers.handle(CreateGroup(name, "PLN"), w).id
        members = [handlers.handle(AddMember(group, "admin", n), w).id for n in ("Ala", "Bolek", "Cyla", "Dyzio")]
        table = handlers.handle(OpenTable(group, "admin", {"game": "kop", "seats": members, "stake": "0.50"}), w)
    return group, table["id"], members


def fill(store, where, count: int, progress: bool = True) -> None:
    group, table, members = where
    done = 0
    while done < count:
        with store.writing() as w:
            for _ in range(min(200, count - done)):
                handlers.handle(NewHand(group, members[0], table, {"result": LOST}), w)
                done += 1
        if progress:
            print(f"\r  filling: {done:,} of {count:,} results waiting", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)


def appends(store, where, count: int) -> float:
    """Results logged one transaction each: results/s."""
    group, table, members = where
    start = time.perf_counter()
    for _ in range(count):
        with store.writing() as w:
            handlers.handle(NewHand(group, members[0], table, {"result": LOST}), w)
    return count / (time.perf_counter() - start)


def timed_ms(read, times: int = 20) -> float:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        read()
        took.append((time.perf_counter() - start) * 1000)
    return statistics.median(took)


def row_bytes(store, group: str) -> int:
    with store.reading() as r:
        found = r.conn.execute("SELECT length(data) FROM projection_rows WHERE name = 'balances' AND group_id = ?",
                               (group,)).fetchone()
    return found[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--waiting", type=int, default=20_000, help="results waiting in the first group (20,000)")
    ap.add_argument("--appends", type=int, default=300, help="results logged to each group in each round (300)")
    ap.add_argument("--db", help="the SQLite file to use (a new one in a temporary directory by default)")
    args = ap.parse_args(argv)
    db = args.db or str(Path(tempfile.mkdtemp(prefix="bitka-pending-")) / "bench.db")
    store = open_store(db, projector=project).setup()
    waiting, none = new_group(store, "waiting"), new_group(store, "none")
    print(f"bench/pending.py: {args.waiting:,} results waiting in one group, none in the other ({db})")
    fill(store, waiting, args.waiting)
    rates = {"waiting": [], "none": []}
    for number in range(ROUNDS):
        rates["waiting"].append(appends(store, waiting, args.appends))
        rates["none"].append(appends(store, none, args.appends))
        print(f"  round {number + 1}: {rates['waiting'][-1]:,.0f} results/s with {args.waiting:,}+ waiting, "
              f"{rates['none'][-1]:,.0f} with none before the round", file=sys.stderr)
    best = {k: max(v) for k, v in rates.items()}
    ratio = best["waiting"] / best["none"]
    group, table, members = waiting
    with store.reading() as r:
        page = timed_ms(lambda: lookups.waiting_page(r, group))
        of_table = timed_ms(lambda: r.pending_entries(group, table=table, limit=50), 5)
        one = timed_ms(lambda: r.pending_entry(group, r.pending_entries(group, limit=1)[0][0]))
        total = r.pending_count(group)
    print(f"appends with {args.waiting:,} waiting  {best['waiting']:>8,.0f} results/s")
    print(f"appends with none waiting    {best['none']:>8,.0f} results/s")
    print(f"ratio                        {ratio:>8.0%}   (target {TARGET:.0%})")
    print(f"balances row                 {row_bytes(store, group):>8,} bytes with {total:,} waiting, "
          f"{row_bytes(store, none[0]):,} in the other group")
    print(f"first page of what waits     {page:>8.1f} ms (500 of {total:,}); 50 of one table {of_table:.1f} ms; "
          f"one hand's entry {one:.2f} ms")
    store.close()
    return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
