"""Each game's rules, deal and result as OpenAPI schemas, built from what the game declares
(games/engine/contract.py: its rules' defaults and ``rule_fields``, its ``deal_fields``, its
``result_fields``), so that a registered game brings its own schemas into the document.

A request names the table, not the game, so a deal or a result is ``anyOf`` the games'
forms (two games' deals may be alike: more than one may fit). A table's or a hand's
``rules`` as the service gives them hold every rule of their game and nothing else, so
they are ``oneOf`` the games' ``Rules``: exactly one fits.
"""
from __future__ import annotations

import itertools
import unicodedata
from dataclasses import replace
from typing import Any

from games.engine.contract import Game, ResultField, RuleField
from games.engine.errors import RuleViolation
from games.registry import GAMES

ENTRY = {"type": "string", "enum": ["scorer", "seats"], "default": "scorer", "description": (
    "a rule of the table, not the game's: who logs the cards, \"scorer\" (any member, whole deals and tricks) or "
    "\"seats\" (each seat its own cards, bids, plays and claims); shown only when it is \"seats\"")}
CARD = {"type": "string", "maxLength": 8, "description": "rank then suit, e.g. \"10H\"", "example": "QC"}
CARDS = {"type": "array", "items": CARD, "maxItems": 52}
SEAT = {"type": "integer", "minimum": 0, "maximum": 7}
KINDS = {  # what a request says in each, and whether exactly one game's form fits it
    "RulesIn": ("anyOf", "the rules a table is opened with; omitted rules take their defaults"),
    "Rules": ("oneOf", "the table's rules, every one of its game's"),
    "Deal": ("anyOf", "the deal, in the form of the table's game"),
    "Result": ("anyOf", "a hand's result alone, in the form of the table's game"),
}


def component(game: Game, kind: str) -> str:
    """The component name of a game's schema: ``KopRules``, ``BaskaDeal``..."""
    plain = unicodedata.normalize("NFKD", game.name).encode("ascii", "ignore").decode()
    return plain.title().replace("-", "").replace("_", "") + kind


def either(kind: str) -> dict:
    """The property or schema that is one of the registered games' ``kind`` schemas."""
    how, said = KINDS[kind]
    return {how: [{"$ref": f"#/components/schemas/{component(g, kind)}"} for g in GAMES.values()],
            "description": f"{said}: " + "; ".join(f"{component(g, kind)} for {g.name}" for g in GAMES.values())}


def components() -> dict[str, dict]:
    """Every registered game's rules (as sent, as shown), deal and result schemas, by name."""
    made = {}
    for game in GAMES.values():
        made[component(game, "RulesIn")] = rules_schema(game, shown=False)
        made[component(game, "Rules")] = rules_schema(game, shown=True)
        made[component(game, "Deal")] = deal_schema(game)
        made[component(game, "Result")] = result_schema(game)
    return made


# Rules


def rules_schema(game: Game, shown: bool) -> dict:
    """A game's rules: as a client sends them (every one optional, with its default) or as the
    service shows a table's or hand's (every one present)."""
    defaults = game.parse_rules({}).to_data()
    described = {f.name: f for f in game.forms.rule_fields}
    properties = {name: _rule(value, described.get(name), shown) for name, value in defaults.items()}
    for rules in rule_sets(game):  # a rule shown only when it is not its default (a table's seats)
        for name, value in rules.to_data().items():
            properties.setdefault(name, _rule(value, described.get(name), shown=True))
    properties["entry"] = ENTRY if not shown else {k: v for k, v in ENTRY.items() if k != "default"}
    schema = {"type": "object", "properties": properties, "additionalProperties": False,
              "description": f"{game.title} rules" + ("" if shown else "; omitted rules take their defaults")}
    if shown and defaults:
        schema["required"] = list(defaults)
    return schema


def _rule(default: Any, said: RuleField | None, shown: bool) -> dict:
    kind = {bool: "boolean", int: "integer", str: "string"}.get(type(default))
    if kind is None:  # null by default: a number when it has a range
        kind = "integer" if said is not None and (said.low is not None or said.high is not None) else "string"
    prop: dict = {"type": kind}
    if said is not None:
        prop["description"] = said.doc
        if said.options and kind != "boolean":
            prop["enum"] = [*said.options, *([None] if said.nullable else [])]
        if said.low is not None:
            prop["minimum"] = said.low
        if said.high is not None:
            prop["maximum"] = said.high
        if said.nullable:
            prop["nullable"] = True
    if not shown:
        prop["default"] = default
    return prop


