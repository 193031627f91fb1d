"""Baśka's result and money, for both rule sets (rules/baska.md).

What each contract is worth, what a loss, an outcome or du multiplies, when a 52-52 tie
or a du contract makes a bok-runda due: tables here, and the sides, the doubles' runs and
the per-seat amounts from Kop's scoring.

The seed's "6400% of the base stake" is the most that doubles, du and a bok-runda reach
together (16 x 2 x 2); it caps nothing. Settlements recorded under rules version 1 read it
as a cap on the whole payment and made no bok-runda due after a gran or zolo 52-52; that
reading is kept only to re-derive them (``table.rules_version``).
"""
from __future__ import annotations

from typing import Mapping

from events.sentences import heard, say

from ..engine.base import Factor, Settlement, Side, TableTerms
from ..kop.scoring import (
    OUTCOME_WORDS,
    WIN_POINTS,
    Teams,
    amounts,
    card_points_said,
    counted_doubles,
    loser_state,
    multiplied,
    sides,
    teams,
    thrown_in,
)

BASE_UNITS = {
    "bytow-2005": {"normal": 2, "wesele": 2, "cicha": 8, "gran": 10, "zolo": 10, "gran-du": 10, "zolo-du": 10},
    "classic": {"normal": 1, "wesele": 1, "cicha": 4, "gran": 5, "zolo": 5, "gran-du": 5, "zolo-du": 5,
                "baska": 10},
}
OUTCOME_FACTOR = {"wyjscie": 1, "bez-wyjscia": 2, "bez-bitki": 3}
PAIR_CONTRACTS = frozenset({"normal", "wesele"})
DU_CONTRACTS = frozenset({"gran-du", "zolo-du"})
V1_TIE_STARTS_BOK = frozenset({"normal", "wesele", "cicha"})  # rules 1: a gran or zolo 52-52 made none
# A variant as the explanation names it: "classic" a word of the log (the same in English);
# "bytow-2005" a code of the game, said by the pages (game.CODES).
VARIANT_SAID = {"classic": heard("classic")}
V1_CEILING = 64  # rules 1 held a bytow-2005 payment to 64 times its contract's base


def settle(state, table: TableTerms) -> Settlement:
    rules, t = state.rules, teams(state)
    stare, mlodzi = sides(state, t)
    doubles, runs, last_double = counted_doubles(state, t)
    if t.contract == "baska":
        winner, loser, tie = stare, mlodzi, False
        why, outcome = say("seat {declarer} holds all four queens and called baska: it wins at once",
                           declarer=t.declarer), "baska"
    else:
        winner, loser, why, tie = _decide_winner(stare, mlodzi, t, last_double, rules.variant)
        outcome = loser_state(loser)
    factors = _factors(t, loser is stare, outcome, doubles, table.bok_runda and rules.bok_rundy)
    units = BASE_UNITS[rules.variant][t.contract]
    product, explained = multiplied(factors, runs if doubles else None)
    old = table.rules_version < 2
    multiplier = min(product, V1_CEILING) if rules.bok_rundy and old else product
    lines = [t.why, *thrown_in(state), card_points_said(stare, mlodzi), why]
    if outcome != "baska":
        lines.append(f"{loser.role} {OUTCOME_WORDS[outcome]}")
    lines.append(say("{contract} is worth {units:d} stake(s) in the {variant} rules{who_pays}",
                     contract=t.contract, units=units, variant=VARIANT_SAID.get(rules.variant, rules.variant),
                     who_pays=say("; each loser pays a winner") if not t.solo
                     else say(", from or to each of the three")))
    lines += explained
    if multiplier < product:
        lines.append(say("rules 1 held a payment to {ceiling} times its base: multiplier {multiplier:d}",
                         ceiling=V1_CEILING, multiplier=multiplier))
    tie_makes_bok = tie and (t.contract in V1_TIE_STARTS_BOK or not old)
    bok_due = rules.bok_rundy and (tie_makes_bok or t.contract in DU_CONTRACTS)
    if bok_due:
        why = "52-52" if tie else t.contract
        lines.append(say("{why}: a bok-runda falls due, four hands at double stake, after any that is running",
                         why=why))
    paid = amounts(winner, loser, units * multiplier * table.stake, rules.players)
    extra = {"bok_runda": any(f.name == "bok-runda" for f in factors), "bok_due": bok_due} if rules.bok_rundy else {}
    return Settlement(outcome, t.contract, (stare, mlodzi), winner.role, multiplier, units, tuple(factors), paid,
                      table.members, tuple(lines), extra)


def _decide_winner(stare: Side, mlodzi: Side, t: Teams, last_double: int | None, variant: str):
    """(winner, loser, why, whether it was a 52-52 tie)."""
    if t.contract in DU_CONTRACTS:
        if stare.tricks == 4:
            return stare, mlodzi, say("seat {declarer} took all four tricks and wins {contract}",
                                      declarer=t.declarer, contract=t.contract), False
        return mlodzi, stare, say("{contract} needs all four tricks; seat {declarer} took {stare_tricks:d}",
                                  contract=t.contract, declarer=t.declarer, stare_tricks=stare.tricks), False
    if stare.points >= WIN_POINTS:
        return stare, mlodzi, say("{stare_role} reach {stare_points:d} card points (53 wins)",
                                  stare_role=stare.role, stare_points=stare.points), False
    if mlodzi.points >= WIN_POINTS:
        return mlodzi, stare, say("{mlodzi_role} reach {mlodzi_points:d} card points (53 wins)",
                                  mlodzi_role=mlodzi.role, mlodzi_points=mlodzi.points), False
    if variant == "classic" and last_double is not None:
        loser = stare if last_double in stare.seats else mlodzi
        winner = mlodzi if loser is stare else stare
        return winner, loser, say("52-52: seat {last_double} made the last counted double, so {loser_role} lose",
                                  last_double=last_double, loser_role=loser.role), True
    return mlodzi, stare, say("52-52: {stare_role} needed 53 and lose", stare_role=stare.role), True


def _factors(t: Teams, stare_lost: bool, outcome: str, doubles: list[Factor], bok_runda: bool) -> list[Factor]:
    factors = []
    if t.contract in PAIR_CONTRACTS:
        if OUTCOME_FACTOR[outcome] > 1:
            factors.append(Factor(outcome, OUTCOME_FACTOR[outcome], say("{outcome} multiplies the payment by "
                                                                        "{factor}",
                                                                        outcome=outcome,
                                                                        factor=OUTCOME_FACTOR[outcome])))
        if stare_lost:
            factors.append(Factor("stare-lose", 2, say("the stare side lost, and pays twice what młodzi would")))
    elif stare_lost:
        factors.append(Factor("lost-contract", 2, say("a lost {contract} is paid double", contract=t.contract)))
    if t.contract in DU_CONTRACTS:
        factors.append(Factor("du", 2, say("du doubles the value of {contract}",
                                           contract=t.contract.removesuffix('-du'))))
    factors += doubles
    if bok_runda:
        factors.append(Factor("bok-runda", 2, say("this hand is played in a bok-runda, at double stake")))
    return factors


def notes(settlement: Mapping) -> list[str]:
    """What a table's score table notes beside a Baśka hand (``Game.forms.notes``), from its
    settlement: the bok-runda it was played in, which doubled it, and the one it makes due."""
    said = []
    if settlement.get("bok_runda"):
        said.append(say("in a bok-runda (doubled)"))
    if settlement.get("bok_due"):
        said.append(say("makes a bok-runda due"))
    return said
