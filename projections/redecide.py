"""Deciding a hand's events again: each deal, result, call, trick, play and claim of the log
is put to the game as the command that made it, and the game must answer with that very
event. Recomputed hashes cannot hide a trick whose winner was changed, a card nobody held,
or a result no hand could give: the game's own ``decide`` refuses them.
"""
from __future__ import annotations

from typing import Mapping

from games import table as table_decider
from games.base import Command
from games.errors import Incomplete, RuleViolation

COMMAND_FIELDS = {"bid": ("seat", "call", "jack"), "trick": ("cards",), "play": ("card", "capture"),
                  "claim": ("seat",)}
RECORDED_BY_THE_TABLE = ("game", "rules", "match_before")  # what a deal carries beside the dealt cards


def refused(game, state, env) -> str | None:
    """Why the game would not append ``env`` to the hand in ``state`` (None when it would)."""
    command = Command(env.type, {k: env.data[k] for k in COMMAND_FIELDS[env.type] if k in env.data})
    try:
        if game.is_terminal(state):
            return f"the hand was already over when this {env.type} was logged"
        events = game.decide(state, command)
    except (RuleViolation, Incomplete) as e:
        return e.detail
    if [(e.type, dict(e.data)) for e in events] != [(env.type, dict(env.data))]:
        return f"the {env.type} recorded is not the one its own cards make"
    return None


def start_refused(game, env, table: Mapping | None) -> str | None:
    """Why the game would not open the hand a ``deal`` or ``result`` event opens: its cards
    or its result, its rules (the table's), and what it records from the table."""
    d = env.data
    if table is None:
        return "the hand's table was never opened"
    rules = game.parse_rules(d["rules"])
    if rules != game.parse_rules(table["rules"]):
        return "the hand's rules are not its table's"
    context = table_decider.deal_context(game, rules, table["match"])
    if any(d.get(k) != v for k, v in context.items()):
        return "what the hand records from its table (the match score) is not what the table held"
    try:
        if env.type == "result":
            made = game.parse_result(rules, d["dealer"], d["result"]).data
            same = made["result"] == d["result"]
        else:
            dealt = {k: v for k, v in d.items() if k not in RECORDED_BY_THE_TABLE}
            made = game.parse_deal(rules, dealt).data
            same = made == dealt
    except (RuleViolation, Incomplete) as e:
        return e.detail
    return None if same else f"the {env.type} recorded is not the one its own cards make"
