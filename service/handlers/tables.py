"""The table's handler: a table opened for a game bitka knows, its rules parsed by the game,
its seats members of the group (each once, as many as the game is played by), its stake more
than zero."""
from __future__ import annotations

from typing import Sequence

from events.errors import RuleBroken, Unprocessable
from events.sentences import say
from events.store import NewEvent, Writer

from ..commands import OpenTable
from .lookups import group_row, known_game, new_id, stake_of, table_rules


def open_table(c: OpenTable, w: Writer) -> dict:
    """The table's row once opened."""
    row, body = group_row(w, c.group), c.body
    name = body["game"]
    game = known_game(name)
    seats = list(body["seats"])
    rules, entry = table_rules(game, body.get("rules"), len(seats))  # rules that leave the seats' number unsaid
    _check_seats(row, name, seats, game.seat_count(rules), game.seating(rules, len(seats)))
    table = new_id("t")
    data = {"table": table, "game": name, "rules": rules.to_data(), "seats": seats,
            "stake": stake_of(body["stake"], row["digits"])}
    dealer = body.get("dealer", 0)
    if not 0 <= dealer < len(seats):
        raise RuleBroken(say("dealer must be a seat from 0 to {last:d}",
                             last=len(seats) - 1), field="dealer")
    if dealer:
        data["dealer"] = dealer  # who deals first: the deal passes round from there
    if entry != "scorer":
        data["entry"] = entry
    w.append(c.group, [NewEvent("table_opened", data, table=table)], c.actor, expected_version=w.version(c.group))
    return w.row("table", c.group, table)


def _check_seats(row: dict, name: str, seats: Sequence[str], count: int, refusal: str | None = None) -> None:
    known = {m["id"] for m in row["members"]}
    if len(seats) != count:
        raise Unprocessable(refusal or say("this {game} table is played by {count:d} players; {seats_count:d} seats "
                                           "were given",
                                           game=name, count=count, seats_count=len(seats)))
    for member in seats:
        if member not in known:
            raise Unprocessable(say("{member} is not a member of this group", member=repr(member)))
    if len(set(seats)) != len(seats):
        raise Unprocessable(say("a member may take only one seat at a table"))

