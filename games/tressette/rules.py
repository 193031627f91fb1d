"""Tressette's pack, its thirds and its table's rules (../shared/rules/tressette.md).

The Italian pack of forty cards, written as bitka writes it (A K Q J 7 6 5 4 3 2), ranks
high to low in every suit 3 2 A K Q J 7 6 5 4, no trumps. Points are counted in thirds
(``units.THIRD``): an ace is 3, each 3, 2, K, Q and J is 1, 7 to 4 nothing, and the last
trick of the hand 3 more: 35 thirds in a hand, of which a side scores its thirds divided by
3, rounded down (11 points shared out, the odd thirds lost).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import named_rules
from ..engine.errors import RuleViolation
from ..engine.trick_game.values import CardValues
from ..engine.units import THIRD

ORDER = ("3", "2", "A", "K", "Q", "J", "7", "6", "5", "4")  # high to low in every suit
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}  # each card's thirds (7 to 4: none)
LAST_TRICK = 3  # thirds the last trick of the hand adds
CARDS = CardValues(ORDER, THIRDS, last_trick=LAST_TRICK, unit=THIRD)
PACK = CARDS.pack()  # forty cards
IN_A_HAND = 35  # thirds: 32 in the cards, 3 for the last trick
HAND = 10  # cards dealt to each seat
TARGETS = (11, 21, 31)
PLAYERS = (4, 2)


def points_of(thirds: int) -> int:
    """The whole points of a side's thirds (rounded down: 7 thirds are 2 points)."""
    return THIRD.whole_points(thirds)


@dataclass(frozen=True)
class TressetteRules:
    """A Tressette table's rules (each described in words.RULE_FIELDS)."""
    players: int = 4  # four in partnerships (0+2 against 1+3), or two with a stock of twenty
    target: int = 21  # the points that win a game: 11, 21 or 31
    accuse: bool = False  # declarations (napoletana, three or four aces, twos or threes) before a first card
    stake_per: str = "game"  # "game": one stake per game won; "point": one stake per point of the margin
    show_draws: bool = True  # two players: each card drawn from the stock is shown to the other player

    game = "tressette"

    def to_data(self) -> dict:
        return {"players": self.players, "target": self.target, "accuse": self.accuse, "stake_per": self.stake_per,
                "show_draws": self.show_draws}

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3)) if self.players == 4 else ((0,), (1,))

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def tricks(self) -> int:
        """The tricks of a hand: 10 with four players, 20 with two."""
        return len(PACK) // self.players

    @property
    def stock(self) -> int:
        """The cards left to draw after the deal: none with four players, 20 with two."""
        return len(PACK) - HAND * self.players


def _flag(value) -> bool:
    return isinstance(value, bool)


def parse_rules(raw: Mapping | None) -> TressetteRules:
    rules = named_rules(TressetteRules, raw, "tressette")
    if rules.players not in PLAYERS or _flag(rules.players):
        raise RuleViolation(say("players must be 4 (two pairs) or 2 (with a stock)"))
    if rules.target not in TARGETS or _flag(rules.target):
        raise RuleViolation(say("target must be 11, 21 or 31 points, not {target}", target=repr(rules.target)))
    if not _flag(rules.accuse):
        raise RuleViolation(say("accuse must be true or false"))
    if rules.stake_per not in ("game", "point"):
        raise RuleViolation(say("stake_per must be 'game' or 'point'"))
    if not _flag(rules.show_draws):
        raise RuleViolation(say("show_draws must be true or false"))
    return rules


def seat_count(rules: TressetteRules) -> int:
    return rules.players


def seated_rules(raw, seats: int):
    """A table's rules at ``seats`` seats: two seat the game for two when the rules leave
    ``players`` unsaid."""
    if isinstance(raw, Mapping) and "players" not in raw and seats == 2:
        return {**raw, "players": 2}
    return raw
