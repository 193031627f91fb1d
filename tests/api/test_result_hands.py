"""Score-sheet hands: a hand logged by its result alone settles exactly as the same hand
logged card by card, moves the table on the same way, and impossible results are refused."""
import random

import pytest

from games import baska, bisca, scopa
from games.autoplay import play_out, play_scopa
from tests.conftest import KOP_HANDS, KOP_TRICKS

SAME = ("outcome", "contract", "winner", "multiplier", "units", "payouts")


def _pair(t, client, game, rules, n=4):
    """Two tables of the same game and rules: one logs cards, the other results."""
    ids = [m["id"] for m in t["members"]][:n]
    make = lambda: t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "seats": ids,  # noqa: E731
                                                           "stake": "1.00"}).json["id"]
    return make(), make()


def _post(t, table, body):
    r = t["member"].post(f"{t['base']}/tables/{table}/hands", body)
    assert r.status_code == 201, r.json
    return r.json


def _same(a, b):
    assert {k: a["settlement"][k] for k in SAME} == {k: b["settlement"][k] for k in SAME}
    assert [s["points"] for s in a["settlement"]["sides"]] == [s["points"] for s in b["settlement"]["sides"]]


def test_a_kop_result_settles_as_the_same_hand_logged_card_by_card(kop_table, client):
    t = kop_table
    cards, sheet = _pair(t, client, "kop", {})
    logged = _post(t, cards, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": [{"seat": 0, "call": "kontra"}],
                              "tricks": [{"cards": c} for c in KOP_TRICKS]})
    result = _post(t, sheet, {"result": {"contract": "normal", "stare": [1, 3], "doubles": [0], "points": 104,
                                         "tricks": 4}})
    _same(logged, result)
    assert result["cards_logged"] is False and logged["settlement"]["multiplier"] == 6
    table = t["member"].get(f"{t['base']}/tables/{sheet}").json
    assert table["next_dealer"] == 1 and table["latest_hand"]["status"] == "settled"
    trail = t["member"].get(f"{t['base']}/hands/{result['id']}/audit").json
    assert "logged by its result alone, without its cards" in trail["events"][0]["summary"]


def test_a_baska_du_result_settles_and_queues_a_bok_runda_as_the_logged_hand_does(kop_table, client):
    t, rng = kop_table, random.Random(3)
    cards, sheet = _pair(t, client, "baska", {})
    deck = sorted(baska.kop.PACK)
    rng.shuffle(deck)
    hands = [deck[i * 4:(i + 1) * 4] for i in range(4)]
    rules = baska.parse_rules({})
    from games.base import Command
    state = baska.new_hand(rules, {"dealer": 0, "hands": hands})
    [event] = baska.decide(state, Command("bid", {"seat": 1, "call": "gran-du"}))
    state, tricks = play_out(baska, baska.evolve(state, event))
    logged = _post(t, cards, {"deal": {"dealer": 0, "hands": hands}, "bids": [{"seat": 1, "call": "gran-du"}],
                              "tricks": [{"cards": c} for c in tricks]})
    side = logged["settlement"]["sides"][0]
    result = _post(t, sheet, {"result": {"contract": "gran-du", "declarer": 1, "points": side["points"],
                                         "tricks": side["tricks"]}})
    _same(logged, result)
    for table in (cards, sheet):
        assert t["member"].get(f"{t['base']}/tables/{table}").json["bok"]["hands_left"] == 4


def _scopa_facts(state):
    """What a scorer writes down after a two-player hand: who had most cards, coins, the
    best primiera, the settebello, and the scopas (counted here, not by bitka)."""
    values = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}
    taken = [list(c) for c in state.captured]

    def most(counts):
        return None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)

    def prime(cards):
        best = [max((values[c[:-1]] for c in cards if c[-1] == s), default=None) for s in "CSHD"]
        return None if None in best else sum(best)
    primes = [prime(c) for c in taken]
    primiera = None if primes[0] == primes[1] else (0 if (primes[1] is None or (primes[0] or 0) > primes[1]) else 1)
    return {"cards": most([len(c) for c in taken]), "coins": most([sum(x[-1] == "D" for x in c) for c in taken]),
            "primiera": primiera, "settebello": 0 if "7D" in taken[0] else 1, "scopas": list(state.scopas)}


