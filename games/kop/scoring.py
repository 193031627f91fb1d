"""Kop's result and money: who plays with whom, who won, how the doubles count, who pays.

Tables, not chains of ``if``: what a losing pair pays per outcome, what a lone contract is
worth, which contracts are won only by taking every trick.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import auction as auc
from ..engine.base import Factor, Settlement, Side, TableTerms

WIN_POINTS = 53
WYJSCIE_POINTS = 26
PAIR_OUTCOME_UNITS = {"wyjscie": 1, "bez-wyjscia": 2, "bez-bitki": 3}
SOLO_UNITS = {"cicha": 4, "zolo": 5, "zolo-du": 10}
ALL_TRICKS_CONTRACTS = frozenset({"zolo-du"})
OUTCOME_WORDS = {
    "wyjscie": "took 26 or more card points: wyjście",
    "bez-wyjscia": "took a trick but 25 or fewer card points: bez wyjścia",
    "bez-bitki": "took no trick: bez bitki",
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
    hands = state.deal
    if a.contract == "wesele":
        partner = auc.holder(hands, a.jack)
        pair = tuple(sorted((a.declarer, partner)))
        return Teams("wesele", a.declarer, pair, _others(*pair),
                     f"seat {a.declarer} called wesele with both black queens; seat {partner} holds {a.jack}")
    if a.contract is not None:
        return Teams(a.contract, a.declarer, (a.declarer,), _others(a.declarer),
                     f"seat {a.declarer} called {a.contract} and plays alone against three")
    pair = tuple(sorted(auc.holder(hands, q) for q in auc.BLACK_QUEENS))
    if pair[0] == pair[1]:
        both = pair[0]
        return Teams("cicha", both, (both,), _others(both),
                     f"seat {both} holds both black queens and called nothing: cicha, alone against three")
    young = _others(*pair)
    return Teams("normal", None, pair, young,
                 f"seats {pair[0]} and {pair[1]} hold QC and QS (stare) "
                 f"against seats {young[0]} and {young[1]} (młodzi)")


def _others(*seats: int) -> tuple[int, ...]:
    return tuple(s for s in range(4) if s not in seats)


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
    starts = auc.count_runs(doubles, {s: t.side_of(s) for s in range(4)})
    factors = []
    for d, new_run in zip(doubles, starts, strict=True):
        if new_run:
            why = f"{d.call} by seat {d.seat} ({t.side_of(d.seat)}) doubles the payment"
        else:
            why = f"{d.call} by seat {d.seat} follows a double by the same side and counts once with it"
        factors.append(Factor(d.call, 2 if new_run else 1, why, d.seat))
    return factors, sum(starts), (doubles[-1].seat if doubles else None)


def _decide_winner(stare: Side, mlodzi: Side, t: Teams, last_double: int | None) -> tuple[Side, Side, str]:
    if t.contract in ALL_TRICKS_CONTRACTS:
        if stare.tricks == 4:
            return stare, mlodzi, f"seat {t.declarer} took all four tricks and wins {t.contract}"
        return mlodzi, stare, f"{t.contract} needs all four tricks; seat {t.declarer} took {stare.tricks}"
    if stare.points >= WIN_POINTS:
        return stare, mlodzi, f"{stare.role} reach {stare.points} card points (53 wins)"
    if mlodzi.points >= WIN_POINTS:
        return mlodzi, stare, f"{mlodzi.role} reach {mlodzi.points} card points (53 wins)"
    if last_double is not None:
        loser = stare if last_double in stare.seats else mlodzi
        winner = mlodzi if loser is stare else stare
        return winner, loser, f"52-52 (boki): seat {last_double} made the last counted double, so {loser.role} lose"
    return mlodzi, stare, f"52-52 (boki) with no double: {stare.role} lose"


def settle(state, table: TableTerms) -> Settlement:
    t = teams(state)
    stare, mlodzi = sides(state, t)
    doubles, runs, last_double = counted_doubles(state, t)
    winner, loser, why_won = _decide_winner(stare, mlodzi, t, last_double)
    outcome = loser_state(loser)
    factors = list(doubles)
    if t.solo:
        units = SOLO_UNITS[t.contract]
        paying = f"{t.contract} is worth {units} stakes from each of the three; nothing extra for the outcome"
    else:
        units, extra = 1, PAIR_OUTCOME_UNITS[outcome]
        if extra > 1:
            factors.insert(0, Factor(outcome, extra, f"{outcome} multiplies the payment by {extra}"))
        paying = "in a game of pairs each loser pays one stake to a winner"
    multiplier = 1
    for f in factors:
        multiplier *= f.factor
    lines = [t.why, *thrown_in(state),
             f"card points: {stare.role} {stare.points} in {stare.tricks} tricks, "
             f"{mlodzi.role} {mlodzi.points} in {mlodzi.tricks} tricks",
             why_won, f"{loser.role} {OUTCOME_WORDS[outcome]}", paying,
             *(f.reason for f in factors)]
    if doubles:
        lines.append(f"the doubles make {runs} run(s) of sides, so they multiply by {2 ** runs}")
    product = " x ".join(f"{f.factor} ({f.name})" for f in factors if f.factor > 1)
    lines.append(f"multiplier {multiplier}" + (f" = {product}" if product else ""))
    paid = amounts(winner, loser, units * multiplier * table.stake)
    return Settlement(outcome, t.contract, (stare, mlodzi), winner.role, multiplier, units,
                      tuple(factors), paid, table.members, tuple(lines))


def thrown_in(state) -> list[str]:
    """What a settlement says of a hand thrown in before its last trick."""
    if state.thrown_in_by is None:
        return []
    counted = [t for t in state.tricks if not t.played]
    shown = "; ".join(f"trick {t.number} {' '.join(t.cards)}" for t in counted)
    return [f"seat {state.thrown_in_by} threw in after {len(state.tricks) - len(counted)} trick(s): every legal way "
            f"to play the other {len(counted)} settles alike, so they are counted as one of those ways went, each "
            f"player playing the first card the rules allowed ({shown})"]


def amounts(winner: Side, loser: Side, each: int) -> tuple[int, ...]:
    """Pairs: each loser pays ``each`` and each winner receives it. One against three:
    each of the three pays (or receives) ``each``, the lone player three times that."""
    amounts = [0, 0, 0, 0]
    for side, sign in ((winner, 1), (loser, -1)):
        other = loser if side is winner else winner
        share = each * len(other.seats) if len(side.seats) < len(other.seats) else each
        for seat in side.seats:
            amounts[seat] = sign * share
    return tuple(amounts)
