"""The append-only, hash-chained event store, on SQLite (the embedded default) or PostgreSQL.

One table of events (global ``position``; per-group ``seq`` without gaps), triggers that
refuse UPDATE and DELETE, and beside it what lives and dies with an append: projection
rows, credentials (token hashes), idempotency keys and Merkle nodes. A write is one
transaction: take the write lock (SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL a lock on the
group), read the group's head, check the expected version, chain and insert the events,
let the projector update its rows, commit.

Each part has its module: the log and its recorder (events/recorder.py), projection rows
(events/rows.py), credentials (events/credentials.py), idempotency keys
(events/idempotency.py) and Merkle nodes (events/merkle_nodes.py); ``Reader`` and
``Writer`` here put them together over one connection. Their SQL runs on both backends;
what differs (connecting, locking, streaming, the catalog) is each backend's ``Backend``
(events/sqlite.py, events/pgstore.py). The interface the rest of bitka uses is
``events.database.open_store(url)``, its ``reading()`` / ``writing()`` and these methods.
"""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

from . import migrations
from .damage import DamagedGroups
from .credentials import CredentialReads, CredentialWrites
from .invitations import InvitationReads, InvitationWrites
from .sessions import SessionReads, SessionWrites
from .envelope import Envelope, NewEvent, RawEvent
from .errors import StaleVersion
from .idempotency import KeyReads, KeyWrites
from .merkle_nodes import CommittedNodes, MerkleReads, MerkleWrites
from .recorder import EventLog, EventRecorder
from .rows import RowReads, RowWrites

__all__ = ["Backend", "Envelope", "NewEvent", "RawEvent", "Reader", "Writer", "precondition"]


class Reader(EventLog, RowReads, CredentialReads, InvitationReads, SessionReads, KeyReads, MerkleReads):
    def __init__(self, conn, backend: "Backend", damaged: DamagedGroups | None = None):
        self.conn = conn
        self.backend = backend
        self.damaged = damaged  # set: every event read is checked (events/damage.py)
        self.snapshot_rows = {}

    def is_store(self) -> bool:
        return self.backend.has_table(self.conn, "events")

    def missing_triggers(self) -> list[str]:
        present = self.backend.triggers(self.conn)
        return [t for t in migrations.TRIGGERS[self.backend.name] if t not in present]


Projector = Callable[["Writer", list[Envelope]], None]


class Writer(Reader, EventRecorder, RowWrites, CredentialWrites, InvitationWrites, SessionWrites, KeyWrites,
             MerkleWrites):
    """One write transaction's reads and writes. What only this transaction can change while
    it holds the lock (a locked group's head, Merkle nodes it read or made) is read once."""

    def __init__(self, conn, projector: Projector | None, backend: "Backend", committed: CommittedNodes | None = None,
                 damaged: DamagedGroups | None = None):
        super().__init__(conn, backend, damaged)
        self.snapshot_rows = None  # a write's rows change under it
        self.committed = committed
        self.first_heads: dict[str, tuple[int, str]] = {}  # each held group's head as this write found it
        self.projector = projector
        self.locked: set[str] = set()
        self.heads: dict[str, tuple[int, str]] = {}  # of groups this transaction holds
        self.appended: list[tuple[str, int, str | None, str]] = []  # group, seq, table, type of each event appended
        self.nodes: dict[str, dict[tuple[int, int], bytes]] = {}  # Merkle nodes read or made, by group

    def known_nodes(self, group: str) -> dict[tuple[int, int], bytes]:
        if group not in self.nodes:
            self.nodes[group] = dict(self._kept_nodes(group))
        return self.nodes[group]

    def _kept_nodes(self, group: str) -> dict[tuple[int, int], bytes]:
        """The process's kept frontier of the group, while the log still holds the event it was kept at."""
        kept = self.committed.get(group) if self.committed is not None else None
        if kept is None:
            return {}
        seq, digest, nodes = kept
        if self.first_heads.get(group) != (seq, digest) and self.hash_at(group, seq) != digest:
            return {}
        return nodes

    def committed_now(self) -> None:
        """Called once this write's transaction is durably committed: the frontier of each
        group it touched is kept for the process's next write."""
        if self.committed is not None:
            for group, nodes in self.nodes.items():
                if group in self.heads:
                    self.committed.keep(group, *self.heads[group], nodes)

    def holds(self, group: str) -> bool:
        """Does this transaction hold the group, so that nobody else appends to it until it ends?"""
        return self.backend.locks_whole_store or group in self.locked


class Backend:
    """What a database does its own way, for the SQL that Reader and Writer share: each
    backend module (events/sqlite.py, events/pgstore.py) has one."""

    name = ""
    locks_whole_store = False  # does a write transaction hold every group (SQLite's one writer)?

    def stream(self, conn, sql: str, args) -> Iterator[tuple]:
        """Rows one at a time, however many the query gives."""
        raise NotImplementedError

    def executemany(self, conn, sql: str, rows: Sequence[tuple]) -> None:
        raise NotImplementedError

    def lock_group(self, conn, group: str) -> None:
        """Hold the group's write lock until the transaction ends."""
        raise NotImplementedError

    def has_table(self, conn, name: str) -> bool:
        raise NotImplementedError

    def triggers(self, conn) -> set[str]:
        raise NotImplementedError


def precondition(expected: int | None, version: int) -> None:
    """``If-Match`` no longer matching is a 412 carrying the current version."""
    if expected is not None and expected != version:
        raise StaleVersion(
            f"If-Match names version {expected}, but the group is at version {version}", version=version)
