"""Views of a group's money over its whole log: balance assertions re-checked, statistics
per member, and the ledger as CSV rows. Each is one pass over the events in seq order with
the balances fold that the balances projection uses."""
from __future__ import annotations

import csv
import io
from typing import Iterable, Iterator

from events.money import format_amount, parse_amount
from . import balances, corrections

MONEY_EVENTS = frozenset({"group_created", "member_added", "table_opened", "settlement", "hand_voided",
                          "confirmation", "dispute", "correction", "agreement", "payment", "payment_received",
                          "assertion", "deal", "result"})


def money_faults(envelopes: Iterable) -> list[str]:
    """What verify checks of the money beside the chain: every balance assertion against the
    balances the log gives at its point, no member added twice, and each group's balances
    summing to zero at the end (a log whose hashes were all recomputed can fail these)."""
    found, row, group, members = [], None, None, set()

    def ended():
        if row is not None and sum(row["members"].values()) != 0:
            total = format_amount(sum(row["members"].values()), row["digits"])
            found.append(f"group {group}: the balances sum to {total}, not zero")
    for env in envelopes:
        if env.group != group:
            ended()
            row, group, members = None, env.group, set()
        if env.type == "member_added":
            if env.data["member"] in members:
                found.append(f"group {group} seq {env.seq}: member {env.data['member']} is added a second time")
                continue
            members.add(env.data["member"])
        if env.type == "assertion":
            actual = balances.disagreement(row, env.data)
            if actual is not None:
                found.append(f"group {group} seq {env.seq}: the agreed balance of {env.data['member']}, "
                             f"{env.data['balance']}, no longer holds: the log gives {actual}")
        if env.type in balances.EVENTS:
            try:
                row = balances.apply(row, env)
            except (KeyError, ValueError) as e:
                found.append(f"group {group} seq {env.seq}: the {env.type} event names what the group lacks ({e})")
    ended()
    return found


# after which a balance can change
MOVES = ("settlement", "hand_voided", "confirmation", "correction", "agreement", "payment", "payment_received")


def balance_steps(envelopes: Iterable) -> Iterator[tuple[object, dict]]:
    """Each event, and after each settlement, void or payment also the balances row then
    (``None`` for the other events): the one pass the chart and the statistics share."""
    row = None
    for env in envelopes:
        if env.type in balances.EVENTS:
            row = balances.apply(row, env)
        yield env, (row if env.type in MOVES and row is not None else None)


AT_A_TABLE = frozenset({"settlement", "hand_voided", "confirmation", "correction", "agreement"})  # a table's seats


def _moved(before: dict | None, after: dict, seated: list[str] | None) -> list[tuple[str, int]]:
    """The members whose balance a step moved, with their balance after it, and those who
    joined since the last step (their first point, at 0): only a step's ``seated`` members
    can have moved where it is a table's, so only they are compared (a group of a thousand
    members and ten thousand hands is forty thousand points, and as many comparisons, not
    ten million)."""
    if before is None or seated is None:
        return list(after["members"].items() - (before["members"].items() if before else ()))
    was, now = before["members"], after["members"]
    found = {m: now[m] for m in seated if m in now and now[m] != was.get(m)}
    if len(now) != len(was):
        found.update((m, now[m]) for m in now.keys() - was.keys())
    return list(found.items())


def statistics(envelopes: Iterable, names: dict[str, str]) -> dict:
    """Per member, over the hands that count (confirmed, as the balances count them, and as
    corrected): hands played (seated) and won (paid by it), by contract, best and worst hand,
    and the balance after each settlement, confirmation, correction, payment or void that
    moved it (a series a chart can draw: the balance holds between two points)."""
    row, settled, counted, series, seats = None, {}, set(), {m: [] for m in names}, {}
    for env, moved in balance_steps(envelopes):
        d = env.data
        if env.type == "table_opened":
            seats[env.table] = d["seats"]
        elif env.type == "settlement":
            settled[env.hand] = (d, env.seq, seats.get(env.table, []))
            if d.get("confirmed", True):
                counted.add(env.hand)
        elif env.type == "confirmation":
            if moved is not None and balances.pending_entry(moved, env.hand) is None:
                counted.add(env.hand)  # the last payer agreed: it counts from here (not before)
        elif env.type == "hand_voided":
            settled.pop(env.hand, None)
        elif env.type == "correction":
            for entry in d["settlements"]:  # a later hand recorded by what changed in it, or whole
                was = settled.get(entry["hand"])
                now = corrections.settlement_after(entry, was[0] if was else None)
                if now is None:
                    settled.pop(entry["hand"], None)
                elif was is not None:
                    settled[entry["hand"]] = (now, *was[1:])
                else:
                    settled[entry["hand"]] = (now, env.seq, seats.get(env.table, []))
            counted.add(d["hand"])
        if moved is not None:
            for member, minor in _moved(row, moved, seats.get(env.table) if env.type in AT_A_TABLE else None):
                series.setdefault(member, []).append({"seq": env.seq, "balance": format_amount(minor, moved["digits"])})
            row = moved
    hands = {hand: info for hand, info in settled.items() if hand in counted}
    digits = row["digits"] if row else 2
    members = {m: {"member": m, "name": names.get(m, m), "hands_played": 0, "hands_won": 0, "contracts": {},
                   "best_hand": None, "worst_hand": None, "balance_after": series.get(m, [])} for m in names}
    for hand, (data, seq, seated) in hands.items():
        paid = {p["member"]: parse_amount(p["amount"], digits, allow_negative=True) for p in data["payouts"]}
        for member in seated:
            stats = members.get(member)
            if stats is None:
                continue
            amount = paid.get(member, 0)
            stats["hands_played"] += 1
            stats["hands_won"] += amount > 0
            kind = stats["contracts"].setdefault(data["contract"], {"played": 0, "won": 0})
            kind["played"] += 1
            kind["won"] += amount > 0
            shown = {"hand": hand, "seq": seq, "amount": format_amount(amount, digits), "contract": data["contract"],
                     "minor": amount}
            if stats["best_hand"] is None or amount > stats["best_hand"]["minor"]:
                stats["best_hand"] = shown
            if stats["worst_hand"] is None or amount < stats["worst_hand"]["minor"]:
                stats["worst_hand"] = shown
    for stats in members.values():
        for which in ("best_hand", "worst_hand"):
            if stats[which]:
                stats[which] = {k: v for k, v in stats[which].items() if k != "minor"}
    return {"members": list(members.values())}


