"""The bell: within one process, a reader waits until its group's log appends an event that
concerns it (of its table, say), and is woken as soon as one is committed.

The bell keeps, for each group someone waits on, the newest version it has heard of and the
last events it heard of (their seq, table and type: never their data). A write committed by
this process rings it at once with the events it appended. A write committed by another
process (gunicorn's other workers, another server on the same PostgreSQL store) is heard by
one watcher thread per process, which asks the store for the heads of the groups someone
waits on every ``every`` seconds, and only while someone waits (one indexed lookup of a few
groups, whatever the store holds), then for the events after the version it knew. Each
waiter then looks at those events in memory: a write elsewhere in the group costs a waiter
no query.

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
        self._known: dict[str, int] = {}  # the newest version heard of, per group
        self._heard: dict[str, deque[Heard]] = {}  # the last ``kept`` events heard of, per group
        self._kept = kept
        self._waiting: Counter[str] = Counter()  # group -> readers waiting on it now
        self._watcher: threading.Thread | None = None
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
                if event.seq > self._known.get(event.group, 0):
                    self._known[event.group] = event.seq
                    self._heard.setdefault(event.group, deque(maxlen=self._kept)).append(event)
                    moved = moved or event.group in self._waiting
            if moved:
                self._changed.notify_all()

    def wait(self, group: str, past: int, seconds: float, concerns: Concerns) -> tuple[bool, int]:
        """Wait at most ``seconds`` for ``group`` to append, after version ``past``, an event
        that ``concerns`` the reader: (True, the version heard of) once it has; (False, the
        version heard of) when the time ran out, the bell stopped, or ``limit`` readers
        already wait (this one then returns at once)."""
        deadline = time.monotonic() + seconds
        with self._changed:
            if self._known.get(group, -1) < past:  # the reader has seen further than this process heard
                self._known[group] = past
                self._heard.pop(group, None)
                self._changed.notify_all()  # those waiting behind it look again (they cannot know what they missed)
            looked = past
            if self._news(group, looked, concerns):
                return True, self._known[group]
            looked = self._known[group]
            if self._stopped or sum(self._waiting.values()) >= self.limit:
                return False, looked
            self._waiting[group] += 1
            self._start_watcher()
            try:
                while not self._stopped:
                    if self._news(group, looked, concerns):
                        return True, self._known[group]
                    looked = self._known[group]
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._changed.wait(left)
                return False, self._known[group]
            finally:
                self._waiting[group] -= 1
                if not self._waiting[group]:
                    del self._waiting[group]

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

    def _start_watcher(self) -> None:
        """Under the lock: a watcher, unless one runs (it says it ends under the lock too, so
        that a waiter never counts on a watcher that is on its way out)."""
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="bitka-bell", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        """Ask the store for the heads of the groups waited on, and for the events after what
        this process heard, while anyone waits; the thread ends once nobody has waited for a
        while (the next waiter starts another)."""
        idle = 0
        while True:
            time.sleep(self.every)
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
