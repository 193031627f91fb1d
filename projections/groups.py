"""The group row: name, currency, members and tables (a pure fold)."""
from __future__ import annotations

from events.money import minor_digits

NAME = "group"


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        return {"id": event.group, "name": d["name"], "currency": d["currency"],
                "digits": minor_digits(d["currency"]), "members": [], "tables": [],
                "created_at": event.recorded_at, "version": event.seq}
    if row is None:
        return None
    row = dict(row, version=event.seq)
    if event.type == "member_added":
        row["members"] = [*row["members"], {"id": d["member"], "name": d["name"]}]
    elif event.type == "table_opened":
        row["tables"] = [*row["tables"], {"id": d["table"], "game": d["game"]}]
    return row


def member_name(row: dict, member: str) -> str:
    return next((m["name"] for m in row["members"] if m["id"] == member), member)
