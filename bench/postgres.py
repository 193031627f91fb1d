"""bitka on PostgreSQL against the same database's own limits, measured in one run.

    python bench/postgres.py [--url postgresql://postgres@127.0.0.1:5432/test] [--events 50000]
    python bench/run.py --postgres [URL]     (the same rows in the main bench's table)

Works in a schema of its own (dropped at the end) and prints, as ratios:
  replay   events/s      limit: a bare scan of the same rows with json.loads of each
  verify   events/s      limit: a bare scan of a table of canonical bytes and hashes, SHA-256 of each
  HTTP appends/s with 1 and with 4 ``bitka serve`` processes (one worker each, 4 threads),
           clients each on a group of their own
           limit: bare inserts of the same rows, one transaction each, from as many connections
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.run import REPEATS, fill, hand_bodies, http_appends, p99, timed  # noqa: E402
from cli.checks import replay_store, verify_store  # noqa: E402
from events.envelope import RawEvent  # noqa: E402
from events.database import open_store  # noqa: E402
from projections.projector import project  # noqa: E402

DEFAULT_URL = os.environ.get("BITKA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
COLUMNS = "group_id, seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash"


def bare_scan(url: str) -> float:
    with psycopg.connect(url) as conn, conn.cursor(name="bare") as cur:
        cur.itersize = 2000
        start, n, loads = time.perf_counter(), 0, json.loads
        cur.execute(f"SELECT {COLUMNS} FROM events ORDER BY group_id, seq")
        for row in cur:
            loads(row[5])
            n += 1
        return n / (time.perf_counter() - start)


def stored_bytes(url: str) -> None:
    """A bare table of each event's canonical bytes and hash, as a store that kept them would scan."""
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE hashed (position BIGINT PRIMARY KEY, body BYTEA NOT NULL, hash TEXT NOT NULL)")
        rows = conn.execute(f"SELECT position, {COLUMNS} FROM events ORDER BY position").fetchall()
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO hashed VALUES (%s, %s, %s)",
                            [(r[0], RawEvent(*r[1:]).canonical(), r[10]) for r in rows])
        conn.execute("ANALYZE hashed")


def hash_limit(url: str) -> float:
    with psycopg.connect(url) as conn, conn.cursor(name="bare") as cur:
        cur.itersize = 2000
        sha256, n = hashlib.sha256, 0
        start = time.perf_counter()
        cur.execute("SELECT body, hash FROM hashed ORDER BY position")
        for body, digest in cur:
            if sha256(body).hexdigest() != digest:
                raise RuntimeError("the store does not verify")
            n += 1
        return n / (time.perf_counter() - start)


def bare_inserts(url: str, per_connection: int, connections: int) -> float:
    """Rows like a trick's inserted into a plain table, one transaction each, from several connections."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bare (position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                     "group_id TEXT, seq BIGINT, type TEXT, hand_id TEXT, table_id TEXT, data TEXT, actor TEXT, "
                     "recorded_at TEXT, prev_hash TEXT, hash TEXT)")
    data = json.dumps({"cards": ["AH", "QH", "QS", "JD"], "leader": 0, "points": 14, "trick": 1, "winner": 2})

    def insert(i):
        with psycopg.connect(url, autocommit=True) as conn:
            for seq in range(per_connection):
                with conn.transaction():
                    conn.execute("INSERT INTO bare (group_id, seq, type, hand_id, table_id, data, actor, "
                                 "recorded_at, prev_hash, hash) VALUES (%s, %s, 'trick', 'h', 't', %s, 'admin', "
                                 "'2026-11-30T12:00:00.000000Z', %s, %s)", (f"g{i}", seq, data, "0" * 64, "f" * 64))
    threads = [threading.Thread(target=insert, args=(i,)) for i in range(connections)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return per_connection * connections / (time.perf_counter() - start)


@contextmanager
def schema_of_its_own(base_url: str, prefix: str = "bitka_bench"):
    """A new schema on the PostgreSQL server, dropped at the end: the URL whose connections
    work in it."""
    schema = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{base_url}{'&' if '?' in base_url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def measure(base_url: str, events: int, http_hands: int, clients: int) -> tuple[int, dict]:
    """Fill a store in a schema of its own (dropped at the end) and measure it: the number of
    events and {measure: (bitka, limit, unit, what the limit is)}."""
    results = {}
    with schema_of_its_own(base_url) as url:
        pool = hand_bodies(random.Random(2026), 50)
        store = open_store(url, projector=project).setup()
        fill_s, (written, _, _) = timed(lambda: fill(store, events, pool))
        store.analyze()  # as bitka import and migrate do after a bulk load
        store.close()
        print(f"filled a PostgreSQL store with {written} events in {fill_s:.1f} s", file=sys.stderr)
        stored_bytes(url)
        replay_rate = verify_rate = scan_rate = hash_rate = 0.0
        for _ in range(REPEATS):
            seconds, report = timed(lambda: replay_store(url, None, None, True, lambda n=1: None))
            assert not report.differences, report.differences[:3]
            replay_rate = max(replay_rate, written / seconds)
            seconds, found = timed(lambda: verify_store(url, None, lambda n=1: None))
            assert not found, found[:3]
            verify_rate = max(verify_rate, written / seconds)
            scan_rate, hash_rate = max(scan_rate, bare_scan(url)), max(hash_rate, hash_limit(url))
        results["PG replay"] = (replay_rate, scan_rate, "events/s", "bare scan + json.loads on PostgreSQL")
        results["PG verify"] = (verify_rate, hash_rate, "events/s", "bare scan of stored canonical bytes + SHA-256")
        limit = bare_inserts(url, http_hands * 5, clients)
        for servers in (1, 4):
            rate, latencies = http_appends(url, pool, http_hands, clients, servers,
                                           ("--workers", "1", "--threads", "4"))
            results[f"PG HTTP, {servers} server{'s' if servers > 1 else ''}"] = (
                rate, limit, "appends/s", f"bare inserts, {clients} connections; p99 {p99(latencies):.1f} ms")
    return written, results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default=DEFAULT_URL)
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--http-hands", type=int, default=60, help="hands each client logs over HTTP")
    ap.add_argument("--clients", type=int, default=4)
    args = ap.parse_args()
    written, results = measure(args.url, args.events, args.http_hands, args.clients)
    print(f"\nbitka on PostgreSQL, {os.cpu_count()} cores; store of {written} events\n")
    print(f"{'measure':<18} {'bitka':>10} {'limit':>10}  {'ratio':>6}  limit is")
    for name, (value, limit, unit, what) in results.items():
        print(f"{name:<18} {value:>10.0f} {limit:>10.0f}  {value / limit:>6.1%}  {unit}; {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
