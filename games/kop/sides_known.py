"""Who plays with whom in a Kop (or Baśka) hand, as one seat may know it during the auction,
and so what a double it would make changes: from its own cards and the calls everyone
heard, never another seat's cards.

The sides depend on where a few cards lie: the black queens while no contract stands, the
jacks that find a wesele's partner (a contract played alone makes them public). A seat sees
only its own cards, so every deal it may be facing is tried (``engine.worlds``), the calls
so far judged again in it (a deal in which one of them would have been refused is not the
one on the table), and the doubles' runs counted in each. Consecutive doubles by one side
count once (rules/kop.md, rules/baska.md): a double changes what the hand pays only when
the side that makes it is not the side of the double before it, and ``double`` says whether
it does in every deal the seat may be facing, in none, or depending on who holds what.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..engine.base import Command
from ..engine.worlds import consistent, deals_facing
from . import auction as auc
from . import scoring
from .pack import PACK, TRICKS


@dataclass(frozen=True)
class DoubleSeen:
    """A double ``seat`` could make now, as that seat may know it: whether it starts a new
    run in every deal it may be facing (``always``), in some (``sometimes``) or in none;
    the multipliers it would make the hand's where it does; the double standing before it."""
    always: bool
    sometimes: bool
    multipliers: frozenset[int]
    last: auc.Call | None


def double(decide: Callable, evolve: Callable, state, seat: int) -> DoubleSeen:
    """What a double by ``seat`` would change, in the deals ``seat`` may be facing (the calls
    judged again by the game's ``decide`` and folded by its ``evolve``)."""
    standing = state.auction.doubles
    counts, multipliers = [], set()
    for side_of in sides(decide, evolve, state, seat):
        runs = auc.count_runs((*standing, auc.Call(seat, "double")), side_of)
        counts.append(runs[-1])
        if runs[-1]:
            multipliers.add(2 ** sum(runs))
    return DoubleSeen(all(counts) and bool(counts), any(counts), frozenset(multipliers),
                      standing[-1] if standing else None)


def sides(decide: Callable, evolve: Callable, state, seat: int) -> list[dict[int, str]]:
    """Each player's side, in each deal ``seat`` may be facing."""
    a, players = state.auction, state.turns.players
    if a.contract is not None and a.contract != "wesele":  # played alone: every seat knows the sides
        return [{s: "declarer" if s == a.declarer else "defenders" for s in players}]
    out = []
    for world in facing(decide, evolve, state, seat):
        teams = scoring.teams(world)
        out.append({s: teams.side_of(s) for s in players})
    return out


def facing(decide: Callable, evolve: Callable, state, seat: int) -> list:
    """The hand as it would stand in each deal ``seat`` may be facing, while no contract
    played alone stands: its own cards where they are, the cards that make the sides
    anywhere else (a wesele's caller holds both black queens), the calls so far made again."""
    a, own = state.auction, state.deal[seat]
    sizes = [TRICKS if s in state.turns.players else 0 for s in range(state.rules.players)]
    if a.contract == "wesele":  # the caller holds both black queens; its partner's jack is somewhere
        unknown, placed = auc.JACKS_HIGH_TO_LOW, {q: a.declarer for q in auc.BLACK_QUEENS}
    else:  # the black queens make the sides (or a cicha)
        unknown, placed = auc.BLACK_QUEENS, {}
    calls = [Command("bid", call.to_data()) for call in state.calls]
    worlds = []
    for deal in deals_facing(seat, own, sizes, PACK, unknown, placed):
        start = type(state)(state.rules, state.dealer, tuple(tuple(h) for h in deal))
        world = consistent(decide, evolve, start, calls)
        if world is not None:
            worlds.append(world)
    return worlds
