"""Small builders for Baśka tests (the deal helper is Kop's: same pack, same seats)."""
from __future__ import annotations

from games import baska
from games.base import Command, Event, TableTerms

from .kopkit import deal  # noqa: F401 - the tests build their deals with it

MEMBERS = ("m0", "m1", "m2", "m3")


def start(hands, dealer: int = 0, variant: str = "bytow-2005", calls=()):
    state = baska.new_hand(baska.parse_rules({"variant": variant}), {"dealer": dealer, "hands": hands})
    for call in calls:
        state = bid(state, call)
    return state


def bid(state, call):
    for event in baska.decide(state, Command("bid", call)):
        state = baska.evolve(state, event)
    return state


def trick(state, cards):
    [event] = baska.decide(state, Command("trick", {"cards": cards}))
    return baska.evolve(state, event), event.data


def scored(state, results):
    for number, (winner, points) in enumerate(results, 1):
        state = baska.evolve(state, Event("trick", {"trick": number, "leader": 0, "cards": [],
                                                    "winner": winner, "points": points}))
    return state


def settle(state, stake: int = 100, bok_runda: bool = False):
    return baska.settle(state, TableTerms(stake, MEMBERS, bok_runda))
