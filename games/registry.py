"""Which games bitka scores: ``table.game`` names one of these ``Game`` values."""
from __future__ import annotations

from .contract import Game

GAMES: dict[str, Game] = {}
PLANNED: tuple[str, ...] = ()  # games named in the product's plans but not scored yet


def register(game: Game) -> Game:
    """Make a game available to tables (a fifth game: its folder in games/, and this call)."""
    GAMES[game.name] = game
    return game


def game(name: str) -> Game:
    return GAMES[name]


def _register_the_games() -> None:
    from . import baska, bisca, kop, scopa
    for module in (kop, baska, scopa, bisca):
        register(module.GAME)


_register_the_games()
