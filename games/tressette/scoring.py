"""Tressette's hand score, the game to its target and the money (rules/tressette.md, "Scoring").

A side's points for the hand are its thirds divided by 3, rounded down (the odd thirds are
lost), plus its declarations' whole points. The game score lives with the table
(``TableTerms.match``); when a side reaches the target at the end of a hand it wins the
game; when both do, the higher total wins, and a tie plays another hand. The next hand
starts a new game at 0-0 (the table decider's). Money (``stake_per``): "game", each player
of the losing side pays one stake to a player of the winning side when a game is won;
"point", one stake per point of the margin, then.
"""
from __future__ import annotations

from typing import NamedTuple

from events.sentences import say

from ..engine.base import SIDES_BY_SEATS, Settlement, Side, TableTerms
from ..engine.units import THIRD
from .rules import LAST_TRICK, points_of


class HandScore(NamedTuple):
    """A hand as it scores, per side: its thirds (the last trick's with them), tricks and
    declared points, and the side that took the last trick."""
    thirds: list[int]
    tricks: list[int]
    last: int
    accuse: list[int]

    @property
    def points(self) -> list[int]:
        return [points_of(t) + a for t, a in zip(self.thirds, self.accuse, strict=True)]


def hand_score(state) -> HandScore:
    """The hand's score: from its tricks and declarations, or from its score sheet."""
    rules = state.rules
    if state.result is not None:
        r = state.result
        return HandScore(list(r["thirds"]), list(r["tricks"]), r["last"], list(r.get("accuse") or [0, 0]))
    thirds, tricks = state.won()
    accuse = [0, 0]
    for d in state.declared:
        accuse[rules.side_of(d["seat"])] += d["points"]
    return HandScore(thirds, tricks, rules.side_of(state.tricks[-1].winner), accuse)


class GameEnd(NamedTuple):
    winners: list[int]
    losers: list[int]
    outcome: str  # "hand": the game goes on; "game": a side won it; "tie": both reached the target level


def game_end(after: list[int], target: int) -> GameEnd:
    """Who wins the game with these totals: nobody until a side reaches the target; the
    higher total when both do; nobody on a tie (another hand is played)."""
    if max(after) < target:
        return GameEnd([], [], "hand")
    top = max(after)
    best = [s for s, score in enumerate(after) if score == top]
    if len(best) > 1:
        return GameEnd([], [], "tie")
    return GameEnd(best, [s for s in range(len(after)) if s != best[0]], "game")


def money(rules, end: GameEnd, after: list[int], stake: int) -> tuple[list[int], int]:
    """What each seat wins or pays, and the stakes each loser pays (``Settlement.units``):
    one per game won, or one per point of the margin."""
    amounts = [0] * rules.players
    if not end.winners:
        return amounts, 1
    won, lost = end.winners[0], end.losers[0]
    units = after[won] - after[lost] if rules.stake_per == "point" else 1
    for payer, payee in zip(rules.sides[lost], rules.sides[won], strict=True):
        amounts[payer] -= stake * units
        amounts[payee] += stake * units
    return amounts, units


def _explained(state, score: HandScore, by_seats: bool) -> list[str]:
    sides = named_sides(state.rules.sides, by_seats)
    lines = [] if state.result is None else [say("the cards of this hand were not logged: scored from its result")]
    for side, (thirds, tricks) in enumerate(zip(score.thirds, score.tricks, strict=True)):
        lines.append(_taken(sides, side, THIRD.said(thirds), tricks))
    lines.append(_last_trick(sides, score.last))
    for side, accuse in enumerate(score.accuse):
        if accuse:
            lines.append(_declared(sides, side, accuse))
    lines.append(say("points this hand: {scores} (the odd thirds are lost)",
                     scores=", ".join(say("side {side} {points:d}", side=s, points=p)
                                      for s, p in enumerate(score.points))))
    return lines


def named_sides(sides, by_seats: bool):
    """The sides as the explanation names them: from rules 3 on (``by_seats``) a pair by its
    seats; under rules 2 every side as "side 0", as if each were a player alone."""
    return sides if by_seats else tuple(side[:1] for side in sides)


# Each sentence that has a side do something is written twice: for a player alone ("side 0",
# named on a page by the player's name) and for a pair ("seats 0 and 2", two names), so
# that its verb agrees in English and in every translation.

