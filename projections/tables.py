"""The table row: game, rules, seats, stake, who deals next and the hands played (a pure fold).

A hand is ``playing`` from its deal, ``settled`` once its settlement is logged, ``voided``
if the admin voided it; voiding the latest hand gives the deal back to its dealer. What
spans hands (doubled rounds, a game's score) is the table decider's (games/engine/table.py): the row
keeps its state, ``bok`` and ``match``, and puts them back as they were when the latest
hand is voided; so does it with what a game carries of its own (``carried``, a game's spans).
"""
from __future__ import annotations

from functools import lru_cache

from events.money import parse_amount
from games.engine import table as decider
from games.engine.base import TableTerms
from games.registry import GAMES

from .hands import parsed_rules

NAME = "table"
NO_BOK = decider.NO_BOK
EVENTS = frozenset({"table_opened", "deal", "result", "settlement", "hand_voided", "correction", "table_closed"})
TOURNAMENT = ("tournament", "round", "deals")  # a table a tournament's draw opened: its round and deals


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "table_opened":
        return {"id": d["table"], "game": d["game"], "rules": d["rules"], "seats": d["seats"],
                "stake": d["stake"], "entry": d.get("entry", "scorer"), "next_dealer": d.get("dealer", 0),
                "hand_count": 0,
                "latest_hand": None, "bok": NO_BOK, "match": None, "closed": False, "opened_at": event.recorded_at,
                **{k: d[k] for k in TOURNAMENT if k in d}}
    if row is None:
        return None
    if event.type in ("deal", "result"):
        dealer = d["dealer"]
        # Only a count: the table's hand ids are read from the log's index when asked for,
        # so that dealing the ten-thousandth hand costs what dealing the first did.
        return dict(row, hand_count=row["hand_count"] + 1,
                    latest_hand={"id": event.hand, "dealer": dealer, "status": "playing"},
                    next_dealer=(dealer + 1) % len(row["seats"]))
    latest = row["latest_hand"]
    if event.type == "settlement" and latest and latest["id"] == event.hand:
        bok, match = decider.after_settlement(row["bok"], row["match"], d)
        settled = dict(row, latest_hand=dict(latest, status="settled", bok_before=row["bok"],
                                             match_before=row["match"]), bok=bok, match=match)
        game = GAMES.get(row["game"])
        if game is not None and game.table.spans:
            rules = parsed_rules(row["game"], row["rules"])
            settled["latest_hand"]["carried_before"] = row.get("carried")
            settled["carried"] = decider.carried_after(game, rules, row.get("carried"), d)
        return settled
    if event.type == "hand_voided" and latest and latest["id"] == event.hand:
        voided = dict(row, latest_hand=dict(latest, status="voided"), next_dealer=latest["dealer"],
                      bok=latest.get("bok_before", row["bok"]), match=latest.get("match_before", row["match"]))
        if "carried_before" in latest:
            voided["carried"] = latest["carried_before"]
        return voided
    if event.type == "correction":
        return _corrected(row, event)
    if event.type == "table_closed":
        return dict(row, closed=True)
    return row


def _corrected(row: dict, event) -> dict:
    """The table once a past hand is corrected: its running state as the correction worked
    it out (the latest hand settled again), and the hand's void when it is the latest. What
    the correction says of each hand it changed is kept in that hand's row
    (projections/corrected.py), so the table's row stays small whatever its history."""
    d = event.data
    table = d["table"]
    latest = dict(row["latest_hand"], bok_before=table["latest_before"]["bok"],
                  match_before=table["latest_before"]["match"])
    next_dealer = row["next_dealer"]
    if latest["id"] == d["hand"]:  # as a void of the latest hand: its dealer deals again (or no longer)
        if d.get("void"):
            next_dealer = latest["dealer"]
        elif latest["status"] == "voided":
            next_dealer = (latest["dealer"] + 1) % len(row["seats"])
        latest["status"] = "voided" if d.get("void") else "settled"
    if "carried" in table:
        latest["carried_before"] = table["latest_before"].get("carried")
    return dict(row, bok=table["bok"], match=table["match"], latest_hand=latest, next_dealer=next_dealer,
                **({"carried": table["carried"]} if "carried" in table else {}))


def corrections_of(row: dict | None, hand: str) -> list[dict]:
    """What the corrections kept in a table's row before hands had rows of their own say of
    ``hand`` (oldest first); projections/corrected.py's ``of_hand`` reads them with the rest."""
    return (row or {}).get("corrections", {}).get(hand, [])


def stake_of(row: dict, digits: int) -> int:
    """The table's stake in minor units."""
    return _stake(row["stake"], digits)


def terms(row: dict, digits: int) -> TableTerms:
    """What a game needs from the table to settle a hand now."""
    game = GAMES.get(row["game"])
    carried = decider.carried_at_start(game) | (row.get("carried") or {}) if game is not None else {}
    return decider.terms(_stake(row["stake"], digits), tuple(row["seats"]), row["bok"], row["match"], carried)


@lru_cache(maxsize=256)
def _stake(stake: str, digits: int) -> int:
    """A table's stake in minor units (replay asks once per settlement, of few stakes)."""
    return parse_amount(stake, digits)
