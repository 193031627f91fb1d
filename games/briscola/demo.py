"""What ``bitka demo`` plays at Briscola tables: a match for two, and a match of two pairs
paid when it is won, each played to its end."""
from __future__ import annotations

from ..engine.autoplay import until_the_game_is_won
from ..engine.contract import DemoTable

TABLES = (DemoTable({}, "1.00", 2, until_the_game_is_won({})),
          DemoTable({"players": 4, "stake_per": "match"}, "0.50", 4,
                    until_the_game_is_won({"players": 4, "stake_per": "match"})))
