"""Briscola's pack and its table's rules (rules/briscola.md, "Pack, ranks, points").

The Italian 40-card pack as bitka writes it (A K Q J 7 6 5 4 3 2: the knight is Q, the
knave J), ranked A 3 K Q J 7 6 5 4 2 in every suit; the ace counts 11, the three 10, the
king 4, the knight 3, the knave 2, the rest nothing: 120 in all. Two play, each alone, or
four in pairs sitting opposite (0+2 against 1+3). A table chooses how many games win a
match (``match_to``) and what the stake pays (``stake_per``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from events.sentences import say

from ..engine.base import named_rules
from ..engine.errors import RuleViolation
from ..engine.trick_game.values import CardValues

ORDER = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")  # high to low in every suit
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
CARDS = CardValues(ORDER, POINTS)
PACK = CARDS.pack()  # forty cards
TOTAL = 120  # every card point of the pack
HAND = 3  # cards dealt to each seat, and held while the stock lasts
PLAYERS = (2, 4)
MATCH_TO = range(1, 6)  # games that win a match: 2 of 3 by default
STAKE_PER = ("game", "match")


@dataclass(frozen=True)
class BriscolaRules:
    """A Briscola table's rules (each described in words.RULE_FIELDS)."""
    players: int = 2
    match_to: int = 2  # the games that win a match: best of three
    stake_per: str = "game"  # "game": each game won is paid at once; "match": the match won is paid

    game = "briscola"

    def to_data(self) -> dict:
        return {"players": self.players, "match_to": self.match_to, "stake_per": self.stake_per}

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Each player alone (two), or seats 0+2 against 1+3 (four)."""
        return tuple(tuple(range(s, self.players, 2)) for s in range(2))

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def tricks(self) -> int:
        """The tricks of a hand: 20 with two players, 10 with four."""
        return len(PACK) // self.players


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_rules(raw: Mapping | None) -> BriscolaRules:
    rules = named_rules(BriscolaRules, raw, "briscola")
    if not _whole(rules.players) or rules.players not in PLAYERS:
        raise RuleViolation(say("players must be 2, or 4 in pairs sitting opposite (0+2 against 1+3)"))
    if not _whole(rules.match_to) or rules.match_to not in MATCH_TO:
        raise RuleViolation(say("match_to must be a whole number of games from {low} to {high}, not {match_to}",
                                low=MATCH_TO[0], high=MATCH_TO[-1], match_to=repr(rules.match_to)))
    if rules.stake_per not in STAKE_PER:
        raise RuleViolation(say("stake_per must be 'game' or 'match'"))
    return rules


def seat_count(rules: BriscolaRules) -> int:
    return rules.players


def seated_rules(raw: Any, seats: int) -> Any:
    """A table's rules as sent, with ``players`` the number of its seats where they leave it
    unsaid (so ``{}`` opens a table of two or of four alike)."""
    if seats in PLAYERS and (raw is None or isinstance(raw, Mapping) and "players" not in raw):
        return {**(raw or {}), "players": seats}
    return raw


def seating(rules: BriscolaRules, seats: int) -> str | None:
    """Why a table of ``seats`` is refused under ``rules`` (None: it is not, or the service
    says it in its own words)."""
    if seats == rules.players or seats not in PLAYERS:
        return None
    return say("these {game} rules say players {players}: a table of {seats} says players {seats}, or leaves "
               "players out", game=rules.game, players=rules.players, seats=seats)
