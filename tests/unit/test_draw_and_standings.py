"""The round draw and the standings, against a second reading of API.md "Points, tables of
five, tournaments and seasons": the byte stream and the shuffle written again here another
way, the table sizes counted by hand, ties shared as the organizers' sheets share them."""
from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import pytest

from events import draw
from projections import standings
from projections.standings import Table
from tests.tournaments import their_shuffle

PLACES = [5, 3, 1, 0]


@pytest.mark.parametrize("n", [1, 2, 4, 5, 9, 13, 16, 64, 100])
def test_the_draw_is_the_contracts_to_the_byte(n):
    chance = random.Random(n)
    players = [f"m_{i:012x}" for i in range(n)]
    for _ in range(20):
        secret, event_hash = chance.randbytes(32), chance.randbytes(32).hex()
        seeded = draw.seed(secret, event_hash)
        ours = draw.shuffled(players, seeded)
        assert ours == their_shuffle(players, secret, event_hash)
        assert sorted(ours) == players
    assert draw.commitment(b"\0" * 32) == hashlib.sha256(b"\0" * 32).hexdigest()


def test_players_sit_at_tables_of_four_and_the_last_ones_of_five():
    assert draw.table_sizes(13, 4, 5) == [4, 4, 5]
    assert draw.table_sizes(10, 4, 5) == [5, 5]
    assert draw.table_sizes(64, 4, 5) == [4] * 16
    assert draw.table_sizes(21, 4, 5) == [4, 4, 4, 4, 5]
    assert [n for n in range(1, 40) if draw.table_sizes(n, 4, 5) is None] == [1, 2, 3, 6, 7, 11]
    for n in range(1, 40):
        sizes = draw.table_sizes(n, 4, 5)
        assert sizes is None or (sum(sizes) == n and sizes == sorted(sizes))
    assert draw.table_sizes(6, 2, None) == [2, 2, 2] and draw.table_sizes(7, 2, None) is None
    assert draw.tables(list("abcdefghijklm"), [4, 4, 5]) == [list("abcd"), list("efgh"), list("ijklm")]


def test_ties_at_a_table_share_the_points_of_the_places_they_cover():
    at = standings.placed(Table(1, "t1", {"a": 10, "b": 5, "c": 5, "d": -20}), PLACES)
    assert {m: (p.place, p.points) for m, p in at.items()} == {
        "a": (1, 5), "b": (2, 2), "c": (2, 2), "d": (4, 0)}
    three = standings.placed(Table(1, "t1", {"a": 0, "b": 0, "c": 0, "d": 0}), PLACES)
    assert {p.place for p in three.values()} == {1} and {p.points for p in three.values()} == {Fraction(9, 4)}
    five = standings.placed(Table(1, "t2", {"a": 8, "b": 4, "c": 0, "d": -4, "e": -8}), PLACES)
    assert [five[m].points for m in "abcde"] == [5, 3, 1, 0, 0]
    thirds = standings.placed(Table(1, "t3", {"a": 9, "b": 1, "c": 1, "d": 1}), PLACES)
    assert thirds["b"].points == Fraction(4, 3) and standings.shortest(thirds["b"].points) == "1.33"


@pytest.mark.parametrize("value, text", [(Fraction(4), "4"), (Fraction(1, 2), "0.5"), (Fraction(9, 4), "2.25"),
                                         (Fraction(8, 3), "2.67"), (Fraction(0), "0"), (Fraction(40), "40"),
                                         (Fraction(1, 8), "0.125"), (Fraction(2, 3), "0.67")])
def test_table_points_are_written_in_the_shortest_form(value, text):
    assert standings.shortest(value) == text


def test_overall_order_is_points_then_small_then_first_places_and_ties_share_a_place():
    rounds = [Table(1, "t1", {"a": 10, "b": 5, "c": -5, "d": -10}), Table(1, "t2", {"e": 3, "f": 1, "g": -1, "h": -3}),
              Table(2, "t3", {"a": -10, "e": 10, "c": 0, "g": 0}), Table(2, "t4", {"b": 2, "f": 2, "d": -2, "h": -2})]
    table = {s.member: s for s in standings.tournament(list("abcdefgh"), rounds, PLACES)}
    assert (table["a"].points, table["a"].small, table["a"].first_places) == (5, 0, 1)
    assert (table["e"].points, table["e"].small, table["e"].first_places) == (10, 13, 2)
    assert table["e"].place == 1
    assert table["b"].points == table["f"].points == 7  # second (3), then first shared with each other ((5 + 3) / 2)
    order = [s.member for s in standings.tournament(list("abcdefgh"), rounds, PLACES)]
    assert order[0] == "e" and order.index("b") < order.index("f")  # equal points: b has the more small points
    tied = standings.tournament(["x", "y", "z"], [Table(1, "t", {"x": 1, "y": 1, "z": -2})], [2, 1, 0])
    assert [(s.member, s.place) for s in tied][:2] in ([("x", 1), ("y", 1)], [("y", 1), ("x", 1)])
    assert tied[2].place == 3


def test_a_season_counts_each_players_best_tournaments():
    first = standings.tournament(["a", "b"], [Table(1, "t", {"a": 4, "b": -4})], [5, 3])
    second = standings.tournament(["a", "b"], [Table(1, "u", {"a": -1, "b": 1})], [5, 3])
    third = standings.tournament(["a", "b"], [Table(1, "v", {"a": 9, "b": -9})], [5, 3])
    table, counted = standings.season({"x1": first, "x2": second, "x3": third}, best=2)
    by = {s.member: s for s in table}
    assert by["a"].points == 10 and by["a"].small == 13  # x1 and x3
    assert by["b"].points == 8 and by["b"].small == -3  # x2 (5) and x1 (3, small -4: better than x3's -9)
    assert [c.counted for c in counted["a"]] == [True, False, True]
    assert [c.counted for c in counted["b"]] == [True, True, False]
    assert [s.member for s in table] == ["a", "b"]
