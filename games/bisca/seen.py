"""A Bisca hand dealt seat by seat: the cards come as they are seen, never the stock.

The deal names only its dealer. The face-up trump card comes as ``{"trump": "6S"}`` (or, in
Capixaba, a knock: ``{"trump": null, "trump_suit": "H"}``); each seat's first three cards,
and after each trick each card a seat draws, as ``{"seat", "cards"}``, when that seat has
it. The winner of a trick draws first and the others in order of play; the last card
drawn is the face-up trump card, so the last to draw logs that very card. A seat that
owes a card may not play, nor may anyone before every draw of the round is logged. How
many cards are left to draw is always known, so de Nove's duty to answer trumps once
nothing is left to draw, and Capixaba's last trick, fall where they fall in a hand dealt
whole.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from events.sentences import say

from ..engine import seen
from ..engine.base import Event
from ..engine.cards import parse_card
from ..engine.errors import RuleViolation


def is_opened_empty(deal: Mapping) -> bool:
    return not any(deal["hands"]) and not deal["stock"] and deal.get("trump") is None and "trump_suit" not in deal


def starting(state, pack_size: int, hand: int):
    """A hand dealt seat by seat, as its deal leaves it: the trump card not turned yet, every
    seat owing its first cards, the rest to draw."""
    n = state.rules.players
    return replace(state, trump_suit="", trump_seen=False, pile_left=pack_size - n * hand,
                   owed=tuple(range(n)))


def known(state) -> set[str]:
    """Every card seen so far in the hand: held, played, turned up, or to come from a known stock."""
    cards = {c for h in state.held for c in h} | {c for t in state.tricks for c in t.cards} | set(state.stock)
    cards |= {c for _, c in state.current}
    return cards | {c for c in (state.cut, state.trump_card) if c}


def decide_cards(state, data: Mapping, pack, hand: int, capixaba_cut_ok) -> Event:
    if "trump" in data or "trump_suit" in data:
        return _trump(state, data, pack, capixaba_cut_ok)
    seat, n = data.get("seat"), state.rules.players
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
    return Event("seat_cards", seen.seat_cards(data, state.rules.players, size, pack, known(state), "bisca"))


def _trump(state, data: Mapping, pack, capixaba_cut_ok) -> Event:
    if state.trump_seen:
        raise RuleViolation(say("the trump card was turned already"))
    extra = sorted(set(data) - {"trump", "trump_suit"})
    if extra:
        raise RuleViolation(say("the trump card is {{\"trump\": \"...\"}}, not {extra}",
                                extra=', '.join(extra)))
    if data.get("trump") is None:
        if state.rules.variant != "capixaba" or str(data.get("trump_suit", "")).upper() != "H":
            raise RuleViolation(say("only capixaba plays without a trump card, by knocking for hearts: {{\"trump\": "
                                    "null, \"trump_suit\": \"H\"}}"))
        return Event("seat_cards", {"trump": None, "trump_suit": "H"})
    [card] = seen.of_the_pack([parse_card(data["trump"])], pack, "bisca")
    capixaba_cut_ok(state.rules, card)
    return Event("seat_cards", {"trump": seen.not_seen_yet([card], known(state))[0]})


def after_cards(state, d: Mapping):
    """The hand once cards were seen: the trump card, or a seat's (its first, or a draw)."""
    if "trump" in d:
        card = d["trump"]
        return replace(state, trump_card=card, cut=card, trump_suit=card[-1] if card else d["trump_suit"],
                       trump_seen=True)
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
