"""Briscola hands logged by their score sheet alone: card points and tricks per side (seat
0's side first), refused when no hand of this pack could end that way.

The card points add up to 120 and the tricks to the hand's (20 with two players, 10 with
four). A side that took ``k`` tricks holds ``k`` x (players) cards of the pack, whose card
points are the side's, and the other side holds the rest; so a side with no trick has no
card points, a side with every trick has all 120, and one trick holds at most 22 card
points with two players (two aces), 44 with four (four aces). Which totals some cards of
the pack add up to is the engine's (games/engine/possible.py).
"""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require
from ..engine.possible import per_side, taken
from .rules import PACK, POINTS, TOTAL, BriscolaRules

FIELDS = ("points", "tricks")
SIDES = 2


def result_event(rules: BriscolaRules, dealer: int, raw: Mapping) -> Event:
    """The ``result`` event of a checked score sheet."""
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with points and tricks"))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise RuleViolation(say("a {game} result has points and tricks, not {unknown}", game=rules.game,
                                unknown=", ".join(unknown)))
    require(raw, FIELDS)
    points, tricks = per_side(raw, "points", SIDES), per_side(raw, "tricks", SIDES)
    taken(points, tricks, PACK, POINTS, rules.players, rules.game)
    return Event("result", {"dealer": dealer, "result": {"points": points, "tricks": tricks}})


def result_fields(rules: BriscolaRules) -> tuple[ResultField, ...]:
    """The score sheet of a Briscola hand: card points and tricks, for each side."""
    return (ResultField("points", "per-side", say("Card points"), high=TOTAL, noun=say("card points")),
            ResultField("tricks", "per-side", "Tricks", high=rules.tricks, noun=say("tricks")))
