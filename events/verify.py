"""Checking a log against itself: every seq present, every hash recomputed, every link held.

Works on stored rows in (group, seq) order, ``data_json`` being the canonical JSON text the
store keeps. Only the current group's last hash is held, so a log of any size is checked
in constant memory; the loop is kept tight because it runs over every event ever logged.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Callable, Iterable, Iterator

from .canonical import GENESIS, canonical_bytes, quote
from .types import EVENT_TYPES


_QUOTED_TYPES = {t: quote(t) for t in EVENT_TYPES}
_HAND_KEY, _TABLE_KEY = ',"hand":', ',"table":'


@dataclass(frozen=True)
class Fault:
    group: str
    seq: int
    reason: str

    def __str__(self) -> str:
        return f"group {self.group}: first bad seq {self.seq}: {self.reason}"


def raw(env) -> tuple:
    """An envelope (say, a line of an export) as the row ``faults`` checks."""
    return (env.group, env.seq, env.type, env.hand, env.table, canonical_bytes(env.data).decode("utf-8"),
            env.actor, env.recorded_at, env.prev_hash, env.hash)


def faults(rows: Iterable[tuple], on_event: Callable[[tuple], None] | None = None) -> Iterator[Fault]:
    """The first fault of each group whose chain does not hold, in a stream of whole rows
    (a file being imported, say); ``on_event`` sees each row that is checked."""
    for group, members in groupby(rows, key=itemgetter(0)):
        fault = group_faults(_without_group(members, on_event), group)
        if fault is not None:
            yield fault


def _without_group(rows: Iterable[tuple], on_event) -> Iterator[tuple]:
    for row in rows:
        if on_event is not None:
            on_event(row)
        yield row[1:]


def group_faults(rows: Iterable[tuple], group: str, first: int = 1, prev: str | None = GENESIS) -> Fault | None:
    """The first fault among one group's rows from seq ``first`` on, ``prev`` being the hash
    before it: rows of (seq, type, hand, table, data_json, actor, recorded_at, prev_hash, hash).

    The group is known here, so it is not read with every row (verify runs a twentieth
    faster for it). The canonical text is written inline rather than by ``envelope_text``
    (whose output it must equal, as a test checks), and what can be is quoted once: the
    group, each type, each actor, and the previous hash, which is a digest this loop itself
    computed and matched."""
    sha256, types = hashlib.sha256, _QUOTED_TYPES
    quoted_group, actors, expected = quote(group), {}, first
    quoted_prev = quote(prev) if prev is not None else ""
    for seq, kind, hand, table, data_json, actor, at, prev_hash, digest in rows:
        quoted_type = types.get(kind)
        if seq != expected or prev_hash != prev or quoted_type is None:
            return Fault(group, min(seq, expected), _reason(seq, expected, prev_hash, prev, kind))
        quoted_actor = actors.get(actor)
        if quoted_actor is None:
            quoted_actor = actors[actor] = quote(actor)
        hand_part = "" if hand is None else _HAND_KEY + quote(hand)
        table_part = "" if table is None else _TABLE_KEY + quote(table)
        text = (f'{{"actor":{quoted_actor},"data":{data_json},"group":{quoted_group}{hand_part},'
                f'"prev_hash":{quoted_prev},"recorded_at":{quote(at)},"seq":{seq}{table_part},'
                f'"type":{quoted_type}}}')
        if sha256(text.encode("utf-8")).hexdigest() != digest:
            return Fault(group, seq, "its contents do not match its hash (the event was changed after it was written)")
        expected, prev, quoted_prev = seq + 1, digest, f'"{digest}"'
    return None


def event_fault(group: str, row: tuple, before: str | None) -> Fault | None:
    """One stored event checked as it is read, apart from the rest of its group: ``row`` as
    ``group_faults`` reads it, ``before`` the stored hash of the event before it (None when
    there is none). Its hash is recomputed from its stored contents, and its link checked."""
    return link_fault(group, row[0], row[7], before) or group_faults((row,), group, row[0], before or GENESIS)


def link_fault(group: str, seq: int, prev_hash: str, before: str | None) -> Fault | None:
    """Whether an event read links to the one before it (``before``: its stored hash, None
    when there is none): what can be checked of an event whose data was not read."""
    if seq > 1 and before is None:
        return Fault(group, seq - 1, f"seq {seq - 1} is missing (the next stored event is seq {seq})")
    if prev_hash != (before if seq > 1 else GENESIS):
        return Fault(group, seq, "its prev_hash is not the hash of the event before it")
    return None


def _reason(seq: int, expected: int, prev_hash: str, prev: str | None, kind: str) -> str:
    if seq != expected:
        return f"seq {expected} is missing (the next stored event is seq {seq})"
    if prev_hash != prev:
        return "its prev_hash is not the hash of the event before it"
    return f"{kind!r} is not an event type"


def check_range(reader, group: str, first: int, last: int) -> Fault | None:
    """The first fault among seqs ``first``..``last`` of one group, links into it included.

    Slices of one log can be checked side by side: a group's first bad seq is the lowest
    that any of its slices reports."""
    prev = GENESIS if first == 1 else reader.hash_at(group, first - 1)
    fault = group_faults(reader.chain_rows(group, first, last), group, first, prev)
    if fault is not None:
        return fault
    seen, last_seq = reader.span(group, first, last)
    if seen < last - first + 1:
        return Fault(group, last_seq + 1, f"seq {last_seq + 1} is missing")
    return None
