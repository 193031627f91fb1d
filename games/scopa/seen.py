"""A Scopa hand dealt seat by seat: the cards come as they are seen, never the stock.

The deal names only its dealer. The face-up cards come as ``{"table": [...]}`` (the
dealer's, turned up); each seat's first cards, and each later round of three when every
hand is empty, as ``{"seat", "cards"}``, when that seat has them. Until then the seat owes
its cards and may not play. How many cards the stock still holds is always known (the
pack less what was dealt or seen), so the hand's last play, and the sweep after it, fall
where they fall in a hand dealt whole.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from events.sentences import say

from ..engine import seen
from ..engine.base import Event
from ..engine.cards import parse_cards
from ..engine.errors import RuleViolation

PACK_SIZE = 40


def is_opened_empty(deal: Mapping) -> bool:
    return not any(deal["hands"]) and not deal["table"] and not deal["stock"]


def starting(state, in_hand: int, face_up: int):
    """A hand dealt seat by seat, as its deal leaves it: every seat owes its cards, the
    table owes its face-up cards (if the deal has any), the stock holds the rest."""
    n = state.rules.players
    return replace(state, stock_left=PACK_SIZE - n * in_hand - face_up, table_seen=face_up == 0,
                   owed=frozenset(range(n)))


def decide_cards(state, data: Mapping, in_hand: int, face_up: int, pack) -> Event:
    known = {c for h in state.held for c in h} | set(state.table) | {c for cs in state.captured for c in cs}
    known |= {p.card for p in state.plays}
    if "table" in data:
        extra = sorted(set(data) - {"table"})
        if extra or state.table_seen:
            raise RuleViolation(say("the face-up cards are logged once, as {{\"table\": [...]}}") if not extra
                                else say("the face-up cards are {{\"table\": [...]}}, not {extra}",
                                         extra=', '.join(extra)))
        cards = seen.of_the_pack(parse_cards(data["table"]), pack, "scopa")
        if len(cards) != face_up:
            raise RuleViolation(say("the {deal} deal puts {face_up} cards face up, not {cards_count:d}",
                                    deal=state.rules.deal, face_up=face_up, cards_count=len(cards)))
        kings = sum(1 for c in cards if c[:-1] == "K")
        if kings >= 3:
            raise RuleViolation(say("the table shows {kings} kings: this deal must be redealt (void the hand and deal "
                                    "again)",
                                    kings=kings))
        return Event("seat_cards", {"table": seen.not_seen_yet(cards, known)})
    seat = data.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and seat not in state.owed:
        raise RuleViolation(say("seat {seat} owes no cards now: it logs a round's cards once every hand is empty",
                                seat=seat))
    size = in_hand if not state.plays else 3
    return Event("seat_cards", seen.seat_cards(data, state.rules.players, size, pack, known, "scopa"))


def after_cards(state, d: Mapping):
    """The hand once cards were seen: the table's, or a seat's (its first, or a round from
    the stock)."""
    if "table" in d:
        return replace(state, table=tuple(d["table"]), table_seen=True)
    held = tuple(tuple(d["cards"]) if s == d["seat"] else h for s, h in enumerate(state.held))
    drawn = len(d["cards"]) if state.plays else 0
    return replace(state, held=held, owed=state.owed - {d["seat"]}, stock_left=state.stock_left - drawn)


def waiting(state) -> str | None:
    """Why the seat to play cannot play yet, or None."""
    if not state.table_seen:
        return say("the face-up cards are not logged yet")
    if state.turn in state.owed:
        return say("seat {turn} has not logged its cards yet", turn=state.turn)
    return None