def _taken(sides, side: int, worth: str, tricks: int) -> str:
    if len(sides[side]) == 1:
        return say("side {side} takes {worth} in {tricks:d} trick(s)", side=side, worth=worth, tricks=tricks)
    seat, partner = sides[side]
    return say("seats {seat} and {partner} take {worth} in {tricks:d} trick(s)", seat=seat, partner=partner,
               worth=worth, tricks=tricks)


def _last_trick(sides, side: int) -> str:
    if len(sides[side]) == 1:
        return say("side {side} took the last trick, worth {thirds} thirds", side=side, thirds=LAST_TRICK)
    seat, partner = sides[side]
    return say("seats {seat} and {partner} took the last trick, worth {thirds} thirds", seat=seat, partner=partner,
               thirds=LAST_TRICK)


def _declared(sides, side: int, points: int) -> str:
    if len(sides[side]) == 1:
        return say("side {side} declares {points:d} point(s)", side=side, points=points)
    seat, partner = sides[side]
    return say("seats {seat} and {partner} declare {points:d} point(s)", seat=seat, partner=partner, points=points)


def _game_won(sides, side: int, scores: str, target: int) -> str:
    if len(sides[side]) == 1:
        return say("game score: {scores}; side {side} reaches {target} with the higher total and wins the game",
                   scores=scores, side=side, target=target)
    seat, partner = sides[side]
    return say("game score: {scores}; seats {seat} and {partner} reach {target} with the higher total and win the "
               "game", scores=scores, seat=seat, partner=partner, target=target)


def _paid(rules, side: int, margin: int) -> str:
    """Who receives the stakes of a game won: a player alone from the other, or each player
    of a pair from a player of the other pair."""
    alone = len(rules.sides[side]) == 1
    if rules.stake_per == "game":
        if alone:
            return say("stake per game: side {side} receives one stake from side {other}", side=side, other=1 - side)
        seat, partner = rules.sides[side]
        return say("stake per game: seats {seat} and {partner} each receive one stake from a player of the other "
                   "side", seat=seat, partner=partner)
    if alone:
        return say("stake per point: side {side} wins by {margin} point(s) and receives {margin} stake(s) from side "
                   "{other}", side=side, margin=margin, other=1 - side)
    seat, partner = rules.sides[side]
    return say("stake per point: seats {seat} and {partner} win by {margin} point(s), and each receives {margin} "
               "stake(s) from a player of the other side", seat=seat, partner=partner, margin=margin)


def _paid_before(rules, side: int, margin: int) -> str:
    """Who receives the stakes of a game won, in the words of rules 2."""
    if rules.stake_per == "game":
        return say("stake per game: each player of side {side} receives one stake from a player of the other side",
                   side=side)
    return say("stake per point: side {side} wins by {margin} point(s), each of its players receives {margin} "
               "stake(s) from a player of the other side", side=side, margin=margin)


def settle(state, table: TableTerms) -> Settlement:
    rules = state.rules
    score = hand_score(state)
    points = score.points
    by_seats = table.rules_version >= SIDES_BY_SEATS
    lines = _explained(state, score, by_seats)
    before = list(table.match) if table.match else [0, 0]
    after = [b + p for b, p in zip(before, points, strict=True)]
    end = game_end(after, rules.target)
    scores = ", ".join(say("side {side} {points:d}", side=s, points=p) for s, p in enumerate(after))
    if end.outcome == "game":
        lines.append(_game_won(named_sides(rules.sides, by_seats), end.winners[0], scores, rules.target))
    elif end.outcome == "tie":
        lines.append(say("game score: {scores}; both sides reach {target} level: another hand is played",
                         scores=scores, target=rules.target))
    else:
        lines.append(say("game score: {scores} (to {target})", scores=scores, target=rules.target))
    amounts, units = money(rules, end, after, table.stake)
    if end.winners:
        lines.append(_paid(rules, end.winners[0], units) if by_seats else _paid_before(rules, end.winners[0], units))
    over = end.outcome == "game"
    sides = tuple(Side(rules.sides[s], f"side {s}", points[s], score.tricks[s]) for s in range(2))
    winner = list(rules.sides[end.winners[0]]) if over else None
    match = {"before": before, "hand": points, "after": after, "game_over": over, "winners": end.winners}
    return Settlement(end.outcome, "tressette", sides, winner, 1, units, (), tuple(amounts), table.members,
                      tuple(lines), {"match": match}, pays=over)
