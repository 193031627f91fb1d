"""Sueca's games, the match and its money (rules/sueca.md, "Scoring a hand").

The side with 61 card points or more wins the hand: 61 to 90 are worth one game, 91 to
119 two (a capote), all 120 four (a bandeira; with the table rule ``bandeira`` "tricks" the
four need every trick as well, and all 120 without every trick are worth two). At 60-60
nobody scores. The match is played to ``match_to`` games; the score before the hand is the
table's (``TableTerms.match``), and a hand's games beyond what its winner still needs count
neither for the match nor for money. Money moves per game counted (``stake_per`` "game":
each player of the losing side pays one stake per game to a player of the winning side) or
per match (``stake_per`` "match": one stake each, when a match is won).
"""
from __future__ import annotations

from typing import NamedTuple

from events.sentences import say

from ..engine.base import SIDES_BY_SEATS, Settlement, Side, TableTerms
from ..engine.cards import SUIT_NAMES

WIN = 61  # card points that win a hand
CAPOTE = 91  # card points that win two games
ALL = 120  # every card point of the pack: a bandeira
GAMES = {"win": 1, "capote": 2, "bandeira": 4}
# A side of Sueca is always a pair: from rules 3 on its sentences name both seats ("seats 0 and
# 2 take ..."), whose verb agrees with two players in English and in every translation; a
# settlement recorded under rules 2 is explained again in the words it was ("side 0 takes").


class Worth(NamedTuple):
    """What a hand is worth before the match has its say: the side that won it (None: 60-60),
    its games, the outcome's name, and why, in a sentence."""
    side: int | None
    games: int
    outcome: str
    why: str


def pair(sides, side: int) -> tuple[int, int]:
    """The two seats of ``side``, as a sentence about the pair names them."""
    seat, partner = sides[side]
    return seat, partner


def worth(won: list[int], taken: list[int], bandeira: str, sides, by_seats: bool = True) -> Worth:
    """The hand's worth from the card points (``won``) and tricks (``taken``) of each side
    (``sides``: the seats of each pair; ``by_seats``: said of the pair, as from rules 3)."""
    side = next((s for s, p in enumerate(won) if p >= WIN), None)
    if side is None:
        return Worth(None, 0, "60-60", say("60-60: nobody wins the hand"))
    p, every = won[side], taken[side] == sum(taken)
    if not by_seats:
        return _worth_before(side, p, every, taken, bandeira)
    seat, partner = pair(sides, side)
    if p == ALL and (bandeira == "points" or every):
        why = (say("seats {seat} and {partner} take all 120 card points: a bandeira, four games", seat=seat,
                   partner=partner)
               if bandeira == "points"
               else say("seats {seat} and {partner} take all 120 card points and every trick: a bandeira, four games",
                        seat=seat, partner=partner))
        return Worth(side, GAMES["bandeira"], "bandeira", why)
    if p == ALL:
        return Worth(side, GAMES["capote"], "capote",
                     say("seats {seat} and {partner} take all 120 card points but not every trick ({tricks:d} of "
                         "{all_tricks:d}): two games, for the bandeira needs every trick here", seat=seat,
                         partner=partner, tricks=taken[side], all_tricks=sum(taken)))
    if p >= CAPOTE:
        return Worth(side, GAMES["capote"], "capote",
                     say("seats {seat} and {partner} take {card_points:d} card points (91 to 119): a capote, two games",
                         seat=seat, partner=partner, card_points=p))
    return Worth(side, GAMES["win"], "win",
                 say("seats {seat} and {partner} take {card_points:d} card points (61 to 90): one game", seat=seat,
                     partner=partner, card_points=p))


def _worth_before(side: int, p: int, every: bool, taken: list[int], bandeira: str) -> Worth:
    """``worth`` in the words of rules 2 ("side 0 takes ...")."""
    if p == ALL and (bandeira == "points" or every):
        why = (say("side {side} takes all 120 card points: a bandeira, four games", side=side) if bandeira == "points"
               else say("side {side} takes all 120 card points and every trick: a bandeira, four games", side=side))
        return Worth(side, GAMES["bandeira"], "bandeira", why)
    if p == ALL:
        return Worth(side, GAMES["capote"], "capote",
                     say("side {side} takes all 120 card points but not every trick ({tricks:d} of {all_tricks:d}): "
                         "two games, for the bandeira needs every trick here", side=side, tricks=taken[side],
                         all_tricks=sum(taken)))
    if p >= CAPOTE:
        return Worth(side, GAMES["capote"], "capote",
                     say("side {side} takes {card_points:d} card points (91 to 119): a capote, two games",
                         side=side, card_points=p))
    return Worth(side, GAMES["win"], "win",
                 say("side {side} takes {card_points:d} card points (61 to 90): one game", side=side, card_points=p))


