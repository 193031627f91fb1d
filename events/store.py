"""The append-only, hash-chained event store, on SQLite (the embedded default) or PostgreSQL.

One table of events (global ``position``; per-group ``seq`` without gaps), triggers that
refuse UPDATE and DELETE, and beside it the rows that live and die with an append:
projection rows, credentials (token hashes) and idempotency keys. A write is one
transaction: take the write lock (SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL a lock on the
group), read the group's head, check the expected version, chain and insert the events,
let the projector update its rows, commit.

The interface the rest of bitka uses is ``events.database.open_store(url)``, its
``reading()`` / ``writing()`` and the methods of ``Reader`` / ``Writer`` here, whose SQL
both backends run; what differs between them (connecting, locking, streaming, the
catalog) is a ``Backend``. The schema is ``events.migrations``.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, Iterator, Mapping, Sequence

from . import merkle, migrations
from .canonical import GENESIS, envelope_bytes, event_data_json, read_event_data
from .envelope import Envelope, NewEvent, RawEvent, utc_now
from .errors import StaleVersion, VersionConflict

__all__ = ["Backend", "Envelope", "NewEvent", "RawEvent", "Reader", "SQLITE", "Writer", "precondition"]

_CHAIN_COLUMNS = "seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash"
_RAW_COLUMNS = "group_id, " + _CHAIN_COLUMNS
_COLUMNS = "position, " + _RAW_COLUMNS
_BARE_COLUMNS = "group_id, seq, type, hand_id, table_id, data, actor, recorded_at"


class Reader:
    def __init__(self, conn, backend: "Backend | None" = None):
        self.conn = conn
        self.backend = backend or SQLITE

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
             unread: frozenset[str] = frozenset(), bare: bool = False) -> Iterator[Envelope]:
        """Every event (of one group, or all) in group then seq order, streamed. Events of
        the ``unread`` types come with empty data: the reader said it will not look. ``bare``
        events come without position and hashes (0 and empty strings): what folding the
        projections and checking who appended each event read, a third cheaper to fetch."""
        columns = _BARE_COLUMNS if bare else _COLUMNS
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
        rows = self.backend.stream(self.conn, sql + " ORDER BY group_id, seq", args)
        if bare:
            for g, seq, kind, hand, table, data, actor, at in rows:
                yield new(Envelope, (0, g, seq, kind, hand, table, loads(data), actor, at, "", ""))
            return
        for position, g, seq, kind, hand, table, data, actor, at, prev, digest in rows:
            yield new(Envelope, (position, g, seq, kind, hand, table, loads(data), actor, at, prev, digest))

    def scan_raw(self, group: str | None = None, first: int = 1, last: int | None = None) -> Iterator[tuple]:
        """Rows as ``RawEvent``'s plain tuples, ``data`` unparsed: what checking the chain needs."""
        sql, args = f"SELECT {_RAW_COLUMNS} FROM events", ()
        if group is not None:
            sql, args = sql + " WHERE group_id = ? AND seq BETWEEN ? AND ?", (group, first, last or 2 ** 62)
        return self.backend.stream(self.conn, sql + " ORDER BY group_id, seq", args)

    def chain_rows(self, group: str, first: int, last: int) -> Iterator[tuple]:
        """One group's rows as ``verify.group_faults`` reads them: ``scan_raw``'s, without the group."""
        return self.backend.stream(
            self.conn, f"SELECT {_CHAIN_COLUMNS} FROM events WHERE group_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (group, first, last))

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

    def merkle_root(self, group: str, size: int) -> bytes:
        """The root of the group's Merkle tree at ``size`` events, from the stored nodes."""
        return merkle.root(self.merkle_nodes(group), size)

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
        return self.backend.has_table(self.conn, "events")

    def missing_triggers(self) -> list[str]:
        present = self.backend.triggers(self.conn)
        return [t for t in migrations.TRIGGERS[self.backend.name] if t not in present]

    def credentials(self) -> Iterator[tuple[str, str, str]]:
        """Every (token hash, group, subject): what moving a store must carry along."""
        return self.backend.stream(self.conn, "SELECT token_hash, group_id, subject FROM credentials "
                                              "ORDER BY group_id, token_hash", ())

    def idempotency_keys(self) -> Iterator[tuple]:
        """Every (group, key, fingerprint, status, body, recorded_at)."""
        return self.backend.stream(self.conn, "SELECT group_id, key, fingerprint, status, body, recorded_at "
                                              "FROM idempotency_keys ORDER BY group_id, key", ())


Projector = Callable[["Writer", list[Envelope]], None]


class Writer(Reader):
    def __init__(self, conn, projector: Projector | None = None, backend: "Backend | None" = None):
        super().__init__(conn, backend)
        self.projector = projector
        self.locked: set[str] = set()

    def lock(self, group: str) -> None:
        """Hold the group's write lock until the transaction ends (a no-op on SQLite, whose
        write transaction already holds the whole store)."""
        if group not in self.locked:
            self.backend.lock_group(self.conn, group)
            self.locked.add(group)

    def append(self, group: str, events: Sequence[NewEvent], actor: str,
               expected_version: int | None = None) -> list[Envelope]:
        """Chain and insert ``events`` at the end of the group's stream, then project them."""
        self.lock(group)
        version, prev = self.head(group)
        if expected_version is not None and expected_version != version:
            raise VersionConflict(f"the group moved on to version {version} while this request was decided",
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
            self.lock(e.group)
            (position,) = self.conn.execute(
                "INSERT INTO events (group_id, seq, type, hand_id, table_id, data, actor, recorded_at, "
                "prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING position",
                (e.group, e.seq, e.type, e.hand, e.table, data_json, e.actor, e.recorded_at, e.prev_hash, e.hash)
            ).fetchone()
            stored.append(Envelope(position, *_fields_after_position(e)))
            self.add_merkle_leaf(e.group, e.seq, envelope_bytes(e.group, e.seq, e.type, e.hand, e.table, data_json,
                                                                e.actor, e.recorded_at, e.prev_hash))
        if self.projector is not None and stored:
            self.projector(self, stored)
        return stored

    def add_merkle_leaf(self, group: str, seq: int, canonical: bytes) -> None:
        """The event's leaf, and every parent it completes, into the stored tree."""
        made = merkle.parents_completed(seq - 1, merkle.leaf_hash(canonical), self.merkle_nodes(group))
        self.backend.executemany(
            self.conn, "INSERT INTO merkle_nodes (group_id, level, idx, hash) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (group_id, level, idx) DO UPDATE SET hash = excluded.hash",
            [(group, level, index, h) for level, index, h in made])

    def rebuild_merkle(self, group: str | None = None) -> None:
        """Every stored Merkle node made again from the events (a store from before them)."""
        if group is None:
            self.conn.execute("DELETE FROM merkle_nodes")
        else:
            self.conn.execute("DELETE FROM merkle_nodes WHERE group_id = ?", (group,))
        for row in self.scan_raw(group):
            self.add_merkle_leaf(row[0], row[1], RawEvent._make(row).canonical())

    def put_row(self, name: str, group: str, key: str, data: Mapping) -> None:
        self.conn.execute(
            "INSERT INTO projection_rows (name, group_id, key, data) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name, group_id, key) DO UPDATE SET data = excluded.data",
            (name, group, key, json.dumps(data, sort_keys=True, ensure_ascii=False)))

    def drop_rows(self, group: str | None = None) -> None:
        if group is None:
            self.conn.execute("DELETE FROM projection_rows")
        else:
            self.conn.execute("DELETE FROM projection_rows WHERE group_id = ?", (group,))

    def mark_position(self, name: str, position: int) -> None:
        self.conn.execute(
            "INSERT INTO projection_positions (name, position) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET position = CASE WHEN excluded.position > projection_positions.position "
            "THEN excluded.position ELSE projection_positions.position END", (name, position))

    def drop_credentials(self, group: str, subject: str) -> int:
        """Forget every token of one subject of a group; returns how many there were."""
        return self.conn.execute("DELETE FROM credentials WHERE group_id = ? AND subject = ?",
                                 (group, subject)).rowcount

    def add_credential(self, token_hash: str, group: str, subject: str) -> None:
        self.conn.execute("INSERT INTO credentials (token_hash, group_id, subject) VALUES (?, ?, ?)",
                          (token_hash, group, subject))

    def remember(self, group: str, key: str, fingerprint: str, status: int, body: Any,
                 recorded_at: str | None = None) -> None:
        self.conn.execute(
            "INSERT INTO idempotency_keys (group_id, key, fingerprint, status, body, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (group, key, fingerprint, status,
                                          body if isinstance(body, str) else json.dumps(body),
                                          recorded_at or utc_now()))


def _fields_after_position(e: Envelope) -> tuple:
    return (e.group, e.seq, e.type, e.hand, e.table, e.data, e.actor, e.recorded_at, e.prev_hash, e.hash)


class Backend:
    """What SQLite and PostgreSQL do differently, for the SQL that Reader and Writer share."""

    name = "sqlite"

    def stream(self, conn, sql: str, args) -> Iterator[tuple]:
        """Rows one at a time, however many the query gives."""
        return conn.execute(sql, args)

    def executemany(self, conn, sql: str, rows: Sequence[tuple]) -> None:
        conn.executemany(sql, rows)

    def lock_group(self, conn, group: str) -> None:
        """Nothing to do on SQLite: ``BEGIN IMMEDIATE`` holds the whole store's write lock."""

    def has_table(self, conn, name: str) -> bool:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                            (name,)).fetchone() is not None

    def triggers(self, conn) -> set[str]:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}


SQLITE = Backend()


def precondition(expected: int | None, version: int) -> None:
    """``If-Match`` no longer matching is a 412 carrying the current version."""
    if expected is not None and expected != version:
        raise StaleVersion(
            f"If-Match names version {expected}, but the group is at version {version}", version=version)
