"""The JSON shapes of API.md, made from projection rows (no I/O here)."""
from __future__ import annotations

from events.money import format_amount
from games.registry import game as game_module
from projections import hands as hand_fold
from projections.groups import member_name
from projections.settle_up import plan


def hand_view(model: hand_fold.HandModel) -> dict:
    return hand_fold.render(model)


def table_view(trow: dict, grow: dict, hands: list[str]) -> dict:
    return {
        "id": trow["id"],
        "game": trow["game"],
        "rules": trow["rules"],
        "seats": [{"seat": i, "member": m, "name": member_name(grow, m)} for i, m in enumerate(trow["seats"])],
        "stake": trow["stake"],
        "next_dealer": trow["next_dealer"],
        "hands": hands,
        "latest_hand": trow["latest_hand"],
        "closed": trow["closed"],
        "match": _match(trow),
        "bok": _bok(trow),
    }


def _match(trow: dict) -> dict | None:
    """A Scopa table's game: the score of each side in the game being played, the target,
    how many games were finished and how the last one ended."""
    rules = game_module(trow["game"]).parse_rules(trow["rules"])
    sides = getattr(rules, "sides", None)
    if sides is None:
        return None
    match = trow["match"] or {}
    return {"sides": [list(s) for s in sides], "scores": match.get("scores", [0] * len(sides)),
            "target": rules.target, "games": match.get("games", 0), "last_game": match.get("last_game")}


def _bok(trow: dict) -> dict | None:
    """A Baśka tournament table's bok-runda state; None where the game has no bok-rundy."""
    rules = game_module(trow["game"]).parse_rules(trow["rules"])
    if not getattr(rules, "bok_rundy", False):
        return None
    bok = trow["bok"]
    return {"running": bok["hands_left"] > 0, "hands_left": bok["hands_left"], "queued": bok["queued"]}


def group_view(grow: dict, tables: list[dict], version: int) -> dict:
    return {
        "id": grow["id"],
        "name": grow["name"],
        "currency": grow["currency"],
        "version": version,
        "members": grow["members"],
        "tables": [{"id": t["id"], "game": t["game"], "stake": t["stake"], "next_dealer": t["next_dealer"],
                    "hand_count": t["hand_count"], "latest_hand": t["latest_hand"]} for t in tables],
    }


def balances_view(grow: dict, brow: dict) -> dict:
    digits = grow["digits"]
    members = brow["members"]
    return {
        "currency": grow["currency"],
        "balances": [{"member": m["id"], "name": m["name"], "balance": format_amount(members.get(m["id"], 0), digits)}
                     for m in grow["members"]],
        "total": format_amount(sum(members.values()), digits),
    }


def settle_up_view(grow: dict, brow: dict) -> dict:
    digits = grow["digits"]
    moves, method = plan(brow["members"])
    return {
        "currency": grow["currency"],
        "method": method,
        "transfers": [{"from": src, "from_name": member_name(grow, src), "to": dst,
                       "to_name": member_name(grow, dst), "amount": format_amount(amount, digits)}
                      for src, dst, amount in moves],
    }
