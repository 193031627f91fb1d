"""What ``bitka demo`` plays at a Scopa table: a game for two, hand after hand until one
side reaches the target."""
from __future__ import annotations

from ..engine.autoplay import until_the_game_is_won
from ..engine.contract import DemoTable

TABLES = (DemoTable({}, "1.00", 2, until_the_game_is_won({})),)
