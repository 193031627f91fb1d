"""Kept rows built from the log for a store set up from before they were kept: what a
migration names (``events/migrations.py`` ``Migration.rebuilt``) and the service and the
command line pass to ``StoreBase.setup`` as ``rebuild``, since the events layer does not
fold what the projections keep."""
from __future__ import annotations

from events.store import Writer
from events.types import EVENT_TYPES

from . import (balance_steps, balances, evenings, group_tables, groups, member_stats, standings_row, table_kinds,
               tables, tournament_cards, tournaments)

# The group's row and its order of tables, built together from the events that make them.
GROUP_ROWS = (groups.NAME, group_tables.ORDER, group_tables.PLACE)


def rebuild(w: Writer, names: tuple[str, ...]) -> None:
    """Build the kept rows ``names`` of every group from what the store holds, in the
    caller's transaction (a migration's)."""
    for group in w.group_ids():
        if balance_steps.NAME in names:
            moves = (env for env in w.scan(group) if env.type in balances.EVENTS)
            row = balance_steps.rebuilt(moves, balances.apply)
            if row is not None:
                w.put_row(balance_steps.NAME, group, "", row)
        if table_kinds.NAME in names:
            counted: dict[str, int] = {}
            for table in w.rows("table", group).values():
                kind = table_kinds.of_table(table)
                counted[kind] = counted.get(kind, 0) + 1
            for kind, count in counted.items():
                w.put_row(table_kinds.NAME, group, kind, {"tables": count})
        if set(GROUP_ROWS) & set(names):
            _group_rows(w, group)
        if evenings.NAME in names:
            _evening_rows(w, group)
        if member_stats.NAME in names:
            _stats_rows(w, group)
        if tournament_cards.CARD in names:
            _card_rows(w, group)


def _group_rows(w: Writer, group: str) -> None:
    """The group's row (which listed its tables until schema 7, PostgreSQL 6) and a row of
    its order of tables for each table, folded from the events that make them."""
    row = None
    for env in w.scan(group, unread=EVENT_TYPES - groups.EVENTS - group_tables.EVENTS):
        if env.type in groups.EVENTS:
            row = groups.apply(row, env)
        if env.type in group_tables.EVENTS:
            w.put_row(group_tables.ORDER, group, group_tables.order_key(env.seq), group_tables.ordered(None, env))
            w.put_row(group_tables.PLACE, group, env.table, group_tables.placed(None, env))
    if row is not None:
        w.put_row(groups.NAME, group, "", row)


def _evening_rows(w: Writer, group: str) -> None:
    """Each hand's row of when it ended and what it pays, and the rows kept by time made
    from them (projections/evenings.py), folded from the events that make them."""
    hands = evenings.folded(w.scan(group, unread=EVENT_TYPES - {"settlement", "correction"}))
    for hand, row in hands.items():
        w.put_row(evenings.NAME, group, hand, row)
    places = {table: row["at"] for (_group, table), row in w.rows(group_tables.PLACE, group).items()}
    digits = (w.row(balances.NAME, group, "") or {}).get("digits", 2)
    for (name, key), row in evenings.rebuilt(hands, places, digits).items():
        w.put_row(name, group, key, row)


def _stats_rows(w: Writer, group: str) -> None:
    """Each hand's and member's rows of what the group's statistics show
    (projections/member_stats.py), folded from the events the balances fold reads."""
    seats: dict[str, dict | None] = {}

    def table(key: str) -> dict | None:
        if key not in seats:
            seats[key] = w.row(tables.NAME, group, key)
        return seats[key]
    moves = w.scan(group, unread=EVENT_TYPES - balances.EVENTS)
    for (name, key), row in member_stats.rebuilt(moves, table).items():
        w.put_row(name, group, key, row)


def _card_rows(w: Writer, group: str) -> None:
    """Each tournament's card and its players' seats (projections/tournament_cards.py), from
    its row and its standings' totals (made from its tables where the store has none)."""
    for (_group, key), tournament in w.rows(tournaments.NAME, group).items():
        totals = w.row(standings_row.NAME, group, key)
        if totals is None and tournament["drawn_rounds"]:
            drawn = [table for _round, table in standings_row.tables_drawn(tournament)]
            totals = standings_row.build(tournament, w.rows_of(tournaments.SCORE, group, drawn)).totals
        finished = totals["finished"] if totals else []
        for (name, row_key), row in tournament_cards.every_row(tournament, finished).items():
            w.put_row(name, group, row_key, row)
