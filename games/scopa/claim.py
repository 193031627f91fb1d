"""Chiamarsi fuori: a side calls itself out, counting only the points it holds for certain
(scoring.certain_points); the settlement judges the claim true or false."""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine.base import Event
from ..engine.errors import RuleViolation
from . import scoring as scopa_scoring


def decide_claim(state, data: Mapping) -> Event:
    if not state.rules.claims:
        raise RuleViolation(say("this table plays without chiamarsi fuori"))
    extra = sorted(set(data) - {"seat"})
    if extra:
        raise RuleViolation(say("a claim has only seat, not {extra}", extra=', '.join(extra)))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}",
                                last=state.rules.players - 1))
    side = state.rules.side_of(seat)
    certain = scopa_scoring.certain_points(state, side)
    return Event("claim", {"seat": seat, "side": side, "certain": certain, "points": sum(certain.values())})
