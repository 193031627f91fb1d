"""A tournament's standings and a season's, from each table's small points, as API.md
"Points, tables of five, tournaments and seasons" states them. Pure: numbers in, rows out.

At each table of a round the players are placed by their small points (the sum of what
counted of their payouts there). Players tied share the table points of the places they
cover equally and all show the best of those places (1, 2, 2, 4); a fifth place, at a table
of five, is worth nothing. Overall: table points, then small points, then first places (the
rounds a player's table place was 1, shared or not); players still tied share a place the
same way. A season counts each player's best N tournaments, by points, then small points.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Hashable, Mapping, Sequence


@dataclass(frozen=True)
class Table:
    """One table of a round: each player's small points there (minor units, or whole points)."""
    round: int
    id: str
    small: Mapping[str, int]


@dataclass(frozen=True)
class Placed:
    """A player at one table of a round."""
    round: int
    table: str
    small: int
    place: int
    points: Fraction


@dataclass
class Standing:
    """A player over a tournament (or a season)."""
    member: str
    points: Fraction = Fraction(0)
    small: int = 0
    first_places: int = 0
    place: int = 0
    rounds: list[Placed] = field(default_factory=list)


@lru_cache(maxsize=1024)  # a standings read writes a few distinct shares hundreds of times
def shortest(value: Fraction) -> str:
    """Table points as a decimal string in the shortest form ("4", "0.5", "2.25"); a value
    with no finite decimal rounded half-even to 2 places ("2.67")."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    exact = Decimal(value.numerator) / Decimal(value.denominator)  # exact when it terminates (28 digits)
    if denominator != 1:
        exact = exact.quantize(Decimal("0.01"), ROUND_HALF_EVEN)
    text = format(exact.normalize(), "f")
    return "0" if text == "-0" else text


def _shared(keys: Sequence[Hashable], points_of: Callable[[int], int]) -> list[tuple[int, Fraction]]:
    """For keys already in order (best first), each one's place and share: a run of equal
    keys covers the places its length spans, shares their points equally, and shows the best."""
    out: list[tuple[int, Fraction]] = []
    start = 0
    while start < len(keys):
        end = start
        while end + 1 < len(keys) and keys[end + 1] == keys[start]:
            end += 1
        share = Fraction(sum(points_of(i) for i in range(start, end + 1)), end - start + 1)
        out += [(start + 1, share)] * (end - start + 1)
        start = end + 1
    return out


def placed(table: Table, places: Sequence[int]) -> dict[str, Placed]:
    """Each player of ``table`` placed by small points, with the table points their place gives."""
    def worth(i: int) -> int:  # a place the points do not reach (a fifth) is worth nothing
        return places[i] if i < len(places) else 0
    order = sorted(table.small, key=lambda member: -table.small[member])
    shares = _shared([table.small[m] for m in order], worth)
    return {m: Placed(table.round, table.id, table.small[m], place, points)
            for m, (place, points) in zip(order, shares, strict=True)}


def order_key(points: Fraction | int, small: int, first_places: int) -> tuple:
    """What orders players overall, best first: points, then small points, then first places."""
    return (-points, -small, -first_places)


def places(keys: Sequence[Hashable]) -> list[int]:
    """The places of players already in order by their ``keys``: equal ones share the best."""
    out: list[int] = []
    for i, key in enumerate(keys):
        out.append(out[-1] if i and key == keys[i - 1] else i + 1)
    return out


def _ranked(standings: list[Standing]) -> list[Standing]:
    """Best first by points, small points, first places; equal ones share the best place."""
    def key(s: Standing) -> tuple:
        return order_key(s.points, s.small, s.first_places)
    ordered = sorted(standings, key=key)
    for s, place in zip(ordered, places([key(s) for s in ordered]), strict=True):
        s.place = place
    return ordered


def tournament(players: Sequence[str], tables: Sequence[Table], places: Sequence[int]) -> list[Standing]:
    """The standings over the tables played so far: every player, best first, ranked from
    scratch. The service reads them from the rows projections/standings_row.py keeps table by
    table; this is the plain statement of the rules those rows are tested against."""
    by_member = {m: Standing(m) for m in players}
    for table in sorted(tables, key=lambda t: (t.round, t.id)):
        for member, at in placed(table, places).items():
            if member not in by_member:
                continue
            s = by_member[member]
            s.points += at.points
            s.small += at.small
            s.first_places += at.place == 1
            s.rounds.append(at)
    return _ranked(list(by_member.values()))


@dataclass(frozen=True)
class Counted:
    """One tournament of a player's season, and whether it is among their best."""
    id: str
    points: Fraction
    small: int
    first_places: int
    counted: bool


def season(results: Mapping[str, Sequence[Standing]], best: int) -> tuple[list[Standing], dict[str, list[Counted]]]:
    """Over several tournaments (``results``: each tournament's standings by its id, in the
    order asked), each player's best ``best`` tournaments by points, then small points:
    the season's standings, and per player the tournaments they played, counted or not."""
    played: dict[str, list[tuple[str, Standing]]] = {}
    for tid, standings in results.items():
        for s in standings:
            if s.rounds:
                played.setdefault(s.member, []).append((tid, s))
    out, counted = [], {}
    for member, theirs in played.items():
        chosen = {tid for tid, _s in sorted(theirs, key=lambda p: (-p[1].points, -p[1].small))[:best]}
        total = Standing(member)
        counted[member] = []
        for tid, s in theirs:
            if tid in chosen:
                total.points += s.points
                total.small += s.small
                total.first_places += s.first_places
            counted[member].append(Counted(tid, s.points, s.small, s.first_places, tid in chosen))
        out.append(total)
    return _ranked(out), counted