def test_a_scopa_result_settles_as_the_same_hand_logged_play_by_play(kop_table, client):
    t, rng = kop_table, random.Random(8)
    cards, sheet = _pair(t, client, "scopa", {}, n=2)
    deck = sorted(scopa.PACK)
    while True:
        rng.shuffle(deck)
        if sum(c[:-1] == "K" for c in deck[6:10]) < 3:
            break
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "table": deck[6:10], "stock": deck[10:]}
    state, plays = play_scopa(scopa, scopa.new_hand(scopa.parse_rules({}), deal))
    logged = _post(t, cards, {"deal": deal, "plays": plays})
    result = _post(t, sheet, {"result": _scopa_facts(state)})
    assert logged["settlement"]["match"] == result["settlement"]["match"]
    assert [s["points"] for s in logged["settlement"]["sides"]] == [s["points"] for s in result["settlement"]["sides"]]


def test_a_bisca_result_settles_as_the_same_hand_logged_trick_by_trick(kop_table, client):
    t, rng = kop_table, random.Random(2)
    cards, sheet = _pair(t, client, "bisca", {"variant": "nove"}, n=2)
    deck = sorted(bisca.PACKS["full"])
    rng.shuffle(deck)
    deal = {"dealer": 0, "hands": [deck[0:9], deck[9:18]], "trump": deck[-1], "stock": deck[18:-1]}
    rules = bisca.parse_rules({"variant": "nove"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    _, tricks = play_out(bisca, state, lambda legal: rng.choice(list(legal)))
    logged = _post(t, cards, {"deal": deal, "tricks": [{"cards": c} for c in tricks]})
    sides = logged["settlement"]["sides"]
    result = _post(t, sheet, {"result": {"points": [s["points"] for s in sides],
                                         "tricks": [s["tricks"] for s in sides]}})
    assert logged["settlement"]["match"] == result["settlement"]["match"]
    assert logged["settlement"]["outcome"] == result["settlement"]["outcome"]


@pytest.mark.parametrize("game, rules, n, result, why", [
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "points": 105, "tricks": 4}, "from 0 to 104"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "points": 100, "tricks": 1}, "is impossible"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "points": 10, "tricks": 0}, "is impossible"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 1], "points": 60, "tricks": 2}, "two seats"),
    ("kop", {}, 4, {"contract": "zolo", "declarer": 1, "doubles": [1], "points": 60, "tricks": 2},
     "may not give the first double"),
    ("kop", {}, 4, {"contract": "grand", "declarer": 1, "points": 60, "tricks": 2}, "contract must be"),
    ("kop", {}, 4, {"contract": "zolo-du", "declarer": 1, "points": 104, "tricks": 3}, "is impossible"),
    ("baska", {"variant": "bytow-2005"}, 4, {"contract": "baska", "declarer": 1}, "contract must be"),
    ("scopa", {}, 2, {"cards": 2, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [0, 0]}, "from 0 to 1"),
    ("scopa", {}, 2, {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [1]}, "2 counts"),
    ("bisca", {}, 2, {"points": [60, 61], "tricks": [10, 10]}, "add up to 120"),
    ("bisca", {}, 2, {"points": [60, 60], "tricks": [10, 9]}, "has 20 tricks"),
    ("bisca", {}, 2, {"points": [120, 0], "tricks": [20, 0], "bonus": [1, 0]}, "only capixaba"),
    ("bisca", {}, 2, {"points": [110, 10], "tricks": [20, 0]}, "without a trick"),
])
def test_impossible_results_are_refused_and_append_nothing(kop_table, client, game, rules, n, result, why):
    t = kop_table
    ids = [m["id"] for m in t["members"]][:n]
    table = t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "seats": ids,
                                                     "stake": "1.00"}).json
    before = len(t["member"].get(f"{t['base']}/events?limit=1000").json["events"])
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"result": result})
    assert r.status_code == 422 and why in r.json["detail"], r.json
    assert len(t["member"].get(f"{t['base']}/events?limit=1000").json["events"]) == before
