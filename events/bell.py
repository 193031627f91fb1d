"""The bell: within one process, a reader waits until its group's log appends an event that
concerns it (of its table, say), and is woken as soon as one is committed.

The bell keeps, for each group someone waits on, the version up to which it has heard every
event, and the last events it heard of (their seq, table and type: never their data). A
write committed by this process rings it at once with the events it appended. A write
committed by another process (gunicorn's other workers, another server on the same
PostgreSQL store) is heard by one watcher thread per process, which asks the store for the
heads of the groups someone waits on every ``every`` seconds, and only while someone waits
(one indexed lookup of a few groups, whatever the store holds), then for the events after
the version it knew. Each waiter then looks at those events in memory: a write elsewhere in
the group costs a waiter no query.

The bell hears a group's events in order, without a hole. A write of this process that
rings after another process's write it has not heard of yet (seq 121 before 114-120) waits
in the bell until the watcher, hurried, has heard what lies between: a bell that took 121
as the newest would never tell the waiters of 114's table (a phone learnt of a card seconds
late, at the next write at its table). A reader that read a version further than the bell
has heard makes it hear the rest (one query) before it waits.

A waiter never holds a database connection: it holds a thread and a place in the bell, and
there are at most ``limit`` of them per process, so that waiting readers never take the
threads a write needs. ``stop`` wakes them all (a worker that is stopping answers them at
once rather than after their whole wait).
"""
from __future__ import annotations

import threading
import time
from collections import Counter, deque
from typing import Callable, Iterable, Mapping, NamedTuple


class Heard(NamedTuple):
    """An event as the bell hears of it: enough to tell whom it concerns."""
    group: str
    seq: int
    table: str | None
    type: str


Concerns = Callable[[Heard], bool]


