"""A tournament, its draws and its standings, and a season's standings, as API.md answers
them. The standings are read from the tournament's standings rows (projections/standings_row.py),
which the projector keeps ranked as each hand is logged: a read costs the totals and a row per
round drawn, whatever the hands and tables played."""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Sequence

from events.money import format_amount
from events.store import Reader
from projections import standings as rank
from projections import standings_row
from projections import tournaments as fold

FIELDS = ("id", "name", "game", "rules", "players", "rounds", "deals", "places", "stake", "commitment")


def tournament_view(row: Mapping) -> dict:
    shown = {**{k: row[k] for k in FIELDS}, "drawn": len(row["drawn_rounds"]),
             "drawn_rounds": list(row["drawn_rounds"]), "draw": row.get("draw", 1)}
    if fold.by_check_ins(row):
        shown["checked_in"] = [p for p in row["players"] if p in row["check_ins"]]
    return shown


def standings_of(reader: Reader, group: str, row: Mapping) -> standings_row.Kept:
    """The tournament's standings rows. A tournament not drawn yet has none, nor has one of a
    store from before they were kept (until its next hand): made here from its tables."""
    kept = standings_row.from_rows(row, reader.rows_of(standings_row.NAME, group, standings_row.keys(row)))
    if kept is not None:
        return kept
    drawn = [table for _round, table in standings_row.tables_drawn(row)]
    return standings_row.build(row, reader.rows_of(fold.SCORE, group, drawn) if drawn else {})


def rounds_over(reader: Reader, group: str, row: Mapping) -> list[int]:
    """The rounds whose tables have all played their deals, by number."""
    totals = reader.row(standings_row.NAME, group, row["id"])
    return (totals or standings_of(reader, group, row).totals)["finished"]


def rounds_played(reader: Reader, group: str, row: Mapping) -> int:
    """How many rounds have had all their tables play their deals."""
    return len(rounds_over(reader, group, row))


def standings_view(reader: Reader, group: str, row: Mapping, grow: Mapping,
                   kept: standings_row.Kept | None = None) -> dict:
    """The standings of API.md, from ``kept`` when the request read the rows already."""
    kept = standings_of(reader, group, row) if kept is None else kept
    digits, names = grow["digits"], _names(grow)

    def placed(number: int, at: Sequence) -> dict:
        table, small, place, points = at
        return {"round": number, "table": table, "small": format_amount(small, digits), "place": place,
                "points": shown(points)}
    return {"tournament": row["id"], "rounds": row["rounds"], "rounds_played": standings_row.rounds_played(kept),
            "players": [{"member": p["member"], "name": names.get(p["member"], p["member"]), "place": p["place"],
                         "points": shown(p["points"]), "small": format_amount(p["small"], digits),
                         "first_places": p["first_places"],
                         "rounds": [placed(n, at) for n, at in standings_row.places_of(kept, p["member"])]}
                        for p in kept.totals["players"]]}


def season_view(reader: Reader, group: str, rows: Sequence[Mapping], best: int, grow: Mapping) -> dict:
    results = {row["id"]: standings_row.standings(standings_of(reader, group, row), only_played=True) for row in rows}
    ranked, counted = rank.season(results, best)
    digits, names = grow["digits"], _names(grow)
    return {"tournaments": [row["id"] for row in rows], "best": best,
            "players": [{"member": s.member, "name": names.get(s.member, s.member), "place": s.place,
                         "points": rank.shortest(s.points), "small": format_amount(s.small, digits),
                         "first_places": s.first_places, "tournaments": [
                             {"id": c.id, "points": rank.shortest(c.points), "small": format_amount(c.small, digits),
                              "counted": c.counted} for c in counted[s.member]]} for s in ranked]}


@lru_cache(maxsize=1024)  # a read writes the same few shares hundreds of times
def shown(points: str) -> str:
    """Table points kept as a fraction's text ("9/2") as the API writes them ("4.5")."""
    return rank.shortest(standings_row.exact(points))


def _names(grow: Mapping) -> dict[str, str]:
    return {m["id"]: m["name"] for m in grow["members"]}
