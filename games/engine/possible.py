"""Could a result happen? The card-point totals that some cards of a pack add up to.

A score sheet says a side took ``k`` tricks worth ``p`` card points. That is possible
exactly when some ``k`` x (cards per trick) cards of the pack add up to ``p``: the side's
cards can be dealt into its tricks in any grouping, and the other side holds the rest.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from events.sentences import say


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


def why_impossible(points: int, cards: int, values: tuple[int, ...], pack: str) -> str | None:
    """None when some ``cards`` cards of the pack add up to ``points``; else a sentence
    saying what such cards can add up to."""
    possible = totals(values, cards)
    if points in possible:
        return None
    if not possible:
        return say("the {pack} pack has no {cards} cards to take", pack=pack, cards=cards)
    low, high = min(possible), max(possible)
    if low == high:
        return say("{cards} cards of the {pack} pack hold {low} card points, whichever they are",
                   cards=cards, pack=pack, low=low)
    if not low <= points <= high:
        return say("{cards} cards of the {pack} pack hold from {low} to {high} card points",
                   cards=cards, pack=pack, low=low, high=high)
    below = max(t for t in possible if t < points)
    above = min(t for t in possible if t > points)
    return say("no {cards} cards of the {pack} pack add up to {points} (the nearest totals are {below} and {above})",
               cards=cards, pack=pack, points=points, below=below, above=above)


def pack_values(cards: Iterable[str], points: dict[str, int]) -> tuple[int, ...]:
    """The card points of each card of a pack (rank then suit), sorted for the cache."""
    return tuple(sorted(points.get(card[:-1], 0) for card in cards))