CSV_COLUMNS = ("seq", "recorded_at", "kind", "hand", "table", "game", "contract", "member", "name", "amount",
               "balance")


def ledger_csv(envelopes: Iterable, names: dict[str, str]) -> Iterable[str]:
    """The ledger, one row per payout as it comes to count (a settlement confirmed at once,
    or on its confirmation), per payout a void takes back or a correction moves, and per
    side of a payment, with the running balance of the member, as CSV lines: each member's
    rows add up to the balance."""
    row, games, contracts, buffer = None, {}, {}, io.StringIO()
    writer = csv.writer(buffer)

    def flush():
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text
    writer.writerow(CSV_COLUMNS)
    yield flush()
    for env in envelopes:
        if env.type in ("deal", "result"):
            games[env.hand] = env.data["game"]
        if env.type not in balances.EVENTS:
            continue
        after = balances.apply(row, env)
        lines = _money_lines(row, env, contracts, after)
        row = after
        for kind, hand, member, amount in lines:
            writer.writerow((env.seq, env.recorded_at, kind, hand or "", env.table or "", games.get(hand, ""),
                             contracts.get(hand, ""), member, names.get(member, member), amount,
                             format_amount(row["members"][member], row["digits"])))
        if lines:
            yield flush()


def _money_lines(row: dict | None, env, contracts: dict, after: dict | None) -> list[tuple[str, str | None, str, str]]:
    """(kind, hand, member, amount) of each move ``env`` makes to the counted balances, the
    balances ``row`` being those before it and ``after`` those after it."""
    d = env.data
    if env.type == "settlement":
        contracts[env.hand] = d.get("contract", "")
        if not d.get("confirmed", True):
            return []  # it counts when it is confirmed
        return [("payout", env.hand, p["member"], p["amount"]) for p in d["payouts"]]
    if env.type == "confirmation":
        entry = balances.pending_entry(row, env.hand)
        if balances.waiting(dict(entry, confirmed=[*entry.get("confirmed", []), env.actor])):
            return []  # another payer has still to agree
        return [("payout", env.hand, member, format_amount(amount, row["digits"]))
                for _, member, amount in entry["payouts"]]
    if env.type == "hand_voided":
        if balances.pending_entry(row, env.hand) is not None or d.get("waits_for"):
            return []  # it was not counted; or it counts once the members it lowers agree
        return [("void", env.hand, p["member"], _negated(p["amount"])) for p in d.get("reversed", [])]
    if env.type == "correction":
        for entry in d["settlements"]:  # a later hand recorded by what changed in it, or whole
            if "changed" in entry:
                contracts.update((entry["hand"], value) for at, value in entry["changed"] if at == "/contract")
            elif entry["settlement"] is not None:
                contracts[entry["hand"]] = entry["settlement"].get("contract", "")
        return _corrected_lines(row, d, after)
    if env.type == "agreement":
        if str(d["seq"]) in after.get("corrections", {}):
            return []  # another member it lowers has still to agree
        entry = row["corrections"][str(d["seq"])]
        return [("correction", hand, member, format_amount(amount, row["digits"]))
                for hand, change in entry["changes"] for _, member, amount in change]
    if env.type == "payment":
        if d.get("pending"):
            return []  # it counts when its receiver signs for it
        return [("payment", None, d["from"], d["amount"]), ("payment", None, d["to"], _negated(d["amount"]))]
    if env.type == "payment_received":
        src, dst, amount = row["payments"][str(d["seq"])]
        said = format_amount(amount, row["digits"])
        return [("payment", None, src, said), ("payment", None, dst, _negated(said))]
    return []


def _corrected_lines(row: dict, d: dict, after: dict) -> list[tuple[str, str | None, str, str]]:
    """A correction's moves, as the balances fold makes them: the difference of each hand
    that counted (unless it waits for the members it lowers); the whole payouts of a pending
    one that counts from now on."""
    digits, lines = row["digits"], []
    pending, still = row.get("pending", {}), after.get("pending", {})
    moved = {a["hand"]: {p["seat"]: parse_amount(p["amount"], digits, allow_negative=True) for p in a["payouts"]}
             for a in d["adjustments"]}
    for hand, change in moved.items():
        if hand not in pending and not d.get("waits_for"):
            lines += [("correction", hand, member, format_amount(change.get(seat, 0), digits))
                      for seat, member in _seats_of(d, hand)]
    for hand in dict.fromkeys([*moved, d["hand"]]):
        if hand in pending and hand not in still:  # it counts from now on
            change = moved.get(hand, {})
            lines += [("payout", hand, member, format_amount(amount + change.get(seat, 0), digits))
                      for seat, member, amount in pending[hand]["payouts"]]
    return lines


def _seats_of(d: dict, hand: str) -> list[tuple[int, str]]:
    adjustment = next(a for a in d["adjustments"] if a["hand"] == hand)
    return [(p["seat"], p["member"]) for p in adjustment["payouts"]]


def _negated(amount: str) -> str:
    return amount[1:] if amount.startswith("-") else f"-{amount}"
