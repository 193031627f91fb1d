"""Every member's balance in minor units (a pure fold; the values always sum to zero).

A balance is what the member is up (+) or down (-). Settlements add their payouts, a
voided hand takes its payouts back, and a payment ``from`` -> ``to`` raises ``from``.
"""
from __future__ import annotations

from events.money import format_amount, minor_digits, parse_amount

NAME = "balances"
EVENTS = frozenset({"group_created", "member_added", "settlement", "hand_voided", "payment", "assertion"})


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        return {"digits": minor_digits(d["currency"]), "members": {}}
    if row is None:
        return row
    digits = row["digits"]
    members = dict(row["members"])
    if event.type == "member_added":
        members[d["member"]] = 0
    elif event.type == "settlement":
        for p in d["payouts"]:
            members[p["member"]] += parse_amount(p["amount"], digits, allow_negative=True)
    elif event.type == "hand_voided":
        for p in d.get("reversed", []):
            members[p["member"]] -= parse_amount(p["amount"], digits, allow_negative=True)
    elif event.type == "payment":
        amount = parse_amount(d["amount"], digits)
        members[d["from"]] += amount
        members[d["to"]] -= amount
    else:
        return row
    return {"digits": digits, "members": members}


def disagreement(row: dict | None, assertion: dict) -> str | None:
    """The one check of an agreed balance (``{"member", "balance"}``) against the balances
    ``row`` gives at that point: None when it holds, else the balance the log gives. The
    ledger refuses an assertion with it; replay and verify re-check every one with it."""
    if row is None:
        return None
    agreed = parse_amount(assertion["balance"], row["digits"], allow_negative=True)
    actual = row["members"].get(assertion["member"])
    if actual == agreed:
        return None
    return "nothing" if actual is None else format_amount(actual, row["digits"])
