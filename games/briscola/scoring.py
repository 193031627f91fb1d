"""Briscola's hand, the match and its money (rules/briscola.md, "Scoring").

The side with 61 card points or more wins the hand: one game. At 60-60 nobody wins it, and
the hand still counts as played. The match is won by the first side to win ``match_to``
games (2: best of three); the score before the hand is the table's (``TableTerms.match``),
and a game won once a match is decided starts the next match (the table decider's). Money
moves per game (``stake_per`` "game": each player of the losing side pays one stake for
each game won, shared equally among the winners) or per match (``stake_per`` "match": one
stake from each loser, when a match is won). Sides are of equal size, so each payment is
one loser to one winner.
"""
from __future__ import annotations

from typing import Sequence

from events.sentences import say

from ..engine.base import SIDES_BY_SEATS, Settlement, Side, TableTerms
from ..engine.cards import SUIT_NAMES

WIN = 61  # card points that win a hand (a game)


def hand_winner(won: Sequence[int]) -> int | None:
    """The side that wins the hand on these card points, or None at 60-60."""
    return next((side for side, points in enumerate(won) if points >= WIN), None)


def match_after(before: Sequence[int], winner: int | None, match_to: int) -> tuple[list[int], list[int]]:
    """The games of each side once the hand is counted, and the side that won the match by
    it (none, or one: a hand wins one game at most)."""
    after = [games + (side == winner) for side, games in enumerate(before)]
    return after, [side for side, games in enumerate(after) if games >= match_to]


def paid(stake_per: str, winner: int | None, champions: Sequence[int]) -> int | None:
    """The side this hand pays, one stake from each player of the other side: the winner of
    the game (per game) or of the match (per match); None when nothing moves."""
    if stake_per == "match":
        return champions[0] if champions else None
    return winner


def amounts(sides: Sequence[Sequence[int]], side: int | None, stake: int) -> list[int]:
    """What each seat wins (+) or pays (-): each player of the other side pays ``stake`` to a
    player of ``side`` (sides of equal size), nothing when ``side`` is None."""
    out = [0] * sum(len(s) for s in sides)
    if side is not None:
        for payer, payee in zip(sides[1 - side], sides[side], strict=True):
            out[payer] -= stake
            out[payee] += stake
    return out


def card_points(state) -> tuple[list[int], list[int]]:
    """The card points and tricks each side took: from the tricks, or the score sheet."""
    if state.result is not None:
        return list(state.result["points"]), list(state.result["tricks"])
    return state.won()


def briscola_line(state) -> str:
    """The card turned face up under the stock, whose suit is trump."""
    return say("the briscola turned face up: {card}, so {suit} are trumps", card=state.cut,
               suit=SUIT_NAMES[state.cut[-1]])


def settle(state, table: TableTerms) -> Settlement:
    rules, sides = state.rules, state.rules.sides
    won, taken = card_points(state)
    lines = [briscola_line(state) if state.result is None
             else say("the cards of this hand were not logged: scored from its result")]
    lines.append(say("card points: {sides}", sides=", ".join(
        say("side {side} {points:d} in {tricks:d} tricks", side=s, points=won[s], tricks=taken[s])
        for s in range(len(sides)))))
    winner = hand_winner(won)
    by_seats = table.rules_version >= SIDES_BY_SEATS
    named = named_sides(sides, by_seats)
    lines.append(say("60-60: nobody wins the hand") if winner is None else _hand_won(named, winner, won[winner]))
    before = list(table.match) if table.match else [0] * len(sides)
    after, champions = match_after(before, winner, rules.match_to)
    over = bool(champions)
    lines.append(say("match: {scores} (to {match_to}){won}",
                     scores=", ".join(f"side {s} {after[s]}" for s in range(len(sides))), match_to=rules.match_to,
                     won=_match_won(named, champions[0]) if over else ""))
    side = paid(rules.stake_per, winner, champions)
    lines.append(_money_line(rules.stake_per, sides, side) if by_seats else _money_line_before(rules.stake_per, side))
    hand = [int(s == winner) for s in range(len(sides))]
    match = {"before": before, "hand": hand, "after": after, "game_over": over, "winners": champions}
    shown = tuple(Side(sides[s], f"side {s}", won[s], taken[s]) for s in range(len(sides)))
    return Settlement("60-60" if winner is None else "win", "briscola", shown,
                      list(sides[winner]) if winner is not None else None, 1, int(side is not None), (),
                      tuple(amounts(sides, side, table.stake)), table.members, tuple(lines), {"match": match},
                      pays=side is not None)


def named_sides(sides: Sequence[Sequence[int]], by_seats: bool) -> Sequence[Sequence[int]]:
    """The sides as the explanation names them: from rules 3 on (``by_seats``) a pair by its
    seats; under rules 2 every side as "side 0", as if each were a player alone."""
    return sides if by_seats else tuple(side[:1] for side in sides)


def _hand_won(sides: Sequence[Sequence[int]], side: int, card_points: int) -> str:
    """The hand's winner, in a sentence of its own for a player alone and for a pair (whose
    verb agrees with two players)."""
    if len(sides[side]) == 1:
        return say("side {side} takes {card_points:d} card points, 61 or more: it wins the hand, one game",
                   side=side, card_points=card_points)
    seat, partner = sides[side]
    return say("seats {seat} and {partner} take {card_points:d} card points, 61 or more: they win the hand, one game",
               seat=seat, partner=partner, card_points=card_points)


def _match_won(sides: Sequence[Sequence[int]], side: int) -> str:
    if len(sides[side]) == 1:
        return say("; side {side} wins the match", side=side)
    seat, partner = sides[side]
    return say("; seats {seat} and {partner} win the match", seat=seat, partner=partner)


def _money_line(stake_per: str, sides: Sequence[Sequence[int]], side: int | None) -> str:
    """What the hand pays, said of a player alone (paid by the other) or of a pair (each paid
    by a player of the other pair)."""
    if side is None:
        if stake_per == "match":
            return say("stake per match: nothing is paid until a side wins the match")
        return say("stake per game won: this hand wins no game, nothing is paid")
    if len(sides[side]) == 1:
        if stake_per == "match":
            return say("stake per match: side {side} receives one stake from side {other}", side=side, other=1 - side)
        return say("stake per game won: side {side} receives one stake from side {other}", side=side, other=1 - side)
    seat, partner = sides[side]
    if stake_per == "match":
        return say("stake per match: seats {seat} and {partner} each receive one stake from a player of the other "
                   "side", seat=seat, partner=partner)
    return say("stake per game won: seats {seat} and {partner} each receive one stake from a player of the other side",
               seat=seat, partner=partner)


def _money_line_before(stake_per: str, side: int | None) -> str:
    """What the hand pays, in the words of rules 2."""
    if side is None:
        if stake_per == "match":
            return say("stake per match: nothing is paid until a side wins the match")
        return say("stake per game won: this hand wins no game, nothing is paid")
    if stake_per == "match":
        return say("stake per match: each player of side {side} receives one stake from a player of the other side",
                   side=side)
    return say("stake per game won: each player of side {side} receives one stake from a player of the other side",
               side=side)
