"""The table row: game, rules, seats, stake, who deals next and the hands played (a pure fold).

A hand is ``playing`` from its deal, ``settled`` once its settlement is logged, ``voided``
if the admin voided it; voiding the latest hand gives the deal back to its dealer.

Bok-rundy (Baśka) are the table's too: ``bok`` holds how many hands are left in the running
bok-runda and how many more are queued. A settlement says whether its hand was played in
one (``bok_runda``) and whether it makes one due (``bok_due``); rounds never overlap, so a
due one waits in the queue until the running one ends. So does a game played to a target
(Scopa): ``match`` holds the game score, which a settlement's ``match`` entry moves on or,
when the game ended, starts again. Voiding a settled hand puts both back as they were.
"""
from __future__ import annotations

from functools import lru_cache

from events.money import parse_amount
from games.base import TableTerms

NAME = "table"
NO_BOK = {"hands_left": 0, "queued": 0}
BOK_RUNDA_HANDS = 4
EVENTS = frozenset({"table_opened", "deal", "result", "settlement", "hand_voided", "table_closed"})


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "table_opened":
        return {"id": d["table"], "game": d["game"], "rules": d["rules"], "seats": d["seats"],
                "stake": d["stake"], "next_dealer": 0, "hand_count": 0, "latest_hand": None,
                "bok": NO_BOK, "match": None, "closed": False, "opened_at": event.recorded_at}
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
        return dict(row, latest_hand=dict(latest, status="settled", bok_before=row["bok"], match_before=row["match"]),
                    bok=after_hand(row["bok"], d.get("bok_runda", False), d.get("bok_due", False)),
                    match=after_game_hand(row["match"], d.get("match")))
    if event.type == "hand_voided" and latest and latest["id"] == event.hand:
        return dict(row, latest_hand=dict(latest, status="voided"), next_dealer=latest["dealer"],
                    bok=latest.get("bok_before", row["bok"]), match=latest.get("match_before", row["match"]))
    if event.type == "table_closed":
        return dict(row, closed=True)
    return row


def terms(row: dict, digits: int) -> TableTerms:
    """What a game needs from the table to settle a hand now."""
    match = row["match"]
    return TableTerms(_stake(row["stake"], digits), tuple(row["seats"]),
                      bok_runda=row["bok"]["hands_left"] > 0, match=tuple(match["scores"]) if match else ())


@lru_cache(maxsize=256)
def _stake(stake: str, digits: int) -> int:
    """A table's stake in minor units (replay asks once per settlement, of few stakes)."""
    return parse_amount(stake, digits)


def after_game_hand(match: dict | None, result: dict | None) -> dict | None:
    """The game score after a hand of a game played to a target (Scopa): it carries on, or
    a game ended and the next starts from nothing."""
    if result is None:
        return match
    games = (match or {}).get("games", 0)
    if result["game_over"]:
        return {"scores": [0] * len(result["after"]), "games": games + 1,
                "last_game": {"scores": result["after"], "winners": result["winners"]}}
    return {"scores": result["after"], "games": games, "last_game": (match or {}).get("last_game")}


def after_hand(bok: dict, played_in_one: bool, makes_one_due: bool) -> dict:
    """The bok-runda counts after a settled hand."""
    left, queued = bok["hands_left"], bok["queued"]
    if played_in_one:
        left = max(0, left - 1)
    if makes_one_due:
        queued += 1
    if left == 0 and queued:
        left, queued = BOK_RUNDA_HANDS, queued - 1
    return {"hands_left": left, "queued": queued}
