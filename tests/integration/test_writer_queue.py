"""SQLite writers wait their turn on locks that wake them (events/writer_queue.py): threads
of a process on its own lock, processes on a kernel lock beside the store. A write that
waits past the busy timeout is a Contention and appends nothing; one that gave up never
keeps the lock from the next; a writer killed while holding the lock frees it. The writes
waiting in a process share commits (events/group_commit.py): a refused one rolls back
alone, and when a commit fails every write of it fails."""
from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from events.errors import Contention
from events.sqlite import SQLiteStore
from projections.projector import project


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "q.db", project, busy_timeout_ms=300).setup()
    yield s
    s.close()


def _holding(lock_path: str) -> subprocess.Popen:
    """Another process that holds the store's writer lock until it is killed."""
    code = ("import fcntl, os, sys, time\n"
            f"fd = os.open({lock_path!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_write_waits_for_another_process_and_goes_on_once_it_is_killed(store):
    holder = _holding(store.file_lock.lock_path)
    try:
        with pytest.raises(Contention, match="nothing was appended"):
            with store.writing() as w:
                w.conn.execute("SELECT 1")
        done = []

        def write():
            with store.writing():
                done.append(True)
        writer = threading.Thread(target=write)
        store.file_lock.timeout = store.batches.timeout = 30  # now wait as long as it takes
        writer.start()
        time.sleep(0.2)
        assert not done  # still waiting in the kernel for the holder
        os.kill(holder.pid, signal.SIGKILL)  # a writer killed mid-write frees the lock
        writer.join(10)
        assert done == [True]
    finally:
        holder.kill()
        holder.wait()


def test_threads_of_a_process_take_turns_and_one_that_gave_up_keeps_nothing(store):
    store.file_lock.timeout = store.batches.timeout = 0.2
    inside = threading.Event()
    leave = threading.Event()

    def long_write():
        with store.writing():
            inside.set()
            leave.wait(5)
    first = threading.Thread(target=long_write)
    first.start()
    inside.wait(5)
    with pytest.raises(Contention):  # the process's own writers queue on its lock, bounded too
        with store.writing():
            pass
    leave.set()
    first.join(5)
    with store.writing() as w:  # the turn was given back: the next write goes straight in
        w.conn.execute("SELECT 1")


def test_a_write_that_gave_up_in_the_kernel_queue_hands_the_lock_on(store):
    """Timed out while its waiting thread is still blocked in flock: when the holder lets
    go, that thread takes the lock and gives it back at once, so later writes go on."""
    holder = _holding(store.file_lock.lock_path)
    try:
        with pytest.raises(Contention):
            with store.writing():
                pass
    finally:
        holder.kill()
        holder.wait()
    store.file_lock.timeout = store.batches.timeout = 10
    with store.writing() as w:
        w.conn.execute("SELECT 1")
    fd = os.open(store.file_lock.lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody kept it
    finally:
        os.close(fd)


def _rows(store) -> list[int]:
    with store.reading() as r:
        return sorted(n for (n,) in r.conn.execute("SELECT n FROM t"))


def _write_at_once(store, count: int, refused: int | None = None) -> dict:
    """``count`` threads writing at the same moment, each a row of its number; the one
    numbered ``refused`` raises after its insert. What each got: None or its exception."""
    start, outcomes = threading.Barrier(count), {}

    def write(n):
        start.wait()
        try:
            with store.writing() as w:
                w.conn.execute("INSERT INTO t (n) VALUES (?)", (n,))
                if n == refused:
                    raise ValueError("refused")
            outcomes[n] = None
        except Exception as e:  # noqa: BLE001 - the test looks at what each write got
            outcomes[n] = e
    threads = [threading.Thread(target=write, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_writes_waiting_together_share_a_commit_and_a_refused_one_rolls_back_alone(store):
    with store.writing() as w:
        w.conn.execute("CREATE TABLE t (n INTEGER)")
    store.batches.flush_delay = 0.05  # a slow disk: the others queue up while a commit flushes
    outcomes = _write_at_once(store, 8, refused=3)
    assert isinstance(outcomes.pop(3), ValueError)
    assert all(e is None for e in outcomes.values())
    assert _rows(store) == [0, 1, 2, 4, 5, 6, 7]
    assert store.batches.stats["commits"] < store.batches.stats["writes"]  # fewer flushes than writes


def test_when_a_batch_cannot_commit_every_write_of_it_fails_and_none_is_kept(store, monkeypatch):
    with store.writing() as w:
        w.conn.execute("CREATE TABLE t (n INTEGER)")
    store.batches.flush_delay = 0.05
    commit = store.batches._commit

    def failing(conn):
        conn.execute("ROLLBACK")  # as a full disk leaves it
        raise OSError("disk full")
    monkeypatch.setattr(store.batches, "_commit", failing)
    outcomes = _write_at_once(store, 6)
    assert all(isinstance(e, Contention) and "nothing was appended" in str(e) for e in outcomes.values())
    monkeypatch.setattr(store.batches, "_commit", commit)
    assert _rows(store) == []
    with store.writing() as w:  # and the store goes on
        w.conn.execute("INSERT INTO t (n) VALUES (9)")
    assert _rows(store) == [9]
