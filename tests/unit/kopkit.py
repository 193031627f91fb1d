"""Small builders for Kop tests: deals with chosen cards, hands with calls and tricks."""
from __future__ import annotations

from games import kop
from games.base import Command, Event, TableTerms

MEMBERS = ("m0", "m1", "m2", "m3")


def deal(fixed: dict[int, list[str]]) -> list[list[str]]:
    """A deal where each seat in ``fixed`` holds (at least) those cards; the rest is filled
    from the remaining pack in a fixed order."""
    rest = [c for c in sorted(kop.PACK) if not any(c in cards for cards in fixed.values())]
    hands = []
    for seat in range(4):
        cards = list(fixed.get(seat, []))
        while len(cards) < 4:
            cards.append(rest.pop(0))
        hands.append(cards)
    return hands


def start(hands, dealer: int = 0, rules: dict | None = None, calls=()):
    state = kop.new_hand(kop.parse_rules(rules or {}), {"dealer": dealer, "hands": hands})
    for call in calls:
        state = bid(state, call)
    return state


def bid(state, call):
    for event in kop.decide(state, Command("bid", call)):
        state = kop.evolve(state, event)
    return state


def trick(state, cards):
    [event] = kop.decide(state, Command("trick", {"cards": cards}))
    return kop.evolve(state, event), event.data


def scored(state, results: list[tuple[int, int]]):
    """Record tricks by (winner, card points) alone: for tests of scoring, not of play."""
    for number, (winner, points) in enumerate(results, 1):
        state = kop.evolve(state, Event("trick", {"trick": number, "leader": 0, "cards": [],
                                                  "winner": winner, "points": points}))
    return state


def settle(state, stake: int = 100):
    return kop.settle(state, TableTerms(stake, MEMBERS))
