"""A Briscola hand dealt seat by seat, on the core's stock dealt seat by seat
(``trick_game.stock_seen``): the deal names only its dealer; the dealer's member turns the
briscola, ``{"trump": "5C"}`` (this module); each seat logs its first three cards, and
after each trick the one card it draws, the winner first, the last to draw taking the
briscola (the core's).
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
from .rules import HAND, PACK

waiting = stock_seen.waiting


def is_opened_empty(deal: Mapping) -> bool:
    return not any(deal["hands"]) and not deal["stock"] and deal.get("trump") is None


def starting(state):
    """A hand dealt seat by seat, as its deal leaves it: the briscola not turned yet, every
    seat owing its first three cards, the rest to draw."""
    return stock_seen.starting(state, len(PACK), HAND)


def decide_cards(state, data: Mapping) -> Event:
    if "trump" in data:
        return _briscola(state, data)
    return stock_seen.decide_draw(state, data, PACK, HAND, state.rules.game, stock_seen.known(state))


def _briscola(state, data: Mapping) -> Event:
    if state.trump_seen:
        raise RuleViolation(say("the trump card was turned already"))
    extra = sorted(set(data) - {"trump"})
    if extra:
        raise RuleViolation(say("the trump card is {{\"trump\": \"...\"}}, not {extra}", extra=", ".join(extra)))
    [card] = seen.of_the_pack([parse_card(data["trump"])], PACK, state.rules.game)
    return Event("seat_cards", {"trump": seen.not_seen_yet([card], stock_seen.known(state))[0]})


def after_cards(state, d: Mapping):
    """The hand once cards were seen: the briscola turned, or a seat's (its first, or a draw)."""
    if "trump" in d:
        card = d["trump"]
        return replace(state, trump_card=card, cut=card, trump_suit=card[-1], trump_seen=True)
    return stock_seen.after_draw(state, d)
