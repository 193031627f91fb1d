"""Damage found in the stored log: the groups whose events no longer hold, as a serving
process knows them.

A store the service serves checks every event it reads against its hash and its link
(``verify.event_fault``); the first bad seq of each group found so (or by the whole check
``bitka serve`` makes before it serves) is kept here, and from then on every read of the
group's log and every write to it is refused with ``Damaged``: a group whose log does not
hold is never shown, nor written to, as if it did.
"""
from __future__ import annotations

import threading
from typing import Iterable

from .errors import Damaged
from .verify import Fault, event_fault, link_fault


class DamagedGroups:
    """The first bad seq of each group found damaged, shared by a store's units of work."""

    def __init__(self, found: Iterable[Fault] = ()):
        self._first: dict[str, int] = {}
        self._lock = threading.Lock()
        for fault in found:
            self.note(fault)

    def note(self, fault: Fault) -> Damaged:
        """Keep ``fault`` (the lowest seq of its group wins); the error that refuses its group."""
        with self._lock:
            seq = min(fault.seq, self._first.get(fault.group, fault.seq))
            self._first[fault.group] = seq
        return Damaged(fault.group, seq)

    def refuse(self, group: str) -> None:
        """Raise ``Damaged`` when ``group`` is known to be damaged."""
        seq = self._first.get(group)
        if seq is not None:
            raise Damaged(group, seq)

    def check(self, group: str, row: tuple, before: str | None) -> None:
        """Raise ``Damaged`` (and keep it) unless the stored event ``row`` holds."""
        fault = event_fault(group, row, before)
        if fault is not None:
            raise self.note(fault)

    def check_link(self, group: str, seq: int, prev_hash: str, before: str | None) -> None:
        """Raise ``Damaged`` (and keep it) unless an event whose data was not read links to the one before it."""
        fault = link_fault(group, seq, prev_hash, before)
        if fault is not None:
            raise self.note(fault)

    def __contains__(self, group: str) -> bool:
        return group in self._first
