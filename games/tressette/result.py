"""Tressette hands logged by their score sheet alone: ``{"thirds": [n, n], "tricks": [n, n],
"last": side}`` per side (seat 0's side first), and ``"accuse": [n, n]`` points with the
table rule ``accuse``; refused when no hand of tricks could end that way.

The thirds add up to 35 with the last trick's 3, the tricks to 10 (four players) or 20
(two). A side that took ``k`` tricks holds ``k`` x (cards per trick) cards of the pack,
whose thirds are its own (games/engine/possible.py): a side with no trick has no thirds,
and the side that took the last trick has at least its 3. A side's declarations add up to
what its seats could declare of the twelve aces, twos and threes.
"""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require, whole_number
from ..engine.possible import nearest, pack_values, per_side, totals
from . import accuse
from .rules import IN_A_HAND, LAST_TRICK, PACK, THIRDS

SIDES = 2
ALL_DECLARED = accuse.worth(r + s for r in accuse.TOPS for s in "CSHD")  # the twelve cards declared: 24


def fields_of(rules) -> tuple[str, ...]:
    plain = ("thirds", "tricks", "last")
    return (*plain, "accuse") if rules is not None and rules.accuse else plain


def result_event(rules, dealer: int, raw: Mapping) -> Event:
    """The ``result`` event of a checked score sheet."""
    names = fields_of(rules)
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with {names}", names=", ".join(names)))
    unknown = sorted(set(raw) - set(names))
    if unknown:
        raise RuleViolation(say("a tressette result has {names}, not {unknown}", names=", ".join(names),
                                unknown=", ".join(unknown)))
    require(raw, names)
    thirds, tricks = per_side(raw, "thirds", SIDES), per_side(raw, "tricks", SIDES)
    last = whole_number(raw["last"], "last", say("a side, 0 or 1"))
    if last not in (0, 1):
        raise RuleViolation(say("last must be a side, 0 or 1, not {last}", last=last))
    taken(rules, thirds, tricks, last)
    result = {"thirds": thirds, "tricks": tricks, "last": last}
    if rules.accuse:
        result["accuse"] = declared(rules, per_side(raw, "accuse", SIDES))
    return Event("result", {"dealer": dealer, "result": result})


def taken(rules, thirds: list[int], tricks: list[int], last: int) -> None:
    """Refuses thirds and tricks per side that no hand gives."""
    if sum(thirds) != IN_A_HAND:
        raise RuleViolation(say("the thirds must add up to {total} with the last trick's, not {sum_thirds}",
                                total=IN_A_HAND, sum_thirds=sum(thirds)))
    if sum(tricks) != rules.tricks:
        raise RuleViolation(say("a tressette hand of {players} players has {tricks_in_hand} tricks, not "
                                "{sum_tricks:d}", players=rules.players, tricks_in_hand=rules.tricks,
                                sum_tricks=sum(tricks)))
    if not tricks[last]:
        raise RuleViolation(say("side {side} took no trick, so not the last one", side=last))
    values = pack_values(PACK, THIRDS)
    for side in range(SIDES):
        in_cards = thirds[side] - (LAST_TRICK if side == last else 0)
        if in_cards < 0:
            raise RuleViolation(say("side {side} took the last trick, worth {thirds} thirds: they have at "
                                    "least {thirds}, not {side_thirds}", side=side, thirds=LAST_TRICK,
                                    side_thirds=thirds[side]))
        can = totals(values, rules.players * tricks[side])
        if in_cards not in can:
            raise RuleViolation(say("side {side} cannot hold {in_cards} thirds in the cards of {tricks_side} "
                                    "trick(s); the nearest they can hold are {nearest}", side=side, in_cards=in_cards,
                                    tricks_side=tricks[side],
                                    nearest=", ".join(map(str, nearest(in_cards, can)))))


def declared(rules, points: list[int]) -> list[int]:
    """The declarations' points per side, each what the side's seats could declare."""
    seats = len(rules.sides[0])
    for side, value in enumerate(points):
        if value not in accuse.possible(seats):
            raise RuleViolation(say("side {side} cannot declare {points:d} point(s): a napoletana or three of a kind "
                                    "is 3, four of a kind 4", side=side, points=value))
    if sum(points) > ALL_DECLARED:
        raise RuleViolation(say("the declarations cannot add up to more than {most} points, all twelve aces, twos "
                                "and threes declared", most=ALL_DECLARED))
    return points


def result_fields(rules) -> tuple[ResultField, ...]:
    """The score sheet of a Tressette hand: thirds and tricks per side, the side that took
    the last trick, and (with declarations) each side's declared points."""
    players = rules.players if rules is not None else 4
    fields = (ResultField("thirds", "per-side", say("Thirds, the last trick's 3 with them"), high=IN_A_HAND,
                          noun=say("thirds")),
              ResultField("tricks", "per-side", say("Tricks"), high=40 // players, noun=say("tricks")),
              ResultField("last", "side", say("Who took the last trick"), noun=say("last trick")))
    if rules is not None and rules.accuse:
        fields += (ResultField("accuse", "per-side", say("Points declared"), high=ALL_DECLARED,
                               noun=say("declared")),)
    return fields
