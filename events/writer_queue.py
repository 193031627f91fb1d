"""Writers wait their turn awake: in a process on a lock, across processes on a kernel lock.

SQLite lets one writer in at a time; one that finds the file locked sleeps in SQLite's busy
handler (1 ms to 100 ms back-off) and tries again, so under load the writers behind the
first wake late, and the tail latency is those sleeps. Here a write first takes the
process's own lock (threads queue on it and the next is woken the moment it is released),
then an exclusive ``flock`` on a file beside the store (processes queue in the kernel,
which wakes the next waiter when the holder unlocks or dies: a killed writer never leaves
it held). Only then does it ``BEGIN IMMEDIATE``, which then finds the file free unless a
program other than bitka writes to it, and that one is still waited for by SQLite's own
busy timeout.

Both waits are bounded by the store's busy timeout, as before: past it the write is a
Contention (409: nothing appended, send again).
"""
from __future__ import annotations

import fcntl
import os
import threading
from concurrent.futures import ThreadPoolExecutor, TimeoutError as Late

from .errors import Contention


class WriterQueue:
    """The turn to write to one SQLite file, for the threads of this process and the
    processes on this machine."""

    def __init__(self, store_path: str, timeout_ms: int):
        self.lock_path = f"{store_path}.lock"
        self.timeout = timeout_ms / 1000
        self._turn = threading.Lock()  # this process's writers, one at a time
        self._fd: int | None = None
        self._pid = os.getpid()
        self._waiter: ThreadPoolExecutor | None = None  # blocks in flock, so that the wait can time out

    def _file(self) -> int:
        if self._pid != os.getpid():  # a forked worker opens its own: flock belongs to an open file
            self._fd, self._waiter, self._pid = None, None, os.getpid()
        if self._fd is None:
            self._fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    def acquire(self) -> None:
        """Wait for this process's turn, then for the machine's; Contention after the timeout."""
        if not self._turn.acquire(timeout=self.timeout):
            raise _late(self.timeout)
        try:
            self._lock_file()
        except _Handed:
            raise  # the thread still waiting for the kernel lock gives the turn back
        except BaseException:
            self._turn.release()
            raise

    def _lock_file(self) -> None:
        fd = self._file()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free: the common case costs one call
            return
        except BlockingIOError:
            pass
        if self._waiter is None:
            self._waiter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bitka-flock")
        guard, state = threading.Lock(), {"granted": False, "given_up": False}

        def wait() -> None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # the kernel wakes this the moment the holder lets go
            with guard:
                if state["given_up"]:  # the request left meanwhile: let the next writer in at once
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    self._turn.release()
                else:
                    state["granted"] = True
        waited = self._waiter.submit(wait)
        try:
            waited.result(timeout=self.timeout)
            return
        except Late:
            pass
        with guard:
            if state["granted"]:  # granted in the same instant as the timeout: the write goes on
                return
            state["given_up"] = True
            never_started = waited.cancel()
        if never_started:
            raise _late(self.timeout)
        raise _Handed()

    def release(self) -> None:
        """Let the next writer in: the machine's lock, then this process's."""
        try:
            fcntl.flock(self._file(), fcntl.LOCK_UN)
        finally:
            self._turn.release()


class _Handed(Contention):
    """Timed out while the kernel lock was still being waited for: the waiting thread now
    owns the process's turn and gives it back once it is granted the lock."""

    def __init__(self):
        super().__init__("another write held the store for too long; nothing was appended, so the request may "
                         "simply be sent again")


def _late(timeout: float) -> Contention:
    return Contention(f"another write held the store for over {timeout:g} s; nothing was appended, so the "
                      "request may simply be sent again")