def trump_line(state) -> str:
    """Which suit was trump: that of the dealer's card turned up."""
    suit = SUIT_NAMES[state.trump_suit]
    if state.rules.trump_card == "first":
        return say("trump: {suit}, the dealer's first card, {card}", suit=suit, card=state.trump)
    return say("trump: {suit}, the dealer's last card, {card}", suit=suit, card=state.trump)


def card_points(state) -> tuple[list[int], list[int]]:
    """The card points and tricks each side took: from the tricks, or the score sheet."""
    if state.result is not None:
        return list(state.result["points"]), list(state.result["tricks"])
    won, taken = [0, 0], [0, 0]
    for t in state.tricks:
        side = state.rules.side_of(t.winner)
        won[side] += t.points
        taken[side] += 1
    return won, taken


def settle(state, table: TableTerms) -> Settlement:
    rules, sides = state.rules, state.rules.sides
    won, taken = card_points(state)
    lines = [trump_line(state) if state.result is None
             else say("the cards of this hand were not logged: scored from its result")]
    lines.append(say("card points: {sides}", sides=", ".join(
        say("side {side} {points:d} in {tricks:d} tricks", side=s, points=won[s], tricks=taken[s])
        for s in range(len(sides)))))
    by_seats = table.rules_version >= SIDES_BY_SEATS
    hand = worth(won, taken, rules.bandeira, sides, by_seats)
    lines.append(hand.why)
    before = list(table.match) if table.match else [0] * len(sides)
    counted = [0] * len(sides)
    if hand.side is not None:
        needed = max(0, rules.match_to - before[hand.side])
        counted[hand.side] = min(hand.games, needed)
        if hand.games > needed:
            lines.append(say("seats {seat} and {partner} needed only {needed} game(s) to win the match: the hand "
                             "counts {needed} of its {games}", seat=sides[hand.side][0],
                             partner=sides[hand.side][1], needed=needed, games=hand.games) if by_seats
                         else say("side {side} needed only {needed} game(s) to win the match: the hand counts "
                                  "{needed} of its {games}", side=hand.side, needed=needed, games=hand.games))
    after = [b + c for b, c in zip(before, counted, strict=True)]
    champions = [s for s in range(len(sides)) if after[s] >= rules.match_to]
    over = bool(champions)
    lines.append(say("match: {scores} (to {match_to}){won}",
                     scores=", ".join(f"side {s} {after[s]}" for s in range(len(sides))), match_to=rules.match_to,
                     won=_match_won(sides, champions[0], by_seats) if over else ""))
    paid_side, units = _paid(rules, hand.side, counted, champions)
    lines.append(_money_line(rules, paid_side, units, by_seats))
    amounts = [0] * rules.players
    if paid_side is not None:
        for payer, payee in zip(sides[1 - paid_side], sides[paid_side], strict=True):
            amounts[payer] -= table.stake * units
            amounts[payee] += table.stake * units
    uncapped = [hand.games if s == hand.side else 0 for s in range(len(sides))]  # before the match's cap
    match = {"before": before, "hand": counted, "after": after, "game_over": over, "winners": champions,
             "worth": uncapped}
    shown = tuple(Side(sides[s], f"side {s}", won[s], taken[s]) for s in range(len(sides)))
    return Settlement(hand.outcome, "sueca", shown, list(sides[hand.side]) if hand.side is not None else None,
                      1, units, (), tuple(amounts), table.members, tuple(lines),
                      {"match": match}, pays=paid_side is not None)


def _paid(rules, side: int | None, counted: list[int], champions: list[int]) -> tuple[int | None, int]:
    """The side paid by this hand and how many stakes each of its players receives: the games
    counted (per game), or one when the match is won (per match); None when nothing moves."""
    if rules.stake_per == "match":
        return (champions[0], 1) if champions else (None, 0)
    return (side, counted[side]) if side is not None and counted[side] else (None, 0)


def _match_won(sides, side: int, by_seats: bool) -> str:
    if not by_seats:
        return say("; side {side} wins the match", side=side)
    seat, partner = pair(sides, side)
    return say("; seats {seat} and {partner} win the match", seat=seat, partner=partner)


def _money_line(rules, side: int | None, units: int, by_seats: bool) -> str:
    if side is None:
        if rules.stake_per == "match":
            return say("stake per match: nothing is paid until a side wins the match")
        return say("stake per game: no game is won, nothing is paid")
    if not by_seats:
        if rules.stake_per == "match":
            return say("stake per match: each player of side {side} receives one stake from a player of the other "
                       "side", side=side)
        return say("stake per game: each player of side {side} receives {units:d} stake(s) from a player of the "
                   "other side", side=side, units=units)
    seat, partner = pair(rules.sides, side)
    if rules.stake_per == "match":
        return say("stake per match: seats {seat} and {partner} each receive one stake from a player of the other side",
                   seat=seat, partner=partner)
    return say("stake per game: seats {seat} and {partner} each receive {units:d} stake(s) from a player of the other "
               "side", seat=seat, partner=partner, units=units)
