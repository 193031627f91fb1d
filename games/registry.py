"""Which module plays which game (``table.game`` names one of these)."""
from __future__ import annotations

from types import ModuleType

from . import baska, kop

GAMES: dict[str, ModuleType] = {"kop": kop, "baska": baska}
SEATS: dict[str, tuple[int, ...]] = {"kop": (4,), "baska": (4,)}
PLANNED = ("scopa", "bisca")


def game(name: str) -> ModuleType:
    return GAMES[name]
