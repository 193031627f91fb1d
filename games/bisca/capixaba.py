"""What Capixaba adds to Bisca's deal and play: the cutter may knock instead of cutting
(hearts are trumps, no card turned), a cut trump card is never an ace or a 7, and the 2 of
trumps may be swapped once for a cut trump card before the first card is played (the
game's one call). Its rela bonuses are scored with the hand (scoring.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.call_offers import accepted
from ..engine.cards import parse_card
from ..engine.contract import Offer
from ..engine.errors import Revealing, RuleViolation
from .rules import BiscaRules


def trump_of(rules: BiscaRules, raw: Mapping) -> tuple[str | None, str]:
    """The trump card a deal names and its suit; a knock (capixaba only) names hearts."""
    if raw.get("trump") is None:
        if rules.variant != "capixaba" or str(raw.get("trump_suit", "")).upper() != "H":
            raise RuleViolation(say("only capixaba plays without a trump card, by knocking for hearts: \"trump\": "
                                    "null, \"trump_suit\": \"H\""))
        return None, "H"
    if raw.get("trump_suit") is not None:
        raise RuleViolation(say("trump_suit goes with a knock (\"trump\": null); a cut trump card names its own suit"))
    trump = parse_card(raw["trump"])
    cut_allowed(rules, trump)
    return trump, trump[-1]


def cut_allowed(rules: BiscaRules, trump: str) -> None:
    if rules.variant == "capixaba" and trump[:-1] in ("A", "7"):
        raise RuleViolation(say("the cut trump card {trump} is an ace or a 7, which capixaba never leaves face up: "
                                "redeal",
                                trump=trump))


def decide_swap(state, data: Mapping) -> Event:
    if state.rules.variant != "capixaba" or str(data.get("call", "")).lower() != "swap-2":
        raise RuleViolation(say("the only call in bisca is capixaba's swap-2"))
    if state.tricks or state.current or state.swapped or state.trump_card is None:
        raise RuleViolation(say("the 2 of trumps may be swapped once, for a cut trump card, before the first card is "
                                "played"))
    seat, two = data.get("seat"), "2" + state.trump_suit
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}",
                                last=state.rules.players - 1))
    if two not in state.held[seat]:
        raise Revealing(say("seat {seat} does not hold {two}, the 2 of trumps", seat=seat, two=two), seat,
                        say("seat {seat} may not swap the 2 of trumps now", seat=seat))
    return Event("bid", {"seat": seat, "call": "swap-2", "gives": two, "takes": state.trump_card})


def after_swap(state, d: Mapping):
    held = tuple(tuple(d["takes"] if c == d["gives"] else c for c in h) if s == d["seat"] else h
                 for s, h in enumerate(state.held))
    return replace(state, held=held, trump_card=d["gives"], swapped=True)


def calls(state) -> list[str]:
    """Capixaba's one call: swapping the 2 of trumps for a cut trump card, before the first trick."""
    if state.rules.variant != "capixaba" or state.tricks or state.swapped or state.trump_card is None:
        return []
    return ["swap-2"]


def offers(decide, state, seat: int) -> list[Offer]:
    """Capixaba's swap, offered to the seat that holds the 2 of trumps while it may."""
    if not calls(state):
        return []
    two, card = "2" + state.trump_suit, state.trump_card
    swap = Offer({"call": "swap-2"}, say("Swap: you give your {two} for the trump card turned up, {card}",
                                         two=two, card=card))
    return accepted(decide, state, seat, [swap])


def instead_of_turning(state, seat: int) -> list[Offer]:
    """Capixaba's cutter may knock instead of cutting: hearts are trumps, no card turned."""
    if state.rules.variant != "capixaba":
        return []
    return [Offer({"trump": None, "trump_suit": "H"}, say("The cutter knocked: hearts are trumps"))]
