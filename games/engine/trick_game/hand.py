"""A trick game's hand in play: the fields the core reads, and what follows from them.

A game's state is a frozen dataclass that inherits ``TrickHand`` and has ``rules`` (with
``players``), ``dealer``, ``held`` (each seat's cards not played yet), ``tricks`` (each a
``tricks.Trick``) and ``current`` (``(seat, card)`` of the trick being played a card at a
time). The seat after the dealer leads the first trick, the winner of a trick the next.
"""
from __future__ import annotations

from dataclasses import replace

from ..tricks import Trick


class TrickHand:
    """What a trick game's state knows of its hand in play (a mixin of its dataclass)."""

    @property
    def seats(self) -> int:
        return self.rules.players

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % self.seats

    @property
    def turn(self) -> int:
        return (self.leader + len(self.current)) % self.seats

    @property
    def on_table(self) -> tuple[str, ...]:
        """The cards of the trick being played a card at a time, leader first."""
        return tuple(c for _, c in self.current)

    def played_by_seat(self) -> list[tuple[int, str]]:
        """(seat, card) of every card played so far, in order: the tricks, then the trick
        being played."""
        n = self.seats
        return [((t.leader + i) % n, c) for t in self.tricks for i, c in enumerate(t.cards)] + list(self.current)

    def played(self) -> list[str]:
        """Every card played so far, in order."""
        return [c for _, c in self.played_by_seat()]

    def holder(self, card: str) -> int | None:
        """The seat that holds ``card`` now, or None."""
        return next((s for s, h in enumerate(self.held) if card in h), None)

    def won(self) -> tuple[list[int], list[int]]:
        """The points and the tricks each side took so far (``rules.side_of``)."""
        sides = len(self.rules.sides)
        points, taken = [0] * sides, [0] * sides
        for t in self.tricks:
            side = self.rules.side_of(t.winner)
            points[side] += t.points
            taken[side] += 1
        return points, taken


def after_play(state, seat: int, card: str):
    """The hand once ``seat`` played ``card`` to the trick in progress."""
    held = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.held))
    return replace(state, held=held, current=(*state.current, (seat, card)))


def after_trick(state, trick: Trick, **changed):
    """The hand once ``trick`` is taken: its cards leave the hands, it joins the tricks, and
    the next trick starts empty (``changed``: what else the game changes with it)."""
    held = tuple(tuple(c for c in h if c not in trick.cards) for h in state.held)
    return replace(state, held=held, tricks=(*state.tricks, trick), current=(), **changed)


def outline(state, over: bool) -> dict:
    """The view's part every trick game shows alike: who dealt, the rules, who leads and
    whose turn it is (None once the hand is over)."""
    return {"dealer": state.dealer, "rules": state.rules.to_data(),
            "leader": None if over else state.leader, "turn": None if over else state.turn}


def cards_shown(state) -> dict:
    """The view's cards: each seat's held (the trick in progress left out), each seat's
    cards this hand (played, then held), the trick in progress and the tricks taken."""
    on_table = set(state.on_table)
    held = [[c for c in h if c not in on_table] for h in state.held]
    by_seat = state.played_by_seat()
    return {"held": held,
            "deal": [[c for s, c in by_seat if s == seat] + hand for seat, hand in enumerate(held)],
            "current": [{"seat": s, "card": c} for s, c in state.current],
            "tricks": [t.to_data() for t in state.tricks]}
