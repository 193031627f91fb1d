"""What the score sheet's and the cards' correction pages share: the fingerprint of what a
preview showed, the correction decided in a write that is rolled back (to show what it
would change), and the correction logged."""
from __future__ import annotations

import hashlib

from flask import url_for

from events.canonical import canonical_bytes
from .. import handlers
from ..commands import Correct
from ..http import store


class Preview(Exception):
    """Raised inside a write to roll it back after computing what it would record."""

    def __init__(self, outcome):
        super().__init__("preview")
        self.outcome = outcome


def fingerprint(body: dict) -> str:
    """Which result a preview showed, so that only that very result is logged on confirming."""
    return hashlib.sha256(canonical_bytes(body)).hexdigest()[:24]


def what_it_would_do(group: str, command: Correct) -> dict:
    """The correction decided inside a write that is then rolled back: its adjustments."""
    try:
        with store().writing(group) as w:
            raise Preview(handlers.handle(command, w).first("correction"))
    except Preview as done:
        return done.outcome


def corrected(w, group: str, hand: str, command: Correct) -> str:
    """Log the correction; the hand's page is where the browser goes next."""
    handlers.handle(command, w)
    return url_for("web.hand_page", group=group, hand=hand)
