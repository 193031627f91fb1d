"""What ``bitka demo`` plays at a Kop table: one hand of each contract the game has (a
normal game, wesele, cicha, zolo with kontra and re, a normal game with a kontra), each from
a shuffle that gives the cards it needs, played with the first legal card. Baśka's demo
deals the same way (games/baska/demo.py)."""
from __future__ import annotations

import random
from typing import Callable, Mapping, Sequence

from ..engine.autoplay import play_through
from ..engine.base import Command
from ..engine.contract import DemoTable, Game
from .pack import PACK, TRICKS
from .turns import PLAYERS as SEATS  # the demo's tables are of four

Hands = list[list[str]]
Plan = tuple[Callable[[Hands, int], bool], Callable[[Hands, int], list[dict]]]  # the deal it needs, its calls


def both_queens(hands: Hands) -> int | None:
    return next((s for s, h in enumerate(hands) if {"QC", "QS"} <= set(h)), None)


def split_queens(hands: Hands, dealer: int) -> bool:
    return both_queens(hands) is None


def one_has_both_queens(hands: Hands, dealer: int) -> bool:
    return both_queens(hands) is not None


def strong_first_hand(hands: Hands, dealer: int) -> bool:
    return {"AH", "10H"} <= set(hands[(dealer + 1) % SEATS])


def in_turn(*names: str) -> Callable[[Hands, int], list[dict]]:
    """Calls made in turn from the seat after the dealer, one name each."""
    def calls(hands: Hands, dealer: int) -> list[dict]:
        return [{"seat": (dealer + 1 + i) % SEATS, "call": n} for i, n in enumerate(names)]
    return calls


def no_calls(hands: Hands, dealer: int) -> list[dict]:
    return []


def wesele(hands: Hands, dealer: int) -> list[dict]:
    return [{"seat": both_queens(hands), "call": "wesele"}]


def planned_hands(raw_rules: Mapping, plans: Sequence[Plan]):
    """``DemoTable.hands`` for a table on Kop's play: hand ``number`` is plan ``number``."""
    def hands(game: Game, chance: random.Random, number: int, last: Mapping | None) -> dict | None:
        if number >= len(plans):
            return None
        rules, (wanted, calls_of) = game.parse_rules(raw_rules), plans[number]
        dealer, cards = number % SEATS, sorted(PACK)  # the deal passes round the table
        while True:
            chance.shuffle(cards)
            dealt = [sorted(cards[i * TRICKS:(i + 1) * TRICKS]) for i in range(SEATS)]
            if wanted(dealt, dealer):
                break
        deal, calls = {"dealer": dealer, "hands": dealt}, calls_of(dealt, dealer)
        state = game.initial_state(rules, game.parse_deal(rules, deal).data)
        for call in calls:
            for event in game.decide(state, Command("bid", call)):
                state = game.evolve(state, event)
        _, tricks = play_through(game, state)
        return {"deal": deal, "bids": calls, "tricks": [dict(t.data) for t in tricks]}
    return hands


PLANS: tuple[Plan, ...] = (
    (split_queens, no_calls),  # a normal game
    (one_has_both_queens, wesele),
    (one_has_both_queens, no_calls),  # cicha
    (strong_first_hand, lambda hands, dealer: [{"seat": (dealer + 1) % SEATS, "call": "zolo"},
                                               {"seat": (dealer + 2) % SEATS, "call": "kontra"},
                                               {"seat": (dealer + 1) % SEATS, "call": "re"}]),
    (split_queens, in_turn("kontra")),
)


TABLES = (DemoTable({}, "0.50", SEATS, planned_hands({}, PLANS)),)
