"""Checking a log against itself: every seq present, every hash recomputed, every link held.

Works on a stream of stored rows in (group, seq) order: tuples of (group, seq, type, hand,
table, data_json, actor, recorded_at, prev_hash, hash), ``data_json`` being the canonical
JSON text the store keeps. Only the current group's last hash is held, so a log of any
size is checked in constant memory; the loop is kept tight because it runs over every
event ever logged.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .canonical import GENESIS, canonical_bytes, quote
from .types import EVENT_TYPES


_QUOTED_TYPES = {t: quote(t) for t in EVENT_TYPES}
_QUOTED_GENESIS = quote(GENESIS)
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


def faults(rows: Iterable[tuple], on_event: Callable[[tuple], None] | None = None,
           start: tuple[int, str | None] = (1, GENESIS)) -> Iterator[Fault]:
    """The first fault of each group whose chain does not hold.

    ``start`` is the seq and previous hash the first group's rows begin from: (1, zeros)
    for a whole log, or where a slice of one group's log begins.

    The canonical text is written here rather than by ``envelope_text`` (whose output it
    must equal, as a test checks): this loop runs for every event ever logged, and what it
    can it quotes once: the group, each type, each actor, and the previous hash, which is a
    digest this loop itself computed and matched."""
    sha256, types = hashlib.sha256, _QUOTED_TYPES
    group, quoted_group, broken, actors = None, "", False, {}
    expected, prev = start
    quoted_prev = quote(prev) if prev is not None else ""
    for row in rows:
        if on_event is not None:
            on_event(row)
        g, seq, kind, hand, table, data_json, actor, at, prev_hash, digest = row
        if g != group:
            if group is not None:
                expected, prev, quoted_prev = 1, GENESIS, _QUOTED_GENESIS
            group, quoted_group, broken, actors = g, quote(g), False, {}
        if broken:
            continue
        quoted_type = types.get(kind)
        if seq != expected or prev_hash != prev or quoted_type is None:
            broken = True
            yield Fault(g, min(seq, expected), _reason(seq, expected, prev_hash, prev, kind))
            continue
        quoted_actor = actors.get(actor)
        if quoted_actor is None:
            quoted_actor = actors[actor] = quote(actor)
        hand_part = "" if hand is None else _HAND_KEY + quote(hand)
        table_part = "" if table is None else _TABLE_KEY + quote(table)
        text = (f'{{"actor":{quoted_actor},"data":{data_json},"group":{quoted_group}{hand_part},'
                f'"prev_hash":{quoted_prev},"recorded_at":{quote(at)},"seq":{seq}{table_part},'
                f'"type":{quoted_type}}}')
        if sha256(text.encode("utf-8")).hexdigest() != digest:
            broken = True
            yield Fault(g, seq, _reason(seq, expected, prev_hash, prev, kind))
            continue
        expected, prev, quoted_prev = seq + 1, digest, f'"{digest}"'


def _reason(seq: int, expected: int, prev_hash: str, prev: str, kind: str) -> str:
    if seq != expected:
        return f"seq {expected} is missing (the next stored event is seq {seq})"
    if prev_hash != prev:
        return "its prev_hash is not the hash of the event before it"
    if kind not in EVENT_TYPES:
        return f"{kind!r} is not an event type"
    return "its contents do not match its hash (the event was changed after it was written)"


def check_range(reader, group: str, first: int, last: int,
                on_event: Callable[[tuple], None] | None = None) -> Fault | None:
    """The first fault among seqs ``first``..``last`` of one group, links into it included.

    Slices of one log can be checked side by side: a group's first bad seq is the lowest
    that any of its slices reports."""
    prev = GENESIS if first == 1 else reader.hash_at(group, first - 1)
    for fault in faults(reader.scan_raw(group, first, last), on_event, start=(first, prev)):
        return fault
    seen, last_seq = reader.span(group, first, last)
    if seen < last - first + 1:
        return Fault(group, last_seq + 1, f"seq {last_seq + 1} is missing")
    return None
