"""The event log itself: reading a group's events (the head, pages, a hand's events, scans
for replay and verify) and the recorder that chains and appends new ones at the version
they were decided on. Mixed into the store's Reader and Writer (events/store.py)."""
from __future__ import annotations

import hashlib
from typing import Collection, Iterator, Sequence

from .canonical import GENESIS, envelope_bytes, event_data_json, read_event_data
from .envelope import Envelope, NewEvent, utc_now
from .damage import DamagedGroups
from .errors import VersionConflict
from .limits import refuse_over

_CHAIN_COLUMNS = "seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash"
_RAW_COLUMNS = "group_id, " + _CHAIN_COLUMNS
_COLUMNS = "position, " + _RAW_COLUMNS
_BARE_COLUMNS = "group_id, seq, type, hand_id, table_id, data, actor, recorded_at"
# A checked read takes each event with the stored hash of the one before it, to check its link.
_E_COLUMNS = ", ".join(f"e.{c}" for c in _COLUMNS.split(", "))
_CHECKED_COLUMNS = _E_COLUMNS + ", b.hash"
_WITH_BEFORE = "events e LEFT JOIN events b ON b.group_id = e.group_id AND b.seq = e.seq - 1"
# The positions of a table's events: its hands' (by the hands its deals and results name)
# and its own, which name no hand (events/migrations.py keeps an index of those).
_OF_TABLE = ("(SELECT position FROM events WHERE group_id = ? AND hand_id IN (SELECT hand_id FROM events "
             "WHERE group_id = ? AND table_id = ? AND type IN ('deal', 'result')) "
             "UNION ALL SELECT position FROM events WHERE group_id = ? AND table_id = ? AND hand_id IS NULL) AS p "
             "CROSS JOIN ")


