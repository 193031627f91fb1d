"""The one property harness: a random legal hand of any game, played through its ``Game``
contract with choices a property test draws, each choice shown to the test's oracle first."""
from __future__ import annotations

from typing import Callable, Iterable

from games.engine.base import Command
from games.engine.contract import Game

OnCard = Callable[[object, int, list, list, str], None]  # (state, seat, trick so far, legal cards, chosen)
OnPlay = Callable[[object, list, dict], None]  # (state, legal plays, chosen)


def play_hand(game: Game, state, picks: Iterable[int], on_card: OnCard | None = None,
              on_play: OnPlay | None = None):
    """Play the hand to its end, each choice the legal option a pick points at (modulo how
    many there are; the picks cycle); the final state and the commands, in order."""
    picks = list(picks) or [0]
    commands, at = [], 0
    while not game.is_terminal(state):
        if game.capabilities.logged_by == "tricks":
            leader, seats, cards = game.moves.turn(state), len(game.moves.held(state)), []
            for i in range(seats):
                seat = (leader + i) % seats
                legal = game.moves.legal_cards(state, seat, tuple(cards))
                card = legal[picks[at % len(picks)] % len(legal)]
                at += 1
                if on_card:
                    on_card(state, seat, list(cards), list(legal), card)
                cards.append(card)
            command = Command("trick", {"cards": cards})
        else:
            legal = game.moves.legal_plays(state)
            play = legal[picks[at % len(picks)] % len(legal)]
            at += 1
            if on_play:
                on_play(state, legal, play)
            command = Command("play", play)
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        commands.append(command)
    return state, commands
