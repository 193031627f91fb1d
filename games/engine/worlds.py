"""The deals one seat may be facing: every way the cards it cannot see could lie, as far as
it may know, for a rule that depends on where a few of them are (who plays with whom) to be
judged on what that seat knows, never on another seat's cards (DESIGN.md, "Cards as they
are seen").

The seat's own cards, and any card whose holder it knows, stay where they are; each card the
question is about (``unknown``) goes to every other hand with room for it in turn; the
rest of the pack fills the hands left in one fixed way, since where those cards are changes
nothing the question asks. ``consistent`` keeps the deals in which everything said so far
would have been said: a call the rules would have refused in a deal (wesele from a seat
without both black queens) says that deal is not the one on the table.
"""
from __future__ import annotations

from itertools import product
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from .base import Command, Event
from .errors import RuleViolation

S = TypeVar("S")


def deals_facing(seat: int, own: Sequence[str], sizes: Sequence[int], pack: Iterable[str],
                 unknown: Iterable[str], placed: Mapping[str, int] | None = None) -> Iterator[list[list[str]]]:
    """Every deal the player in ``seat`` may be facing: ``own`` in its hand, each card of
    ``placed`` in the hand of the seat it names, each card of ``unknown`` (but its own) in
    any other hand with room for it, and every other card of ``pack`` filling the hands
    left, in the pack's order. ``sizes`` is each seat's number of cards (0: it sits out)."""
    placed = {c: s for c, s in (placed or {}).items() if c not in own}
    free = [c for c in unknown if c not in own and c not in placed]
    others = [s for s, size in enumerate(sizes) if s != seat and size]
    rest = [c for c in pack if c not in own and c not in placed and c not in free]
    for holders in product(others, repeat=len(free)):
        hands: list[list[str]] = [[] for _ in sizes]
        hands[seat] = list(own)
        for card, holder in (*placed.items(), *zip(free, holders, strict=True)):
            hands[holder].append(card)
        if any(len(hand) > size for hand, size in zip(hands, sizes, strict=True)):
            continue  # more cards in a hand than it holds: no such deal
        filling = iter(rest)
        for s, size in enumerate(sizes):
            if s != seat:
                hands[s] += [next(filling) for _ in range(size - len(hands[s]))]
        yield hands


def consistent(decide: Callable[[S, Command], list[Event]], evolve: Callable[[S, Event], S], start: S,
               commands: Iterable[Command]) -> S | None:
    """The state after ``commands`` from ``start``, each judged again by ``decide``; None
    when one of them would have been refused (the deal of ``start`` is not the table's)."""
    state = start
    for command in commands:
        try:
            events = decide(state, command)
        except RuleViolation:
            return None
        for event in events:
            state = evolve(state, event)
    return state
