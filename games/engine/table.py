"""The table decider: what spans the hands of a table, whatever its game.

The dealer moves on a seat with each hand (and stays when the latest hand is voided).
Doubled rounds (bok-rundy, ``TableRules.bok_rundy``): a settlement says whether its hand
was played in one (``bok_runda``) and whether it makes one due (``bok_due``); a round lasts
``BOK_RUNDA_HANDS`` hands and rounds never overlap, so one that falls due while another
runs waits in a queue. A game or match played to a target (``TableRules.target``): a
settlement's ``match`` entry carries the score after the hand and whether it ended the
game, which then starts again from nothing. Anything else a game carries from hand to hand
is its own ``Span`` (``TableRules.spans``), folded here by the game's own function, so a
game adds one without a line here. All pure, over the plain values a table's row keeps.
"""
from __future__ import annotations

from typing import Mapping

from .base import TableTerms
from .contract import Game

NO_BOK = {"hands_left": 0, "queued": 0}
BOK_RUNDA_HANDS = 4


def after_hand(bok: Mapping, played_in_one: bool, makes_one_due: bool) -> dict:
    """The bok-runda counts after a settled hand."""
    left, queued = bok["hands_left"], bok["queued"]
    if played_in_one:
        left = max(0, left - 1)
    if makes_one_due:
        queued += 1
    if left == 0 and queued:
        left, queued = BOK_RUNDA_HANDS, queued - 1
    return {"hands_left": left, "queued": queued}


def after_game_hand(match: Mapping | None, result: Mapping | None) -> dict | None:
    """The game score after a hand of a game played to a target: it carries on, or a game
    ended and the next starts from nothing."""
    if result is None:
        return match
    games = (match or {}).get("games", 0)
    if result["game_over"]:
        return {"scores": [0] * len(result["after"]), "games": games + 1,
                "last_game": {"scores": result["after"], "winners": result["winners"]}}
    return {"scores": result["after"], "games": games, "last_game": (match or {}).get("last_game")}


def after_settlement(bok: Mapping, match: Mapping | None, settlement: Mapping) -> tuple[dict, dict | None]:
    """The table's bok-runda counts and game score once a hand is settled."""
    return (after_hand(bok, settlement.get("bok_runda", False), settlement.get("bok_due", False)),
            after_game_hand(match, settlement.get("match")))


def terms(stake: int, seats: tuple[str, ...], bok: Mapping, match: Mapping | None,
          carried: Mapping | None = None) -> TableTerms:
    """What settling the table's next hand needs from it."""
    return TableTerms(stake, seats, bok_runda=bok["hands_left"] > 0, match=tuple(match["scores"]) if match else (),
                      carried=dict(carried or {}))


def carried_at_start(game: Game) -> dict:
    """What the game carries from hand to hand, before a table's first hand."""
    return {span.name: span.start for span in game.table.spans}


def carried_after(game: Game, rules, carried: Mapping | None, settlement: Mapping) -> dict:
    """What the game carries once a hand is settled (``carried`` None: from the start)."""
    now = carried_at_start(game) | dict(carried or {})
    return {span.name: span.after(rules, now[span.name], settlement) for span in game.table.spans}


def deal_context(game: Game, rules, match: Mapping | None) -> dict:
    """What a hand records from its table when it is dealt: the match score, for a game
    whose bonuses may end the match in the middle of a hand."""
    if not game.table.carries_match_into_deal:
        return {}
    return {"match_before": list(match["scores"]) if match else [0] * len(game.table.sides(rules))}


def view(game: Game, rules, bok: Mapping, match: Mapping | None, carried: Mapping | None = None) -> dict:
    """The table's running state as the API shows it: ``match`` for a game played to a
    target, ``bok`` for a table with bok-rundy, each None otherwise; ``carried`` for a game
    with spans of its own."""
    shown: dict = {"match": None, "bok": None}
    target = game.table.target(rules)
    if target is not None:
        sides = game.table.sides(rules)
        match = match or {}
        shown["match"] = {"sides": [list(s) for s in sides], "scores": match.get("scores", [0] * len(sides)),
                          "target": target, "games": match.get("games", 0), "last_game": match.get("last_game")}
    if game.table.bok_rundy(rules):
        shown["bok"] = {"running": bok["hands_left"] > 0, "hands_left": bok["hands_left"], "queued": bok["queued"]}
    if game.table.spans:
        shown["carried"] = carried_at_start(game) | dict(carried or {})
    return shown
