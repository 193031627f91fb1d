"""A Tressette hand dealt seat by seat: each seat's cards as that seat sees them.

The deal names only its dealer. Each seat logs its ten cards as ``{"seat", "cards"}``, once,
in any order; nothing is played before every seat has. With two players a stock of twenty
is left: after each trick, while it lasts, each seat logs the one card it drew (the winner
draws first; either may log first). With ``show_draws`` (the table rule, true by default)
that card is shown to the other player as it is drawn, so from then on it is sealed from
nobody; without it, only its drawer sees it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Collection, Mapping

from events.sentences import say

from ..engine import seen
from ..engine.base import Event
from ..engine.errors import RuleViolation
from .rules import HAND


def starting(state):
    """A hand dealt seat by seat, as its deal leaves it: every seat owing its ten cards, the
    stock (two players) still to draw."""
    return replace(state, owed=tuple(range(state.rules.players)), pile_left=state.rules.stock)


def known(state) -> set[str]:
    """Every card seen so far in the hand: held, played, or in a stock dealt whole."""
    return {c for h in state.held for c in h} | set(state.played()) | set(state.stock)


def decide_cards(state, data: Mapping, pack: Collection[str]) -> Event:
    """A seat's ten cards, or the one card it drew after a trick."""
    seat, n = data.get("seat"), state.rules.players
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n and seat not in state.owed:
        raise RuleViolation(say("seat {seat} owes no card now: after a trick each seat logs the one card it draws",
                                seat=seat))
    size = 1 if state.tricks else HAND
    logged = seen.seat_cards(data, n, size, pack, known(state), "tressette")
    if state.tricks and state.rules.show_draws:
        logged["shown"] = True  # the card drawn is shown to the other player: in every reader's sight
    return Event("seat_cards", logged)


def after_cards(state, d: Mapping):
    """The hand once a seat's cards were seen: its ten, or the card it drew (shown to the
    other player with ``show_draws``)."""
    seat, cards = d["seat"], tuple(d["cards"])
    held = tuple(h + cards if s == seat else h for s, h in enumerate(state.held))
    drawn = bool(state.tricks)
    shown = state.shown + cards if d.get("shown") else state.shown
    return replace(state, held=held, owed=tuple(s for s in state.owed if s != seat),
                   pile_left=state.pile_left - (len(cards) if drawn else 0), shown=shown)


def waiting(state) -> str | None:
    """Why no card may be played (nor a declaration made) yet, or None."""
    if state.owed:
        return say("seat(s) {owing} have not logged the cards they hold yet",
                   owing=", ".join(str(s) for s in state.owed))
    return None


def owed(state) -> dict[str, int]:
    """The cards each seat still owes: its ten, or after a trick the one it drew."""
    return {str(seat): (1 if state.tricks else HAND) for seat in state.owed}
