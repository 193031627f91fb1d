"""Processes take turns to write to one SQLite file on a kernel lock, awake.

SQLite lets one writer in at a time; one that finds the file locked sleeps in SQLite's busy
handler (1 ms to 100 ms back-off) and tries again, so under load the writers behind the
first wake late, and the tail latency is those sleeps. Here a process's batch of writes
(``group_commit.py``: its threads queue on the process's own turn) first takes an
exclusive ``flock`` on a file beside the store: processes queue in the kernel, which wakes
the next one when the holder unlocks or dies (a killed writer never leaves it held). Only
then does it ``BEGIN IMMEDIATE``, which then finds the file free unless a program other
than bitka writes to it; that one is still waited for by SQLite's own busy timeout.

The wait is bounded by the store's busy timeout, as before: past it the write is a
Contention (409: nothing appended, send again).
"""
from __future__ import annotations

import fcntl
import os
import threading
from concurrent.futures import ThreadPoolExecutor, TimeoutError as Late

from .errors import Contention


class FileLock:
    """The machine's turn to write to one SQLite file. One thread of a process asks for it
    at a time (the one opening a batch of the process's writes)."""

    def __init__(self, store_path: str, timeout_ms: int):
        self.lock_path = f"{store_path}.lock"
        self.timeout = timeout_ms / 1000
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
        """Wait for the machine's turn, awake; Contention after the timeout."""
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
                if state["given_up"]:  # the write left meanwhile: let the next one in at once
                    fcntl.flock(fd, fcntl.LOCK_UN)
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
        raise Contention(f"another write held the store for over {self.timeout:g} s; nothing was appended, so the "
                         "request may simply be sent again")

    def release(self) -> None:
        fcntl.flock(self._file(), fcntl.LOCK_UN)
