"""What ``bitka demo`` plays at Bisca tables: a de Nove match played to its end, and a
Capixaba hand in which a rela is scored."""
from __future__ import annotations

import random
from typing import Mapping

from ..engine.autoplay import dealt_at_random, play_through, until_the_game_is_won
from ..engine.contract import DemoTable, Game


def with_a_rela(game: Game, chance: random.Random, number: int, last: Mapping | None) -> dict | None:
    """One Capixaba hand, dealt until the first legal cards make a rela."""
    if number:
        return None
    rules = game.parse_rules({"variant": "capixaba"})
    while True:
        deal = dealt_at_random(game, rules, chance, 0)
        state = game.initial_state(rules, {**game.parse_deal(rules, deal).data, "match_before": [0, 0]})
        state, tricks = play_through(game, state)
        if any(b["name"].startswith("rela") for t in state.tricks for b in t.bonuses):
            return {"deal": deal, "tricks": [dict(t.data) for t in tricks]}


TABLES = (DemoTable({"variant": "nove"}, "1.00", 2, until_the_game_is_won({"variant": "nove"})),
          DemoTable({"variant": "capixaba"}, "0.50", 4, with_a_rela))
