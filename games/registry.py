"""Which module plays which game (``table.game`` names one of these)."""
from __future__ import annotations

from types import ModuleType

from . import baska, bisca, kop, scopa

GAMES: dict[str, ModuleType] = {"kop": kop, "baska": baska, "scopa": scopa, "bisca": bisca}
PLANNED: tuple[str, ...] = ()  # games named in the product's plans but not scored yet


def game(name: str) -> ModuleType:
    return GAMES[name]
