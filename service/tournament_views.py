"""A tournament, its draws and its standings, and a season's standings, as API.md answers
them: the rows folded from the log (projections/tournaments.py), placed and ranked by
projections/standings.py. Reading them costs one row per table drawn, whatever the hands
played: each table's small points are folded as its hands are logged."""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from events.money import format_amount
from events.store import Reader
from projections import standings as rank
from projections import tournaments as fold

FIELDS = ("id", "name", "game", "rules", "players", "rounds", "deals", "places", "stake", "commitment")


def tournament_view(row: Mapping) -> dict:
    return {**{k: row[k] for k in FIELDS}, "drawn": len(row["drawn_rounds"]),
            "drawn_rounds": list(row["drawn_rounds"])}


def tables_of(reader: Reader, group: str, row: Mapping) -> list[tuple[int, str, dict]]:
    """Every table the tournament's draws opened: (round, table id, its score row)."""
    drawn = [(d["round"], t["id"]) for d in row["drawn_rounds"] for t in d["tables"]]
    scores = reader.rows_of(fold.SCORE, group, [t for _, t in drawn]) if drawn else {}
    return [(number, table, scores.get(table)) for number, table in drawn]


def rounds_played(row: Mapping, tables: Sequence[tuple[int, str, dict]]) -> int:
    """The rounds whose tables have all played their deals."""
    done = {}
    for number, _table, score in tables:
        done[number] = done.get(number, True) and fold.played(score) >= row["deals"]
    return sum(1 for finished in done.values() if finished)


def standing_rows(row: Mapping, tables: Iterable[tuple[int, str, dict]]) -> list[rank.Standing]:
    """The standings over every table that has played a hand (a table not started yet places nobody)."""
    played = [rank.Table(number, table, fold.small(score)) for number, table, score in tables if fold.played(score)]
    return rank.tournament(row["players"], played, row["places"])


def standings_view(reader: Reader, group: str, row: Mapping, grow: Mapping) -> dict:
    tables = tables_of(reader, group, row)
    digits, names = grow["digits"], _names(grow)
    return {"tournament": row["id"], "rounds": row["rounds"], "rounds_played": rounds_played(row, tables),
            "players": [_player(s, names, digits) | {"rounds": [_placed(p, digits) for p in s.rounds]}
                        for s in standing_rows(row, tables)]}


def season_view(reader: Reader, group: str, rows: Sequence[Mapping], best: int, grow: Mapping) -> dict:
    results = {row["id"]: standing_rows(row, tables_of(reader, group, row)) for row in rows}
    ranked, counted = rank.season(results, best)
    digits, names = grow["digits"], _names(grow)
    return {"tournaments": [row["id"] for row in rows], "best": best,
            "players": [_player(s, names, digits) | {"tournaments": [
                {"id": c.id, "points": rank.shortest(c.points), "small": format_amount(c.small, digits),
                 "counted": c.counted} for c in counted[s.member]]} for s in ranked]}


def _names(grow: Mapping) -> dict[str, str]:
    return {m["id"]: m["name"] for m in grow["members"]}


def _player(s: rank.Standing, names: Mapping[str, str], digits: int) -> dict:
    return {"member": s.member, "name": names.get(s.member, s.member), "place": s.place,
            "points": rank.shortest(s.points), "small": format_amount(s.small, digits),
            "first_places": s.first_places}


def _placed(p: rank.Placed, digits: int) -> dict:
    return {"round": p.round, "table": p.table, "small": format_amount(p.small, digits), "place": p.place,
            "points": rank.shortest(p.points)}
