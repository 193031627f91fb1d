"""Which module plays which game (``table.game`` names one of these)."""
from __future__ import annotations

from types import ModuleType

from . import baska, kop, scopa

GAMES: dict[str, ModuleType] = {"kop": kop, "baska": baska, "scopa": scopa}
PLANNED = ("bisca",)


def game(name: str) -> ModuleType:
    return GAMES[name]
