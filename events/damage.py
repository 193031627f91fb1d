"""Damage found in the stored log: the groups whose events no longer hold, as every process
serving the store knows them.

A store the service serves checks every event it reads against its hash and its link
(``verify.event_fault``); the first bad seq of each group found so (or by the whole check
``bitka serve`` makes before it serves) is kept here, and from then on every read of the
group's log and every write to it is refused with ``Damaged``: a group whose log does not
hold is never shown, nor written to, as if it did.

Under gunicorn each worker is its own process, and a request that reads no event data (a
phone asking only whether anything is new) would otherwise be answered by a worker that has
not yet met the damage another worker found. So what one process finds it also appends to a
file of notes all of them share (``shared``, one JSON line a finding, written in one append),
and each process reads the lines it has not read yet whenever the file has grown: one
``stat`` a refusal asked for.
"""
from __future__ import annotations

import json
import os
import threading
from typing import Iterable

from .errors import Damaged
from .verify import Fault, event_fault, link_fault


class DamagedGroups:
    """The first bad seq of each group found damaged, shared by a store's units of work and,
    through the file ``shared`` when given, by every process serving the store."""

    def __init__(self, found: Iterable[Fault] = (), shared: str | None = None):
        self._first: dict[str, int] = {}
        self._lock = threading.Lock()
        self._shared = shared
        self._read = 0  # bytes of ``shared`` already read
        for fault in found:
            self.note(fault)

    def note(self, fault: Fault) -> Damaged:
        """Keep ``fault`` (the lowest seq of its group wins); the error that refuses its group."""
        with self._lock:
            known = self._first.get(fault.group)
            seq = min(fault.seq, known if known is not None else fault.seq)
            self._first[fault.group] = seq
            if self._shared is not None and seq != known:
                self._tell_the_others(fault.group, seq)
        return Damaged(fault.group, seq)

    def refuse(self, group: str) -> None:
        """Raise ``Damaged`` when ``group`` is known to be damaged."""
        seq = self._known(group)
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
        return self._known(group) is not None

    def _known(self, group: str) -> int | None:
        if self._shared is not None:
            self._catch_up()
        return self._first.get(group)

    def _tell_the_others(self, group: str, seq: int) -> None:
        line = json.dumps({"group": group, "seq": seq}).encode() + b"\n"
        fd = os.open(self._shared, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)  # one write of a short line with O_APPEND: never interleaved with another's
        finally:
            os.close(fd)

    def _catch_up(self) -> None:
        """Fold in the lines other processes appended since the last read."""
        try:
            size = os.stat(self._shared).st_size
        except FileNotFoundError:
            return
        if size <= self._read:
            return
        with self._lock:
            with open(self._shared, "rb") as notes:
                notes.seek(self._read)
                chunk = notes.read(size - self._read)
            whole = chunk[:chunk.rfind(b"\n") + 1]  # a line still being written is read next time
            self._read += len(whole)
            for line in whole.splitlines():
                try:
                    found = json.loads(line)
                    group, seq = found["group"], found["seq"]
                except (ValueError, KeyError, TypeError):
                    continue  # not a line this module writes: nothing to learn from it
                if isinstance(group, str) and isinstance(seq, int):
                    self._first[group] = min(seq, self._first.get(group, seq))
