"""verify and replay over a whole store, on every core when the log is large.

A log is checked in slices side by side: verify splits each group's seqs into ranges (a
link into a range is checked from the hash before it); replay runs in two processes, one
rebuilding the projection rows and re-deriving a fifth of the hands' settlements, the
other re-deriving the rest (a split that keeps both busy for about as long on logs of whole
hands).
Small logs stay in one process, where starting workers would cost more than it saves. Workers report how far they are in
shared counters, so the parent can draw one progress bar.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from events.database import open_store
from events.verify import Fault, check_range
from projections.projector import DATA_UNREAD
from projections.replay import Report, merge, replay

PARALLEL_FROM = 50_000  # events; below this one process is faster
SLICE = 25_000
# The hands' settlements are re-derived in shares: the rows process takes ROWS_SHARES of
# them, the other process the rest. Measured on the bench's store (2026-12-02): the rows
# alone cost about a third of all the settlements, so two fifths beside them even the two.
SETTLING_SHARES = 5
ROWS_SHARES = 2
_progress = None  # the worker's shared counters (set in each worker process)


def workers() -> int:
    return max(1, min(len(os.sched_getaffinity(0)), 8))


def _init(counters) -> None:
    global _progress
    _progress = counters


def _ticker(index: int):
    """Bump this worker's shared counter every 1,000 events."""
    pending = [0]

    def tick(_=None):
        pending[0] += 1
        if pending[0] == 1000:
            with _progress.get_lock():
                _progress[index] += 1000
            pending[0] = 0
    return tick


def verify_store(path: str, group: str | None, advance, parallel_from: int = PARALLEL_FROM) -> list[Fault]:
    store = open_store(path)
    with store.reading() as r:
        sizes = r.sizes(group)
        if sum(sizes.values()) < parallel_from or workers() < 2:
            found = []
            for g, n in sorted(sizes.items()):
                fault = check_range(r, g, 1, n)
                found += [fault] if fault is not None else []
                advance(n)
            return found
    store.close()  # no connection of this process may cross the fork
    slices = [(g, lo, min(lo + SLICE - 1, n)) for g, n in sorted(sizes.items()) for lo in range(1, n + 1, SLICE)]
    found = _run(path, _verify_slice, slices, advance, counters=1)
    first: dict[str, Fault] = {}
    for fault in (f for f in found if f is not None):
        if fault.group not in first or fault.seq < first[fault.group].seq:
            first[fault.group] = fault
    return [first[g] for g in sorted(first)]


def _verify_slice(path: str, group: str, lo: int, hi: int) -> Fault | None:
    """One slice, counted once it is done: a call per event would cost verify a tenth of its speed."""
    with open_store(path).reading() as r:
        found = check_range(r, group, lo, hi)
    with _progress.get_lock():
        _progress[0] += hi - lo + 1
    return found


def replay_store(path: str, group: str | None, until: int | None, compare: bool, advance,
                 parallel_from: int = PARALLEL_FROM) -> Report:
    store = open_store(path)
    with store.reading() as r:
        total = r.count(group)
        if total < parallel_from or workers() < 2:
            return replay(_counted(r.scan(group, until, bare=True), advance), r if compare else None,
                          history=r.table_events)
        sizes = r.sizes(group) if group is None and until is None else {}
    store.close()  # no connection of this process may cross the fork
    streams = _streams(sizes, min(workers(), 8))
    if streams:  # groups are independent: each process replays whole groups, scanning only theirs
        jobs = [(path, tuple(groups), compare, index) for index, groups in enumerate(streams)]
        return merge(_run(path, _replay_groups, jobs, advance, counters=len(jobs), take_args=True, combine=sum),
                     same_log=False)
    first, rest = frozenset(range(ROWS_SHARES)), frozenset(range(ROWS_SHARES, SETTLING_SHARES))
    jobs = [(path, group, until, compare, 0, ("rows", "settlements"), (first, SETTLING_SHARES)),
            (path, group, until, compare, 1, ("settlements",), (rest, SETTLING_SHARES))]
    return merge(_run(path, _replay_part, jobs, advance, counters=len(jobs), take_args=True))


def _streams(sizes: dict[str, int], processes: int) -> list[list[str]]:
    """The groups dealt into ``processes`` streams of about equal events, the largest group
    first, each to the lightest stream; none (so hands are shared out instead) when one group
    holds more than a stream's fair share, as a store of one big group does."""
    total = sum(sizes.values())
    if len(sizes) < 2 or processes < 2 or max(sizes.values()) > total / processes:
        return []
    streams: list[list[str]] = [[] for _ in range(processes)]
    loads = [0] * processes
    for g in sorted(sizes, key=lambda g: (-sizes[g], g)):
        lightest = loads.index(min(loads))
        streams[lightest].append(g)
        loads[lightest] += sizes[g]
    return [sorted(s) for s in streams if s]


def _replay_groups(path, groups, compare, index) -> Report:
    """One stream: its groups replayed whole (rows and every settlement), one after another."""
    with open_store(path).reading() as r:
        events = (e for g in groups for e in r.scan(g, None, frozenset(), bare=True))
        return replay(_counted(events, _ticker(index)), r if compare else None, history=r.table_events)


def _replay_part(path, group, until, compare, index, parts, share) -> Report:
    unread = DATA_UNREAD if "settlements" not in parts else frozenset()
    with open_store(path).reading() as r:
        return replay(_counted(r.scan(group, until, unread, bare=True), _ticker(index)), r if compare else None,
                      parts, share, history=r.table_events)


def _counted(items, advance):
    for item in items:
        advance()
        yield item


def _run(path, fn, jobs, advance, counters: int, take_args: bool = False, combine=min) -> list:
    """Run ``fn`` over ``jobs`` in worker processes, drawing their progress: the slowest
    counter's for parts that each read the whole log, the sum (``combine``) for parts that
    read logs of their own."""
    progress = multiprocessing.get_context("fork").Array("q", counters)
    shown = 0
    with ProcessPoolExecutor(max_workers=min(workers(), len(jobs)), mp_context=multiprocessing.get_context("fork"),
                             initializer=_init, initargs=(progress,)) as pool:
        futures = [pool.submit(fn, *job) if take_args else pool.submit(fn, path, *job) for job in jobs]
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            done = combine(progress[:]) if counters > 1 else progress[0]
            if done > shown:
                advance(done - shown)
                shown = done
        return [f.result() for f in futures]
