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
                    "correction", "agreement", "payment", "payment_received", "assertion"})


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "group_created":
        return {"digits": minor_digits(d["currency"]), "members": {}}
    if row is None:
        return row
    digits = row["digits"]
    members = dict(row["members"])
    pending = dict(row.get("pending", {}))
    kept = {k: dict(row.get(k, {})) for k in KEPT}  # payments and corrections that wait for a member's word
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
            change = [[p["seat"], p["member"], -parse_amount(p["amount"], digits, allow_negative=True)]
                      for p in d.get("reversed", [])]
            _changed(members, kept["corrections"], event, [[event.hand, change]])
    elif event.type == "correction":
        _changed(members, kept["corrections"], event, _corrected(members, pending, d, digits))
    elif event.type == "agreement":
        entry = kept["corrections"][str(d["seq"])]
        entry = dict(entry, agreed=[*entry["agreed"], event.actor])
        if [m for m in entry["waiting_for"] if m not in entry["agreed"]]:
            kept["corrections"][str(d["seq"])] = entry
        else:
            del kept["corrections"][str(d["seq"])]
            for _, change in entry["changes"]:
                _add(members, change)
    elif event.type == "payment":
        amount = parse_amount(d["amount"], digits, limit=MAX_BALANCE)
        if d.get("pending"):  # it counts once its receiver signs for it
            kept["payments"][str(event.seq)] = [d["from"], d["to"], amount]
        else:
            members[d["from"]] += amount
            members[d["to"]] -= amount
    elif event.type == "payment_received":
        src, dst, amount = kept["payments"].pop(str(d["seq"]))
        members[src] += amount
        members[dst] -= amount
    else:
        return row
    out = {"digits": digits, "members": members, **{k: v for k, v in kept.items() if v}}
    return {**out, "pending": pending} if pending else out


KEPT = ("payments", "corrections")


def _changed(members: dict, waiting: dict, event, changes: list) -> None:
    """What a correction or a void changes in the hands that count: at once when it lowers
    nobody, or when it was logged before members' word was asked for it (no ``waits_for``);
    else kept aside until each member it lowers agrees (``agreement``)."""
    if "waits_for" not in event.data or not event.data["waits_for"]:
        for _, change in changes:
            _add(members, change)
        return
    waiting[str(event.seq)] = {"hand": event.hand, "table": event.table, "changes": changes,
                               "waiting_for": list(event.data["waits_for"]), "agreed": []}


def lowered(row: dict | None, event_type: str, hand: str, d: dict) -> list[str]:
    """The members a correction (or a void of ``hand``) would lower: each who would pay more or
    receive less in a hand that counts now. The ledger asks their word before it counts."""
    pending = (row or {}).get("pending", {})
    if event_type == "hand_voided":
        if hand in pending:
            return []
        return sorted({p["member"] for p in d.get("reversed", []) if not str(p["amount"]).startswith("-")
                       and str(p["amount"]).strip("0.") != ""})
    return sorted({p["member"] for a in d["adjustments"] if a["hand"] not in pending for p in a["payouts"]
                   if str(p["amount"]).startswith("-")})


def corrections_waiting(row: dict | None, hand: str | None = None, table: str | None = None) -> list[dict]:
    """The corrections and voids that wait for the members they lower (oldest first), each
    with its ``seq``: all of them, those that change ``hand``, or those at ``table``."""
    found = []
    for seq, entry in sorted((row or {}).get("corrections", {}).items(), key=lambda item: int(item[0])):
        if hand is not None and hand != entry["hand"] and hand not in [h for h, _ in entry["changes"]]:
            continue
        if table is not None and table != entry["table"]:
            continue
        found.append({**entry, "seq": int(seq)})
    return found


def payments_waiting(row: dict | None) -> list[dict]:
    """The payments that do not count yet, each waiting for its receiver to sign for it, as
    API.md lists them under ``pending`` (oldest first)."""
    if not row:
        return []
    return [{"payment": int(seq), "state": "pending", "from": src, "to": dst,
             "amount": format_amount(amount, row["digits"]), "waiting_for": [dst]}
            for seq, (src, dst, amount) in sorted(row.get("payments", {}).items(), key=lambda item: int(item[0]))]


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


def _corrected(members: dict, pending: dict, d: dict, digits: int) -> list:
    """Each hand the correction changed moves by its difference where it stands: a pending
    one at once (it counts when its payers agree), and those that count as the returned
    changes (``_changed`` applies them, or keeps them for the members they lower). The hand
    corrected, if it was pending, is a new result its payers confirm anew (a correction logged
    before members' word was asked, without ``waits_for``: it counts at once, as it did)."""
    changes = []
    for adjustment in d["adjustments"]:
        change = [[p["seat"], p["member"], parse_amount(p["amount"], digits, allow_negative=True)]
                  for p in adjustment["payouts"]]
        held = pending.get(adjustment["hand"])
        if held is None:
            changes.append([adjustment["hand"], change])
            continue
        by_seat = {seat: amount for seat, _, amount in change}
        pending[adjustment["hand"]] = dict(held, payouts=[[seat, member, amount + by_seat.get(seat, 0)]
                                                          for seat, member, amount in held["payouts"]])
    corrected = pending.get(d["hand"])
    if corrected is not None and "waits_for" in d and not d.get("void"):
        pending[d["hand"]] = dict(corrected, state="pending", actor="admin", confirmed=[])
    elif corrected is not None:
        del pending[d["hand"]]
        _add(members, corrected["payouts"])
    for hand in [a["hand"] for a in d["adjustments"] if a["hand"] != d["hand"]]:
        now = pending.get(hand)
        if now is not None and now["state"] == "pending" and not waiting(now):
            _add(members, now["payouts"])  # nobody is left to agree: it counts
            del pending[hand]
    if d["hand"] in pending and not waiting(pending[d["hand"]]):
        _add(members, pending.pop(d["hand"])["payouts"])  # a new result nobody pays in
    return changes


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