class Bell:
    def __init__(self, heads: Callable[[Iterable[str]], Mapping[str, int]],
                 since: Callable[[str, int], list[Heard]], limit: int, every: float = 0.1, kept: int = 512):
        self._heads = heads  # the store's current version of each group asked (a group with no event: absent)
        self._since = since  # the store's events of a group after a version, oldest first
        self.limit = limit
        self.every = every
        self._changed = threading.Condition()
        self._known: dict[str, int] = {}  # per group: every event up to this version heard of
        self._heard: dict[str, deque[Heard]] = {}  # the last ``kept`` events heard of, per group, in order
        self._ahead: dict[str, dict[int, Heard]] = {}  # rung past a hole in what was heard: held until it fills
        self._kept = kept
        self._waiting: Counter[str] = Counter()  # group -> readers waiting on it now
        self._watcher: threading.Thread | None = None
        self._hurry = threading.Event()  # a hole to fill: the watcher asks now rather than at its next turn
        self._stopped = False

    @property
    def held(self) -> int:
        """How many readers wait now, in this process."""
        with self._changed:
            return sum(self._waiting.values())

    def room(self) -> bool:
        """May one more reader wait now?"""
        with self._changed:
            return not self._stopped and sum(self._waiting.values()) < self.limit

    def rang(self, events: Iterable[Heard]) -> None:
        """Events committed (by this process, or heard by the watcher), oldest first: wake
        whoever waits on their groups."""
        with self._changed:
            moved = False
            for event in events:
                moved = self._hear(event) or moved
            if moved:
                self._changed.notify_all()

    def _hear(self, event: Heard) -> bool:
        """Under the lock: one event rung. True when waiters of its group should look."""
        group, known = event.group, self._known.get(event.group)
        if known is not None and event.seq <= known:
            return False  # heard already
        if known is None or event.seq == known + 1:
            self._known[group] = event.seq
            heard = self._heard.setdefault(group, deque(maxlen=self._kept))
            heard.append(event)
            ahead = self._ahead.get(group, {})
            while self._known[group] + 1 in ahead:  # what waited behind the hole
                heard.append(ahead.pop(self._known[group] + 1))
                self._known[group] += 1
            if not ahead:
                self._ahead.pop(group, None)
            return group in self._waiting
        if group not in self._waiting:  # a hole nobody waits behind: start again from here
            self._forget(group, event.seq)
            self._heard[group].append(event)
            return False
        ahead = self._ahead.setdefault(group, {})
        ahead[event.seq] = event
        if len(ahead) > self._kept:  # too far to fill: the waiters look in the log
            self._forget(group, max(ahead))
            return True
        self._hurry.set()
        return False

    def _forget(self, group: str, version: int) -> None:
        """Under the lock: what was heard of ``group`` up to ``version`` is not known event by
        event (a waiter from before then looks in the log)."""
        self._known[group] = version
        self._heard[group] = deque(maxlen=self._kept)
        self._ahead.pop(group, None)

    def wait(self, group: str, past: int, seconds: float, concerns: Concerns) -> tuple[bool, int]:
        """Wait at most ``seconds`` for ``group`` to append, after version ``past``, an event
        that ``concerns`` the reader: (True, the version heard of) once it has; (False, the
        version heard of) when the time ran out, the bell stopped, or ``limit`` readers
        already wait (this one then returns at once)."""
        deadline = time.monotonic() + seconds
        self._catch_up(group, past)
        with self._changed:
            looked = past
            if self._news(group, looked, concerns):
                return True, self._known[group]
            looked = max(looked, self._known[group])
            if self._stopped or sum(self._waiting.values()) >= self.limit:
                return False, looked
            self._waiting[group] += 1
            self._start_watcher()
            try:
                while not self._stopped:
                    if self._news(group, looked, concerns):
                        return True, self._known[group]
                    looked = max(looked, self._known[group])
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._changed.wait(left)
                return False, looked
            finally:
                self._waiting[group] -= 1
                if not self._waiting[group]:
                    del self._waiting[group]

    def _catch_up(self, group: str, past: int) -> None:
        """The reader read version ``past`` from the store, further than this process has
        heard (another process's write the watcher has not asked about yet, or this one's
        that has not rung yet): hear what lies between now, with one query, so that each
        waiter learns whether it concerns them. (Waking every waiter of the group instead
        had them all draw their parts again for a write at one table: with 64 phones and
        two workers that happened on most writes.) A gap longer than the bell keeps, or one
        the store cannot say now, is forgotten: the waiters from before it look in the log."""
        with self._changed:
            known = self._known.get(group)
        if known is not None and known < past:
            try:
                gap = self._since(group, known) if past - known <= self._kept else []
            except Exception:  # the store cannot say now: as if the gap were too long
                gap = []
            self.rang(gap)
        with self._changed:
            if self._known.get(group, -1) < past:  # still short of what the reader saw
                self._forget(group, past)
                self._changed.notify_all()

    def _news(self, group: str, after: int, concerns: Concerns) -> bool:
        """Has the bell heard of an event of ``group`` after ``after`` that concerns the
        reader? When what it kept does not reach back that far, it says yes: the reader looks."""
        if self._known.get(group, 0) <= after:
            return False
        heard = self._heard.get(group)
        if not heard or heard[0].seq > after + 1:
            return True
        return any(event.seq > after and concerns(event) for event in reversed(heard))

    def stop(self) -> None:
        """Wake every waiter now and take no more (the process is stopping)."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        self._hurry.set()

    def _start_watcher(self) -> None:
        """Under the lock: a watcher, unless one runs (it says it ends under the lock too, so
        that a waiter never counts on a watcher that is on its way out)."""
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="bitka-bell", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        """Ask the store for the heads of the groups waited on, and for the events after what
        this process heard, while anyone waits (at once when a write rang past a hole); the
        thread ends once nobody has waited for a while (the next waiter starts another)."""
        idle = 0
        while True:
            self._hurry.wait(self.every)
            self._hurry.clear()
            with self._changed:
                known = {group: self._known.get(group, 0) for group in self._waiting}
                if self._stopped or not known and idle >= 50:
                    self._watcher = None
                    return
            if not known:
                idle += 1
                continue
            idle = 0
            try:
                heads = self._heads(list(known))
                for group, version in heads.items():
                    if version > known[group]:
                        self.rang(self._since(group, known[group]))
            except Exception:  # the store cannot be reached for a moment: the waiters' time still runs
                continue
