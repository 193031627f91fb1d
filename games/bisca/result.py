"""Bisca hands logged by their result alone: card points and tricks per side, and (Capixaba)
the bonus each side scored; refused when no hand could end that way.

A side that took ``k`` tricks holds ``k`` x (players) cards of the pack, whose card points
are the side's; the other side holds the rest. Capixaba scores at most one bonus a hand:
each needs the 7 of trumps in its trick (rodar o 7), or the ace and the 7 of trumps in one
trick (the relas), and the 7 is played once.
"""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.cards import SUIT_NAMES
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require
from ..engine.possible import per_side, taken

FIELDS = ("points", "tricks", "bonus", "trump_suit")
BONUSES = {False: (1, 2), True: (2, 3, 4)}  # a bonus's possible points, by whether hearts are trump


def result_event(rules, dealer: int, raw: Mapping, pack, points_of) -> Event:
    """The ``result`` event of a checked result; ``pack`` is the variant's cards and
    ``points_of`` their card points by rank."""
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with points, tricks and bonus"))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise RuleViolation(say("a bisca result has points, tricks, bonus and trump_suit, not {unknown}",
                                unknown=', '.join(unknown)))
    capixaba = rules.variant == "capixaba"
    require(raw, ("points", "tricks", "bonus") if capixaba else ("points", "tricks"))
    n = len(rules.sides)
    points, tricks = per_side(raw, "points", n), per_side(raw, "tricks", n)
    bonus = per_side(raw, "bonus", n) if capixaba or raw.get("bonus") is not None else [0] * n
    suit = _suit(raw.get("trump_suit"))
    if not capixaba and raw.get("trump_suit") is not None:
        raise RuleViolation(say("only capixaba names trump_suit (hearts double its game points); a {variant} "
                                "hand's trump changes nothing in its score",
                                variant=rules.variant))
    taken(points, tricks, pack, points_of, rules.players, rules.variant)
    if any(bonus) and not capixaba:
        raise RuleViolation(say("only capixaba scores bonuses"))
    why = why_not_bonus(bonus, suit == "H")
    if why:
        raise RuleViolation(why)
    return Event("result", {"dealer": dealer, "result": {"points": points, "tricks": tricks, "bonus": bonus,
                                                         "trump_suit": suit}})


def why_not_bonus(bonus: list[int], hearts: bool) -> str | None:
    """None when one trick of a Capixaba hand could score this bonus; else why not."""
    scored = [b for b in bonus if b]
    if not scored:
        return None
    allowed = BONUSES[hearts]
    if len(scored) > 1:
        return (say("a capixaba hand scores one bonus at most: each needs the 7 of trumps in its trick, and it is "
                    "played once; not {bonus}",
                    bonus=bonus))
    if scored[0] not in allowed:
        trump = say("hearts trump") if hearts else say("a trump other than hearts (name trump_suit H for hearts)")
        return say("a bonus is worth {worth} with {trump}, not {given}",
                   worth=' or '.join(map(str, allowed)), trump=trump, given=scored[0])
    return None


def _suit(raw) -> str | None:
    """The trump suit a Capixaba result names: absent (or null) when it was not hearts."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or raw.upper() not in SUIT_NAMES:
        raise Malformed("trump_suit", say("trump_suit is one of C, S, H and D (H when hearts were trump)"))
    return raw.upper()


SUITS = (("C", "clubs"), ("S", "spades"), ("H", "hearts"), ("D", "diamonds"))


def result_fields(rules) -> tuple[ResultField, ...]:
    """The score sheet of a Bisca hand: card points and tricks per side, and in Capixaba the
    bonuses and the trump suit (hearts doubles)."""
    fields = [ResultField("points", "per-side", say("Card points"), high=120, noun=say("card points")),
              ResultField("tricks", "per-side", "Tricks", high=20, noun=say("tricks"))]
    if rules.variant == "capixaba":
        fields += [ResultField("bonus", "per-side", say("Bonus points (relas, rodar o 7)"), high=4, default="0",
                               noun=say("bonus points")),
                   ResultField("trump_suit", "choice", say("Trump suit"), options=SUITS, noun=say("trump suit"))]
    return tuple(fields)
