"""A stock drawn after each trick: the winner draws first, then the others in order of
play, while it lasts; a card turned face up under it (the trump card) is drawn last.

A hand with a stock has, beside ``TrickHand``'s fields, ``stock`` (top first, the face-up
card apart), ``trump_card`` (the face-up card, None once drawn or where there is none),
``pile_left`` (dealt seat by seat: how many cards are left to draw, seen or not; None when
the stock was dealt whole) and ``owed`` (dealt seat by seat: the seats that owe the card
they drew, in drawing order). Dealt whole, each draw is known and the trick event records
it; seat by seat, each seat logs the card it drew (a ``seat_cards`` event).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from ..tricks import Trick
from ..cards import SUIT_NAMES
from .hand import TrickHand, after_trick, cards_shown, outline


class StockHand(TrickHand):
    """A hand with a stock (a mixin of the game's state dataclass)."""

    @property
    def draw_pile(self) -> tuple[str, ...]:
        """What is left to draw, top first, as far as it is known: the stock, then the face-up card."""
        return self.stock + ((self.trump_card,) if self.trump_card else ())

    @property
    def pile(self) -> int:
        """How many cards are left to draw, seen or not."""
        return len(self.draw_pile) if self.pile_left is None else self.pile_left


@dataclass(frozen=True)
class DrawTrick(Trick):
    """A trick followed by draws from the stock: (seat, card), the winner first."""
    draws: tuple[tuple[int, str], ...] = ()

    def to_data(self) -> dict:
        return {**super().to_data(), "draws": [list(d) for d in self.draws]}

    @classmethod
    def from_data(cls, d: Mapping) -> "DrawTrick":
        return cls(d["trick"], d["leader"], tuple(d["cards"]), d["winner"], d["points"], d.get("played", True),
                   draws=tuple((s, c) for s, c in d.get("draws", [])))


def draws(state: StockHand, winner: int) -> tuple[tuple[int, str], ...]:
    """The draws after a trick ``winner`` took, when the stock is known (none seat by seat)."""
    pile, n = (state.draw_pile if state.pile_left is None else ()), state.seats
    return tuple(((winner + i) % n, pile[i]) for i in range(n)) if pile else ()


def after_drawing(state: StockHand, trick: DrawTrick):
    """The hand once ``trick`` is taken and its draws made: each drawn card in its seat's
    hand and gone from the stock (the face-up card last); seat by seat, every seat owes
    the card it draws while any is left."""
    drawn = len(trick.draws)
    trump_card = None if drawn > len(state.stock) else state.trump_card  # the face-up card was drawn last
    owed = ()
    if state.pile_left is not None and state.pile_left:
        owed = tuple((trick.winner + i) % state.seats for i in range(state.seats))
    after = after_trick(state, trick, stock=state.stock[drawn:], trump_card=trump_card, owed=owed)
    held = list(after.held)
    for seat, card in trick.draws:
        held[seat] = held[seat] + (card,)
    return replace(after, held=tuple(held))


def stock_view(state: StockHand, over: bool) -> dict:
    """A stock game's view as every such game shows it: the outline, the face-up trump card
    and its suit, each seat's cards, the stock left and the draws owed; the game adds its
    sides and its phase."""
    shown = cards_shown(state)
    return {
        **outline(state, over),
        "trump": state.trump_card, "trump_suit": state.trump_suit or None,
        "trump_name": SUIT_NAMES.get(state.trump_suit), "held": shown["held"],
        "deal": shown["deal"],  # each seat's cards this hand: played, then held
        "stock_left": state.pile, "awaiting": list(state.owed), "trump_seen": state.trump_seen,
        "current": shown["current"], "tricks": shown["tricks"],
    }
