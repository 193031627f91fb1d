"""The table's handler: a table opened for a game bitka knows, its rules parsed by the game,
its seats members of the group (each once, as many as the game is played by), its stake more
than zero."""
from __future__ import annotations

from typing import Mapping, Sequence

from events.errors import Invalid, RuleBroken, Unprocessable
from events.money import format_amount
from events.sentences import say
from events.store import NewEvent, Writer
from games.engine.errors import RuleViolation
from games.registry import GAMES

from .. import seating
from ..commands import OpenTable
from .lookups import group_row, new_id, parsed_amount


def open_table(c: OpenTable, w: Writer) -> dict:
    """The table's row once opened."""
    row, body = group_row(w, c.group), c.body
    name = body["game"]
    if name not in GAMES:
        scored = ", ".join(GAMES)
        raise Unprocessable(say("{name} is not a game bitka knows; it scores {scored}", name=repr(name), scored=scored))
    game = GAMES[name]
    raw_rules = body.get("rules")
    entry = "scorer"
    if isinstance(raw_rules, Mapping) and "entry" in raw_rules:  # a table rule, not the game's
        entry = raw_rules["entry"]
        if entry not in seating.ENTRIES:
            raise RuleBroken(say("entry is \"scorer\" (any member logs the cards) or \"seats\" (each seat its own), "
                                 "not {entry}",
                                 entry=repr(entry)), field="rules.entry")
        raw_rules = {k: v for k, v in raw_rules.items() if k != "entry"}
    seats = list(body["seats"])
    rules = _rules(game, game.seated_rules(raw_rules, len(seats)))  # rules that leave the seats' number unsaid
    _check_seats(row, name, seats, game.seat_count(rules), game.seating(rules, len(seats)))
    stake = parsed_amount(body["stake"], row["digits"], "stake")
    if stake <= 0:
        raise Invalid(say("the stake must be more than zero"), errors={"stake": [say("must be more than zero")]})
    table = new_id("t")
    data = {"table": table, "game": name, "rules": rules.to_data(), "seats": seats,
            "stake": format_amount(stake, row["digits"])}
    dealer = body.get("dealer", 0)
    if not 0 <= dealer < len(seats):
        raise RuleBroken(say("dealer must be a seat from 0 to {last}",
                             last=len(seats) - 1), field="dealer")
    if dealer:
        data["dealer"] = dealer  # who deals first: the deal passes round from there
    if entry != "scorer":
        data["entry"] = entry
    w.append(c.group, [NewEvent("table_opened", data, table=table)], c.actor, expected_version=w.version(c.group))
    return w.row("table", c.group, table)


def _rules(game, raw):
    try:
        return game.parse_rules(raw)
    except RuleViolation as e:
        raise RuleBroken(e.detail, field="rules") from None
    except TypeError:
        raise RuleBroken(say("rules must be an object of rule names and values"), field="rules") from None


def _check_seats(row: dict, name: str, seats: Sequence[str], count: int, refusal: str | None = None) -> None:
    known = {m["id"] for m in row["members"]}
    if len(seats) != count:
        raise Unprocessable(refusal or say("this {game} table is played by {count} players; {seats_count} seats were "
                                           "given",
                                           game=name, count=count, seats_count=len(seats)))
    for member in seats:
        if member not in known:
            raise Unprocessable(say("{member} is not a member of this group", member=repr(member)))
    if len(set(seats)) != len(seats):
        raise Unprocessable(say("a member may take only one seat at a table"))

