"""bitka's throughput against this machine's own limits, measured in one run.

    python bench/run.py [--events 100000] [--http-hands 150] [--clients 2]

Each figure is printed beside the raw limit it cannot beat, measured in the same run on
the same rows, and as a ratio to it:
  (a) HTTP trick appends/s against `bitka serve`, keep-alive clients
      limit: bare SQLite inserts of the same rows, one transaction each
  (b) appends through the store (chain + projections), one transaction each
      limit: the same bare inserts
  (c) `replay` events/s over a store of --events events
      limit: a bare scan of the same rows with json.loads of each
  (d) `verify` events/s over the same store
      limit: a bare scan of a table that keeps each event's canonical bytes beside its hash,
      with SHA-256 of each (the performance issue's "SHA-256 chain over stored bytes")
  (e) appends through the store at the end of the big group (flat cost)
      limit: the same appends in a new group of the same store
Targets: (c) 40% and (d) 60% of their limits, (b) at least 50%, (e) at least 80%, HTTP
appends 60% of a minimal Flask insert, store appends at least the eventsourcing peer's.
"""
from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import resource
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from events.store import NewEvent, RawEvent  # noqa: E402
from events.database import Store  # noqa: E402
from games.kop import game as kop  # noqa: E402
from games.engine.autoplay import play_out  # noqa: E402
from projections.projector import project  # noqa: E402
from cli.checks import replay_store, verify_store  # noqa: E402
from service import handlers  # noqa: E402
from service.commands import AddMember, CreateGroup, NewHand, OpenTable, VoidHand  # noqa: E402

TARGETS = {"store appends": 0.50, "replay": 0.40, "verify": 0.60, "flat": 0.80, "HTTP appends": 0.60,
           "vs eventsourcing": 1.0}
PARALLEL_FROM = 50_000  # replay and verify use two processes on logs of this many events or more
REPEATS = 5  # best of five: this machine is shared, and noise only ever slows a run


def hand_bodies(rng: random.Random, per_dealer: int) -> dict[int, list[dict]]:
    """Random legal whole hands, ``per_dealer`` for each dealer seat."""
    cards = sorted(kop.PACK)
    pool = {}
    for dealer in range(4):
        pool[dealer] = []
        for _ in range(per_dealer):
            rng.shuffle(cards)
            hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
            state = kop.new_hand(kop.parse_rules({}), {"dealer": dealer, "hands": hands})
            _, tricks = play_out(kop, state, lambda legal: rng.choice(list(legal)))
            pool[dealer].append({"deal": {"dealer": dealer, "hands": hands}, "tricks": [{"cards": t} for t in tricks]})
    return pool


def new_group(store: Store, name: str) -> tuple[str, str, str]:
    with store.writing() as w:
        g = handlers.handle(CreateGroup(name, "PLN", "off"), w)  # results count at once, as a confirmed evening
        members = [handlers.handle(AddMember(g.id, "admin", n), w).id for n in "NESW"]
        t = handlers.handle(OpenTable(g.id, "admin", {"game": "kop", "seats": members, "stake": "0.50"}), w)
    return g.id, t["id"], g.admin_token


