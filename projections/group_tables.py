"""A group's tables in the order they were opened, one small row each, kept apart from the
group's row (a pure fold): a read that wants the group's name, currency or members does not
read its tables, and a list of the tables is read a page at a time.

Two rows a table: its place in the group's order (``ORDER``, keyed by the seq of its
opening, zero-padded so that the keys sort as the log does), and where that place is
(``PLACE``, keyed by the table's id: what a page that starts after a given table asks).
The group's row counts the tables (projections/groups.py).
"""
from __future__ import annotations

ORDER = "table_order"
PLACE = "table_place"
EVENTS = frozenset({"table_opened"})
WIDTH = 12  # digits of an ORDER key: seqs below 10**12 sort as numbers


def order_key(seq: int) -> str:
    """The ORDER key of the table opened at ``seq``."""
    return f"{seq:0{WIDTH}d}"


def ordered(row: dict | None, event) -> dict | None:
    """The ORDER row of the table ``event`` opened."""
    if event.type != "table_opened":
        return row
    return {"id": event.data["table"], "game": event.data["game"]}


def placed(row: dict | None, event) -> dict | None:
    """The PLACE row of the table ``event`` opened: the key of its ORDER row."""
    if event.type != "table_opened":
        return row
    return {"at": order_key(event.seq)}
