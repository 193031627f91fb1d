"""A Bisca hand dealt seat by seat: the cards come as they are seen, never the stock
(the core's ``trick_game.stock_seen``).

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
from ..engine.trick_game import stock_seen
from ..engine.trick_game.stock_seen import starting, waiting

__all__ = ("is_opened_empty", "starting", "known", "decide_cards", "after_cards", "waiting")


def is_opened_empty(deal: Mapping) -> bool:
    return not any(deal["hands"]) and not deal["stock"] and deal.get("trump") is None and "trump_suit" not in deal


def known(state) -> set[str]:
    """Every card seen so far in the hand: held, played, turned up, or to come from a known stock."""
    return stock_seen.known(state) | ({state.cut} if state.cut else set())


def decide_cards(state, data: Mapping, pack, hand: int, capixaba_cut_ok) -> Event:
    if "trump" in data or "trump_suit" in data:
        return _trump(state, data, pack, capixaba_cut_ok)
    return stock_seen.decide_draw(state, data, pack, hand, "bisca", known(state))


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
    return stock_seen.after_draw(state, d)
