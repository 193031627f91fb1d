"""The group row: name, currency, members and how many tables it opened (a pure fold).

The tables themselves are in rows of their own (projections/group_tables.py), so that the
many reads that want the group's name or members do not read every table. The group's
version is not kept here either: it is the last seq, read from the log's index.
"""
from __future__ import annotations

from events.money import minor_digits
from events.pay_details import FIELDS as PAY_FIELDS

NAME = "group"
EVENTS = frozenset({"group_created", "group_updated", "member_added", "table_opened", "pay_details"})
CONFIRMATIONS = ("payers", "off")  # who must confirm a settlement before it counts: a payer, or nobody


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        row = {"id": event.group, "name": d["name"], "currency": d["currency"],
               "digits": minor_digits(d["currency"]), "members": [], "table_count": 0,
               "created_at": event.recorded_at}
        return dict(row, confirmations=d["confirmations"]) if "confirmations" in d else row
    if row is None:
        return None
    if event.type == "group_updated":
        return dict(row, **{k: d[k] for k in ("confirmations",) if k in d})
    if event.type == "member_added":
        return dict(row, members=[*row["members"], {"id": d["member"], "name": d["name"]}])
    if event.type == "table_opened":
        return dict(row, table_count=row["table_count"] + 1)
    if event.type == "pay_details":  # how a member takes money, kept whole: what it leaves out is cleared
        kept = {k: d[k] for k in PAY_FIELDS if k in d}
        paid_to = {m: v for m, v in row.get("pay_to", {}).items() if m != d["member"]}
        return dict(row, pay_to={**paid_to, d["member"]: kept} if kept else paid_to)
    return row


def confirmations(row: dict) -> str:
    """The group's setting: ``payers`` (the default) or ``off``."""
    return row.get("confirmations", "payers")


def pay_to(row: dict, member: str) -> dict:
    """How ``member`` takes money (events/pay_details.py): ``{"iban", "name", "pix", "blik"}``,
    the ones they gave."""
    return row.get("pay_to", {}).get(member, {})


def member_name(row: dict, member: str) -> str:
    return next((m["name"] for m in row["members"] if m["id"] == member), member)


def member_names(row: dict) -> dict[str, str]:
    """Each member's name by id: for naming many at once (``member_name`` looks through the list)."""
    return {m["id"]: m["name"] for m in row["members"]}
