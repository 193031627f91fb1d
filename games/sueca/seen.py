"""A Sueca hand dealt seat by seat: each seat's ten cards, and the trump card, as they are seen.

The deal names only its dealer. The dealer's member (or the admin) turns up the trump card,
one of the dealer's own, as ``{"trump": "6S"}``; from then on every reader sees it. Each
seat logs its ten cards as ``{"seat", "cards"}``, once, in any order. The dealer logs its
nine cards besides the trump card (before the trump card is up or after), or all ten with
it: then the trump card turned up must be one of them. Once the trump card is up, the
dealer's ``seat_cards`` event holds all ten, the trump card where the rules deal it (last or
first); logged before, its nine and the trump card give the deal again (a deal whole may
leave the trump card out of the dealer's hand). So either order suits a phone, which offers
the dealer, for the trump card and for its nine, only cards nobody has logged yet. Nothing
is played before every seat's cards and the trump card are logged.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Collection, Mapping

from events.sentences import say

from ..engine import seen
from ..engine.base import Event
from ..engine.cards import parse_card, parse_cards
from ..engine.errors import Revealing, RuleViolation

HAND = 10


def known(state) -> set[str]:
    """Every card seen so far in the hand: held, played, or turned up."""
    cards = {c for h in state.held for c in h} | {c for t in state.tricks for c in t.cards}
    cards |= {c for _, c in state.current}
    return cards | ({state.trump} if state.trump else set())


def decide_cards(state, data: Mapping, pack: Collection[str]) -> Event:
    """The trump card turned up, or a seat's ten cards."""
    if "trump" in data:
        return _turned(state, data, pack)
    seat = data.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.held) and state.logged[seat]:
        raise RuleViolation(say("seat {seat} has logged its cards already", seat=seat))
    if seat == state.dealer and not isinstance(seat, bool):
        return _dealers(state, data, pack)
    return Event("seat_cards", seen.seat_cards(data, len(state.held), HAND, pack, known(state), "sueca"))


def _dealers(state, data: Mapping, pack: Collection[str]) -> Event:
    """The dealer's cards: the nine besides the trump card, or all ten with it."""
    extra = sorted(set(data) - {"seat", "cards"})
    if extra:
        raise RuleViolation(say("a {game} seat's cards are {{\"seat\", \"cards\"}}, not {extra}",
                                game="sueca", extra=', '.join(extra)))
    seat, trump = state.dealer, state.trump
    cards = seen.of_the_pack(parse_cards(data.get("cards")), pack, "sueca")
    if trump is None:
        if len(cards) not in (HAND - 1, HAND):
            raise RuleViolation(say("seat {seat} deals: it logs its nine cards besides the trump card, or all ten with "
                                    "it", seat=seat))
        return Event("seat_cards", {"seat": seat, "cards": seen.not_seen_yet(cards, known(state))})
    others = [c for c in cards if c != trump]
    if len(others) != HAND - 1:
        raise RuleViolation(say("seat {seat} deals and holds the trump card {trump}: it logs the nine others, or all "
                                "ten", seat=seat, trump=trump))
    seen.not_seen_yet(others, known(state))
    if len(cards) < HAND:
        cards = [*others, trump] if state.rules.trump_card == "last" else [trump, *others]
    return Event("seat_cards", {"seat": seat, "cards": cards})


def _turned(state, data: Mapping, pack: Collection[str]) -> Event:
    """The trump card, turned up from the dealer's hand."""
    if state.trump is not None:
        raise RuleViolation(say("the trump card was turned already"))
    extra = sorted(set(data) - {"trump"})
    if extra:
        raise RuleViolation(say("the trump card is {{\"trump\": \"...\"}}, not {extra}", extra=', '.join(extra)))
    [card] = seen.of_the_pack([parse_card(data["trump"])], pack, "sueca")
    dealer = state.dealer
    if len(state.held[dealer]) == HAND:  # turned from the ten it logged
        if card not in state.held[dealer]:
            raise Revealing(say("{card} is not one of seat {seat}'s cards: the trump card is turned up from the "
                                "dealer's own hand", card=card, seat=dealer), dealer,
                            say("seat {seat} may not turn up {card} for trumps", seat=dealer, card=card))
        return Event("seat_cards", {"trump": card})
    return Event("seat_cards", {"trump": seen.not_seen_yet([card], known(state))[0]})


def after_cards(state, d: Mapping):
    """The hand once cards were seen: the trump card (in the dealer's hand from then on, if
    it is not among the ten the dealer logged), or a seat's cards."""
    if "trump" in d:
        card, dealer = d["trump"], state.dealer
        held = tuple(h + (card,) if s == dealer and card not in h else h for s, h in enumerate(state.held))
        return replace(state, held=held, trump=card)
    seat = d["seat"]
    held = tuple(tuple(d["cards"]) if s == seat else h for s, h in enumerate(state.held))
    logged = tuple(True if s == seat else known_ for s, known_ in enumerate(state.logged))
    return replace(state, held=held, logged=logged)


def waiting(state) -> str | None:
    """Why no card may be played yet, or None."""
    if state.result is not None:
        return None
    if state.trump is None:
        return say("the trump card is not logged yet")
    owing = [s for s, logged in enumerate(state.logged) if not logged]
    if owing:
        return say("seat(s) {owing} have not logged the cards they hold yet", owing=", ".join(map(str, owing)))
    return None


def owed(state) -> dict[str, int]:
    """The trump card not turned up yet, and the cards each seat owes: ten, the dealer the
    nine besides the trump card."""
    owes = {} if state.trump is not None or state.result is not None else {"trump": 1}
    for seat, logged in enumerate(state.logged):
        if not logged:
            owes[str(seat)] = HAND - 1 if seat == state.dealer else HAND
    return owes
