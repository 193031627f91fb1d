"""Which games bitka scores: ``table.game`` names one of these ``Game`` values.

A new game is its package in ``games/`` and its line here."""
from __future__ import annotations

from .baska import GAME as BASKA
from .bisca import GAME as BISCA
from .briscola import GAME as BRISCOLA
from .engine.contract import Game
from .kop import GAME as KOP
from .scopa import GAME as SCOPA
from .sueca import GAME as SUECA
from .tressette import GAME as TRESSETTE

GAMES: dict[str, Game] = {game.name: game for game in (KOP, BASKA, SCOPA, BISCA, SUECA, BRISCOLA, TRESSETTE)}


def game(name: str) -> Game:
    return GAMES[name]
