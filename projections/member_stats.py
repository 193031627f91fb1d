"""What the group's statistics show of each member (``GET /v1/groups/{g}/stats``), kept in
rows beside the balances instead of folded from the whole log at each read.

The statistics count the hands that count: settled (as the corrections leave them), and
confirmed as the balances count them. Each hand has a row (``NAME``, keyed by the hand):
whether it counted, and while it is settled, the seq that places it among the others (its
settlement's, or the correction's that settled it after it was voided; ``nth``: its place
among the hands that correction settled), the seats of its table, and its contract and
payouts (a correction laid over them). A hand counts from its settlement when that counted
at once, from the confirmation after which it no longer waits, and from a correction of it;
it never stops counting (a void takes its settlement out, a correction may bring it back).

Each member's balance after each step that moved it is kept ``CHUNK`` points to a row
(``POINTS``, keyed ``<member>|<n>``, n from 000000 on, and the member's newest points under
``<member>|last``), as one flat list: seq, minor units, seq, ... A step is every settlement,
void, confirmation, correction, agreement, payment or payment received: it moves the members
seated at its table whose balance it changed (a payment: each member it changed), and gives
each member added since the step before their first point (at the group's first step: every
member). The group's row
(``STEPS``, key "") keeps the members added since the last step, and any added again (whose
balance the balances fold set back to 0): the value they had at that step.

A fold, ``apply(seen, event, before, after, waits)``, of what the balances fold made of an
event (``before`` and ``after``: the balances rows): ``seen(name, key)`` reads a row as the
events so far leave it (the seats, in the table's row), ``waits(hand)`` says whether the
hand's settlement still waits once the balances folded the event; it returns the rows it
changed. The view reads the rows back as the log's fold gave them (projections/ledger_views.py
``statistics``), byte for byte.
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

from events.money import format_amount, parse_amount
from . import balances, corrections, tables

NAME = "stats_hand"
POINTS = "stats_points"
STEPS = "stats_steps"
KEPT = (NAME, POINTS, STEPS)
MOVES = frozenset({"settlement", "hand_voided", "confirmation", "correction", "agreement", "payment",
                   "payment_received"})  # a step: after it a balance can have moved
AT_A_TABLE = frozenset({"settlement", "hand_voided", "confirmation", "correction", "agreement"})  # a table's seats
EVENTS = MOVES | {"member_added"}
CHUNK = 100  # points to a row
LAST = "last"  # the key's end of a member's newest points (after every number)
_SAID = ("contract", "payouts")  # what the statistics read of a settlement

Seen = Callable[[str, str], "dict | None"]


def apply(seen: Seen, event, before: dict | None, after: dict | None,
          waits: Callable[[str], bool]) -> dict[tuple[str, str], dict]:
    """The rows ``event`` changed, by (name, key), once the balances fold took the balances
    from ``before`` to ``after``."""
    changed: dict[tuple[str, str], dict] = {}

    def read(name: str, key: str) -> dict | None:
        return changed[name, key] if (name, key) in changed else seen(name, key)
    if event.type == "member_added":
        steps = _added(read(STEPS, ""), event.data["member"], (before or {}).get("members", {}))
        if steps is not None:
            changed[STEPS, ""] = steps
        return changed
    seats = (seen(tables.NAME, event.table) or {}).get("seats") if event.table else None
    digits = (after or {}).get("digits", 2)
    _hands(read, changed, event, seats, digits, lambda: after is not None and not waits(event.hand))
    if after is not None:
        _step(read, changed, event, (before or {}).get("members", {}), after["members"],
              seats if event.type in AT_A_TABLE else None)
    return changed


# The hands ------------------------------------------------------------------------------------
# A settled hand's row: ``seq`` (and ``nth`` where not 0), ``contract``, ``payouts`` as seat,
# member, minor units, seat, ... in the settlement's order (one flat list: a read parses ten
# thousand rows), and ``seats`` where they are not the payouts' members in that order.

def _hands(read, changed: dict, event, seats: list | None, digits: int, agreed: Callable[[], bool]) -> None:
    """Each hand's row as the event leaves it (``agreed()``: a confirmation's hand no longer
    waits)."""
    d, hand = event.data, event.hand
    if event.type == "settlement":
        was = read(NAME, hand) or {}
        counted = was.get("counted", False) or d.get("confirmed", True)
        changed[NAME, hand] = _settled(counted, event.seq, 0, seats or [], _kept(d, digits))
    elif event.type == "confirmation" and agreed():
        was = read(NAME, hand)
        if not (was or {}).get("counted"):
            changed[NAME, hand] = {**(was or {}), "counted": True}
    elif event.type == "hand_voided":
        was = read(NAME, hand)
        if was is not None and "seq" in was:
            changed[NAME, hand] = {"counted": was["counted"]}
    elif event.type == "correction":
        for nth, entry in enumerate(d["settlements"]):  # a later hand by what changed in it, or whole
            was = read(NAME, entry["hand"]) or {"counted": False}
            now = _after(entry, was, digits)
            if now is None and "seq" not in was:
                continue
            if now is None:
                changed[NAME, entry["hand"]] = {"counted": was["counted"]}
            elif "seq" in was:
                changed[NAME, entry["hand"]] = _settled(was["counted"], was["seq"], was.get("nth", 0), seated(was),
                                                        now)
            else:
                changed[NAME, entry["hand"]] = _settled(was["counted"], event.seq, nth, seats or [], now)
        was = read(NAME, d["hand"]) or {}
        if not was.get("counted"):
            changed[NAME, d["hand"]] = {**was, "counted": True}


def _settled(counted: bool, seq: int, nth: int, seats: list, said: dict) -> dict:
    row = {"counted": counted, "seq": seq, **said}
    if nth:
        row["nth"] = nth
    if seats != [member for _, member, _ in paid(said)]:
        row["seats"] = seats
    return row


def seated(row: Mapping) -> list:
    """The seats of a settled hand's row."""
    return row["seats"] if "seats" in row else [member for _, member, _ in paid(row)]


