"""The append-only, hash-chained event store on SQLite (through sqlite-utils).

One table of events (global ``position``; per-group ``seq`` without gaps), triggers that
refuse UPDATE and DELETE, and beside it the rows that live and die with an append:
projection rows, credentials (token hashes) and idempotency keys. A write is one
``BEGIN IMMEDIATE`` transaction: read the group's head, check the expected version, chain
and insert the events, let the projector update its rows, commit.

The interface the rest of bitka uses is ``Store.reading()`` / ``Store.writing()`` and the
methods of ``Reader`` / ``Writer``; a second backend implements the same.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import sqlite_utils

from . import merkle
from .canonical import GENESIS, envelope_bytes, event_data_json, read_event_data
from .envelope import Envelope, NewEvent, RawEvent, utc_now
from .errors import Conflict, PreconditionFailed

__all__ = ["Envelope", "NewEvent", "RawEvent", "Reader", "Store", "Writer", "precondition"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY,
  group_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  hand_id TEXT,
  table_id TEXT,
  data TEXT NOT NULL,
  actor TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (group_id, seq)
);
CREATE INDEX IF NOT EXISTS events_by_hand ON events (group_id, hand_id, seq) WHERE hand_id IS NOT NULL;
DROP INDEX IF EXISTS events_by_table;
CREATE INDEX IF NOT EXISTS deals_by_table ON events (group_id, table_id, seq) WHERE type IN ('deal', 'result');
CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS merkle_nodes (
  group_id TEXT NOT NULL, level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL,
  PRIMARY KEY (group_id, level, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS projection_rows (
  name TEXT NOT NULL, group_id TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (name, group_id, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS projection_positions (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS credentials (
  token_hash TEXT PRIMARY KEY, group_id TEXT NOT NULL, subject TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  group_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
  body TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (group_id, key)) WITHOUT ROWID;
"""
TRIGGERS = ("events_refuse_update", "events_refuse_delete")
_RAW_COLUMNS = "group_id, seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash"
_COLUMNS = "position, " + _RAW_COLUMNS


