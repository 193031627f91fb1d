"""Views of a group's money over its whole log: balance assertions re-checked, statistics
per member, and the ledger as CSV rows. Each is one pass over the events in seq order with
the balances fold that the balances projection uses."""
from __future__ import annotations

import csv
import io
from typing import Iterable, Iterator

from events.money import format_amount, parse_amount
from . import balances

MONEY_EVENTS = frozenset({"group_created", "member_added", "table_opened", "settlement", "hand_voided", "payment",
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


MOVES = ("settlement", "hand_voided", "payment")  # the events after which a balance can change


def balance_steps(envelopes: Iterable) -> Iterator[tuple[object, dict]]:
    """Each event, and after each settlement, void or payment also the balances row then
    (``None`` for the other events): the one pass the chart and the statistics share."""
    row = None
    for env in envelopes:
        if env.type in balances.EVENTS:
            row = balances.apply(row, env)
        yield env, (row if env.type in MOVES and row is not None else None)


def statistics(envelopes: Iterable, names: dict[str, str]) -> dict:
    """Per member: hands played (seated at a settled hand) and won (paid by it), by contract,
    best and worst hand, and the balance after every settlement, payment or void (a series
    a chart can draw)."""
    row, hands, series, seats = None, {}, {m: [] for m in names}, {}
    for env, moved in balance_steps(envelopes):
        if env.type == "table_opened":
            seats[env.table] = env.data["seats"]
        elif env.type == "settlement":
            hands[env.hand] = (env.data, env.seq, seats.get(env.table, []))
        elif env.type == "hand_voided":
            hands.pop(env.hand, None)
        if moved is not None:
            row = moved
            for member, minor in row["members"].items():
                shown = format_amount(minor, row["digits"])
                series.setdefault(member, []).append({"seq": env.seq, "balance": shown})
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
    """The ledger, one row per payout (and per payment or voided payout), with the running
    balance of the member, as CSV lines."""
    row, games, buffer = None, {}, io.StringIO()
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
        row = balances.apply(row, env)
        d = env.data
        if env.type == "settlement":
            lines = [("payout", p["member"], p["amount"]) for p in d["payouts"]]
        elif env.type == "hand_voided":
            lines = [("void", p["member"], _negated(p["amount"])) for p in d.get("reversed", [])]
        elif env.type == "payment":
            lines = [("payment", d["from"], d["amount"]), ("payment", d["to"], _negated(d["amount"]))]
        else:
            continue
        for kind, member, amount in lines:
            writer.writerow((env.seq, env.recorded_at, kind, env.hand or "", env.table or "",
                             games.get(env.hand, ""), d.get("contract", ""), member, names.get(member, member),
                             amount, format_amount(row["members"][member], row["digits"])))
        yield flush()


def _negated(amount: str) -> str:
    return amount[1:] if amount.startswith("-") else f"-{amount}"