def paid(row: Mapping) -> Iterable[tuple]:
    """(seat, member, minor units) of each payout of a settled hand's row."""
    flat = iter(row.get("payouts", ()))
    return zip(flat, flat, flat, strict=True)


def _kept(settlement: Mapping, digits: int) -> dict:
    """What the statistics read of a settlement: its contract and payouts (in minor units)."""
    said = {k: settlement[k] for k in _SAID if k in settlement}
    if "payouts" in said:
        said["payouts"] = [part for p in said["payouts"]
                           for part in (p.get("seat"), p["member"], parse_amount(p["amount"], digits,
                                                                                   allow_negative=True))]
    return said


def _after(entry: Mapping, row: Mapping, digits: int) -> dict | None:
    """A hand's contract and payouts once a correction's ``entry`` is laid over those of its
    row (projections/corrections.py ``settlement_after``; None: it settles nothing)."""
    if "changed" not in entry:
        return None if entry["settlement"] is None else _kept(entry["settlement"], digits)
    ours = {"changed": [c for c in entry["changed"] if _ours(c[0])],
            "removed": [p for p in entry.get("removed", ()) if _ours(p)]}
    was = None
    if "seq" in row:  # as the settlement said it
        was = {k: row[k] for k in _SAID if k in row}
        if "payouts" in was:
            was["payouts"] = [{**({"seat": seat} if seat is not None else {}), "member": member,
                               "amount": format_amount(minor, digits)} for seat, member, minor in paid(was)]
    return _kept(corrections.settlement_after(ours, was), digits)


def _ours(pointer: str) -> bool:
    return any(pointer == f"/{k}" or pointer.startswith(f"/{k}/") for k in _SAID)


# The points -----------------------------------------------------------------------------------

def _added(steps: dict | None, member: str, was: Mapping[str, int]) -> dict | None:
    """The group's row once ``member`` was added (None before the first step: then every
    member gets a point)."""
    if steps is None or member in steps["fresh"] or member in steps.get("again", {}):
        return None
    if member in was:  # added again: the balances fold set it back to 0
        return {**steps, "again": {**steps.get("again", {}), member: was[member]}}
    return {**steps, "fresh": [*steps["fresh"], member]}


def _step(read, changed: dict, event, was: Mapping[str, int], now: Mapping[str, int],
          seated: list | None) -> None:
    """Each point the step adds: the members it moved (only those seated at its table when
    it is a table's) and those added since the step before."""
    steps = read(STEPS, "")
    if steps is None:  # the group's first step
        moved = dict(now)
    else:
        again = steps.get("again", {})
        if seated is None:
            moved = {m: v for m, v in now.items() - was.items() if m not in again}
        else:
            moved = {m: now[m] for m in seated if m in now and m not in again and now[m] != was.get(m)}
        moved.update((m, now[m]) for m, v in again.items()
                     if m in now and now[m] != v and (seated is None or m in seated))
        moved.update((m, now[m]) for m in steps["fresh"] if m in now)
    for member, minor in moved.items():
        _point(read, changed, member, event.seq, minor)
    if steps != {"fresh": []}:
        changed[STEPS, ""] = {"fresh": []}