def rule_sets(game: Game) -> list:
    """Every rules object a table of the game can have, as far as its declared choices go: the
    defaults, its presets, and each combination of the choices its ``rule_fields`` list (ranges
    are left at their defaults). The result form and the seats depend on the rules."""
    choices = {f.name: f.options for f in game.forms.rule_fields if f.options}
    raws = [{}, *(dict(p.rules) for p in game.words.presets)]
    raws += [dict(zip(choices, combo, strict=True)) for combo in itertools.product(*choices.values())]
    sets = []
    for raw in raws:
        try:
            rules = game.parse_rules(raw)
        except RuleViolation:  # a combination the game refuses (a deal for four at a table of two)
            continue
        if rules not in sets:
            sets.append(rules)
    return sets


# Deals


def deal_schema(game: Game) -> dict:
    """The deal a hand is opened with, from the game's ``deal_fields``."""
    properties = {f.name: {**_DEALT[f.kind], "description": f.doc} for f in game.forms.deal_fields}
    required = [f.name for f in game.forms.deal_fields if f.required]
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False, "description": (
                f"A {game.title} deal. With the dealer alone, the hand is dealt seat by seat: each seat's cards "
                "come later (POST .../hands/{hand}/cards).")}


_DEALT = {
    "seat": SEAT,
    "hands": {"type": "array", "items": CARDS, "minItems": 1, "maxItems": 8},
    "cards": CARDS,
    "card": {**CARD, "nullable": True},
    "suit": {"type": "string", "maxLength": 2, "example": "H"},
}


# Results


def result_schema(game: Game) -> dict:
    """A hand logged by its result alone, from the game's ``result_fields`` under every rules
    it can be played by: a field some rules ask for is a property; one every rules ask for,
    always, is required (the others are required where they apply: a 400 names one missing)."""
    sets = rule_sets(game)
    seats = max(game.seat_count(r) for r in sets)
    sides = [len(game.table.sides(r)) or game.seat_count(r) for r in sets]
    asked = [game.forms.result_fields(r) for r in sets]
    widest: dict[str, ResultField] = {}
    for fields in asked:
        for f in fields:
            widest[f.name] = _widened(widest[f.name], f) if f.name in widest else f
    properties = {name: _result(f, seats, min(sides), max(sides)) for name, f in widest.items()}
    required = [name for name in properties
                if all(any(f.name == name and f.when is None for f in fields) for fields in asked)]
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False, "description": (
                f"A {game.title} hand logged by its result alone. Every field that applies to the hand is required "
                "(null is how a tie is said); a result no hand could give is a 422.")}


def _result(f: ResultField, seats: int, fewest: int, most: int) -> dict:
    seat = {"type": "integer", "minimum": 0, "maximum": seats - 1}
    match f.kind:
        case "choice":
            values = [o[0] if isinstance(o, tuple) else o for o in f.options]
            said = ", ".join(f"{o[0]}: {o[1]}" for o in f.options if isinstance(o, tuple))
            return {"type": "string", "enum": values, "description": f"{f.label} ({said})" if said else f.label}
        case "seat":
            return {**seat, "description": f.label}
        case "seats":
            return {"type": "array", "items": seat, "minItems": f.count, "maxItems": f.count, "description": f.label}
        case "doubles":
            return {"type": "array", "items": seat, "maxItems": 64, "description": (
                f"{f.label}: the seat of each double, in order (each the next of {', '.join(map(str, f.options))})")}
        case "number":
            return {"type": "integer", "minimum": f.low, "maximum": f.high, "description": f.label}
        case "side":
            prop = {"type": "integer", "minimum": 0, "maximum": most - 1,
                    "description": f"{f.label}: a seat, or with teams the team (0 or 1)"}
            return {**prop, "nullable": True, "description": prop["description"] + "; null: a tie"} if f.tie else prop
        case "per-side":
            return {"type": "array", "items": {"type": "integer", "minimum": f.low, "maximum": f.high},
                    "minItems": fewest, "maxItems": most, "description": f"{f.label}: one number per side"}
    raise ValueError(f"no result field of kind {f.kind!r}")


def _widened(known: ResultField, other: ResultField) -> ResultField:
    """One field that some rules ask differently (a contract only some rules have, a wider
    range): every value any of them takes."""
    return replace(known, options=known.options + tuple(o for o in other.options if o not in known.options),
                   low=min(known.low, other.low), high=max(known.high, other.high), tie=known.tie or other.tie,
                   count=max(known.count, other.count))
