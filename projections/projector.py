"""Keeps every projection's rows in step with the log, inside the append's transaction.

The same code runs live (rows in the store, written with the events) and in ``replay``
(rows in memory, rebuilt from position 0), so that the two can be compared row by row.
"""
from __future__ import annotations

from typing import Protocol, Sequence

from events.types import HAND_EVENTS
from . import balances, groups, hands, tables

FOLDS = {groups.NAME: groups.apply, tables.NAME: tables.apply, balances.NAME: balances.apply}
HAND = "hand"
POSITION = "all"


class Rows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def put_row(self, name: str, group: str, key: str, data: dict) -> None: ...
    def hand_events(self, group: str, hand: str) -> list: ...
    def mark_position(self, name: str, position: int) -> None: ...


def row_key(name: str, event) -> str | None:
    """The row of projection ``name`` that ``event`` touches (tables: one row per table)."""
    if name == tables.NAME:
        return event.table
    return ""


def project(rows: Rows, envelopes: Sequence) -> None:
    """Fold ``envelopes`` (already in the log) into the rows they touch."""
    cache: dict[tuple[str, str, str], dict | None] = {}
    touched_hands: dict[tuple[str, str], None] = {}
    for env in envelopes:
        for name, fold in FOLDS.items():
            key = row_key(name, env)
            if key is None:
                continue
            at = (name, env.group, key)
            if at not in cache:
                cache[at] = rows.row(*at)
            cache[at] = fold(cache[at], env)
        if env.type in HAND_EVENTS and env.hand:
            touched_hands[(env.group, env.hand)] = None
    for (name, group, key), data in cache.items():
        if data is not None:
            rows.put_row(name, group, key, data)
    for group, hand in touched_hands:
        model = hands.fold(rows.hand_events(group, hand))
        rows.put_row(HAND, group, hand, hands.render(model))
    if envelopes:
        rows.mark_position(POSITION, envelopes[-1].position)
