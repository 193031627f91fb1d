"""Checking a log against itself: every seq present, every hash recomputed, every link held.

Works on a stream of events (stored rows or envelopes: anything with ``canonical()``) in
(group, seq) order and keeps only the current group's
last hash, so a log of any size is checked in constant memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import hashlib

from .canonical import GENESIS
from .types import EVENT_TYPES


@dataclass(frozen=True)
class Fault:
    group: str
    seq: int
    reason: str

    def __str__(self) -> str:
        return f"group {self.group}: first bad seq {self.seq}: {self.reason}"


def faults(envelopes: Iterable, on_event=None) -> Iterator[Fault]:
    """The first fault of each group whose chain does not hold."""
    group, expected, prev, broken = None, 1, GENESIS, False
    for env in envelopes:
        if on_event is not None:
            on_event(env)
        if env.group != group:
            group, expected, prev, broken = env.group, 1, GENESIS, False
        if broken:
            continue
        reason = _check(env, expected, prev)
        if reason:
            broken = True
            yield Fault(env.group, expected if env.seq > expected else env.seq, reason)
            continue
        expected, prev = env.seq + 1, env.hash


def _check(env, expected: int, prev: str) -> str | None:
    if env.seq != expected:
        return f"seq {expected} is missing (the next stored event is seq {env.seq})"
    if env.type not in EVENT_TYPES:
        return f"{env.type!r} is not an event type"
    if env.prev_hash != prev:
        return "its prev_hash is not the hash of the event before it"
    if hashlib.sha256(env.canonical()).hexdigest() != env.hash:
        return "its contents do not match its hash (the event was changed after it was written)"
    return None
