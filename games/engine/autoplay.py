"""Playing a hand to the end with a chooser, through a game's ``Game`` contract: for the
demo, the bench and the property tests."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .base import Command
from .contract import Game

Chooser = Callable[[Sequence[Any]], Any]


def first_legal(options: Sequence[Any]) -> Any:
    return options[0]


def play_through(game: Game, state, choose: Chooser = first_legal) -> tuple[Any, list[Command]]:
    """Play every remaining trick (card by card, each among the legal ones) or play (each
    among the legal plays) until the hand is over; the final state and the commands made."""
    commands = []
    while not game.is_terminal(state):
        if game.capabilities.logged_by == "tricks":
            leader, seats, cards = game.turn(state), len(game.held(state)), []
            for i in range(seats):
                cards.append(choose(game.legal_cards(state, (leader + i) % seats, tuple(cards))))
            command = Command("trick", {"cards": cards})
        else:
            command = Command("play", dict(choose(game.legal_plays(state))))
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        commands.append(command)
    return state, commands


def play_out(module, state, choose: Chooser = first_legal) -> tuple[object, list[list[str]]]:
    """A trick game's hand played out: the final state and the tricks as card lists."""
    state, commands = play_through(module.GAME, state, choose)
    return state, [c.data["cards"] for c in commands]


def play_scopa(module, state, choose: Chooser = first_legal) -> tuple[object, list[dict]]:
    """A Scopa hand played out: the final state and its plays."""
    state, commands = play_through(module.GAME, state, choose)
    return state, [c.data for c in commands]
