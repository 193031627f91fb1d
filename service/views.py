"""The JSON shapes of API.md, made from projection rows and the handlers' results (no I/O)."""
from __future__ import annotations

from typing import NamedTuple

from events.money import format_amount
from games.engine import table as table_decider
from games.registry import GAMES
from games.engine.seen import arranged
from projections import hands as hand_fold
from projections.groups import confirmations, member_name, member_names
from projections.balances import listed, payments_waiting
from projections.settle_up import plan
from projections.tables import TOURNAMENT
from . import seating
from .commands import Credential, GroupCreated, HandMoved, Recorded


class WaitingPage(NamedTuple):
    """A page of the settlements that wait, as the store lists them: (hand, entry) in log
    order, how many wait in all, and the seq after which the next page starts (None: none)."""
    entries: list
    total: int
    next: int | None


def games_say(request: str, opening: str) -> str:
    """What a request does in each game that documents it, after an opening sentence (for
    the OpenAPI document: the games speak for themselves)."""
    said = [f"{g.title}: {g.words.docs[request]}." for g in GAMES.values() if request in g.words.docs]
    return " ".join([opening, *said])


def hand_view(model: hand_fold.HandModel, hidden: frozenset[str] = frozenset()) -> dict:
    """The hand state of API.md as a reader who may not see ``hidden`` (seating.hidden)
    gets it: the game conceals those cards and what would tell where they are, and each
    seat's list shows the cards the reader may see first (games/engine/seen.py ``arranged``)."""
    view = hand_fold.render(model)
    if not hidden:
        return view
    return arranged(model.decider.sight.conceal(model.state, view, hidden), model.decider.sight.played(model.state))


def group_created(made: GroupCreated) -> dict:
    shown = {"id": made.id, "name": made.name, "currency": made.currency, "admin_token": made.admin_token}
    if made.organizer is not None:
        shown["organizer"] = {"id": made.organizer.id, "token": made.organizer.token}
    return shown


def credential(made: Credential) -> dict:
    return {"id": made.id, "name": made.name, "token": made.token}


def recorded(made: Recorded) -> dict:
    return {"seq": made.seq, **made.data}


def trick_result(moved: HandMoved, hidden: frozenset[str] = frozenset()) -> dict:
    trick = moved.first("trick")
    return {"trick": trick["trick"], "leader": trick["leader"], "cards": trick["cards"], "winner": trick["winner"],
            "points": trick["points"], "hand": hand_view(moved.hand, hidden)}


def appended_result(moved: HandMoved, kind: str, hidden: frozenset[str] = frozenset()) -> dict:
    """A play, a claim or a seat's cards, and the hand after it: ``{kind: data, "hand": ...}``
    (the event's data without its salt)."""
    data = {k: v for k, v in moved.first(kind).items() if k != "salt"}
    return {kind: seating.sealed_view(data, hidden), "hand": hand_view(moved.hand, hidden)}


def table_view(trow: dict, grow: dict, hands: list[str]) -> dict:
    game = hand_fold.game_of(trow["game"])
    running = table_decider.view(game, hand_fold.parsed_rules(trow["game"], trow["rules"]), trow["bok"], trow["match"],
                                 trow.get("carried"))
    return {
        "id": trow["id"],
        "game": trow["game"],
        # entry is a table rule, not the game's: shown when it is not the default (scorer)
        "rules": {**trow["rules"], "entry": trow["entry"]} if trow.get("entry", "scorer") != "scorer"
        else trow["rules"],
        "seats": [{"seat": i, "member": m, "name": member_name(grow, m)} for i, m in enumerate(trow["seats"])],
        "stake": trow["stake"],
        "next_dealer": trow["next_dealer"],
        "hands": hands,
        "latest_hand": trow["latest_hand"],
        "closed": trow["closed"],
        "match": running["match"],
        "bok": running["bok"],
        **({"carried": running["carried"]} if "carried" in running else {}),
        **{k: trow[k] for k in TOURNAMENT if k in trow},
    }


class TablesPage(NamedTuple):
    """A page of a group's tables, in the order they were opened: their rows, how many the
    group has in all, and the table after which the next page starts (None: none)."""
    rows: list
    total: int
    next: str | None


def group_view(grow: dict, tables: TablesPage, version: int) -> dict:
    return {
        "id": grow["id"],
        "name": grow["name"],
        "currency": grow["currency"],
        "version": version,
        "members": grow["members"],
        "confirmations": confirmations(grow),
        "tables": [{"id": t["id"], "game": t["game"], "stake": t["stake"], "next_dealer": t["next_dealer"],
                    "hand_count": t["hand_count"], "latest_hand": t["latest_hand"]} for t in tables.rows],
        "tables_total": tables.total,
        "tables_next": tables.next,
    }


def balances_view(grow: dict, brow: dict, waiting: "WaitingPage | None" = None) -> dict:
    """The balances of API.md; with ``waiting``, the page of settlements that do not count
    yet (pending until a payer confirms, or disputed), how many wait in all, and the seq to
    ask the next page after (None on the last)."""
    digits = grow["digits"]
    members = brow["members"]
    waiting = waiting or WaitingPage([], 0, None)
    return {
        "currency": grow["currency"],
        "balances": [{"member": m["id"], "name": m["name"], "balance": format_amount(members.get(m["id"], 0), digits)}
                     for m in grow["members"]],
        "total": format_amount(sum(members.values()), digits),
        "pending": listed(waiting.entries, digits) + payments_waiting(brow),
        "pending_total": waiting.total,
        "pending_next": waiting.next,
    }


def settle_up_view(grow: dict, brow: dict) -> dict:
    digits, names = grow["digits"], member_names(grow)  # looked up once: a transfer for nearly every member
    moves, method = plan(brow["members"])
    return {
        "currency": grow["currency"],
        "method": method,
        "transfers": [{"from": src, "from_name": names.get(src, src), "to": dst,
                       "to_name": names.get(dst, dst), "amount": format_amount(amount, digits)}
                      for src, dst, amount in moves],
    }
