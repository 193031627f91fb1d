"""A tournament's standings row (projections/standings_row.py), kept table by table as hands are
logged, voided and corrected in any order, against the standings ranked from scratch from
the same tables (projections/standings.py) and against the row made from all tables at once."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from projections import standings as rank
from projections import standings_row

PLACES = [5, 3, 1, 0]


def tournament(players: list[str], sizes: list[int], rounds: int) -> dict:
    drawn = []
    for number in range(1, rounds + 1):
        order = random.Random(number).sample(players, len(players))
        tables, at = [], 0
        for i, size in enumerate(sizes):
            tables.append({"id": f"t_{number}_{i}", "seats": order[at:at + size]})
            at += size
        drawn.append({"round": number, "tables": tables})
    return {"id": "tour", "players": players, "places": PLACES, "deals": 4, "drawn_rounds": drawn}


def score(seats: list[str], small: dict[str, int], played: int) -> dict:
    return {"money": {"digits": 0, "members": {m: small.get(m, 0) for m in seats}},
            "played": [f"h{i}" for i in range(played)]}


def from_scratch(t: dict, scores: dict[str, dict]) -> list[rank.Standing]:
    played = [rank.Table(d["round"], tb["id"], scores[tb["id"]]["money"]["members"])
              for d in t["drawn_rounds"] for tb in d["tables"]
              if tb["id"] in scores and scores[tb["id"]]["played"]]
    return rank.tournament(t["players"], played, t["places"])


@pytest.mark.parametrize("seed", range(12))
def test_the_rows_kept_hand_by_hand_are_the_standings_ranked_from_scratch(seed):
    chance = random.Random(seed)
    players = [f"m_{i:02d}" for i in range(13)]
    t = tournament(players, [4, 4, 5], 3)
    seats = {tb["id"]: (d["round"], tb["seats"]) for d in t["drawn_rounds"] for tb in d["tables"]}
    kept, scores = None, {}
    for _ in range(120):
        table = chance.choice(sorted(seats))
        number, at = seats[table]
        # small points level often (shared places), a table voided back to no hand sometimes
        small = {m: chance.choice([-6, -2, 0, 0, 2, 6]) for m in at}
        scores[table] = score(at, small, chance.choice([0, 1, 2, 4]))
        if kept is None:
            kept = standings_row.build(t, scores)
        else:  # as the projector does: the totals and this table's round alone
            only = standings_row.Kept(kept.totals, {number: kept.rounds.get(number, standings_row.empty_round())})
            moved = standings_row.update(only, t, table, number, scores[table])
            kept = standings_row.Kept(moved.totals, {**kept.rounds, **moved.rounds})
        assert standings_row.standings(kept) == from_scratch(t, scores)
        assert standings_row.standings(kept, only_played=True) == [s for s in from_scratch(t, scores) if s.rounds]
        assert [p["place"] for p in kept.totals["players"]] == [s.place for s in from_scratch(t, scores)]
    assert kept == standings_row.build(t, scores)
    finished = [all(len(scores.get(tb["id"], {"played": []})["played"]) >= 4 for tb in d["tables"])
                for d in t["drawn_rounds"]]
    assert standings_row.rounds_played(kept) == sum(finished)
    rows = standings_row.as_rows(t, kept)
    assert sorted(rows) == sorted(standings_row.keys(t)) and standings_row.from_rows(t, rows) == kept


def test_level_players_share_places_and_table_points_stay_exact():
    t = tournament(["a", "b", "c", "d"], [4], 1)
    table = t["drawn_rounds"][0]["tables"][0]
    start = standings_row.Kept(standings_row.empty(t), {})
    kept = standings_row.update(start, t, table["id"], 1, score(table["seats"], {}, 1))
    assert {p["place"] for p in kept.totals["players"]} == {1}
    assert {p["points"] for p in kept.totals["players"]} == {"9/4"}
    first, *rest = table["seats"]
    three_level = score(table["seats"], {first: 9, **dict.fromkeys(rest, -3)}, 2)
    kept = standings_row.update(kept, t, table["id"], 1, three_level)
    level = sorted(rest)  # level players stay in the tournament's order of its players
    assert [(p["member"], p["place"], Fraction(p["points"])) for p in kept.totals["players"]] == [
        (first, 1, 5), *[(m, 2, Fraction(4, 3)) for m in level]]
    assert [rank.shortest(Fraction(p["points"])) for p in kept.totals["players"]] == ["5", "1.33", "1.33", "1.33"]
    assert kept.rounds[1]["placed"][first] == [table["id"], 9, 1, "5"]


def test_a_member_not_among_the_players_is_never_ranked():
    t = tournament(["a", "b", "c", "d"], [4], 1)
    table = t["drawn_rounds"][0]["tables"][0]
    stranger = score([*table["seats"], "x"], {"x": 50, "a": -50}, 1)
    kept = standings_row.update(standings_row.Kept(standings_row.empty(t), {}), t, table["id"], 1, stranger)
    assert [p["member"] for p in kept.totals["players"]][-1] == "a"
    assert "x" not in {p["member"] for p in kept.totals["players"]} and "x" not in kept.rounds[1]["placed"]
