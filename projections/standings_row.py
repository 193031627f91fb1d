"""A tournament's standings kept in rows of their own (projection ``standings``), so that
logging a hand moves them at a cost that does not grow with the hands or rounds played, and
reading them costs the rows of the answer itself.

Two kinds of row, under one name:

- the totals (key: the tournament's id)::

      {"players": [best first: {"member", "place", "points", "small", "first_places"}],
       "finished": [the rounds whose tables have all played the round's deals]}

- each round drawn (key: ``"{tournament}/{round}"``)::

      {"tables": {table id: hands played there},
       "placed": {member: [table, small, place, points]}}   (players whose table has played)

The projector moves them each time one of the tournament's tables' small points change
(``update``: that table placed again, its players' totals moved by the difference, everyone
ranked again); replay, and a store that has no rows yet, make them from all the tables at
once (``build``). Both give what projections/standings.py's ``tournament`` ranks from the same
tables (tests/unit/test_standings_row.py). Table points are kept exact, as a fraction's text
("9/2", "8/3", "5"); small points are whole minor units (or points). Pure: rows in, rows out.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Iterable, Mapping, NamedTuple

from . import standings as rank
from . import tournaments as fold

NAME = "standings"
TABLE, SMALL, PLACE, POINTS = range(4)  # a player's place in a round: [table, small, place, points]


class Kept(NamedTuple):
    """A tournament's standings rows: the totals, and each round's places by round number."""
    totals: dict
    rounds: dict[int, dict]


def round_key(tournament: str, number: int) -> str:
    return f"{tournament}/{number}"


def is_round_key(key: str) -> bool:
    """Whether ``key`` names a round's row (not a tournament's totals)."""
    return "/" in key


def keys(tournament: Mapping) -> list[str]:
    """The keys of every row the tournament's standings have once its rounds are drawn."""
    return [tournament["id"], *(round_key(tournament["id"], d["round"]) for d in tournament["drawn_rounds"])]


def empty(tournament: Mapping) -> dict:
    """The totals before any table played: every player level, all sharing first place."""
    return {"players": [{"member": m, "place": 1, "points": "0", "small": 0, "first_places": 0}
                        for m in tournament["players"]], "finished": []}


def empty_round() -> dict:
    return {"tables": {}, "placed": {}}


def update(kept: Kept, tournament: Mapping, table: str, number: int, score: Mapping | None) -> Kept:
    """The rows with table ``table`` of round ``number`` at its new ``score`` (its table_score row).
    Of the rounds' rows, only round ``number``'s is read (``kept.rounds`` may hold only it)."""
    played, small = fold.played(score), fold.small(score)
    now = rank.placed(rank.Table(number, table, small), tournament["places"]) if played else {}
    before = kept.rounds.get(number) or empty_round()
    placed, moves = dict(before["placed"]), {}
    players = {p["member"]: p for p in kept.totals["players"]}
    for member in small:
        if member not in players:
            continue  # not the tournament's: its standings never count them
        at = now.get(member)
        new = [table, at.small, at.place, str(at.points)] if at is not None else None
        old = placed.pop(member, None)
        if new is not None:
            placed[member] = new
        if new != old:
            moves[member] = (old, new)
    tables = {**before["tables"], table: played}
    finished = set(kept.totals["finished"]) - {number}
    if _all_played(tournament, number, tables):
        finished.add(number)
    for member, (old, new) in moves.items():
        players[member] = _moved(players[member], old, new)
    totals = {"players": _ranked(tournament["players"], players) if moves else kept.totals["players"],
              "finished": sorted(finished)}
    return Kept(totals, {**kept.rounds, number: {"tables": tables, "placed": placed}})


def build(tournament: Mapping, scores: Mapping[str, Mapping | None]) -> Kept:
    """The rows from every table the tournament's draws opened (``scores``: each one's
    table_score row by table id, None where it has none)."""
    kept = Kept(empty(tournament), {})
    for number, table in tables_drawn(tournament):
        kept = update(kept, tournament, table, number, scores.get(table))
    return kept


