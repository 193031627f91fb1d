"""How many tables of a group are of each kind: one game, played the same way (its rules),
by as many players, at one stake (a pure fold, one row per kind). A table's title names its
players only where another table of its kind is in the group, and asks this row whether
there is one, rather than reading every table's row.
"""
from __future__ import annotations

import hashlib
import json

NAME = "table_kind"
EVENTS = frozenset({"table_opened"})


def kind(game: str, rules: dict, seats: int, stake: str) -> str:
    """A kind's key: the same for two tables opened alike, whatever order their rules were given in."""
    said = json.dumps([game, rules, seats, stake], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:32]


def of_table(row: dict) -> str:
    """The kind of a table, from its row (projections/tables.py)."""
    return kind(row["game"], row["rules"], len(row["seats"]), row["stake"])


def key(event) -> str:
    d = event.data
    return kind(d["game"], d["rules"], len(d["seats"]), d["stake"])


def apply(row: dict | None, event) -> dict | None:
    if event.type != "table_opened":
        return row
    return {"tables": (row or {}).get("tables", 0) + 1}
