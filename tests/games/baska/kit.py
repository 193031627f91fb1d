"""Baśka's way into the shared test builders: a hand starts with a rule set's name."""
from __future__ import annotations

from games.baska import game as baska

from tests.games.kop.kit import bid, deal, scored, settle, trick  # noqa: F401 - the Baśka tests use them as they are
from tests.games.kop.kit import start as _start


def start(hands, dealer: int = 0, variant: str = "bytow-2005", calls=()):
    return _start(hands, dealer, {"variant": variant}, calls, module=baska)
