"""The trick-taking core (games/engine/trick_game/), on a small game declared here the way a
game declares its own: a no-trumps game that must follow suit and counts thirds with a
last-trick bonus (as Tressette will), and a game with trumps, no duty to follow and a stock
with a face-up card drawn last (as Briscola will). And no game imports another."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.engine.base import Command
from games.engine.cards import dealt_round
from games.engine.errors import Revealing, RuleViolation
from games.engine.trick_game.hand import TrickHand
from games.engine.trick_game.play import TrickRules
from games.engine.trick_game.stock import DrawTrick, StockHand
from games.engine.trick_game.values import CardValues, Unit

ORDER = ("3", "2", "A", "K", "Q", "J", "7", "6", "5", "4")
THIRDS = CardValues(ORDER, {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}, last_trick=3, unit=Unit("third", 3))


@dataclass(frozen=True)
class Rules:
    players: int = 2
    sides: tuple = ((0,), (1,))

    def side_of(self, seat):
        return seat

    def to_data(self):
        return {}


@dataclass(frozen=True)
class Hand(TrickHand):
    rules: Rules
    dealer: int
    held: tuple
    tricks: tuple = ()
    current: tuple = ()


@dataclass(frozen=True)
class Stocked(StockHand):
    rules: Rules
    dealer: int
    held: tuple
    stock: tuple
    trump_card: str | None
    tricks: tuple = ()
    current: tuple = ()
    pile_left: int | None = None
    owed: tuple = ()


FOLLOW = TrickRules(THIRDS, lambda rules: THIRDS.pack(), lambda state, card: f"{card}?", follow=True)
STOCK = TrickRules(CardValues(ORDER, {"A": 11, "3": 10}), lambda rules: THIRDS.pack(), lambda state, card: f"{card}?",
                   trump=lambda state: "C", stock=True, trick=DrawTrick)


def play(rules, state, *tricks):
    for cards in tricks:
        [event] = rules.decide(state, Command("trick", {"cards": list(cards)}))
        state = rules.evolve(state, event)
    return state, event.data


def test_follow_suit_no_trumps_thirds_and_the_last_trick():
    state = Hand(Rules(), dealer=1, held=(("AH", "4S"), ("2H", "3S")))
    assert state.leader == 0 and FOLLOW.legal_cards(state, 1, ("AH",)) == ["2H"]
    with pytest.raises(Revealing, match="must follow hearts"):
        FOLLOW.decide(state, Command("trick", {"cards": ["AH", "3S"]}))
    state, first = play(FOLLOW, state, ("AH", "2H"))
    assert (first["winner"], first["points"]) == (1, 4)  # the 2 beats the ace; no trumps
    state, last = play(FOLLOW, state, ("3S", "4S"))
    assert (last["winner"], last["points"]) == (1, 1 + 3)  # the 3 of spades, and the last trick's 3 thirds
    assert state.won() == ([0, 8], [0, 2]) and THIRDS.unit.whole_points(8) == 2


def test_a_card_at_a_time_and_a_card_held_elsewhere():
    state = Hand(Rules(), dealer=0, held=(("AH", "4S"), ("2H", "3S")))
    with pytest.raises(RuleViolation, match="is held by seat 0"):
        FOLLOW.decide(state, Command("trick", {"cards": ["AH", "2H"]}))  # seat 1 leads
    [played] = FOLLOW.decide(state, Command("play", {"card": "2H"}))
    state = FOLLOW.evolve(state, played)
    assert (state.turn, state.held[1], state.played_by_seat()) == (0, ("3S",), [(1, "2H")])
    events = FOLLOW.decide(state, Command("play", {"card": "AH"}))
    assert [e.type for e in events] == ["play", "trick"] and events[1].data["winner"] == 1


def test_no_duty_to_follow_trumps_and_the_stock_drawn_after_each_trick():
    state = Stocked(Rules(), dealer=1, held=(("AH", "4S"), ("2C", "3S")), stock=("KD",), trump_card="5C")
    assert STOCK.legal_cards(state, 1, ("AH",)) == ["2C", "3S"]
    state, first = play(STOCK, state, ("AH", "2C"))
    assert (first["winner"], first["draws"]) == (1, [[1, "KD"], [0, "5C"]])  # the winner first; the face-up card last
    assert (state.held, state.stock, state.trump_card, state.pile) == ((("4S", "5C"), ("3S", "KD")), (), None, 0)


def test_dealt_round_deals_seat_by_seat_from_a_given_seat():
    assert dealt_round(list("abcdef"), 3, 2, first=2) == [["c", "d"], ["e", "f"], ["a", "b"]]


def test_no_game_imports_another():
    """A game imports the engine, never another game (Baśka, still on Kop's play, aside)."""
    root = Path(__file__).resolve().parents[2] / "games"
    games = {p.name for p in root.iterdir() if (p / "__init__.py").exists()} - {"engine"}
    found = []
    for game in sorted(games):
        for path in (root / game).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or node.level < 2:
                    continue
                imported = (node.module or "").split(".")[0]
                if imported in games and (game, imported) != ("baska", "kop"):
                    found.append(f"{path.relative_to(root)} imports {node.module}")
    assert not found, found
