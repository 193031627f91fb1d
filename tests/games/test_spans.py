"""What a game carries from hand to hand beyond what the table decider keeps for every game
is the game's own: a ``Span`` in its ``TableRules``, folded by the game's function, without
a line of the table decider. Here Kop is given one for the length of this test (a count of
the hands settled at the table, and the last outcome), and the table keeps it as it keeps
the doubled rounds: settled hand by hand, given to the next hand's settlement, given back
when the latest hand is voided, and worked out again when an earlier hand is corrected."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.contract import Span
from games.registry import GAMES
from tests.conftest import without_confirmations

RESULT = {"contract": "normal", "stare": [0, 1], "doubles": [], "points": 60, "tricks": 2}
COUNT = Span("settled", 0, lambda rules, value, settlement: value + 1)
LAST = Span("last_outcome", None, lambda rules, value, settlement: settlement["outcome"])


@pytest.fixture
def seen_by_settle(monkeypatch):
    """Kop with two spans of its own, and what each settlement was given of them."""
    kop, seen = GAMES["kop"], []

    def settle(state, terms):
        seen.append(dict(terms.carried))
        return kop.settle(state, terms)
    monkeypatch.setitem(GAMES, "kop", replace(kop, table=replace(kop.table, spans=(COUNT, LAST)), settle=settle))
    return seen


def _hand(t, dealer, result=RESULT):
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"dealer": dealer, "result": result})
    assert r.status_code == 201, r.json
    return r.json


def _carried(t):
    return t["admin"].call("GET", f"{t['base']}/tables/{t['table']}").json["carried"]


def test_a_game_carries_its_own_span_from_hand_to_hand(kop_table, seen_by_settle):
    t = kop_table
    without_confirmations(t)
    assert _carried(t) == {"settled": 0, "last_outcome": None}
    first = _hand(t, 0)
    assert _carried(t) == {"settled": 1, "last_outcome": first["settlement"]["outcome"]}
    _hand(t, 1, {**RESULT, "points": 20, "tricks": 1})
    assert _carried(t) == {"settled": 2, "last_outcome": "bez-wyjscia"}
    assert seen_by_settle == [{"settled": 0, "last_outcome": None},
                              {"settled": 1, "last_outcome": first["settlement"]["outcome"]}]


def test_a_void_gives_the_span_back_and_a_correction_works_it_out_again(kop_table, seen_by_settle):
    t = kop_table
    without_confirmations(t)
    first, second = _hand(t, 0), _hand(t, 1, {**RESULT, "points": 20, "tricks": 1})
    r = t["admin"].post(f"{t['base']}/hands/{second['id']}/void", {"reason": "misdeal"})
    assert r.status_code == 201, r.json
    assert _carried(t) == {"settled": 1, "last_outcome": first["settlement"]["outcome"]}
    third = _hand(t, 1, {**RESULT, "points": 0, "tricks": 0})
    assert _carried(t) == {"settled": 2, "last_outcome": "bez-bitki"}
    r = t["admin"].post(f"{t['base']}/hands/{first['id']}/correct", {"reason": "wrong sheet", "void": True})
    assert r.status_code == 201, r.json
    assert _carried(t) == {"settled": 1, "last_outcome": "bez-bitki"}  # only the third hand counts now
    assert third["settlement"]["outcome"] == "bez-bitki"
