"""The calls a seat may make now, as its phone offers them: one ``Offer`` per call, each
saying what it does to the one who would make it, and only those the game's own ``decide``
accepts from that seat at this moment (so a phone never offers a call it would refuse)."""
from __future__ import annotations

from typing import Callable, Iterable

from .base import Command
from .contract import Offer
from .errors import RuleViolation


def accepted(decide: Callable, state, seat: int, offers: Iterable[Offer]) -> list[Offer]:
    """The offers ``decide`` takes from ``seat`` now, in the order given."""
    kept = []
    for offer in offers:
        try:
            decide(state, Command("bid", {"seat": seat, **offer.body}))
        except RuleViolation:
            continue
        kept.append(offer)
    return kept
