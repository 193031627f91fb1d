"""A hand with a stock dealt seat by seat: the cards come as they are seen, never the stock.

The deal names only its dealer. The card turned face up under the stock comes first (the
game's own ``seat_cards`` body, ``{"trump": "6S"}``); each seat's first cards, and after
each trick each card a seat draws, as ``{"seat", "cards"}``, when that seat has it. The
winner of a trick draws first and the others in order of play; the last card drawn is the
face-up card, so the last to draw logs that very card. A seat that owes a card may not
play, nor may anyone before every draw of the round is logged. How many cards are left to
draw is always known (``pile_left``), so whatever depends on it (the last trick, a rule
once the stock is gone) falls where it falls in a hand dealt whole.

The state is a ``StockHand`` with ``trump_seen`` (whether the face-up card is logged) and
``trump_suit`` besides; the game turns the face-up card up itself (``trump_seen`` then
true, and the card its ``trump_card``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Collection, Mapping

from events.sentences import say

from .. import seen
from ..base import Event
from ..cards import parse_card
from ..errors import RuleViolation


def starting(state, pack_size: int, hand: int):
    """A hand dealt seat by seat, as its deal leaves it: the face-up card not turned yet,
    every seat owing its first cards, the rest to draw."""
    n = state.seats
    return replace(state, trump_suit="", trump_seen=False, pile_left=pack_size - n * hand, owed=tuple(range(n)))


def known(state) -> set[str]:
    """Every card seen so far in the hand: held, played, turned up, or to come from a known stock."""
    cards = {c for h in state.held for c in h} | {c for t in state.tricks for c in t.cards} | set(state.stock)
    cards |= {c for _, c in state.current}
    return cards | ({state.trump_card} if state.trump_card else set())


def decide_draw(state, data: Mapping, pack: Collection[str], hand: int, game: str, seen_so_far: set[str]) -> Event:
    """A seat's cards: its first ``hand`` cards, or the one card it drew after a trick (the
    face-up card, when it is the last to draw). ``seen_so_far``: every card seen in the hand."""
    seat, n = data.get("seat"), state.seats
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise RuleViolation(say("a seat's cards are {{\"seat\", \"cards\"}} with a seat from 0 to {last} (the trump "
                                "card is {{\"trump\": \"...\"}})",
                                last=n - 1))
    if seat not in state.owed:
        raise RuleViolation(say("seat {seat} owes no card now: after a trick each seat logs the one card it draws",
                                seat=seat))
    first = not state.tricks and not state.held[seat]
    size = hand if first else 1
    last = state.trump_card and seat == state.owed[-1] and state.pile_left == len(state.owed)
    if not first and last:  # the last card to draw: the face-up trump card
        cards = [parse_card(c) for c in data["cards"]] if isinstance(data.get("cards"), list) else []
        if cards != [state.trump_card]:
            raise RuleViolation(say("the last card to draw is the face-up trump card, {trump_card}",
                                    trump_card=state.trump_card))
        return Event("seat_cards", {"seat": seat, "cards": cards})
    return Event("seat_cards", seen.seat_cards(data, n, size, pack, seen_so_far, game))


def after_draw(state, d: Mapping):
    """The hand once a seat logged its cards (its first, or a draw)."""
    seat, cards = d["seat"], tuple(d["cards"])
    held = tuple(h + cards if s == seat else h for s, h in enumerate(state.held))
    drawn = 0 if not state.tricks else len(cards)
    trump_card = None if state.tricks and state.trump_card in cards else state.trump_card
    return replace(state, held=held, owed=tuple(s for s in state.owed if s != seat),
                   pile_left=state.pile_left - drawn, trump_card=trump_card)


def waiting(state) -> str | None:
    """Why no card may be played yet, or None."""
    if not state.trump_seen:
        return say("the trump card is not logged yet")
    if state.owed:
        owing = ", ".join(str(s) for s in state.owed)
        return say("seat(s) {owing} have not logged the cards they hold yet", owing=owing)
    return None
