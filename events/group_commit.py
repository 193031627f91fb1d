"""Group commit for SQLite: the writes waiting in a process share one transaction and one
flush, each in a SAVEPOINT of its own.

A write takes the process's writer turn (threads queue on it, awake). The first write of a
batch takes the machine's writer lock (``writer_queue.FileLock``) and begins the
transaction; each later write of the batch runs in a ``SAVEPOINT``: a refused one rolls back
alone and its request gets its own 4xx at once (a refused first write rolls the whole
transaction back, which holds nothing else). When a write is done and no other is waiting for the
turn (or the batch is full), it commits the batch: one ``COMMIT``, one fsync, for all of
them. A write that succeeded returns only once that commit is durable, so nothing is
acknowledged that a crash could take back; if the commit fails, every write of the batch
fails with it and none was acknowledged.

A write whose batch stays uncommitted (the next writer gave up waiting for the turn)
commits it itself as soon as the turn is free, so no batch is ever left open.
"""
from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from .errors import Contention

MOST_IN_A_BATCH = 64  # bounds the first write's wait for the batch's commit


class Batch:
    """One transaction of several writes: its connection, how many writes it holds, and,
    once committed or failed, the outcome every write of it waits for."""

    def __init__(self, conn):
        self.conn = conn
        self.writes = 0
        self.done = threading.Event()
        self.error: BaseException | None = None


class GroupCommit:
    """The writes of one process to one SQLite store, in batches (see the module)."""

    def __init__(self, begin: Callable[[], object], commit: Callable[[object], None],
                 end: Callable[[object, bool], None], timeout: float):
        """``begin()`` takes the machine's lock and a connection and begins a transaction,
        returning the connection; ``commit(conn)`` commits it; ``end(conn, ok)`` gives the
        connection and the lock back (``ok`` False: roll back first)."""
        self._begin, self._commit, self._end = begin, commit, end
        self.timeout = timeout
        self._turn = threading.Lock()
        self._state = threading.Lock()
        self._waiting = 0
        self._batch: Batch | None = None
        self.stats = {"commits": 0, "writes": 0}
        self.on_commit: Callable[[int], None] | None = None  # told each commit's writes (the service's metrics)
        self.flush_delay = float(os.environ.get("BITKA_TEST_FLUSH_DELAY_MS", "0") or 0) / 1000
        self._stats_path = os.environ.get("BITKA_BENCH_STATS")  # the bench's: where to say how batches went

    @contextmanager
    def write(self) -> Iterator[object]:
        """One write in the current batch: the connection, inside a savepoint of its own."""
        self._take_turn()
        try:
            batch = self._open()
        except BaseException:
            self._turn.release()
            raise
        # The batch's first write needs no savepoint: refused, it rolls the transaction back,
        # which holds nothing else. A savepoint keeps a statement journal of every page it
        # changes, which would slow a bulk write (an import, a migration) for nothing.
        alone = batch.writes == 0
        try:
            if not alone:
                batch.conn.execute("SAVEPOINT bitka_write")
        except BaseException as e:
            self._broken(batch, e)
            raise
        try:
            yield batch.conn
        except BaseException:
            if alone:
                self._abandon(batch)
                raise
            try:
                batch.conn.execute("ROLLBACK TO bitka_write")
                batch.conn.execute("RELEASE bitka_write")
            except BaseException as e:  # the transaction itself is gone: its writes with it
                self._broken(batch, e)
                raise
            self._pass_turn(batch)  # the batch goes on without this write, which appended nothing
            raise
        try:
            if not alone:
                batch.conn.execute("RELEASE bitka_write")
        except BaseException as e:
            self._broken(batch, e)
            raise
        batch.writes += 1
        self._pass_turn(batch)
        self._wait_for(batch)

    def _abandon(self, batch: Batch) -> None:
        """With the turn held: the batch's only write was refused; roll it all back."""
        self._batch = None
        try:
            self._end(batch.conn, False)
        finally:
            batch.done.set()
            self._turn.release()

    def _broken(self, batch: Batch, error: BaseException) -> None:
        """With the turn held: the batch's transaction failed; every write of it fails."""
        self._batch = None
        batch.error = error
        try:
            self._end(batch.conn, False)
        finally:
            batch.done.set()
            self._turn.release()

    def _take_turn(self) -> None:
        with self._state:
            self._waiting += 1
        try:
            taken = self._turn.acquire(timeout=self.timeout)
        finally:
            with self._state:
                self._waiting -= 1
        if not taken:
            raise Contention(f"another write held the store for over {self.timeout:g} s; nothing was appended, "
                             "so the request may simply be sent again")

    def _open(self) -> Batch:
        if self._batch is None:
            self._batch = Batch(self._begin())
        return self._batch

    def _pass_turn(self, batch: Batch) -> None:
        """With the turn held: commit the batch unless another write waits to join it, then
        let the next write in."""
        try:
            with self._state:
                others = self._waiting
            if others == 0 or batch.writes >= MOST_IN_A_BATCH:
                self._finish(batch)
        finally:
            self._turn.release()

    def _finish(self, batch: Batch) -> None:
        """With the turn held: commit the batch, durably, and tell its writes."""
        self._batch = None
        ok = False
        try:
            if self.flush_delay:
                time.sleep(self.flush_delay)  # a test's stand-in for a slow disk's flush
            self._commit(batch.conn)
            ok = True
            self.stats["commits"] += 1
            self.stats["writes"] += batch.writes
            self._tell(batch.writes)
            if self._stats_path and self.stats["commits"] % 50 == 0:
                self._report(self._stats_path)
        except BaseException as e:  # every write of the batch fails with its commit
            batch.error = e
        finally:
            self._end(batch.conn, ok)
            batch.done.set()

    def _tell(self, writes: int) -> None:
        """``on_commit`` hears of a durable commit; nothing it does can fail the commit's writes."""
        if self.on_commit is not None:
            try:
                self.on_commit(writes)
            except Exception:  # noqa: S110 - a metric that cannot be counted is not the write's failure
                pass

    def _wait_for(self, batch: Batch) -> None:
        """Return once the batch is committed (raise if its commit failed); commit it here if
        nobody else will."""
        while not batch.done.wait(0.05):
            if self._turn.acquire(blocking=False):
                try:
                    if self._batch is batch:  # left open: the write meant to join it gave up
                        self._finish(batch)
                finally:
                    self._turn.release()
        if batch.error is not None:
            raise Contention("the store could not commit this write, so nothing was appended; the request may be "
                             f"sent again ({batch.error})") from batch.error

    def _report(self, path: str) -> None:
        """For the bench: this process's commits and the writes they carried."""
        with open(f"{path}.{os.getpid()}", "w") as out:
            json.dump(self.stats, out)
