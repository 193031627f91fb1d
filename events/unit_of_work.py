"""The unit of work over a pool of connections: one read snapshot, or one write
transaction holding the store's (or the group's) lock; the backends fill in how to
connect, begin and migrate."""
from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from contextlib import contextmanager, nullcontext
from typing import Callable, ContextManager, Iterable, Iterator, Sequence

from . import migrations
from .bell import Bell, Heard
from .envelope import utc_now
from .damage import DamagedGroups
from .merkle_nodes import CommittedNodes
from .store import Backend, Projector, Reader, Writer
from .verify import Fault


class StoreBase(ABC):
    """A unit-of-work factory over a pool of connections; the backends fill in how to
    connect, begin and migrate.

    Each unit of work holds one connection of its own for its whole length. Connections
    are kept open between units of work (a few idle ones): opening one costs more than
    most appends."""

    MAX_IDLE = 8
    backend: Backend
    schema: Sequence[migrations.Migration] = ()  # the backend's numbered migrations

    def __init__(self, url: str, projector: Projector | None = None, busy_timeout_ms: int = 10_000):
        self.url = url
        self.projector = projector
        self.busy_timeout_ms = busy_timeout_ms
        self._idle: list = []
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self.committed_nodes = CommittedNodes()
        self.bell: Bell | None = None  # told of each write's new heads once committed (events/bell.py)
        self.damaged: DamagedGroups | None = None  # unchecked, unless the store is ``checking``

    def _acquire(self):
        with self._lock:
            if self._pid != os.getpid():  # a forked worker must not share its parent's connections
                self._idle, self._pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        return self.connect()

    def _release(self, conn) -> None:
        try:
            if self.in_transaction(conn):
                conn.execute("ROLLBACK")
        except Exception:  # a connection that cannot even roll back is not kept
            self._discard(conn)
            return
        with self._lock:
            if len(self._idle) < self.MAX_IDLE and self._pid == os.getpid():
                self._idle.append(conn)
                return
        self._discard(conn)

    @staticmethod
    def _discard(conn) -> None:
        try:
            conn.close()
        except Exception:  # already gone
            pass

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            self._discard(conn)

    @abstractmethod
    def connect(self):
        """A new connection of the backend's, speaking the store's SQL."""

    def in_transaction(self, conn) -> bool:
        return conn.in_transaction

    def begin_reading(self, conn) -> None:
        conn.execute("BEGIN")  # one snapshot for every read of the unit of work

    @abstractmethod
    def begin_writing(self, conn) -> None:
        """Begin a write transaction holding what keeps concurrent writers apart."""

    def setup(self, rebuild: Callable[[Writer, tuple[str, ...]], None] | None = None) -> "StoreBase":
        """Apply the migrations the store lacks, in one write transaction (idempotent), and
        ``rebuild`` the kept rows they name from the log (projections/kept.py: the service
        and the command line pass it; without it, ``bitka replay --rebuild`` writes them)."""
        conn = self.connect()
        try:
            self.before_migrating(conn)
            self.begin_writing(conn)
            try:
                self.lock_for_migrating(conn)
                migrations.apply(conn, self.schema, utc_now(), rebuild and (
                    lambda c, names: rebuild(Writer(c, None, self.backend), names)))
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()
        return self

    def before_migrating(self, conn) -> None:  # noqa: B027 - a hook: nothing, unless a backend needs it
        """What must happen outside a transaction first."""

    def lock_for_migrating(self, conn) -> None:  # noqa: B027 - a hook: nothing, unless a backend needs it
        """What keeps two processes from migrating at once, beyond the write transaction's own lock."""

    def checking(self, damaged: Iterable[Fault] = (), shared: str | None = None) -> "StoreBase":
        """From now on, check every event read against its hash and its link, and refuse the
        groups found damaged (those of ``damaged`` already: what ``bitka serve`` found before
        serving; and those any process serving the store notes in the file ``shared``). The
        service's store is checked; the command line's checks read the log as it is."""
        self.damaged = DamagedGroups(damaged, shared)
        return self

    def rang(self, writer: Writer) -> None:
        """Whoever waits on a group this write moved hears it now (events/bell.py)."""
        if self.bell is not None and writer.appended:
            self.bell.rang([Heard(*event) for event in writer.appended])

    @property
    def path(self) -> str:
        return self.url

    @contextmanager
    def reading(self) -> Iterator[Reader]:
        conn = self._acquire()
        try:
            self.begin_reading(conn)
            yield Reader(conn, self.backend, self.damaged)
        finally:
            self._release(conn)

    @contextmanager
    def writing(self, group: str | None = None) -> Iterator[Writer]:
        """One write transaction. ``group``, when the write is known to be about one, is
        locked before anything is read, so that what the write decides from stays true
        until it commits (on SQLite the whole store is locked anyway)."""
        conn = self._acquire()
        try:
            with self.pipelined(conn, group):
                self.begin_writing(conn)
                writer = Writer(conn, self.projector, self.backend, self.committed_nodes, self.damaged)
                try:
                    if group is not None:
                        writer.lock(group)
                    yield writer
                except BaseException:
                    try:
                        if self.in_transaction(conn):
                            conn.execute("ROLLBACK")
                    except Exception:  # a connection that died mid-write: the database rolled it back
                        pass
                    raise
                self.commit(conn)
            writer.committed_now()  # the commit's outcome is known here, whatever was pipelined
            self.rang(writer)
        finally:
            self._release(conn)

    def pipelined(self, conn, group: str | None) -> ContextManager:
        """Where a backend sends a write's statements without waiting for each answer: nowhere,
        unless it says otherwise."""
        return nullcontext()

    def commit(self, conn) -> None:
        conn.execute("COMMIT")

    def analyze(self) -> None:  # noqa: B027 - a hook: nothing, unless a backend needs it
        """Refresh the planner's statistics after a bulk load (an import or a migration), so
        that the first queries after it do not plan from an empty table's. SQLite's planner
        needs none: its indexes alone choose the plans bitka's queries want."""
