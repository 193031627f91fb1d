"""Kop's result and money: who plays with whom, who won, how the doubles count, who pays.

Tables, not chains of ``if``: what a losing pair pays per outcome, what a lone contract is
worth, which contracts are won only by taking every trick.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence

from events.sentences import say

from ..engine.base import Factor, Settlement, Side, TableTerms
from . import auction as auc

WIN_POINTS = 53
WYJSCIE_POINTS = 26
PAIR_OUTCOME_UNITS = {"wyjscie": 1, "bez-wyjscia": 2, "bez-bitki": 3}
SOLO_UNITS = {"cicha": 4, "zolo": 5, "zolo-du": 10}
ALL_TRICKS_CONTRACTS = frozenset({"zolo-du"})
OUTCOME_WORDS = {
    "wyjscie": say("took 26 or more card points: wyjście"),
    "bez-wyjscia": say("took a trick but 25 or fewer card points: bez wyjścia"),
    "bez-bitki": say("took no trick: bez bitki"),
}


@dataclass(frozen=True)
class Teams:
    contract: str  # normal, wesele, cicha, or a contract called to be played alone
    declarer: int | None
    stare: tuple[int, ...]  # the side that called or holds the black queens
    mlodzi: tuple[int, ...]
    why: str

    @property
    def solo(self) -> bool:
        return len(self.stare) == 1

    @property
    def roles(self) -> tuple[str, str]:
        """Games of pairs and cicha are stare against młodzi; a called solo contract is the
        declarer against the defenders."""
        return ("stare", "mlodzi") if self.contract in ("normal", "wesele", "cicha") else ("declarer", "defenders")

    def side_of(self, seat: int) -> str:
        return self.roles[0] if seat in self.stare else self.roles[1]


def teams(state) -> Teams:
    """The sides as the deal and the calls so far make them."""
    a = state.auction
    hands, others = state.deal, state.turns.others
    if a.contract == "wesele":
        partner = auc.holder(hands, a.jack)
        pair = tuple(sorted((a.declarer, partner)))
        return Teams("wesele", a.declarer, pair, others(*pair),
                     say("seat {declarer} called wesele with both black queens; seat {partner} holds {jack}",
                         declarer=a.declarer, partner=partner, jack=a.jack))
    if a.contract is not None:
        return Teams(a.contract, a.declarer, (a.declarer,), others(a.declarer),
                     say("seat {declarer} called {contract} and plays alone against three",
                         declarer=a.declarer, contract=a.contract))
    pair = tuple(sorted(auc.holder(hands, q) for q in auc.BLACK_QUEENS))
    if pair[0] == pair[1]:
        both = pair[0]
        return Teams("cicha", both, (both,), others(both),
                     say("seat {both} holds both black queens and called nothing: cicha, alone against three",
                         both=both))
    young = others(*pair)
    return Teams("normal", None, pair, young,
                 say("seats {stare} and {stara} hold QC and QS (stare) against seats {mlody} and {mloda} "
                     "(młodzi)",
                     stare=pair[0], stara=pair[1], mlody=young[0], mloda=young[1]))


def sides(state, t: Teams) -> tuple[Side, Side]:
    def side(seats, role):
        won = [tr for tr in state.tricks if tr.winner in seats]
        return Side(seats, role, sum(tr.points for tr in won), len(won))
    return side(t.stare, t.roles[0]), side(t.mlodzi, t.roles[1])


def loser_state(side: Side) -> str:
    if side.tricks == 0:
        return "bez-bitki"
    return "wyjscie" if side.points >= WYJSCIE_POINTS else "bez-wyjscia"


def counted_doubles(state, t: Teams) -> tuple[list[Factor], int, int | None]:
    """Each double as a factor, the number of runs, and the seat of the last double."""
    doubles = state.auction.doubles
    starts = auc.count_runs(doubles, {s: t.side_of(s) for s in state.turns.players})
    factors = []
    for d, new_run in zip(doubles, starts, strict=True):
        if new_run:
            why = say("{call} by seat {seat} ({side_of_d_seat}) doubles the payment",
                      call=d.call, seat=d.seat, side_of_d_seat=t.side_of(d.seat))
        else:
            why = say("{call} by seat {seat} follows a double by the same side and counts once with it",
                      call=d.call, seat=d.seat)
        factors.append(Factor(d.call, 2 if new_run else 1, why, d.seat))
    return factors, sum(starts), (doubles[-1].seat if doubles else None)


def card_points_said(stare: Side, mlodzi: Side) -> str:
    """The card points and tricks each side took, as a settlement says them (Kop's and Baśka's)."""
    return say("card points: {stare_role} {stare_points:d} in {stare_tricks:d} tricks, {mlodzi_role} "
               "{mlodzi_points:d} in {mlodzi_tricks:d} tricks",
               stare_role=stare.role, stare_points=stare.points, stare_tricks=stare.tricks, mlodzi_role=mlodzi.role,
               mlodzi_points=mlodzi.points, mlodzi_tricks=mlodzi.tricks)


def multiplied(factors: Sequence[Factor], runs: int | None) -> tuple[int, list[str]]:
    """The product of ``factors`` and the lines that explain it, as Kop's and Baśka's
    settlements say them: each factor's reason, the runs of sides the doubles make (``runs``;
    None when nobody doubled), and the product with the factors that make it."""
    product = prod(f.factor for f in factors)
    lines = [f.reason for f in factors]
    if runs is not None:
        lines.append(say("the doubles make {runs:d} run(s) of sides, so they multiply by {factor}",
                         runs=runs, factor=2 ** runs))
    shown = " x ".join(f"{f.factor} ({f.name})" for f in factors if f.factor > 1)
    lines.append(say("multiplier {product}{shown}", product=product, shown=f" = {shown}" if shown else ""))
    return product, lines


def _decide_winner(stare: Side, mlodzi: Side, t: Teams, last_double: int | None) -> tuple[Side, Side, str]:
    if t.contract in ALL_TRICKS_CONTRACTS:
        if stare.tricks == 4:
            return stare, mlodzi, say("seat {declarer} took all four tricks and wins {contract}",
                                      declarer=t.declarer, contract=t.contract)
        return mlodzi, stare, say("{contract} needs all four tricks; seat {declarer} took {stare_tricks:d}",
                                  contract=t.contract, declarer=t.declarer, stare_tricks=stare.tricks)
    if stare.points >= WIN_POINTS:
        return stare, mlodzi, say("{stare_role} reach {stare_points:d} card points (53 wins)",
                                  stare_role=stare.role, stare_points=stare.points)
    if mlodzi.points >= WIN_POINTS:
        return mlodzi, stare, say("{mlodzi_role} reach {mlodzi_points:d} card points (53 wins)",
                                  mlodzi_role=mlodzi.role, mlodzi_points=mlodzi.points)
    if last_double is not None:
        loser = stare if last_double in stare.seats else mlodzi
        winner = mlodzi if loser is stare else stare
        return winner, loser, say("52-52 (boki): seat {last_double} made the last counted double, so {loser_role} lose",
                                  last_double=last_double, loser_role=loser.role)
    return mlodzi, stare, say("52-52 (boki) with no double: {stare_role} lose", stare_role=stare.role)


def settle(state, table: TableTerms) -> Settlement:
    t = teams(state)
    stare, mlodzi = sides(state, t)
    doubles, runs, last_double = counted_doubles(state, t)
    winner, loser, why_won = _decide_winner(stare, mlodzi, t, last_double)
    outcome = loser_state(loser)
    factors = list(doubles)
    if t.solo:
        units = SOLO_UNITS[t.contract]
        paying = say("{contract} is worth {units:d} stakes from each of the three; nothing extra for the outcome",
                     contract=t.contract, units=units)
    else:
        units, extra = 1, PAIR_OUTCOME_UNITS[outcome]
        if extra > 1:
            factors.insert(0, Factor(outcome, extra, say("{outcome} multiplies the payment by {extra}",
                                                         outcome=outcome, extra=extra)))
        paying = say("in a game of pairs each loser pays one stake to a winner")
    multiplier, explained = multiplied(factors, runs if doubles else None)
    lines = [t.why, *thrown_in(state), card_points_said(stare, mlodzi), why_won,
             f"{loser.role} {OUTCOME_WORDS[outcome]}", paying, *explained]
    paid = amounts(winner, loser, units * multiplier * table.stake, state.rules.players)
    return Settlement(outcome, t.contract, (stare, mlodzi), winner.role, multiplier, units,
                      tuple(factors), paid, table.members, tuple(lines))


def thrown_in(state) -> list[str]:
    """What a settlement says of a hand thrown in before its last trick."""
    if state.thrown_in_by is None:
        return []
    counted = [t for t in state.tricks if not t.played]
    shown = "; ".join(say("trick {number:d} {cards}",
                          number=t.number, cards=' '.join(t.cards)) for t in counted)
    return [say("seat {thrown_in_by} threw in after {played:d} trick(s): every legal way to "
                "play the other {counted:d} settles alike, so they are counted as one of those ways went, each "
                "player playing the first card the rules allowed ({shown})",
                thrown_in_by=state.thrown_in_by, played=len(state.tricks) - len(counted),
                counted=len(counted), shown=shown)]


def amounts(winner: Side, loser: Side, each: int, seats: int) -> tuple[int, ...]:
    """Pairs: each loser pays ``each`` and each winner receives it. One against three:
    each of the three pays (or receives) ``each``, the lone player three times that. Every
    seat of the table is listed: at five the dealer, who sat the hand out, with 0."""
    amounts = [0] * seats
    for side, sign in ((winner, 1), (loser, -1)):
        other = loser if side is winner else winner
        share = each * len(other.seats) if len(side.seats) < len(other.seats) else each
        for seat in side.seats:
            amounts[seat] = sign * share
    return tuple(amounts)
