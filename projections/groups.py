"""The group row: name, currency, members and tables (a pure fold).

The group's version is not kept here: it is the last seq, read from the log's index.
"""
from __future__ import annotations

from events.money import minor_digits

NAME = "group"
EVENTS = frozenset({"group_created", "group_updated", "member_added", "table_opened"})
CONFIRMATIONS = ("payers", "off")  # who must confirm a settlement before it counts: a payer, or nobody


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        row = {"id": event.group, "name": d["name"], "currency": d["currency"],
               "digits": minor_digits(d["currency"]), "members": [], "tables": [],
               "created_at": event.recorded_at}
        return dict(row, confirmations=d["confirmations"]) if "confirmations" in d else row
    if row is None:
        return None
    if event.type == "group_updated":
        return dict(row, **{k: d[k] for k in ("confirmations",) if k in d})
    if event.type == "member_added":
        return dict(row, members=[*row["members"], {"id": d["member"], "name": d["name"]}])
    if event.type == "table_opened":
        return dict(row, tables=[*row["tables"], {"id": d["table"], "game": d["game"]}])
    return row


def confirmations(row: dict) -> str:
    """The group's setting: ``payers`` (the default) or ``off``."""
    return row.get("confirmations", "payers")


def member_name(row: dict, member: str) -> str:
    return next((m["name"] for m in row["members"] if m["id"] == member), member)
