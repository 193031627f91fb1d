"""Playing a hand to the end with a chooser, through a game's ``Game`` contract: for the
demo, the bench and the property tests."""
from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from .base import Command
from .contract import Game
from .errors import RuleViolation
from .table import deal_context

Chooser = Callable[[Sequence[Any]], Any]


def first_legal(options: Sequence[Any]) -> Any:
    return options[0]


def play_through(game: Game, state, choose: Chooser = first_legal) -> tuple[Any, list[Command]]:
    """Play every remaining trick (card by card, each among the legal ones) or play (each
    among the legal plays) until the hand is over; the final state and the commands made."""
    commands = []
    while not game.is_terminal(state):
        if game.capabilities.logged_by == "tricks":
            cards = []
            for seat in game.trick_seats(state):
                cards.append(choose(game.moves.legal_cards(state, seat, tuple(cards))))
            command = Command("trick", {"cards": cards})
        else:
            command = Command("play", dict(choose(game.moves.legal_plays(state))))
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        commands.append(command)
    return state, commands


def play_out(module, state, choose: Chooser = first_legal) -> tuple[object, list[list[str]]]:
    """A trick game's hand played out: the final state and the tricks as card lists."""
    state, commands = play_through(module.GAME, state, choose)
    return state, [c.data["cards"] for c in commands]


def play_by_plays(module, state, choose: Chooser = first_legal) -> tuple[object, list[dict]]:
    """A hand logged by plays played out: the final state and its plays."""
    state, commands = play_through(module.GAME, state, choose)
    return state, [c.data for c in commands]


def dealt_at_random(game: Game, rules, chance: random.Random, dealer: int) -> dict:
    """A deal of a shuffled pack that the rules accept (one they want dealt again is)."""
    deck = sorted(game.sight.pack(rules))
    for _ in range(1000):
        chance.shuffle(deck)
        body = dict(game.moves.deals(rules, deck, dealer))
        try:
            game.parse_deal(rules, body)
        except RuleViolation:
            continue
        return body
    raise ValueError(f"{game.name}: no deal of a thousand shuffles is one the rules accept")


def hand_at_random(game: Game, rules, chance: random.Random, dealer: int, match: Mapping | None = None) -> dict:
    """A whole hand's body (its deal, then every trick or play, each card chosen at random
    among the legal ones) at a table whose game score is ``match``."""
    deal = dealt_at_random(game, rules, chance, dealer)
    state = game.initial_state(rules, {**game.parse_deal(rules, deal).data, **deal_context(game, rules, match)})
    _, commands = play_through(game, state, chance.choice)
    kind = "plays" if game.capabilities.logged_by == "plays" else "tricks"
    return {"deal": deal, kind: [dict(c.data) for c in commands]}


def until_the_game_is_won(raw_rules: Mapping, most: int = 60):
    """``DemoTable.hands`` for a game played to a target: random hands, the first legal card
    each time, until a settlement says the game (or match) is over."""
    def hands(game: Game, chance: random.Random, number: int, last: Mapping | None) -> dict | None:
        match = (last or {}).get("match")
        if number >= most or (match and match["game_over"]):
            return None
        rules = game.parse_rules(raw_rules)
        scores = {"scores": match["after"]} if match else None
        return hand_at_random(game, rules, chance, number % game.seat_count(rules), scores)
    return hands