def fill(store: Store, events: int, pool) -> tuple[int, str, str]:
    """One group of about ``events`` events of whole Kop hands; returns the count, group and table."""
    group, table, _ = new_group(store, "bench")
    hands, batch, written = 0, 200, 6
    while written < events:
        with store.writing() as w:
            for _ in range(batch):
                body = pool[hands % 4][(hands // 4) % len(pool[0])]
                handlers.handle(NewHand(group, "admin", table, body), w)
                hands += 1
                written += 6
    return written, group, table


def bare_insert_limit(path: Path, rows: list[tuple]) -> float:
    """Inserts of the same rows into a bare table, one transaction each, same pragmas."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE t (group_id, seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash)")
    start = time.perf_counter()
    for row in rows:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return len(rows) / elapsed


def store_appends(store: Store, pool, hands: int, where: tuple[str, str] | None = None) -> tuple[float, list[tuple]]:
    """Trick events appended through the store, one transaction each; returns rate and rows.

    ``where`` is the (group, table) to append to, a new group when None."""
    group, table = where or new_group(store, "appends")[:2]
    rows, elapsed = [], 0.0
    for i in range(hands):
        body = pool[0][i % len(pool[0])]  # each hand is voided below, so seat 0 deals again
        with store.writing() as w:
            hand = handlers.handle(NewHand(group, "admin", table, {"deal": body["deal"]}), w).hand.id
        for number, trick in enumerate(body["tricks"], 1):
            data = {"trick": number, "cards": trick["cards"], "leader": 0, "winner": 0, "points": 0}
            start = time.perf_counter()
            with store.writing() as w:
                [env] = w.append(group, [NewEvent("trick", data, hand=hand, table=table)], "admin")
            elapsed += time.perf_counter() - start
            rows.append((group, env.seq, "trick", hand, table, json.dumps(data), "admin",
                         env.recorded_at, env.prev_hash, env.hash))
        with store.writing() as w:  # void it so the next hand may be dealt (not timed)
            handlers.handle(VoidHand(group, "admin", hand, "bench"), w)
    return len(rows) / elapsed, rows


def peer_appends(path: Path, rows: list[tuple]) -> tuple[float, int] | None:
    """The same trick payloads saved one at a time by the ``eventsourcing`` library's SQLite
    recorder (the peer), as shipped: returns its rate and the ``synchronous`` it ran with,
    or None when the library is not installed (``pip install eventsourcing``)."""
    try:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore
    except ImportError:
        return None
    import uuid
    recorder = SQLiteAggregateRecorder(SQLiteDatastore(str(path)))
    recorder.create_table()
    hand = uuid.uuid4()
    start = time.perf_counter()
    for version, row in enumerate(rows, 1):
        recorder.insert_events([StoredEvent(hand, version, "trick", row[5].encode())])
    elapsed = time.perf_counter() - start
    probe = sqlite3.connect(path)
    synchronous = probe.execute("PRAGMA synchronous").fetchone()[0]  # what a new connection gets: the peer's
    probe.close()
    return len(rows) / elapsed, synchronous


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_appends(db: Path | str, pool, hands: int, clients: int, servers: int = 1,
                 serve_options: tuple[str, ...] = ()) -> tuple[float, list[float]]:
    """Deals and tricks POSTed to ``servers`` ``bitka serve`` processes on one store (its
    defaults unless ``serve_options``), each client on a group of its own and on the
    servers in turn: appends/s and each request's seconds."""
    ports = [free_port() for _ in range(servers)]
    key = Path(tempfile.mkdtemp()) / "bench.key"  # one key for all, as servers sharing a database should
    procs = [subprocess.Popen([sys.executable, "-m", "cli", "--db", str(db), "serve", "--port", str(port),
                               "--key", str(key), *serve_options],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for port in ports]
    try:
        for port in ports:
            _wait(port)
        tables = [_http_table(ports[i % servers]) for i in range(clients)]

        def client(i, latencies):
            conn = http.client.HTTPConnection("127.0.0.1", ports[i % servers])
            gid, tid, token = tables[i]
            auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            for n in range(hands):
                body = pool[n % 4][n // 4 % len(pool[0])]
                hand = _timed_post(conn, f"/v1/groups/{gid}/tables/{tid}/hands", {"deal": body["deal"]}, auth,
                                   latencies)
                for trick in body["tricks"]:
                    _timed_post(conn, f"/v1/groups/{gid}/hands/{hand['id']}/tricks", trick, auth, latencies)

        return _load(client, clients)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=10)


def minimal_appends(tmp: Path, requests: int, clients: int) -> tuple[float, list[float]]:
    """The same load against bench/minimal_app.py under gunicorn with bitka serve's defaults."""
    from bench import minimal_app
    db = tmp / "minimal.db"
    minimal_app.setup(str(db))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "4", "-k", "gthread",
                             "--keep-alive", "5", "-b", f"127.0.0.1:{port}", "bench.minimal_app:app"],
                            cwd=ROOT, env={**os.environ, "BENCH_MINIMAL_DB": str(db), "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(port)
        trick = {"cards": ["AH", "QH", "QS", "JD"]}

        def client(i, latencies):
            conn = http.client.HTTPConnection("127.0.0.1", port)
            for _ in range(requests):
                _timed_post(conn, f"/insert/g{i}", trick, {"Content-Type": "application/json"}, latencies)

        return _load(client, clients)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _load(client, clients: int) -> tuple[float, list[float]]:
    latencies = [[] for _ in range(clients)]
    threads = [threading.Thread(target=client, args=(i, latencies[i])) for i in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    every = sorted(x for one in latencies for x in one)
    return len(every) / elapsed, every


def _timed_post(conn, path, body, headers, latencies):
    start = time.perf_counter()
    out = _post(conn, path, body, headers)
    latencies.append(time.perf_counter() - start)
    return out


def p99(latencies: list[float]) -> float:
    return latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000


def _wait(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("bitka serve did not start")


def _post(conn, path, body, headers):
    conn.request("POST", path, json.dumps(body), headers)
    r = conn.getresponse()
    data = json.loads(r.read())
    if r.status != 201:
        raise RuntimeError(f"{path}: {r.status} {data}")
    return data


def _http_table(port: int) -> tuple[str, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    g = _post(conn, "/v1/groups", {"name": "bench", "currency": "PLN"}, {"Content-Type": "application/json"})
    auth = {"Authorization": f"Bearer {g['admin_token']}", "Content-Type": "application/json"}
    ids = [_post(conn, f"/v1/groups/{g['id']}/members", {"name": n}, auth)["id"] for n in "NESW"]
    t = _post(conn, f"/v1/groups/{g['id']}/tables", {"game": "kop", "seats": ids, "stake": "0.50"}, auth)
    return g["id"], t["id"], g["admin_token"]


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out




def scan_limit(store: Store) -> float:
    with store.reading() as r:
        def scan():
            n = 0
            for row in r.conn.execute("SELECT group_id, seq, type, hand_id, table_id, data, actor, recorded_at, "
                                      "prev_hash, hash FROM events ORDER BY group_id, seq"):
                json.loads(row[5])
                n += 1
            return n
        elapsed, n = timed(scan)
    return n / elapsed


def _scan_slice(path: str, low: int, high: int) -> tuple[int, float]:
    """One process's half of the scan limit: the events at positions low..high."""
    conn = sqlite3.connect(path)
    start, n = time.perf_counter(), 0
    for row in conn.execute("SELECT group_id, seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, "
                            "hash FROM events WHERE position BETWEEN ? AND ? ORDER BY position", (low, high)):
        json.loads(row[5])
        n += 1
    elapsed = time.perf_counter() - start
    conn.close()
    return n, elapsed


def _hash_slice(path: str, low: int, high: int) -> tuple[int, float]:
    """One process's half of the hash limit: the stored bytes at positions low..high."""
    conn = sqlite3.connect(path)
    sha256, n = hashlib.sha256, 0
    start = time.perf_counter()
    for body, digest in conn.execute("SELECT body, hash FROM hashed WHERE position BETWEEN ? AND ? "
                                     "ORDER BY position", (low, high)):
        if sha256(body).hexdigest() != digest:
            raise RuntimeError("the store does not verify")
        n += 1
    elapsed = time.perf_counter() - start
    conn.close()
    return n, elapsed


def two_process_limit(work, path: Path, table: str) -> float:
    """A limit measured as bitka's replay and verify run on logs this big: two processes,
    each over half of the rows, side by side; the rate is all rows over the slower half."""
    conn = sqlite3.connect(path)
    low, high = conn.execute(f"SELECT min(position), max(position) FROM {table}").fetchone()
    conn.close()
    middle = (low + high) // 2
    with ProcessPoolExecutor(2) as pool:
        halves = list(pool.map(work, [str(path)] * 2, [low, middle + 1], [middle, high]))
    return sum(n for n, _ in halves) / max(elapsed for _, elapsed in halves)


def stored_bytes(store: Store, path: Path) -> Path:
    """A bare table of every event's canonical bytes and hash, in log order: what a store
    that kept the hashed bytes would scan to re-check its chain."""
    bare = sqlite3.connect(path)
    bare.execute("CREATE TABLE hashed (position INTEGER PRIMARY KEY, body BLOB NOT NULL, hash TEXT NOT NULL)")
    with store.reading() as r:
        bare.executemany("INSERT INTO hashed (body, hash) VALUES (?, ?)",
                         ((RawEvent(*row).canonical(), row[9]) for row in r.scan_raw()))
    bare.commit()
    bare.close()
    return path


def hash_limit(path: Path) -> float:
    bare = sqlite3.connect(path)
    sha256, n = hashlib.sha256, 0
    start = time.perf_counter()
    for body, digest in bare.execute("SELECT body, hash FROM hashed ORDER BY position"):
        if sha256(body).hexdigest() != digest:
            raise RuntimeError("the store does not verify")
        n += 1
    elapsed = time.perf_counter() - start
    bare.close()
    return n / elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--append-hands", type=int, default=150)
    ap.add_argument("--http-hands", type=int, default=150)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--postgres", nargs="?", const="", metavar="URL",
                    help="also measure on PostgreSQL (bench/postgres.py), at URL or $BITKA_TEST_POSTGRES")
    args = ap.parse_args()
    rng = random.Random(2026)
    pool = hand_bodies(rng, 50)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        store = Store(tmp / "big.db", projector=project).setup()
        fill_s, (written, big_group, big_table) = timed(lambda: fill(store, args.events, pool))
        print(f"filled a store with {written} events in {fill_s:.1f} s", file=sys.stderr)
        with store.reading() as r:
            total = r.count()
        hashed = stored_bytes(store, tmp / "hashed.db")
        replay_rate, scan_rate, verify_rate, hash_rate = 0.0, 0.0, 0.0, 0.0
        scan2_rate, hash2_rate = 0.0, 0.0
        for _ in range(REPEATS):  # interleaved, so that a noisy spell hurts both sides alike
            replay_s, report = timed(lambda: _replay(store))
            assert not report.differences, report.differences[:3]
            verify_s, found = timed(lambda: _verify(store))
            assert not found, found[:3]
            replay_rate, verify_rate = max(replay_rate, total / replay_s), max(verify_rate, total / verify_s)
            scan_rate, hash_rate = max(scan_rate, scan_limit(store)), max(hash_rate, hash_limit(hashed))
            scan2_rate = max(scan2_rate, two_process_limit(_scan_slice, Path(store.path), "events"))
            hash2_rate = max(hash2_rate, two_process_limit(_hash_slice, hashed, "hashed"))
        # Like against like: bitka's replay and verify use two processes on logs this big, so
        # their limits are measured in two processes too; the one-process limits are shown beside.
        two = total >= PARALLEL_FROM
        results["replay"] = (replay_rate, scan2_rate if two else scan_rate, "events/s",
                             f"bare scan + json.loads{', two processes' if two else ''}")
        results["verify"] = (verify_rate, hash2_rate if two else hash_rate, "events/s",
                             f"bare scan of stored canonical bytes + SHA-256{', two processes' if two else ''}")
        if two:
            results["replay/1 process"] = (replay_rate, scan_rate, "events/s", "the same limit in one process")
            results["verify/1 process"] = (verify_rate, hash_rate, "events/s", "the same limit in one process")
        # Flat cost: the same appends at the end of the big group and in a new group of the
        # same store, interleaved, best of each.
        old_rate, new_rate = 0.0, 0.0
        for _ in range(REPEATS):
            old_rate = max(old_rate, store_appends(store, pool, args.append_hands // 3, (big_group, big_table))[0])
            new_rate = max(new_rate, store_appends(store, pool, args.append_hands // 3)[0])
        results[f"appends at {total // 1000}k"] = (old_rate, new_rate, "appends/s", "the same in a new group")
        small = Store(tmp / "appends.db", projector=project).setup()
        rate, rows = store_appends(small, pool, args.append_hands)
        limit = bare_insert_limit(tmp / "bare.db", rows)
        results["store appends"] = (rate, limit, "appends/s", "bare SQLite inserts, 1 txn each")
        peer = peer_appends(tmp / "peer.db", rows)
        if peer is None:
            print("eventsourcing is not installed: no peer comparison (pip install eventsourcing)", file=sys.stderr)
        else:
            results["vs eventsourcing"] = (rate, peer[0], "appends/s",
                                           f"eventsourcing's SQLite recorder, synchronous={peer[1]} (bitka: 2, FULL)")
        http_rate, http_lat = http_appends(tmp / "http.db", pool, args.http_hands, args.clients)
        minimal_rate, minimal_lat = minimal_appends(tmp, len(http_lat) // args.clients, args.clients)
        results["HTTP appends"] = (http_rate, minimal_rate, "appends/s",
                                   f"minimal Flask insert under the same gunicorn; p99 {p99(http_lat):.1f} ms "
                                   f"against {p99(minimal_lat):.1f} ms")
    if args.postgres is not None:
        from bench import postgres
        results.update(postgres.measure(args.postgres or postgres.DEFAULT_URL, args.events,
                                        max(1, args.http_hands // 2), 4)[1])
    print(f"\nbitka bench on {os.cpu_count()} cores; store of {total} events; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB\n")
    print(f"{'measure':<18} {'bitka':>10} {'limit':>10}  {'ratio':>6}  {'target':>6}  limit is")
    failed = []
    for name, (value, limit, unit, what) in results.items():
        ratio = value / limit
        target = TARGETS.get("flat" if name.startswith("appends at") else name)
        mark = "" if target is None else (" ok" if ratio >= target else " MISSED")
        if target is not None and ratio < target:
            failed.append(name)
        print(f"{name:<18} {value:>10.0f} {limit:>10.0f}  {ratio:>6.1%}  "
              f"{'' if target is None else f'{target:.0%}':>6}{mark}  {unit}; {what}")
    if args.json:
        Path(args.json).write_text(json.dumps({k: {"value": v[0], "limit": v[1]} for k, v in results.items()}))
    return 1 if failed else 0


def _replay(store: Store):
    return replay_store(store.path, None, None, compare=True, advance=lambda n=1: None)


def _verify(store: Store):
    return verify_store(store.path, None, advance=lambda n=1: None)


if __name__ == "__main__":
    sys.exit(main())
