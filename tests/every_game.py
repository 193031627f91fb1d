"""What the tests about every game take their games from: every entry of ``GAMES`` and each
of its presets, by construction, so that a game registered tomorrow is in each of them
without a line here. What a test needs to know of a game (how to deal it, play it, score
it) it asks the game's ``Game`` value, never a table of games of its own.

``tests/unit/test_every_game_is_tested.py`` registers a made-up game and checks that it
shows up in every test that is about every game."""
from __future__ import annotations

import random
from typing import Any, Mapping

import pytest

from games.engine.autoplay import dealt_at_random, play_through
from games.engine.base import Command
from games.engine.errors import RuleViolation
from games.engine.table import deal_context
from games.registry import GAMES


def presets() -> list:
    """``(name, preset)`` for each preset of each registered game, its id ``name-i``."""
    return [pytest.param(name, i, id=f"{name}-{i}") for name, game in GAMES.items()
            for i in range(len(game.words.presets))]


def uncovered(name: str) -> list[dict]:
    """Rules that reach what no preset of the game plays: each value of a rule with options
    (``Game.forms.rule_fields``) that no preset takes, added to the first preset that accepts it,
    as few tables as take them all (in order, each added where the rules so far accept it)."""
    game = GAMES[name]
    taken = [game.parse_rules(p.rules) for p in game.words.presets]
    wanted = [(f.name, o) for f in game.forms.rule_fields for o in f.options
              if all(getattr(rules, f.name, None) != o for rules in taken)]
    tables: list[tuple[dict, dict]] = []  # (a preset's rules, the values added to them)
    for rule, value in wanted:
        tried = [(i, base, {**added, rule: value}) for i, (base, added) in enumerate(tables) if rule not in added]
        tried += [(len(tables), dict(p.rules), {rule: value}) for p in game.words.presets]
        for i, base, added in tried:
            try:
                game.parse_rules({**base, **added})
            except RuleViolation:
                continue
            tables[i:i + 1] = [(base, added)]
            break
    return [{**base, **added} for base, added in tables]


def random_calls(game, state, chance: random.Random, most: int = 3) -> tuple[Any, list[Command]]:
    """Up to ``most`` calls before the first card, each one a seat's phone offers it then
    (``Game.moves.offers``), 'pass' left out: the state after them and the calls."""
    seats, made = len(game.moves.held(state)), []
    for _ in range(chance.randrange(most + 1)):
        seat = chance.randrange(seats)
        offers = [o for o in game.moves.offers(state, seat) if o.body.get("call") != "pass"]
        if not offers:
            continue
        command = Command("bid", {"seat": seat, **chance.choice(offers).body})
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        made.append(command)
    return state, made


def random_sheet(game, rules, chance: random.Random, dealer: int, match: Mapping | None = None) -> dict:
    """The score sheet (``Game.forms.sheet``: a result the API takes) of a random legal hand: a
    shuffled deal the rules accept, a few of the calls the phones offer, then each card (or
    play) at random among the legal ones. A hand that ends with cards still held (a bonus
    that ends the match) has no sheet the rules take alone: another is played."""
    for _ in range(100):
        deal = dealt_at_random(game, rules, chance, dealer)
        data = {**game.parse_deal(rules, deal).data, **deal_context(game, rules, match)}
        state, _ = random_calls(game, game.initial_state(rules, data), chance)
        state, _ = play_through(game, state, chance.choice)
        try:
            sheet = dict(game.forms.sheet(state))
            game.parse_result(rules, dealer, sheet)  # a whole hand's: one the rules take alone
        except RuleViolation:
            continue
        return sheet
    raise AssertionError(f"{game.name}: no random hand of 100 has a score sheet")
