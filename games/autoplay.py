"""Playing a trick game's hand to the end with a chooser: for demos and property tests."""
from __future__ import annotations

from typing import Callable, Sequence

from .base import Command

Chooser = Callable[[Sequence[str]], str]


def first_legal(cards: Sequence[str]) -> str:
    return cards[0]


def play_scopa(module, state, choose=lambda plays: plays[0]) -> tuple[object, list[dict]]:
    """Play a Scopa hand to its end, each play chosen among the legal (card, capture) pairs."""
    plays = []
    while not module.is_over(state):
        card, capture = choose(module.legal_plays(state))
        play = {"card": card, "capture": list(capture)}
        for event in module.decide(state, Command("play", play)):
            state = module.evolve(state, event)
        plays.append(play)
    return state, plays


def play_out(module, state, choose: Chooser = first_legal) -> tuple[object, list[list[str]]]:
    """Play every remaining trick, each card chosen among the legal ones.

    Returns the final state and the tricks as card lists in play order."""
    tricks = []
    while not module.is_over(state):
        leader, played = state.leader, []
        for i in range(len(state.held)):
            seat = (leader + i) % len(state.held)
            played.append(choose(module.legal_cards(state, seat, tuple(played))))
        for event in module.decide(state, Command("trick", {"cards": played})):
            state = module.evolve(state, event)
        tricks.append(played)
    return state, tricks
