"""Throwing in ("rzucanie kart", rules/kop.md): a Kop or Baśka hand may end before its last
trick when nothing could change its result.

With every hand known, every legal way to play the remaining tricks is searched (the follow
rules of games/engine/tricks.py, position by position, each position searched once). What a way
ends with that the money can depend on is the declaring (stare) side's card points and
tricks; each distinct ending is settled, and the claim stands only when they all settle
alike: the same winner, outcome, multiplier, payouts and bok-runda due. Otherwise the
refusal names a way the result would change. A few single ways are tried first (every
player's first, last or middle legal card): most claims that cannot stand are refused from
those alone, before the whole search. The search stops at ``LIMIT`` positions, three
times what random hands thrown in before their first trick reached (bench/throw_in.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from events.sentences import say

from ..engine.base import Event, TableTerms
from ..engine.errors import Revealing, RuleViolation
from ..engine.tricks import Ranking, legal_cards, winner_index
from . import scoring as kop_scoring
from .pack import POINTS_OF
from .turns import PLAYERS, Turns

LIMIT = 100_000  # positions; thrown in before the first trick, a hand reaches 4,000 (median) to 35,000
Ending = tuple[int, int]  # the declaring side's card points and tricks, from here to the end
Way = tuple[str, ...]  # the cards of the remaining tricks, in play order


class TooManyWays(Revealing):
    """Too many ways left to judge now: how many there are depends on every hand, so a player
    who may not see them all is told what any refused claim tells."""

    def __init__(self, detail: str):
        super().__init__(detail, None, say("throwing in is refused: the rest of the hand can still end differently"))


@dataclass
class Search:
    ranking: Ranking
    declaring: frozenset[int]
    seen: dict
    turns: Turns
    positions: int = 0

    def endings(self, held, leader: int, trick: tuple) -> dict[Ending, Way]:
        """Every ending reachable from here, each with the first way found to it."""
        key = (held, leader, trick)
        found = self.seen.get(key)
        if found is not None:
            return found
        self.positions += 1
        if self.positions > LIMIT:
            raise TooManyWays(say("there are too many ways to play the rest of this hand to check a throw-in; play "
                                  "another trick first"))
        found = self.seen[key] = self._search(held, leader, trick)
        return found

    def _search(self, held, leader: int, trick: tuple) -> dict[Ending, Way]:
        if not any(held) and not trick:
            return {(0, 0): ()}
        seat = self.turns.rounds[leader][len(trick)]
        hand = held[seat]
        found: dict[Ending, Way] = {}
        for card in legal_cards(hand, trick, self.ranking):
            after = held[:seat] + (tuple(c for c in hand if c != card),) + held[seat + 1:]
            played = trick + (card,)
            if len(played) < PLAYERS:
                rest, gained = self.endings(after, leader, played), (0, 0)
            else:
                winner = self.turns.rounds[leader][winner_index(played, self.ranking)]
                rest = self.endings(after, winner, ())
                gained = (sum(POINTS_OF[c] for c in played), 1) if winner in self.declaring else (0, 0)
            for (points, tricks), way in rest.items():
                found.setdefault((points + gained[0], tricks + gained[1]), (card, *way))
        return found


def decide_claim(state, data: Mapping, evolve) -> Event:
    """Throwing in a Kop or Baśka hand: it ends now if every legal way to play the rest
    (from the trick being played, if one is) settles alike; the ``claim`` event records the
    way counted (each player's first legal card, in the deal's order)."""
    extra = sorted(set(data) - {"seat"})
    if extra:
        raise RuleViolation(say("a claim (throwing in) has only seat, not {extra}", extra=', '.join(extra)))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}, not {seat}",
                                last=state.rules.players - 1, seat=repr(seat)))
    ranking, leader, first, t = state.ranking, state.leader, len(state.tricks) + 1, state.turns
    prefix = tuple(card for _, card in state.current)

    def settle_way(way):
        counted = evolve(state, Event("claim", {"seat": seat, "tricks": as_tricks(way, leader, first, ranking, t)}))
        return state.rules.scoring.settle(counted, unit_terms(seats=t.seats))
    declaring = kop_scoring.teams(state).stare
    way = counted_way(state.held, leader, ranking, declaring, settle_way, t, prefix)
    return Event("claim", {"seat": seat, "tricks": as_tricks(way, leader, first, ranking, t)})


def counted_way(held: Sequence[Sequence[str]], leader: int, ranking: Ranking, declaring: Sequence[int],
                settle_way: Callable[[Way], object], t: Turns, prefix: Way = ()) -> Way:
    """The way a thrown-in hand is counted as, from the cards already on the table
    (``prefix``): every player's first legal card, in the deal's order; refused
    (RuleViolation) when another way would settle differently."""
    held = tuple(tuple(h) for h in held)
    tried = {}
    for pick in (0, -1, 1):
        way = _single_way(held, leader, ranking, pick, t, prefix)
        tried.setdefault(way, way)
    judge(dict(enumerate(tried)), settle_way, leader, ranking, t)
    way, _ = judge(ways_to_end(held, leader, ranking, declaring, t, prefix), settle_way, leader, ranking, t)
    return way


def _single_way(held, leader: int, ranking: Ranking, pick: int, t: Turns, prefix: Way = ()) -> Way:
    """One way to play the rest: each player the legal card at ``pick`` (clamped)."""
    held, way, trick = [list(h) for h in held], list(prefix), list(prefix)
    while any(held):
        seat = t.at(leader, len(trick))
        legal = legal_cards(held[seat], trick, ranking)
        card = legal[max(-len(legal), min(pick, len(legal) - 1))]
        held[seat].remove(card)
        trick.append(card)
        way.append(card)
        if len(trick) == PLAYERS:
            leader, trick = t.at(leader, winner_index(trick, ranking)), []
    return tuple(way)


def ways_to_end(held: Sequence[Sequence[str]], leader: int, ranking: Ranking,
                declaring: Sequence[int], t: Turns, prefix: Way = ()) -> dict[Ending, Way]:
    """Each ending of the remaining tricks, with one way to it (``prefix``, the cards of the
    trick already on the table, first); the first entry is the way in which every player
    plays the first card the rules allow, in the order of the deal."""
    search = Search(ranking, frozenset(declaring), {}, t)
    found = search.endings(tuple(tuple(h) for h in held), leader, tuple(prefix))
    return {ending: (*prefix, *way) for ending, way in found.items()}


def as_tricks(way: Way, leader: int, first_number: int, ranking: Ranking, t: Turns) -> list[dict]:
    """A way to end as trick data (leader, cards, winner, points), numbered on from the last
    trick played."""
    tricks = []
    for start in range(0, len(way), PLAYERS):
        cards = list(way[start:start + PLAYERS])
        winner = t.at(leader, winner_index(cards, ranking))
        tricks.append({"trick": first_number + start // PLAYERS, "leader": leader, "cards": cards, "winner": winner,
                       "points": sum(POINTS_OF[c] for c in cards)})
        leader = winner
    return tricks


def judge(endings: dict[Ending, Way], settle_way: Callable[[Way], object], leader: int,
          ranking: Ranking, t: Turns) -> tuple[Way, object]:
    """The way to record and its settlement when every ending settles alike; otherwise a
    RuleViolation naming a card after which the result would change."""
    ways = list(endings.values())
    first = settle_way(ways[0])
    for way in ways[1:]:
        other = settle_way(way)
        if _money(other) != _money(first):
            at = next(i for i, (a, b) in enumerate(zip(ways[0], way, strict=False)) if a != b)
            raise Revealing(say("throwing in is refused: the rest of the hand can still end differently. If "
                                "{one_way}, {said_other}; if {other_way}, "
                                "{said_first}",
                                one_way=_move(way, at, leader, ranking, t), said_other=_said(other),
                                other_way=_move(ways[0], at, leader, ranking, t),
                                said_first=_said(first)), None,
                            say("throwing in is refused: the rest of the hand can still end differently"))
    return ways[0], first


def _money(settlement) -> tuple:
    return (settlement.winner, settlement.outcome, settlement.multiplier, settlement.amounts,
            settlement.extra.get("bok_due"))


def _said(s) -> str:
    loser = next(side for side in s.sides if side.role != s.winner)
    due = say(", and a bok-runda falls due") if s.extra.get("bok_due") else ""
    return (say("{winner} win and {loser_role} end with {loser_points:d} card points in {loser_tricks:d} trick(s): "
                "{outcome}, multiplier {multiplier:d}{due}",
                winner=s.winner, loser_role=loser.role, loser_points=loser.points, loser_tricks=loser.tricks,
                outcome=s.outcome, multiplier=s.multiplier, due=due))


def _move(way: Way, at: int, leader: int, ranking: Ranking, t: Turns) -> str:
    """The ``at``-th card of a way, as "seat 2 leads AH" or "seat 3 plays QS"."""
    trick = as_tricks(way, leader, 1, ranking, t)[at // PLAYERS]
    seat = t.at(trick["leader"], at % PLAYERS)
    return f"seat {seat} {'leads' if at % PLAYERS == 0 else 'plays'} {way[at]}"


def unit_terms(bok_runda: bool = False, seats: int = PLAYERS) -> TableTerms:
    """Terms to compare endings by: every ending is paid at the same stake and seats."""
    return TableTerms(1, ("",) * seats, bok_runda)
