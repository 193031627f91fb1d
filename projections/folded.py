"""Hands as this process last folded them, so that a trick does not fold its hand from the
deal again: each is kept with the seq and hash of the last event folded into it.

A kept hand is used only while the log still holds that event with that hash: the hash
chains every event before it, so the same hash there means the same events up to it. Then
only the hand's newer events are folded on. A write that was rolled back, a store replaced
by another, or a log tampered with leaves another hash (or none) at that seq, and the hand
is folded from its deal again. The models are frozen values, so threads share them.

Only hands in play are kept: a settled or voided hand is dropped, so that what the process keeps is
about as large as the number of tables playing, not a heap of finished hands that the
garbage collector would walk through again and again.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from .hands import HandModel, apply

SIZE = 2048  # hands kept per process: many more than the tables a server plays at once


class FoldedHands:
    def __init__(self, size: int = SIZE):
        self.size = size
        self._kept: OrderedDict[tuple[str, str], tuple[int, str, HandModel]] = OrderedDict()
        self._lock = threading.Lock()

    def model(self, reader, group: str, hand: str) -> HandModel | None:
        """The hand folded from its events as ``reader`` sees them; None when it has none."""
        with self._lock:
            kept = self._kept.get((group, hand))
        model, after = None, 0
        if kept is not None and reader.hash_at(group, kept[0]) == kept[1]:
            after, digest, model = kept
        newer = reader.hand_events(group, hand, after)
        if not newer:
            return model
        for envelope in newer:
            model = apply(model, envelope)
        last = newer[-1]
        with self._lock:
            if model.settlement is not None or model.voided is not None:  # over: little follows
                self._kept.pop((group, hand), None)
                return model
            self._kept[(group, hand)] = (last.seq, last.hash, model)
            self._kept.move_to_end((group, hand))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return model

    def __len__(self) -> int:
        return len(self._kept)


HANDS = FoldedHands()
