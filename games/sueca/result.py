"""Sueca hands logged by their score sheet alone: card points and tricks per side (0+2, 1+3),
refused when no ten tricks of the pack could end that way.

The card points add up to 120 and the tricks to 10. A side that took ``k`` tricks holds
``4k`` cards of the pack, whose card points are the side's; the other side holds the rest.
So a side with no trick has no card points, a side with every trick has all 120, and, say,
one trick cannot hold more than 42 (games/engine/possible.py).
"""
from __future__ import annotations

from typing import Collection, Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require
from ..engine.possible import per_side, taken

FIELDS = ("points", "tricks")
TOTAL_POINTS = 120
SIDES = 2
PER_TRICK = 4  # cards in a trick


def result_event(rules, dealer: int, raw: Mapping, pack: Collection[str], points_of: Mapping[str, int]) -> Event:
    """The ``result`` event of a checked score sheet; ``pack`` is the game's cards and
    ``points_of`` their card points by rank."""
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with points and tricks"))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise RuleViolation(say("a sueca result has points and tricks, not {unknown}", unknown=', '.join(unknown)))
    require(raw, FIELDS)
    points, tricks = per_side(raw, "points", SIDES), per_side(raw, "tricks", SIDES)
    taken(points, tricks, pack, points_of, PER_TRICK, rules.game)
    return Event("result", {"dealer": dealer, "result": {"points": points, "tricks": tricks}})


def result_fields(rules) -> tuple[ResultField, ...]:
    """The score sheet of a Sueca hand: card points and tricks, for each side."""
    return (ResultField("points", "per-side", say("Card points"), high=TOTAL_POINTS, noun=say("card points")),
            ResultField("tricks", "per-side", "Tricks", high=10, noun=say("tricks")))
