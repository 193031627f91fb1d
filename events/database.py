"""Opening a store: the unit of work over a pool of connections, the SQLite store, and the
choice of backend by the store's URL (``events.pgstore`` is the PostgreSQL one)."""
from __future__ import annotations

import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

import sqlite_utils

from . import migrations
from .envelope import utc_now
from .errors import Contention, Invalid
from .store import SQLITE, Backend, Projector, Reader, Writer

__all__ = ["SQLiteStore", "Store", "StoreBase", "is_postgres", "open_store", "sqlite_path"]


class StoreBase(ABC):
    """A unit-of-work factory over a pool of connections; the backends fill in how to
    connect, begin and migrate.

    Each unit of work holds one connection of its own for its whole length. Connections
    are kept open between units of work (a few idle ones): opening one costs more than
    most appends."""

    MAX_IDLE = 8
    backend: Backend = SQLITE
    schema: Sequence[migrations.Migration] = ()  # the backend's numbered migrations

    def __init__(self, url: str, projector: Projector | None = None, busy_timeout_ms: int = 10_000):
        self.url = url
        self.projector = projector
        self.busy_timeout_ms = busy_timeout_ms
        self._idle: list = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

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

    def setup(self) -> "StoreBase":
        """Apply the migrations the store lacks, in one write transaction (idempotent)."""
        conn = self.connect()
        try:
            self.before_migrating(conn)
            self.begin_writing(conn)
            try:
                self.lock_for_migrating(conn)
                migrations.apply(conn, self.schema, utc_now())
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

    @property
    def path(self) -> str:
        return self.url

    @contextmanager
    def reading(self) -> Iterator[Reader]:
        conn = self._acquire()
        try:
            self.begin_reading(conn)
            yield Reader(conn, self.backend)
        finally:
            self._release(conn)

    @contextmanager
    def writing(self, group: str | None = None) -> Iterator[Writer]:
        """One write transaction. ``group``, when the write is known to be about one, is
        locked before anything is read, so that what the write decides from stays true
        until it commits (on SQLite the whole store is locked anyway)."""
        conn = self._acquire()
        try:
            self.begin_writing(conn)
            writer = Writer(conn, self.projector, self.backend)
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
        finally:
            self._release(conn)

    def commit(self, conn) -> None:
        conn.execute("COMMIT")

    def analyze(self) -> None:  # noqa: B027 - a hook: nothing, unless a backend needs it
        """Refresh the planner's statistics after a bulk load (an import or a migration), so
        that the first queries after it do not plan from an empty table's. SQLite's planner
        needs none: its indexes alone choose the plans bitka's queries want."""


class SQLiteStore(StoreBase):
    """An SQLite file holding one or many groups' logs. Closing the last connection
    checkpoints the whole WAL."""

    schema = migrations.SQLITE

    def __init__(self, path: str | Path, projector: Projector | None = None, busy_timeout_ms: int = 10_000):
        super().__init__(str(path), projector, busy_timeout_ms)

    def connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.url, isolation_level=None, check_same_thread=False,
                               timeout=self.busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    def before_migrating(self, conn) -> None:
        """Create the file if missing and switch it to WAL (not possible inside a transaction)."""
        sqlite_utils.Database(conn).enable_wal()

    def begin_writing(self, conn) -> None:
        """``BEGIN IMMEDIATE``: a deferred ``BEGIN``'s later upgrade to a write lock can fail
        with SQLITE_BUSY after the request has already read and decided."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            raise Contention(f"another write held the store for over {self.busy_timeout_ms / 1000:g} s; "
                           "nothing was appended, so the request may simply be sent again") from None


def open_store(url: str | Path, projector: Projector | None = None, busy_timeout_ms: int = 10_000) -> StoreBase:
    """The store a ``--db`` / ``BITKA_DB`` names: ``postgresql://...`` (or ``postgres://``)
    is PostgreSQL; ``sqlite:///path`` or a plain path is an SQLite file."""
    url = str(url)
    if is_postgres(url):
        from .pgstore import PostgresStore
        return PostgresStore(url, projector, busy_timeout_ms)
    return SQLiteStore(sqlite_path(url), projector, busy_timeout_ms)


def sqlite_path(url: str) -> str:
    """The file of an SQLite store URL (``sqlite:///relative.db``, ``sqlite:////abs.db``) or path."""
    if url.startswith("sqlite://"):
        path = url.removeprefix("sqlite://")
        if not path.startswith("/") or path == "/":
            raise Invalid(f"an SQLite store URL is sqlite:///path/to/file.db, not {url!r}")
        return path[1:] or path
    if "://" in url:
        raise Invalid(f"bitka stores are SQLite files (a path or sqlite:///path) or postgresql://... URLs, "
                         f"not {url!r}")
    return url


def is_postgres(url: str | Path) -> bool:
    return str(url).startswith(("postgresql://", "postgres://"))


Store = SQLiteStore  # what bitka's code and tests long called the SQLite store
