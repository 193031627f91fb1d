"""Who plays a hand of Kop (or Baśka), and in what order.

Four play every hand (rules/kop.md). At a table of four they are its four seats; at a table
of five (API.md, "A table of five") the dealer sits the hand out and the four others play
it. Either way play goes round in seat order from the seat after the dealer, who calls
first and leads the first trick, and each seat keeps its table number in every event,
view, refusal and settlement: nothing is renumbered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Mapping

from events.sentences import say

from ..engine.contract import RuleField
from ..engine.errors import RuleViolation

PLAYERS = 4  # who play a hand, and the cards of a trick
TABLES = (4, 5)  # the tables Kop is played at: four, or five with the dealer sitting out


@dataclass(frozen=True)
class Turns:
    """The players of a hand at a table of ``seats`` dealt by ``dealer``."""
    seats: int
    dealer: int
    order: tuple[int, ...] = field(init=False)  # the players in order of play, from the seat after the dealer
    players: tuple[int, ...] = field(init=False)  # the players in seat order
    out: frozenset[int] = field(init=False)  # the seats sitting the hand out: the dealer at a table of five
    place: Mapping[int, int] = field(init=False, repr=False, compare=False)  # each player's place in ``order``
    # From each player leading, the players of the trick in order (None for a seat sitting out).
    rounds: tuple[tuple[int, ...] | None, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        order = tuple((self.dealer + 1 + i) % self.seats for i in range(PLAYERS))
        place = {seat: i for i, seat in enumerate(order)}
        rounds = tuple(order[place[s]:] + order[:place[s]] if s in place else None for s in range(self.seats))
        out = frozenset(s for s in range(self.seats) if s not in place)
        for name, value in (("order", order), ("players", tuple(sorted(order))), ("out", out), ("place", place),
                            ("rounds", rounds)):
            object.__setattr__(self, name, value)

    def check_plays(self, seat: object) -> None:
        """Refuse the cards, a call, a card or a claim of a seat sitting the hand out (any
        other seat, or a value that is no seat, is left to the rules that judge it)."""
        if isinstance(seat, int) and not isinstance(seat, bool) and seat in self.out:
            raise RuleViolation(sits_out(seat))

    def trick(self, leader: int) -> tuple[int, ...]:
        """The players of a trick ``leader`` leads, in the order they play to it."""
        return self.rounds[leader]

    def at(self, leader: int, i: int) -> int:
        """The player of the ``i``-th card (0: the leader's) of a trick ``leader`` leads; the
        fourth card played, the turn comes round to the leader again."""
        return self.rounds[leader][i % PLAYERS]

    def others(self, *seats: int) -> tuple[int, ...]:
        """The players but ``seats``, in seat order."""
        return tuple(s for s in self.players if s not in seats)


@cache
def turns(seats: int, dealer: int) -> Turns:
    """The players of a hand (one value per table size and dealer: a replay folds thousands)."""
    return Turns(seats, dealer)


def sits_out(seat: int) -> str:
    return say("seat {seat} deals this hand and sits it out; the four others play it", seat=seat)


# The rule ``players`` of Kop's and Baśka's rules: the seats at the table.

PLAYERS_FIELD = RuleField(
    "players", "the seats at the table: 4, or 5 (the dealer sits each hand out and the four others play it; the deal "
               "passes round all five). Left out, the number of seats given; shown only when 5", options=TABLES)


def check_players(rules) -> None:
    players = rules.players
    if not isinstance(players, int) or isinstance(players, bool) or players not in TABLES:
        raise RuleViolation(say("players must be 4, or 5 for a table of five where the dealer sits each hand out; "
                                "not {players}", players=repr(players)))


def players_data(players: int) -> dict:
    """``players`` in a table's rules as its log keeps them: said at a table of five only, so
    the rules of every table of four read as they did before tables of five."""
    return {} if players == PLAYERS else {"players": players}


def seated_rules(raw: Any, seats: int) -> Any:
    """A table's rules as sent, with ``players`` the number of its seats where they leave it
    unsaid (so ``{}`` opens a table of four or of five alike)."""
    if seats in TABLES and (raw is None or isinstance(raw, Mapping) and "players" not in raw):
        return {**(raw or {}), "players": seats}
    return raw


def seating(rules, seats: int) -> str | None:
    """Why a table of ``seats`` is refused under ``rules`` (None: it is not)."""
    if seats == rules.players:
        return None
    if seats in TABLES:
        return say("these {game} rules say players {players}: a table of {seats} says players {seats}, or leaves "
                   "players out", game=rules.game, players=rules.players, seats=seats)
    return say("{game} is played at a table of four, or of five where the dealer sits each hand out; not of {seats}",
               game=rules.game, seats=seats)