class Reader:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def head(self, group: str) -> tuple[int, str]:
        """The group's version (last seq, 0 when empty) and last hash."""
        row = self.conn.execute(
            "SELECT seq, hash FROM events WHERE group_id = ? ORDER BY seq DESC LIMIT 1", (group,)).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def version(self, group: str) -> int:
        return self.head(group)[0]

    def events(self, group: str, after: int = 0, limit: int = 100) -> list[Envelope]:
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE group_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (group, after, limit))
        return [Envelope.from_row(r) for r in rows]

    def hand_events(self, group: str, hand: str) -> list[Envelope]:
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE group_id = ? AND hand_id = ? ORDER BY seq", (group, hand))
        return [Envelope.from_row(r) for r in rows]

    def table_hands(self, group: str, table: str) -> list[str]:
        """The ids of the hands dealt at a table, in the order they were dealt."""
        return [h for (h,) in self.conn.execute(
            "SELECT hand_id FROM events WHERE group_id = ? AND table_id = ? AND type IN ('deal', 'result') "
            "ORDER BY seq", (group, table))]

    def scan(self, group: str | None = None, until: int | None = None,
             unread: frozenset[str] = frozenset()) -> Iterator[Envelope]:
        """Every event (of one group, or all) in group then seq order, streamed. Events of
        the ``unread`` types come with empty data: the reader said it will not look."""
        columns = _COLUMNS
        if unread:
            kinds = ", ".join("'" + k.replace("'", "''") + "'" for k in sorted(unread))
            columns = columns.replace(", data,", f", CASE WHEN type IN ({kinds}) THEN '{{}}' ELSE data END,")
        sql, args = f"SELECT {columns} FROM events", []
        clauses = []
        if group is not None:
            clauses.append("group_id = ?")
            args.append(group)
        if until is not None:
            clauses.append("seq <= ?")
            args.append(until)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        loads, new = read_event_data, tuple.__new__  # bound once: this loop runs for every event
        for position, g, seq, kind, hand, table, data, actor, at, prev, digest in self.conn.execute(
                sql + " ORDER BY group_id, seq", args):
            yield new(Envelope, (position, g, seq, kind, hand, table, loads(data), actor, at, prev, digest))

    def scan_raw(self, group: str | None = None, first: int = 1, last: int | None = None) -> Iterator[tuple]:
        """Rows as ``RawEvent``'s plain tuples, ``data`` unparsed: what checking the chain needs."""
        sql, args = f"SELECT {_RAW_COLUMNS} FROM events", ()
        if group is not None:
            sql, args = sql + " WHERE group_id = ? AND seq BETWEEN ? AND ?", (group, first, last or 2 ** 62)
        return self.conn.execute(sql + " ORDER BY group_id, seq", args)

    def hash_at(self, group: str, seq: int) -> str | None:
        found = self.conn.execute("SELECT hash FROM events WHERE group_id = ? AND seq = ?", (group, seq)).fetchone()
        return found[0] if found else None

    def span(self, group: str, first: int, last: int) -> tuple[int, int]:
        """How many events lie in seqs first..last, and the highest present (first - 1 if none)."""
        n, top = self.conn.execute("SELECT count(*), max(seq) FROM events WHERE group_id = ? AND seq BETWEEN ? AND ?",
                                   (group, first, last)).fetchone()
        return n, (top if top is not None else first - 1)

    def sizes(self, group: str | None = None) -> dict[str, int]:
        """Each group's version (its last seq)."""
        sql, args = "SELECT group_id, max(seq) FROM events", ()
        if group is not None:
            sql, args = sql + " WHERE group_id = ?", (group,)
        return {g: n for g, n in self.conn.execute(sql + " GROUP BY group_id", args) if g is not None}

    def count(self, group: str | None = None) -> int:
        if group is None:
            return self.conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return self.version(group)

    def group_ids(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT group_id FROM events WHERE seq = 1 ORDER BY group_id")]

    def row(self, name: str, group: str, key: str) -> dict | None:
        found = self.conn.execute(
            "SELECT data FROM projection_rows WHERE name = ? AND group_id = ? AND key = ?",
            (name, group, key)).fetchone()
        return json.loads(found[0]) if found else None

    def rows(self, name: str, group: str | None = None) -> dict[tuple[str, str], dict]:
        sql, args = "SELECT group_id, key, data FROM projection_rows WHERE name = ?", [name]
        if group is not None:
            sql, args = sql + " AND group_id = ?", [name, group]
        return {(g, k): json.loads(d) for g, k, d in self.conn.execute(sql, args)}

    def rows_of(self, name: str, group: str, keys: Sequence[str]) -> dict[str, dict]:
        """The rows of these keys (up to a few hundred at a time), keyed by key."""
        marks = ",".join("?" * len(keys))
        found = self.conn.execute(
            f"SELECT key, data FROM projection_rows WHERE name = ? AND group_id = ? AND key IN ({marks})",
            (name, group, *keys))
        return {k: json.loads(d) for k, d in found}

    def row_keys(self, name: str, group: str) -> set[str]:
        return {k for (k,) in self.conn.execute(
            "SELECT key FROM projection_rows WHERE name = ? AND group_id = ?", (name, group))}

    def merkle_nodes(self, group: str):
        """The stored perfect subtree hashes of a group's Merkle tree, as events.merkle wants them."""
        seen: dict[tuple[int, int], bytes] = {}

        def node(level: int, index: int) -> bytes:
            if (level, index) not in seen:
                found = self.conn.execute("SELECT hash FROM merkle_nodes WHERE group_id = ? AND level = ? AND idx = ?",
                                          (group, level, index)).fetchone()
                if found is None:
                    raise LookupError(f"group {group} has no Merkle node ({level}, {index}); "
                                      "run bitka replay --rebuild")
                seen[(level, index)] = found[0]
            return seen[(level, index)]
        return node

    def credential(self, token_hash: str) -> tuple[str, str, str] | None:
        """(group, subject, stored hash) for a token's hash, or None."""
        found = self.conn.execute(
            "SELECT group_id, subject, token_hash FROM credentials WHERE token_hash = ?", (token_hash,)).fetchone()
        return (found[0], found[1], found[2]) if found else None

    def remembered(self, group: str, key: str) -> tuple[str, int, Any] | None:
        """An idempotency key's (fingerprint, status, body), if the group has used it."""
        found = self.conn.execute(
            "SELECT fingerprint, status, body FROM idempotency_keys WHERE group_id = ? AND key = ?",
            (group, key)).fetchone()
        return (found[0], found[1], json.loads(found[2])) if found else None

    def is_store(self) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone() is not None

    def missing_triggers(self) -> list[str]:
        present = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        return [t for t in TRIGGERS if t not in present]


Projector = Callable[["Writer", list[Envelope]], None]


class Writer(Reader):
    def __init__(self, conn: sqlite3.Connection, projector: Projector | None = None):
        super().__init__(conn)
        self.projector = projector

    def append(self, group: str, events: Sequence[NewEvent], actor: str,
               expected_version: int | None = None) -> list[Envelope]:
        """Chain and insert ``events`` at the end of the group's stream, then project them."""
        version, prev = self.head(group)
        if expected_version is not None and expected_version != version:
            raise Conflict(f"the group moved on to version {version} while this request was decided",
                           version=version)
        rows, now = [], utc_now()
        for seq, ev in enumerate(events, start=version + 1):
            data_json = event_data_json(ev.data)
            digest = hashlib.sha256(envelope_bytes(group, seq, ev.type, ev.hand, ev.table, data_json,
                                                   actor, now, prev)).hexdigest()
            rows.append((Envelope(0, group, seq, ev.type, ev.hand, ev.table, ev.data, actor, now, prev, digest),
                         data_json))
            prev = digest
        return self._insert(rows)

    def insert(self, envelopes: Sequence[Envelope]) -> list[Envelope]:
        """Insert envelopes chained elsewhere (an import, after its chain was checked)."""
        return self._insert([(e, event_data_json(e.data)) for e in envelopes])

    def _insert(self, rows: Sequence[tuple[Envelope, str]]) -> list[Envelope]:
        stored = []
        for e, data_json in rows:
            cur = self.conn.execute(
                "INSERT INTO events (group_id, seq, type, hand_id, table_id, data, actor, recorded_at, "
                "prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (e.group, e.seq, e.type, e.hand, e.table, data_json, e.actor, e.recorded_at, e.prev_hash, e.hash))
            stored.append(Envelope(cur.lastrowid, *_fields_after_position(e)))
            self.add_merkle_leaf(e.group, e.seq, envelope_bytes(e.group, e.seq, e.type, e.hand, e.table, data_json,
                                                                e.actor, e.recorded_at, e.prev_hash))
        if self.projector is not None and stored:
            self.projector(self, stored)
        return stored

    def add_merkle_leaf(self, group: str, seq: int, canonical: bytes) -> None:
        """The event's leaf, and every parent it completes, into the stored tree."""
        made = merkle.parents_completed(seq - 1, merkle.leaf_hash(canonical), self.merkle_nodes(group))
        self.conn.executemany("INSERT OR REPLACE INTO merkle_nodes (group_id, level, idx, hash) VALUES (?, ?, ?, ?)",
                              [(group, level, index, h) for level, index, h in made])

    def rebuild_merkle(self, group: str | None = None) -> None:
        """Every stored Merkle node made again from the events (a store from before them)."""
        if group is None:
            self.conn.execute("DELETE FROM merkle_nodes")
        else:
            self.conn.execute("DELETE FROM merkle_nodes WHERE group_id = ?", (group,))
        for row in list(self.scan_raw(group)):
            self.add_merkle_leaf(row[0], row[1], RawEvent._make(row).canonical())

    def put_row(self, name: str, group: str, key: str, data: Mapping) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO projection_rows (name, group_id, key, data) VALUES (?, ?, ?, ?)",
            (name, group, key, json.dumps(data, sort_keys=True, ensure_ascii=False)))

    def drop_rows(self, group: str | None = None) -> None:
        if group is None:
            self.conn.execute("DELETE FROM projection_rows")
        else:
            self.conn.execute("DELETE FROM projection_rows WHERE group_id = ?", (group,))

    def mark_position(self, name: str, position: int) -> None:
        self.conn.execute(
            "INSERT INTO projection_positions (name, position) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position)", (name, position))

    def drop_credentials(self, group: str, subject: str) -> int:
        """Forget every token of one subject of a group; returns how many there were."""
        return self.conn.execute("DELETE FROM credentials WHERE group_id = ? AND subject = ?",
                                 (group, subject)).rowcount

    def add_credential(self, token_hash: str, group: str, subject: str) -> None:
        self.conn.execute("INSERT INTO credentials (token_hash, group_id, subject) VALUES (?, ?, ?)",
                          (token_hash, group, subject))

    def remember(self, group: str, key: str, fingerprint: str, status: int, body: Any) -> None:
        self.conn.execute(
            "INSERT INTO idempotency_keys (group_id, key, fingerprint, status, body, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (group, key, fingerprint, status, json.dumps(body), utc_now()))


def _fields_after_position(e: Envelope) -> tuple:
    return (e.group, e.seq, e.type, e.hand, e.table, e.data, e.actor, e.recorded_at, e.prev_hash, e.hash)


class Store:
    """An SQLite file holding one or many groups' logs.

    Each unit of work holds one connection of its own for its whole length. Connections
    are kept open between units of work (a few idle ones): opening one costs more than
    most appends, and closing the last one checkpoints the whole WAL."""

    MAX_IDLE = 8

    def __init__(self, path: str | Path, projector: Projector | None = None, busy_timeout_ms: int = 10_000):
        self.path = str(path)
        self.projector = projector
        self.busy_timeout_ms = busy_timeout_ms
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _acquire(self) -> sqlite3.Connection:
        with self._lock:
            if self._pid != os.getpid():  # a forked worker must not share its parent's connections
                self._idle, self._pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        return self.connect()

    def _release(self, conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            conn.rollback()
        with self._lock:
            if len(self._idle) < self.MAX_IDLE and self._pid == os.getpid():
                self._idle.append(conn)
                return
        conn.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=self.busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    def setup(self) -> "Store":
        """Create the file and schema if missing and switch to WAL (idempotent)."""
        conn = self.connect()
        try:
            db = sqlite_utils.Database(conn)
            db.enable_wal()
            db.executescript(SCHEMA)
        finally:
            conn.close()
        return self

    @contextmanager
    def reading(self) -> Iterator[Reader]:
        conn = self._acquire()
        try:
            conn.execute("BEGIN")  # one snapshot for every read of the unit of work
            yield Reader(conn)
        finally:
            self._release(conn)

    @contextmanager
    def writing(self) -> Iterator[Writer]:
        """One write transaction. It opens with ``BEGIN IMMEDIATE`` (sqlite-utils' ``atomic()``
        opens a deferred ``BEGIN``, whose later upgrade to a write lock can fail with
        SQLITE_BUSY after the request has already read and decided); inside it, nested
        ``db.atomic()`` blocks become savepoints."""
        conn = self._acquire()
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                raise Conflict(f"another write held the store for over {self.busy_timeout_ms / 1000:g} s; "
                               "nothing was appended, so the request may simply be sent again") from None
            writer = Writer(conn, self.projector)
            try:
                yield writer
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            self._release(conn)


def precondition(expected: int | None, version: int) -> None:
    """``If-Match`` no longer matching is a 412 carrying the current version."""
    if expected is not None and expected != version:
        raise PreconditionFailed(
            f"If-Match names version {expected}, but the group is at version {version}", version=version)