def _point(read, changed: dict, member: str, seq: int, minor: int) -> None:
    key = f"{member}|{LAST}"
    newest = read(POINTS, key) or {"points": [], "full": 0}
    points = [*newest["points"], seq, minor]
    if len(points) < 2 * CHUNK:
        changed[POINTS, key] = {"points": points, "full": newest["full"]}
        return
    changed[POINTS, f"{member}|{newest['full']:06d}"] = {"points": points}
    changed[POINTS, key] = {"points": [], "full": newest["full"] + 1}


# Built from the log, for a store from before the rows were kept --------------------------------

def rebuilt(events: Iterable, table: Callable[[str], dict | None]) -> dict[tuple[str, str], dict]:
    """Every row, (name, key) -> row, from a group's events in log order (those the balances
    fold reads suffice); ``table`` reads a table's row (its seats)."""
    rows: dict[tuple[str, str], dict] = {}

    def seen(name: str, key: str) -> dict | None:
        return table(key) if name == tables.NAME else rows.get((name, key))
    row = None
    for env in events:
        if env.type not in balances.EVENTS:
            continue
        was, row = row, balances.apply(row, env)
        if env.type in EVENTS:
            rows.update(apply(seen, env, was, row, lambda hand, now=row: balances.pending_entry(now, hand) is not None))
    return rows


# The view -------------------------------------------------------------------------------------

def statistics(reader, group: str, names: Mapping[str, str]) -> dict:
    """``GET /v1/groups/{g}/stats`` from the rows: the members ``names`` lists (id -> name, in
    the group's order), as projections/ledger_views.py ``statistics`` folds them from the log."""
    digits = (reader.row(balances.NAME, group, "") or {}).get("digits", 2)
    hand_rows = {key: row for (_group, key), row in reader.rows(NAME, group).items()}
    point_rows = {key: row for (_group, key), row in reader.rows(POINTS, group).items()}
    return shown(hand_rows, point_rows, names, digits)


def shown(hand_rows: Mapping[str, dict], point_rows: Mapping[str, dict], names: Mapping[str, str],
          digits: int) -> dict:
    """Per member: hands played and won, by contract (in the order the member first played
    each), best and worst hand (the first such in the hands' order), and the balance after
    each step that moved it."""
    series = _series(point_rows, digits)
    tallies: dict[str, list] = {m: [0, 0, {}, None, None] for m in names}  # played, won, contracts, best, worst
    counted = sorted((row["seq"], row.get("nth", 0), hand) for hand, row in hand_rows.items()
                     if row["counted"] and "seq" in row)
    for seq, _nth, hand in counted:
        row = hand_rows[hand]
        amounts = {member: minor for _, member, minor in paid(row)}
        for member in seated(row):
            tally = tallies.get(member)
            if tally is None:
                continue
            amount = amounts.get(member, 0)
            won = amount > 0
            tally[0] += 1
            tally[1] += won
            kind = tally[2].get(row["contract"])
            if kind is None:
                kind = tally[2][row["contract"]] = [0, 0]
            kind[0] += 1
            kind[1] += won
            if tally[3] is None or amount > tally[3][0]:
                tally[3] = (amount, hand, seq, row["contract"])
            if tally[4] is None or amount < tally[4][0]:
                tally[4] = (amount, hand, seq, row["contract"])
    return {"members": [{"member": m, "name": names.get(m, m), "hands_played": played, "hands_won": won,
                         "contracts": {c: {"played": p, "won": w} for c, (p, w) in contracts.items()},
                         "best_hand": _hand_shown(best, digits), "worst_hand": _hand_shown(worst, digits),
                         "balance_after": series.get(m, [])}
                        for m, (played, won, contracts, best, worst) in tallies.items()]}


def _hand_shown(found: tuple | None, digits: int) -> dict | None:
    if found is None:
        return None
    amount, hand, seq, contract = found
    return {"hand": hand, "seq": seq, "amount": format_amount(amount, digits), "contract": contract}


def _series(point_rows: Mapping[str, dict], digits: int) -> dict[str, list[dict]]:
    """Each member's points, oldest first, as the statistics show them."""
    def order(key: str) -> tuple[str, bool, str]:
        member, _, end = key.rpartition("|")
        return member, end == LAST, end
    found: dict[str, list[dict]] = {}
    said: dict[int, str] = {}  # each balance as written, once
    for key in sorted(point_rows, key=order):
        points = found.setdefault(key.rpartition("|")[0], [])
        flat = iter(point_rows[key]["points"])
        for seq, minor in zip(flat, flat, strict=True):
            text = said.get(minor)
            if text is None:
                text = said[minor] = format_amount(minor, digits)
            points.append({"seq": seq, "balance": text})
    return found
