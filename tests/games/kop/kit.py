"""Small builders for Kop and Baśka tests: deals with chosen cards, hands with calls and tricks.

Every helper but ``start`` finds the game from the state's own rules."""
from __future__ import annotations

from games.kop import game as kop
from games.engine.base import RULES_VERSION, Command, Event, TableTerms
from games.registry import game as game_of

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


def start(hands, dealer: int = 0, rules: dict | None = None, calls=(), module=kop):
    state = module.new_hand(module.parse_rules(rules or {}), {"dealer": dealer, "hands": hands})
    for call in calls:
        state = bid(state, call)
    return state


def bid(state, call):
    module = game_of(state.rules.game)
    for event in module.decide(state, Command("bid", call)):
        state = module.evolve(state, event)
    return state


def trick(state, cards):
    module = game_of(state.rules.game)
    [event] = module.decide(state, Command("trick", {"cards": cards}))
    return module.evolve(state, event), event.data


def scored(state, results: list[tuple[int, int]]):
    """Record tricks by (winner, card points) alone: for tests of scoring, not of play."""
    module = game_of(state.rules.game)
    for number, (winner, points) in enumerate(results, 1):
        state = module.evolve(state, Event("trick", {"trick": number, "leader": 0, "cards": [],
                                                     "winner": winner, "points": points}))
    return state


def settle(state, stake: int = 100, bok_runda: bool = False, rules_version: int = RULES_VERSION):
    return game_of(state.rules.game).settle(state, TableTerms(stake, MEMBERS, bok_runda, rules_version=rules_version))
