"""Which module plays which game (``table.game`` names one of these)."""
from __future__ import annotations

from types import ModuleType

from . import kop

GAMES: dict[str, ModuleType] = {"kop": kop}
SEATS: dict[str, tuple[int, ...]] = {"kop": (4,)}
PLANNED = ("baska", "scopa", "bisca")


def game(name: str) -> ModuleType:
    return GAMES[name]