class EventLog:
    """Reads of the events table (``conn`` and ``backend`` are the store's). On a store whose
    reads are checked (``damaged`` set: the service's), every event read with its data is
    checked against its hash and its link as it is read, and a group known to be damaged is
    refused (events/damage.py)."""

    damaged: DamagedGroups | None = None

    def head(self, group: str) -> tuple[int, str]:
        """The group's version (last seq, 0 when empty) and last hash."""
        if self.damaged is not None:
            self.damaged.refuse(group)
        row = self.conn.execute(
            "SELECT seq, hash FROM events WHERE group_id = ? ORDER BY seq DESC LIMIT 1", (group,)).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def version(self, group: str) -> int:
        return self.head(group)[0]

    def heard_since(self, group: str, after: int, limit: int = 1000) -> list[tuple[int, str | None, str]]:
        """The seq, table and type of the group's events after seq ``after`` (the first
        ``limit``): what the bell's watcher hears of another process's writes (events/bell.py)."""
        return [tuple(row) for row in self.conn.execute(
            "SELECT seq, table_id, type FROM events WHERE group_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (group, after, limit))]

    def heads(self, groups: Sequence[str]) -> dict[str, int]:
        """The version of each of ``groups`` that has events, in one indexed lookup each: what
        the bell's watcher asks (events/bell.py). Unchecked: it reads no event's data."""
        marks = ", ".join("?" * len(groups))
        return dict(self.conn.execute(
            f"SELECT group_id, MAX(seq) FROM events WHERE group_id IN ({marks}) GROUP BY group_id", tuple(groups)))

    def table_of(self, group: str, hand: str) -> str | None:
        """The table a hand is played at, from its first event (None: no such hand)."""
        row = self.conn.execute("SELECT table_id FROM events WHERE group_id = ? AND hand_id = ? ORDER BY seq LIMIT 1",
                                (group, hand)).fetchone()
        return row[0] if row else None

    def moved_at(self, group: str, after: int, table: str | None, quiet: frozenset[str] = frozenset()) -> bool:
        """Has the group appended, after seq ``after``, an event of ``table`` (of any table,
        when None) or of the group as a whole (a member, a payment, its settings), other than
        one of the ``quiet`` types?"""
        where, args = "", [group, after]
        if table is not None:
            where, args = " AND (table_id = ? OR table_id IS NULL)", [*args, table]
        if quiet:
            where += f" AND type NOT IN ({', '.join('?' * len(quiet))})"
            args += sorted(quiet)
        return self.conn.execute(f"SELECT 1 FROM events WHERE group_id = ? AND seq > ?{where} LIMIT 1",
                                 tuple(args)).fetchone() is not None

    def events(self, group: str, after: int = 0, limit: int = 100) -> list[Envelope]:
        return self._envelopes(group, "e.group_id = ? AND e.seq > ?", (group, after, limit), " LIMIT ?")

    def hand_events(self, group: str, hand: str, after: int = 0) -> list[Envelope]:
        """A hand's events in order, those after seq ``after`` only when given."""
        return self._envelopes(group, "e.group_id = ? AND e.hand_id = ? AND e.seq > ?", (group, hand, after))

    def table_events(self, group: str, table: str, until: int | None = None,
                     without: Collection[str] = ()) -> list[Envelope]:
        """Every event of a table (its opening, its hands' events, its closing), up to seq
        ``until``, in order, but those of the types ``without`` (the cards of every hand, for
        a reader who wants each hand's outcome): what a correction re-settles the table's
        hands from, and what its page shows."""
        # Found by two indexes, not by reading the group's log: its hands' events (by their
        # ids, from its deals) and its own (opened, closed), which name no hand.
        kinds = sorted(without)
        left_out = f" AND e.type NOT IN ({', '.join('?' * len(kinds))})" if kinds else ""
        return self._envelopes(group, "e.position = p.position AND e.group_id = ? AND e.table_id = ? AND e.seq <= ?"
                               + left_out, (group, group, table, group, table, group, table,
                                            until if until is not None else 2 ** 62, *kinds),
                               within=_OF_TABLE)

    def _envelopes(self, group: str, where: str, args: tuple, limit: str = "", within: str = "") -> list[Envelope]:
        """The events of one group that ``where`` picks (over ``events e``, joined to
        ``within`` when given), in seq order; on a checked store, each checked (one SHA-256 of
        its stored bytes, one link) as it is read."""
        damaged = self.damaged
        if damaged is None:
            rows = self.conn.execute(f"SELECT {_E_COLUMNS} FROM {within}events e WHERE {where} ORDER BY e.seq{limit}",
                                     args)
            return [Envelope.from_row(r) for r in rows]
        damaged.refuse(group)
        rows = self.conn.execute(
            f"SELECT {_CHECKED_COLUMNS} FROM {within}{_WITH_BEFORE} WHERE {where} ORDER BY e.seq{limit}", args)
        read = []
        for row in rows:
            damaged.check(group, row[2:11], row[11])
            read.append(Envelope.from_row(row))
        return read

    def hand_number(self, group: str, table: str, hand: str) -> int | None:
        """The number of ``hand`` at ``table`` (1: the first dealt there), counted in the log's
        index of deals, without listing the table's hands; None if it was not dealt there."""
        dealt = self.conn.execute(
            "SELECT seq, table_id FROM events WHERE group_id = ? AND hand_id = ? AND type IN ('deal', 'result') "
            "ORDER BY seq LIMIT 1", (group, hand)).fetchone()
        if dealt is None or dealt[1] != table:
            return None
        return self.conn.execute(
            "SELECT count(*) FROM events WHERE group_id = ? AND table_id = ? AND type IN ('deal', 'result') "
            "AND seq <= ?", (group, table, dealt[0])).fetchone()[0]

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
        if self.damaged is not None and not bare:
            yield from self._checked_scan(rows, unread)
            return
        if bare:
            for g, seq, kind, hand, table, data, actor, at in rows:
                yield new(Envelope, (0, g, seq, kind, hand, table, loads(data), actor, at, "", ""))
            return
        for position, g, seq, kind, hand, table, data, actor, at, prev, digest in rows:
            yield new(Envelope, (position, g, seq, kind, hand, table, loads(data), actor, at, prev, digest))

    def _checked_scan(self, rows, unread: frozenset[str]) -> Iterator[Envelope]:
        """``scan``'s events, each checked as it is read: its hash when its data was read, its
        link to the event before it always."""
        damaged, group, last, before = self.damaged, None, 0, None
        for position, g, seq, kind, hand, table, data, actor, at, prev, digest in rows:
            if g != group:
                damaged.refuse(g)
                group, last, before = g, 0, None
            known = before if seq == last + 1 else None
            if kind in unread:
                damaged.check_link(g, seq, prev, known)
            else:
                damaged.check(g, (seq, kind, hand, table, data, actor, at, prev, digest), known)
            last, before = seq, digest
            yield Envelope(position, g, seq, kind, hand, table, read_event_data(data), actor, at, prev, digest)

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



class EventRecorder(EventLog):
    """Appends: the group locked, the head read, the expected version checked, the events
    chained and inserted, each with its Merkle leaf, then the projector's rows. The events
    one unit of work appends come to at most 1 MiB (events/limits.py): past it, the append
    is refused before anything of it is written."""

    recorded_bytes = 0  # the canonical bytes this unit of work has appended so far

    def head(self, group: str) -> tuple[int, str]:
        """As the log's, read once while this transaction holds the group (then only its
        own appends move it, and ``_insert`` keeps it)."""
        if not self.holds(group):
            return super().head(group)
        if group not in self.heads:
            self.heads[group] = self.first_heads[group] = self._held_head(group)
        return self.heads[group]

    def _held_head(self, group: str) -> tuple[int, str]:
        """The head that this write chains onto: on a checked store, its last event is
        checked first, so that nothing is ever chained onto an event that does not hold."""
        if self.damaged is None:
            return super().head(group)
        self.damaged.refuse(group)
        row = self.conn.execute(f"SELECT {_CHECKED_COLUMNS} FROM {_WITH_BEFORE} WHERE e.group_id = ? "
                                "ORDER BY e.seq DESC LIMIT 1", (group,)).fetchone()
        if row is None:
            return 0, GENESIS
        self.damaged.check(group, row[2:11], row[11])
        return row[2], row[10]

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
        rows, now, total = [], utc_now(), self.recorded_bytes
        for seq, ev in enumerate(events, start=version + 1):
            data_json = event_data_json(ev.data)
            hashed = envelope_bytes(group, seq, ev.type, ev.hand, ev.table, data_json, actor, now, prev)
            total += len(hashed)
            refuse_over(total)
            digest = hashlib.sha256(hashed).hexdigest()
            rows.append((Envelope(0, group, seq, ev.type, ev.hand, ev.table, ev.data, actor, now, prev, digest),
                         data_json))
            prev = digest
        self.recorded_bytes = total
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
            self.heads[e.group] = (e.seq, e.hash)
            self.appended.append((e.group, e.seq, e.table, e.type))  # what the bell is rung with once committed
            self.add_merkle_leaf(e.group, e.seq, envelope_bytes(e.group, e.seq, e.type, e.hand, e.table, data_json,
                                                                e.actor, e.recorded_at, e.prev_hash))
        if self.projector is not None and stored:
            self.projector(self, stored)
        return stored



def _fields_after_position(e: Envelope) -> tuple:
    return (e.group, e.seq, e.type, e.hand, e.table, e.data, e.actor, e.recorded_at, e.prev_hash, e.hash)
