"""Tressette's declarations (the accusa; table rule ``accuse``).

Before playing their first card a player may declare, once per hand, for their side: a
napoletana (the A, 2 and 3 of one suit), 3 points each; three of the aces, twos or threes,
3 points; all four of them, 4 points. The declaration is a call, ``{"seat", "call":
"accuse", "cards": [...]}``, checked against the cards the seat holds: every card named is
the seat's, and each is part of a combination. Its worth is every combination the cards
make (an ace of a napoletana may count in three aces as well). The cards declared are
shown to the table (the event says so: ``"shown": true``), so no reader has them sealed
from then on. The points are whole
points, added to the side's hand score.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterable, Mapping

from events.sentences import say

from ..engine.cards import SUIT_NAMES, SUITS, parse_cards
from ..engine.errors import Revealing, RuleViolation

CALL = "accuse"
TOPS = ("A", "2", "3")  # the ranks that make a napoletana, and three or four of a kind
NAPOLETANA, THREE, FOUR = 3, 3, 4  # points


def combinations_in(cards: Iterable[str]) -> list[tuple[str, tuple[str, ...], int]]:
    """Every combination ``cards`` make: (what it is, its cards, its points); napoletanas
    by suit first, then the ranks of which three or four are named."""
    held = set(cards)
    found = []
    for suit in SUITS:
        three = tuple(r + suit for r in TOPS)
        if held.issuperset(three):
            found.append((say("a napoletana of {suit}", suit=SUIT_NAMES[suit]), three, NAPOLETANA))
    for rank in TOPS:
        same = tuple(rank + s for s in SUITS if rank + s in held)
        if len(same) in (3, 4):
            found.append((_of_a_kind(rank, len(same) == 4), same, FOUR if len(same) == 4 else THREE))
    return found


def _of_a_kind(rank: str, four: bool) -> str:
    """Three or all four of the aces, twos or threes, each a sentence of its own (the rank's
    word and its number agree in every language)."""
    match rank, four:
        case "A", False:
            return say("three aces")
        case "A", True:
            return say("all four aces")
        case "2", False:
            return say("three twos")
        case "2", True:
            return say("all four twos")
        case "3", False:
            return say("three threes")
    return say("all four threes")


def worth(cards: Iterable[str]) -> int:
    """The points of a declaration of ``cards``."""
    return sum(points for _, _, points in combinations_in(cards))


def best(held: Iterable[str]) -> list[str]:
    """The fullest declaration of a hand: every card of it that is part of a combination,
    in the hand's order (empty: nothing to declare)."""
    held = list(held)
    used = {c for _, cards, _ in combinations_in(held) for c in cards}
    return [c for c in held if c in used]


@lru_cache(maxsize=1)
def per_seat() -> frozenset[int]:
    """Every worth one seat's declaration can have (of the twelve aces, twos and threes, at
    most the ten cards it holds)."""
    tops = [r + s for r in TOPS for s in SUITS]
    return frozenset(worth(chosen) for n in range(11) for chosen in combinations(tops, n))


def possible(seats_in_side: int) -> frozenset[int]:
    """Every worth a side's declarations can add up to (each of its seats declares once)."""
    sums = frozenset({0})
    for _ in range(seats_in_side):
        sums = frozenset(a + b for a in sums for b in per_seat())
    return sums


def declared(data: Mapping) -> list[str]:
    """The cards a declaration names: a list, or (as a page's form sends them) one string
    of cards separated by commas."""
    cards = data.get("cards")
    if isinstance(cards, str):
        cards = [c for c in cards.split(",") if c.strip()]
    return parse_cards(cards)


def decide(state, data: Mapping) -> dict:
    """The ``bid`` event of a declaration, or why it is refused."""
    rules = state.rules
    if str(data.get("call", "")).lower() != CALL:
        raise RuleViolation(say("the only call in tressette is a declaration, {{\"call\": \"accuse\", \"cards\": "
                                "[...]}}"))
    if not rules.accuse:
        raise RuleViolation(say("this table plays without declarations: its rule accuse is false"))
    extra = sorted(set(data) - {"seat", "call", "cards"})
    if extra:
        raise RuleViolation(say("a declaration is {{\"seat\", \"call\": \"accuse\", \"cards\"}}, not {extra}",
                                extra=", ".join(extra)))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}", last=rules.players - 1))
    if any(s == seat for s, _ in state.played_by_seat()):
        raise RuleViolation(say("seat {seat} has played a card: a declaration is made before one's first card",
                                seat=seat))
    if any(d["seat"] == seat for d in state.declared):
        raise RuleViolation(say("seat {seat} has declared already: once per hand", seat=seat))
    cards = declared(data)
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise RuleViolation(say("{card} is named twice", card=card))
    if not cards:
        raise RuleViolation(say("a declaration names its cards: a napoletana, or three or four aces, twos or threes"))
    public = say("seat {seat} may not declare those cards", seat=seat)
    missing = [c for c in cards if c not in state.held[seat]]
    if missing:
        raise Revealing(say("seat {seat} does not hold {cards}", seat=seat, cards=" ".join(missing)), seat, public)
    found = combinations_in(cards)
    loose = [c for c in cards if not any(c in combo for _, combo, _ in found)]
    if loose:
        raise Revealing(say("{cards} make no declaration: a napoletana is the A, 2 and 3 of one suit, and three or "
                            "four aces, twos or threes count", cards=" ".join(loose)), seat, public)
    return {"seat": seat, "call": CALL, "cards": cards, "points": worth(cards), "shown": True}


def said(cards: Iterable[str]) -> str:
    """What a declaration declares, in words: "a napoletana of clubs and three aces"."""
    return ", ".join(name for name, _, _ in combinations_in(cards))