def as_rows(tournament: Mapping, kept: Kept) -> dict[str, dict]:
    """The rows by key, as the store keeps them."""
    return {tournament["id"]: kept.totals, **{round_key(tournament["id"], n): r for n, r in kept.rounds.items()}}


def from_rows(tournament: Mapping, rows: Mapping[str, dict]) -> Kept | None:
    """The rows the store keeps (by key) as Kept; None if it has no totals for the tournament."""
    totals = rows.get(tournament["id"])
    if totals is None:
        return None
    rounds = {d["round"]: rows.get(round_key(tournament["id"], d["round"])) or empty_round()
              for d in tournament["drawn_rounds"]}
    return Kept(totals, rounds)


def tables_drawn(tournament: Mapping) -> Iterable[tuple[int, str]]:
    """(round, table id) of every table the tournament's draws opened, in the draws' order."""
    return ((d["round"], t["id"]) for d in tournament["drawn_rounds"] for t in d["tables"])


def rounds_played(kept: Kept) -> int:
    """The rounds drawn whose tables have all played the round's deals."""
    return len(kept.totals["finished"])


def places_of(kept: Kept, member: str) -> list[tuple[int, list]]:
    """(round, [table, small, place, points]) of each round the member's table has played."""
    return [(number, r["placed"][member]) for number, r in sorted(kept.rounds.items()) if member in r["placed"]]


def standings(kept: Kept, only_played: bool = False) -> list[rank.Standing]:
    """The rows as projections/standings.py's standings (best first); ``only_played``, only the
    players whose table has played a round, which is all a season's ranking reads (a
    tournament of 1,000 players not yet played gives none)."""
    rounds = [(number, r["placed"]) for number, r in sorted(kept.rounds.items())]
    playing = set().union(*(placed for _number, placed in rounds)) if only_played else None
    return [rank.Standing(p["member"], exact(p["points"]), p["small"], p["first_places"], p["place"],
                          [rank.Placed(number, at[TABLE], at[SMALL], at[PLACE], exact(at[POINTS]))
                           for number, placed in rounds if (at := placed.get(p["member"])) is not None])
            for p in kept.totals["players"] if playing is None or p["member"] in playing]


@lru_cache(maxsize=4096)  # a tournament's players share a few hundred distinct totals at most
def exact(points: str) -> Fraction:
    """Table points as the rows keep them ("9/2")."""
    return Fraction(points)


def _all_played(tournament: Mapping, number: int, tables: Mapping[str, int]) -> bool:
    drawn = tournament["drawn_rounds"]
    return 1 <= number <= len(drawn) and all(tables.get(t["id"], 0) >= tournament["deals"]
                                             for t in drawn[number - 1]["tables"])


def _moved(player: dict, old: list | None, new: list | None) -> dict:
    """A player's totals with one place of theirs changed from ``old`` to ``new``."""
    points, small, firsts = exact(player["points"]), player["small"], player["first_places"]
    for at, sign in ((old, -1), (new, 1)):
        if at is not None:
            points += sign * exact(at[POINTS])
            small += sign * at[SMALL]
            firsts += sign * (at[PLACE] == 1)
    return {**player, "points": str(points), "small": small, "first_places": firsts}


def _ranked(order: Iterable[str], players: Mapping[str, dict]) -> list[dict]:
    """The players best first, each with its place; level players keep the tournament's order
    of its players, as projections/standings.py ranks them. Points are compared as whole
    numbers over their common denominator: exact, and cheap to sort."""
    listed = [players[m] for m in order]
    points = [exact(p["points"]) for p in listed]
    common = lcm(*(f.denominator for f in points))
    keyed = [(rank.order_key(f.numerator * (common // f.denominator), p["small"], p["first_places"]), p)
             for f, p in zip(points, listed, strict=True)]
    keyed.sort(key=lambda kp: kp[0])
    places = rank.places([k for k, _ in keyed])
    return [p if p["place"] == place else {**p, "place": place} for place, (_, p) in zip(places, keyed, strict=True)]
