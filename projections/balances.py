"""Every member's balance in minor units (a pure fold; the values always sum to zero), and
the settlements that do not count yet.

A balance is what the member is up (+) or down (-). A settlement counts once every member
who pays in it has agreed (projections/agreement.py): at once when the ledger decided so,
else when the last payer confirms it or the admin corrects it; until then it is ``pending``
(or ``disputed``) and kept aside, with the payers who confirmed so far. A voided hand takes its
payouts back (or is dropped from the pending), a correction moves each hand it changed by
the difference, and a payment ``from`` -> ``to`` raises ``from``.

The fold keeps the settlements that wait under the row's ``pending``, by hand; the store
keeps each in a row of its own (``pending_settlements``), and the live projector hands the
fold only those an event names (``hands_named``): all the fold ever reads or changes of
them, so that a write costs the same however many wait.
"""
from __future__ import annotations

from events.money import MAX_BALANCE, format_amount, minor_digits, parse_amount
from . import agreement

NAME = "balances"
EVENTS = frozenset({"group_created", "member_added", "settlement", "hand_voided", "confirmation", "dispute",
                    "correction", "payment", "assertion"})


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        return {"digits": minor_digits(d["currency"]), "members": {}}
    if row is None:
        return row
    digits = row["digits"]
    members = dict(row["members"])
    pending = dict(row.get("pending", {}))
    if event.type == "member_added":
        members[d["member"]] = 0
    elif event.type == "settlement":
        payouts = [[p["seat"], p["member"], parse_amount(p["amount"], digits, allow_negative=True)]
                   for p in d["payouts"]]
        if d.get("confirmed", True):
            _add(members, payouts)
        else:
            pending[event.hand] = {"state": "pending", "actor": event.actor, "table": event.table,
                                   "payouts": payouts, "confirmed": [], "seq": event.seq}
    elif event.type == "confirmation":
        entry = pending[event.hand]
        entry = dict(entry, confirmed=[*entry.get("confirmed", []), event.actor])
        if waiting(entry):
            pending[event.hand] = entry
        else:
            _add(members, pending.pop(event.hand)["payouts"])
    elif event.type == "dispute":
        entry = pending[event.hand]  # a payer who disputes takes back its word
        pending[event.hand] = dict(entry, state="disputed",
                                   confirmed=[m for m in entry.get("confirmed", []) if m != event.actor])
    elif event.type == "hand_voided":
        if pending.pop(event.hand, None) is None:
            for p in d.get("reversed", []):
                members[p["member"]] -= parse_amount(p["amount"], digits, allow_negative=True)
    elif event.type == "correction":
        _corrected(members, pending, d, digits)
    elif event.type == "payment":
        amount = parse_amount(d["amount"], digits, limit=MAX_BALANCE)
        members[d["from"]] += amount
        members[d["to"]] -= amount
    else:
        return row
    out = {"digits": digits, "members": members}
    return {**out, "pending": pending} if pending else out


def hands_named(event) -> tuple[str, ...]:
    """The hands whose waiting settlement ``event`` may read or change in the fold."""
    if event.type == "correction":
        return (*(a["hand"] for a in event.data["adjustments"]), event.data["hand"])
    if event.type in ("settlement", "confirmation", "dispute", "hand_voided"):
        return (event.hand,)
    return ()


def _add(members: dict, payouts) -> None:
    for _, member, amount in payouts:
        members[member] += amount


def _corrected(members: dict, pending: dict, d: dict, digits: int) -> None:
    """Each hand the correction changed moves by its difference, where it stands (counted,
    or still pending); the hand corrected counts from now on, whatever it was."""
    for adjustment in d["adjustments"]:
        change = [[p["seat"], p["member"], parse_amount(p["amount"], digits, allow_negative=True)]
                  for p in adjustment["payouts"]]
        held = pending.get(adjustment["hand"])
        if held is None:
            _add(members, change)
        else:
            by_seat = {seat: amount for seat, _, amount in change}
            now = dict(held, payouts=[[seat, member, amount + by_seat.get(seat, 0)]
                                      for seat, member, amount in held["payouts"]])
            if now["state"] == "pending" and not waiting(now):
                _add(members, now["payouts"])  # nobody is left to agree: it counts
                del pending[adjustment["hand"]]
            else:
                pending[adjustment["hand"]] = now
    corrected = pending.pop(d["hand"], None)
    if corrected is not None:
        _add(members, corrected["payouts"])


def pending_entry(row: dict | None, hand: str) -> dict | None:
    """The settlement of ``hand`` while it does not count yet (None once it does), in a
    balances row as the fold keeps it."""
    return (row or {}).get("pending", {}).get(hand)


def waiting(entry: dict) -> list[str]:
    """The payers of a pending settlement who have not agreed to it yet."""
    payers = [member for _, member, amount in entry["payouts"] if amount < 0]
    return agreement.waiting_for(payers, entry["actor"], entry.get("confirmed", ()))


def pending_view(row: dict | None) -> list[dict]:
    """The settlements that do not count yet in a balances row as the fold keeps it, as
    API.md lists them under ``pending``."""
    if not row:
        return []
    return listed(in_log_order(row.get("pending", {})), row["digits"])


def listed(entries, digits: int) -> list[dict]:
    """(hand, entry) pairs of waiting settlements (as the store keeps them, in log order), as
    API.md lists them under ``pending``."""
    return [{"hand": hand, "state": entry["state"], "table": entry["table"],
             "payouts": [{"seat": seat, "member": member, "amount": format_amount(amount, digits)}
                         for seat, member, amount in entry["payouts"]],
             "waiting_for": waiting(entry), "confirmed_by": list(entry.get("confirmed", []))}
            for hand, entry in entries]


def in_log_order(pending: dict) -> list[tuple[str, dict]]:
    """The pending settlements as they were logged (a stored row keeps its keys sorted)."""
    return sorted(pending.items(), key=lambda item: item[1].get("seq", 0))


def disagreement(row: dict | None, assertion: dict) -> str | None:
    """The one check of an agreed balance (``{"member", "balance"}``) against the balances
    ``row`` gives at that point: None when it holds, else the balance the log gives. The
    ledger refuses an assertion with it; replay and verify re-check every one with it."""
    if row is None:
        return None
    agreed = parse_amount(assertion["balance"], row["digits"], allow_negative=True, limit=MAX_BALANCE)
    actual = row["members"].get(assertion["member"])
    if actual == agreed:
        return None
    return "nothing" if actual is None else format_amount(actual, row["digits"])
