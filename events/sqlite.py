"""The SQLite store, bitka's embedded default: one file in WAL mode with
``synchronous = FULL``, every write in ``BEGIN IMMEDIATE`` (which holds the whole file's
write lock, so a group needs no lock of its own), the writes of a process committed in
batches (``group_commit.py``), processes queued awake on a kernel lock
(``writer_queue.py``), and SQLite's own catalog."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from contextlib import contextmanager
from typing import Iterator, Sequence

import sqlite_utils

from . import migrations
from .errors import Contention
from .store import Backend, Projector, Writer
from .unit_of_work import StoreBase
from .group_commit import GroupCommit
from .writer_queue import FileLock


class SQLiteBackend(Backend):
    name = "sqlite"
    locks_whole_store = True  # BEGIN IMMEDIATE

    def stream(self, conn, sql: str, args) -> Iterator[tuple]:
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


SQLITE = SQLiteBackend()


class SQLiteStore(StoreBase):
    """An SQLite file holding one or many groups' logs. Closing the last connection
    checkpoints the whole WAL."""

    backend = SQLITE
    schema = migrations.SQLITE

    def __init__(self, path: str | Path, projector: Projector | None = None, busy_timeout_ms: int = 10_000):
        super().__init__(str(path), projector, busy_timeout_ms)
        self.file_lock = FileLock(str(path), busy_timeout_ms)
        self.batches = GroupCommit(self._begin_batch, self.commit, self._end_batch, busy_timeout_ms / 1000)

    @contextmanager
    def writing(self, group: str | None = None) -> Iterator[Writer]:
        """One write, in the process's current batch of writes (``group_commit.py``): its own
        savepoint, acknowledged once the batch's commit is durable. SQLite's one write lock
        covers every group, so ``group`` needs no lock of its own."""
        with self.batches.write() as conn:
            writer = Writer(conn, self.projector, self.backend, self.committed_nodes, self.damaged)
            yield writer
        writer.committed_now()  # the batch's commit was durable, or write() raised
        self.rang(writer)

    def _begin_batch(self):
        self.file_lock.acquire()
        try:
            conn = self._acquire()
        except BaseException:
            self.file_lock.release()
            raise
        try:
            self.begin_writing(conn)
        except BaseException:
            self._release(conn)
            self.file_lock.release()
            raise
        return conn

    def _end_batch(self, conn, committed: bool) -> None:
        try:
            if not committed and self.in_transaction(conn):
                conn.execute("ROLLBACK")
        except Exception:  # a connection that died mid-write: the database rolled it back
            pass
        finally:
            self._release(conn)
            self.file_lock.release()

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
