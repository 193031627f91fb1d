"""Kept rows built from the log for a store set up from before they were kept: what a
migration names (``events/migrations.py`` ``Migration.rebuilt``) and the service and the
command line pass to ``StoreBase.setup`` as ``rebuild``, since the events layer does not
fold what the projections keep."""
from __future__ import annotations

from events.store import Writer

from . import balance_steps, balances, table_kinds


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
