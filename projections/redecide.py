"""Deciding a hand's events again: each deal, result, call, trick, play and claim of the log
is put to the game as the command that made it, and the game must answer with that very
event. Recomputed hashes cannot hide a trick whose winner was changed, a card nobody held,
or a result no hand could give: the game's own ``decide`` refuses them.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from games.engine import table as table_decider
from games.engine.base import Command, Event
from games.engine.errors import Incomplete, Malformed, RuleViolation
from games.engine.seen import names_a_card
from games.registry import GAMES
from .hands import parsed_rules

# The command each hand event is the answer to, the fields every game sends it with, and the
# part of the game that names the fields it adds.
COMMANDS = {"seat_cards": ("cards", ("seat", "cards"), "seen_fields"),
            "bid": ("bid", ("seat", "call"), "call_fields"), "trick": ("trick", ("cards",), None),
            "play": ("play", ("seat", "card"), "play_fields"), "claim": ("claim", ("seat",), None)}


def fields_of(game, event_type: str) -> tuple[str, ...]:
    """The fields of the command behind an event of ``event_type`` in ``game``."""
    _, common, added = COMMANDS[event_type]
    return (*common, *(f.name for f in getattr(game.forms, added))) if added else common


def every_field(event_type: str) -> tuple[str, ...]:
    """The fields of the command behind an event of ``event_type``, in any game."""
    return tuple(dict.fromkeys(name for game in GAMES.values() for name in fields_of(game, event_type)))


def command_of(game, event_type: str, data: Mapping) -> Command:
    """The command the game answered with an event of ``event_type`` and ``data``."""
    return Command(COMMANDS[event_type][0], {k: data[k] for k in fields_of(game, event_type) if k in data})
RECORDED_BY_THE_TABLE = ("game", "rules", "match_before")  # what a deal carries beside the dealt cards
SALT = re.compile(r"[0-9a-f]{32}")  # what the service adds to an event that names hidden cards


def unsalted(data: Mapping) -> tuple[dict | None, str | None]:
    """An event's data without its salt, or why its salt is not one (16 bytes in hex)."""
    if "salt" not in data:
        return dict(data), None
    salt = data["salt"]
    if not isinstance(salt, str) or not SALT.fullmatch(salt):
        return None, "the event's salt is not 16 random bytes in lowercase hex"
    return {k: v for k, v in data.items() if k != "salt"}, None


def refused(game, state, env, owed: Sequence[Event] = ()) -> tuple[str | None, tuple[Event, ...]]:
    """Why the game would not append ``env`` to the hand in ``state`` (None when it would),
    and the events the same decision made after it, which must follow it (a card that ends
    a trick makes the trick too). ``owed``: those still due from the decision before."""
    data, why = unsalted(env.data)
    if why:
        return why, ()
    if owed:
        if (owed[0].type, dict(owed[0].data)) != (env.type, data):
            return (f"the {owed[0].type} that the event before makes is not the one recorded here"
                    if owed[0].type == env.type else f"the event before makes a {owed[0].type}, not a {env.type}"), ()
        return None, tuple(owed[1:])
    command = command_of(game, env.type, data)
    try:
        if game.is_terminal(state):
            return f"the hand was already over when this {env.type} was logged", ()
        events = game.decide(state, command)
    except (RuleViolation, Incomplete, Malformed) as e:
        return e.detail, ()
    if not events or (events[0].type, dict(events[0].data)) != (env.type, data):
        return f"the {env.type} recorded is not the one its own cards make", ()
    return None, tuple(events[1:])


def start_refused(game, env, table: Mapping | None) -> str | None:
    """Why the game would not open the hand a ``deal`` or ``result`` event opens: its cards
    or its result, its rules (the table's), and what it records from the table."""
    d = env.data
    if table is None:
        return "the hand's table was never opened"
    rules = parsed_rules(d["game"], d["rules"])  # parsed once per distinct set: replay opens every hand
    if rules != parsed_rules(table["game"], table["rules"]):
        return "the hand's rules are not its table's"
    context = table_decider.deal_context(game, rules, table["match"])
    if any(d.get(k) != v for k, v in context.items()):
        return "what the hand records from its table (the match score) is not what the table held"
    try:
        if env.type == "result":
            made = game.parse_result(rules, d["dealer"], d["result"]).data
            same = made["result"] == d["result"]
        else:
            dealt, why = unsalted({k: v for k, v in d.items() if k not in RECORDED_BY_THE_TABLE})
            if why:
                return why
            # dealt seat by seat: the dealer alone
            sent = dealt if names_a_card(dealt) else {"dealer": dealt.get("dealer")}
            made = game.parse_deal(rules, sent).data
            same = made == dealt
    except (RuleViolation, Incomplete, Malformed) as e:
        return e.detail
    return None if same else f"the {env.type} recorded is not the one its own cards make"
