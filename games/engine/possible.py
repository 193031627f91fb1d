"""Could a result happen? The card-point totals that some cards of a pack add up to.

A score sheet says a side took ``k`` tricks worth ``p`` card points. That is possible
exactly when some ``k`` x (cards per trick) cards of the pack add up to ``p``: the side's
cards can be dealt into its tricks in any grouping, and the other side holds the rest.
``nearest`` picks, of the totals that can happen, those a score sheet offers instead of one
that cannot.
``per_side`` reads a sheet's number for each side, ``taken`` checks a whole hand's card
points and tricks per side so.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Collection, Iterable, Mapping, Sequence

from events.sentences import say

from .errors import Malformed, RuleViolation, whole_number


@lru_cache(maxsize=64)
def totals(values: tuple[int, ...], count: int) -> frozenset[int]:
    """Every total that some ``count`` cards add up to; ``values`` has one entry per card."""
    if not 0 <= count <= len(values):
        return frozenset()
    reach: list[set[int]] = [{0}] + [set() for _ in range(count)]
    for seen, value in enumerate(values, 1):
        for k in range(min(seen, count), 0, -1):
            reach[k] |= {total + value for total in reach[k - 1]}
    return frozenset(reach[count])


def why_impossible(points: int, cards: int, values: tuple[int, ...]) -> str | None:
    """None when some ``cards`` cards of the pack (``values``: each card's points) add up to
    ``points``; else a sentence saying what such cards can add up to."""
    possible, size = totals(values, cards), len(values)
    if points in possible:
        return None
    if not possible:
        return say("the pack of {size:d} cards has no {cards} cards to take", size=size, cards=cards)
    low, high = min(possible), max(possible)
    if low == high:
        return say("{cards} cards of the pack of {size:d} hold {low} card points, whichever they are",
                   cards=cards, size=size, low=low)
    if not low <= points <= high:
        return say("{cards} cards of the pack of {size:d} hold from {low} to {high} card points",
                   cards=cards, size=size, low=low, high=high)
    below = max(t for t in possible if t < points)
    above = min(t for t in possible if t > points)
    return say("no {cards} cards of the pack of {size:d} add up to {points:d} (the nearest totals are {below} and "
               "{above})", cards=cards, size=size, points=points, below=below, above=above)


def nearest(value: int, possible: Collection[int], count: int = 4) -> list[int]:
    """The ``count`` values of ``possible`` nearest ``value`` (the lower first where two are
    as near), in order: what a score sheet offers instead of a total that cannot happen."""
    return sorted(sorted(possible, key=lambda total: (abs(total - value), total))[:count])


def pack_values(cards: Iterable[str], points: dict[str, int]) -> tuple[int, ...]:
    """The card points of each card of a pack (rank then suit), sorted for the cache."""
    return tuple(sorted(points.get(card[:-1], 0) for card in cards))


def per_side(raw: Mapping, name: str, sides: int) -> list[int]:
    """A score sheet's ``name``: a whole number for each of ``sides`` sides, none negative."""
    value = raw.get(name)
    if not isinstance(value, list) or len(value) != sides:
        raise Malformed(name, say("{name} must list {n:d} whole numbers, one per side", name=name, n=sides))
    for v in value:
        if whole_number(v, name, say("a list of {n:d} whole numbers", n=sides)) < 0:
            raise RuleViolation(say("{name} cannot be negative: {value}", name=name, value=value))
    return list(value)


def taken(points: Sequence[int], tricks: Sequence[int], pack: Collection[str], points_of: Mapping[str, int],
          per_trick: int, hand: str) -> None:
    """Refuses card points and tricks per side that no whole hand of ``pack`` gives: the
    points not adding up to the pack's, the tricks not to the hand's (``per_trick`` cards
    each), or a side's points that no cards of its tricks hold. ``hand`` names the hand's
    game or variant in the refusal."""
    values = pack_values(pack, dict(points_of))
    total, in_hand = sum(values), len(pack) // per_trick
    if sum(points) != total:
        raise RuleViolation(say("the card points must add up to {total}, not {sum_points:d}",
                                total=total, sum_points=sum(points)))
    if sum(tricks) != in_hand:
        raise RuleViolation(say("a {variant} hand has {tricks_in_hand} tricks, not {sum_tricks:d}",
                                variant=hand, tricks_in_hand=in_hand, sum_tricks=sum(tricks)))
    for side, (side_points, side_tricks) in enumerate(zip(points, tricks, strict=True)):
        why = why_impossible(side_points, per_trick * side_tricks, values)
        if why:
            raise RuleViolation(say("side {side} cannot take {points_side} card points in {tricks_side} trick(s): "
                                    "{why}",
                                    side=side, points_side=side_points, tricks_side=side_tricks, why=why))
