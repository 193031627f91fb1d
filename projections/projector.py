"""Keeps every projection's rows in step with the log, inside the append's transaction.

Each projection is a pure fold ``apply(row, event) -> row`` keyed by one row per group,
table or hand, and names the event types it folds (``EVENTS``): an event reaches only the
folds that want it. A fold that returns the very row it was given changed nothing, and
nothing is written. ``replay`` runs the same folds over the whole log and compares.
"""
from __future__ import annotations

from typing import Protocol, Sequence

from events.types import EVENT_TYPES, HAND_EVENTS
from . import balances, groups, hands, tables

FOLDS = {groups.NAME: groups.apply, tables.NAME: tables.apply, balances.NAME: balances.apply,
         hands.NAME: hands.summarize}
_WANTED = {groups.NAME: groups.EVENTS, tables.NAME: tables.EVENTS, balances.NAME: balances.EVENTS,
           hands.NAME: hands.EVENTS}
ROUTES: dict[str, tuple] = {kind: tuple((name, fold) for name, fold in FOLDS.items() if kind in _WANTED[name])
                            for kind in EVENT_TYPES}
# Event types whose data no projection row reads: a replay of the rows may skip parsing it.
DATA_UNREAD = EVENT_TYPES - groups.EVENTS - tables.EVENTS - balances.EVENTS - hands.READS_DATA_OF
POSITION = "all"


class Rows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def put_row(self, name: str, group: str, key: str, data: dict) -> None: ...
    def mark_position(self, name: str, position: int) -> None: ...


def row_key(name: str, event) -> str | None:
    """The row of projection ``name`` that ``event`` touches, or None."""
    if name == tables.NAME:
        return event.table
    if name == hands.NAME:
        return event.hand if event.type in HAND_EVENTS else None
    return ""


def project(rows: Rows, envelopes: Sequence) -> None:
    """Fold ``envelopes`` (already in the log) into the rows they touch."""
    before: dict[tuple[str, str, str], dict | None] = {}
    after: dict[tuple[str, str, str], dict | None] = {}
    for env in envelopes:
        for name, fold in ROUTES.get(env.type, ()):
            key = row_key(name, env)
            if key is None:
                continue
            at = (name, env.group, key)
            if at not in after:
                before[at] = after[at] = rows.row(*at)
            after[at] = fold(after[at], env)
    for at, data in after.items():
        if data is not None and data is not before[at]:
            rows.put_row(*at, data)
    if envelopes:
        rows.mark_position(POSITION, envelopes[-1].position)
