"""Score-sheet hands: a hand logged by its result alone settles exactly as the same hand
logged card by card, moves the table on the same way, and impossible results are refused."""
import random

import pytest

from games.engine.base import RULES_VERSION
from games.baska import game as baska

from games.bisca import game as bisca

from games.scopa import game as scopa
from games.engine.autoplay import play_out, play_by_plays
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
    from games.engine.base import Command
    state = baska.new_hand(rules, {"dealer": 0, "hands": hands})
    [event] = baska.decide(state, Command("bid", {"seat": 1, "call": "gran-du"}))
    state, tricks = play_out(baska, baska.evolve(state, event))
    logged = _post(t, cards, {"deal": {"dealer": 0, "hands": hands}, "bids": [{"seat": 1, "call": "gran-du"}],
                              "tricks": [{"cards": c} for c in tricks]})
    side = logged["settlement"]["sides"][0]
    result = _post(t, sheet, {"result": {"contract": "gran-du", "declarer": 1, "doubles": [],
                                         "points": side["points"], "tricks": side["tricks"]}})
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
    state, plays = play_by_plays(scopa, scopa.new_hand(scopa.parse_rules({}), deal))
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
                                         "tricks": [s["tricks"] for s in sides], "bonus": [0, 0]}})
    assert logged["settlement"]["match"] == result["settlement"]["match"]
    assert logged["settlement"]["outcome"] == result["settlement"]["outcome"]


N0 = {"doubles": []}
IMPOSSIBLE = [
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], **N0, "points": 105, "tricks": 4}, "from 0 to 104"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], **N0, "points": 100, "tricks": 1}, "is impossible"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], **N0, "points": 10, "tricks": 0}, "is impossible"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 1], **N0, "points": 60, "tricks": 2}, "two seats"),
    ("kop", {}, 4, {"contract": "zolo", "declarer": 1, "doubles": [1], "points": 60, "tricks": 2},
     "may not give the first double"),
    ("kop", {}, 4, {"contract": "grand", "declarer": 1, **N0, "points": 60, "tricks": 2}, "contract must be"),
    ("kop", {}, 4, {"contract": "zolo-du", "declarer": 1, **N0, "points": 104, "tricks": 3}, "is impossible"),
    # The issue's three: no trick holds 80, three tricks hold 60 at least, two tricks 84 at most.
    ("kop", {}, 4, {"contract": "zolo", "declarer": 1, **N0, "points": 80, "tricks": 1}, "from 8 to 44"),
    ("baska", {}, 4, {"contract": "zolo", "declarer": 1, **N0, "points": 30, "tricks": 3}, "from 60 to 96"),
    ("kop", {}, 4, {"contract": "normal", "stare": [0, 2], **N0, "points": 88, "tricks": 2}, "from 20 to 84"),
    ("kop", {}, 4, {"contract": "zolo", "declarer": 1, "partner": 2, **N0, "points": 60, "tricks": 2},
     "a zolo result has no partner"),
    ("baska", {"variant": "bytow-2005"}, 4, {"contract": "baska", "declarer": 1}, "contract must be"),
    ("scopa", {}, 2, {"cards": 2, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [0, 0]}, "from 0 to 1"),
    # Side 1 sweeps at each of its 18 plays: side 0 only plays onto an empty table and takes nothing.
    ("scopa", {}, 2, {"cards": 1, "coins": 0, "primiera": 1, "settebello": 1, "scopas": [0, 18]}, "coins cannot be"),
    ("scopa", {}, 2, {"cards": 1, "coins": 1, "primiera": None, "settebello": 1, "scopas": [0, 18]}, "a tie"),
    ("scopa", {}, 2, {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [19, 0]}, "cannot happen"),
    ("bisca", {}, 2, {"points": [60, 61], "tricks": [10, 10]}, "add up to 120"),
    ("bisca", {}, 2, {"points": [60, 60], "tricks": [10, 9]}, "has 20 tricks"),
    ("bisca", {}, 2, {"points": [120, 0], "tricks": [20, 0], "bonus": [1, 0]}, "only capixaba"),
    ("bisca", {}, 2, {"points": [110, 10], "tricks": [20, 0]}, "40 cards of the pack of 40 hold 120 card points"),
    ("bisca", {}, 2, {"points": [100, 20], "tricks": [1, 19]}, "cannot take 100 card points in 1"),
    ("bisca", {"variant": "capixaba"}, 4, {"points": [70, 50], "tricks": [6, 4], "bonus": [2, 1]}, "one bonus"),
    ("bisca", {}, 2, {"points": [60, 60], "tricks": [10, 10], "trump_suit": "H"}, "only capixaba names trump_suit"),
]


@pytest.mark.parametrize("game, rules, n, result, why", IMPOSSIBLE)
def test_impossible_results_are_refused_and_append_nothing(kop_table, client, game, rules, n, result, why):
    t = kop_table
    ids = [m["id"] for m in t["members"]][:n]
    table = t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "seats": ids,
                                                     "stake": "1.00"}).json
    before = len(t["member"].get(f"{t['base']}/events?limit=1000").json["events"])
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"result": result})
    assert r.status_code == 422 and why in r.json["detail"], r.json
    assert len(t["member"].get(f"{t['base']}/events?limit=1000").json["events"]) == before


@pytest.mark.parametrize("game, rules, n, result, missing", [
    ("scopa", {}, 2, {"settebello": 0}, ["cards", "coins", "primiera", "scopas"]),  # was logged as ties
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "points": 60, "tricks": 2}, ["doubles"]),
    ("baska", {}, 4, {"contract": "wesele", "declarer": 1, "doubles": []}, ["partner", "points", "tricks"]),
    ("bisca", {"variant": "capixaba"}, 4, {"points": [60, 60], "tricks": [5, 5]}, ["bonus"]),
])
def test_an_incomplete_result_is_a_400_naming_every_missing_field(kop_table, game, rules, n, result, missing):
    t = kop_table
    ids = [m["id"] for m in t["members"]][:n]
    table = t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "seats": ids,
                                                     "stake": "1.00"}).json
    before = t["member"].get(f"{t['base']}").json["version"]
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"result": result})
    assert r.status_code == 400 and r.mimetype == "application/problem+json", r.json
    assert sorted(r.json["errors"]) == sorted(f"result.{f}" for f in missing)
    assert all(f in r.json["detail"] for f in missing)
    assert ("null is how a tie is said" in r.json["detail"]) == (game == "scopa")  # only Scopa's fields tie
    assert t["member"].get(f"{t['base']}").json["version"] == before


@pytest.mark.parametrize("game, rules, n, result, field", [
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "doubles": None, "points": 60, "tricks": 2}, "doubles"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "doubles": False, "points": 60, "tricks": 2}, "doubles"),
    ("kop", {}, 4, {"contract": "normal", "stare": [1, 3], "doubles": {}, "points": 60, "tricks": 2}, "doubles"),
    ("kop", {}, 4, {"contract": "normal", "stare": None, "doubles": [], "points": 60, "tricks": 2}, "stare"),
    ("baska", {}, 4, {"contract": "zolo", "declarer": 1, "doubles": [], "points": None, "tricks": 2}, "points"),
    ("scopa", {}, 2, {"cards": 0, "coins": 0, "primiera": 0, "settebello": None, "scopas": [0, 0]}, "settebello"),
    ("scopa", {}, 2, {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [1]}, "scopas"),
    ("scopa", {}, 2, {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": None}, "scopas"),
    ("bisca", {"variant": "capixaba"}, 4, {"points": [70, 50], "tricks": [6, 4], "bonus": None}, "bonus"),
    ("bisca", {}, 2, {"points": [60, "60"], "tricks": [10, 10]}, "points"),
])
def test_a_field_of_the_wrong_kind_is_a_400_naming_it_not_a_guess(kop_table, game, rules, n, result, field):
    """null, false or {} where the doubles belong are not "no doubles": the request is
    malformed, and nothing is logged."""
    t = kop_table
    table = _table(t, game, rules, n)
    before = t["member"].get(f"{t['base']}").json["version"]
    r = t["member"].post(f"{t['base']}/tables/{table}/hands", {"result": result})
    assert r.status_code == 400 and r.mimetype == "application/problem+json", r.json
    assert list(r.json["errors"]) == [f"result.{field}"] and field in r.json["detail"]
    assert t["member"].get(f"{t['base']}").json["version"] == before


def test_a_hand_with_both_a_deal_and_a_result_is_a_400(kop_table):
    t = kop_table
    result = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 60, "tricks": 2}
    r = t["member"].post(f"{t['base']}/tables/{t['table']}/hands",
                         {"deal": {"dealer": 0, "hands": KOP_HANDS}, "result": result})
    assert r.status_code == 400 and "not both" in r.json["detail"], r.json


def test_the_bytow_result_of_the_issue_pays_192_each_not_128(kop_table):
    t = kop_table
    ids = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "baska", "rules": {"variant": "bytow-2005"},
                                                     "seats": ids, "stake": "1.00"}).json
    hand = _post(t, table["id"], {"result": {"contract": "normal", "stare": [0, 2], "doubles": [1, 0, 3, 2],
                                             "points": 0, "tricks": 0}})
    payouts = [p["amount"] for p in hand["settlement"]["payouts"]]
    assert payouts == ["-192.00", "192.00", "-192.00", "192.00"]
    assert hand["settlement"]["rules_version"] == RULES_VERSION


def _table(t, game, rules, n):
    ids = [m["id"] for m in t["members"]][:n]
    return t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "seats": ids,
                                                   "stake": "1.00"}).json["id"]


def test_random_kop_and_bisca_results_are_logged_exactly_when_the_brute_force_search_finds_them(kop_table):
    """The API against tests/oracles/results.py: every result some arrangement of the pack
    gives is logged (201), every other one refused (422), and a refusal appends nothing."""
    from tests.oracles import results as oracle
    t, rng = kop_table, random.Random(15)
    kop_table_id = _table(t, "kop", {}, 4)
    for _ in range(40):
        points, tricks = rng.randint(0, 104), rng.randint(0, 4)
        r = t["member"].post(f"{t['base']}/tables/{kop_table_id}/hands", {"result": {
            "contract": "zolo", "declarer": rng.randint(0, 3), "doubles": [], "points": points, "tricks": tricks}})
        assert r.status_code == (201 if oracle.kop_result_possible(points, tricks) else 422), (points, tricks, r.json)
    for variant, n in (("tres", 2), ("quatro", 4)):
        table = _table(t, "bisca", {"variant": variant}, n)
        total = {"tres": 20, "quatro": 10}[variant]
        for _ in range(12):
            p0, t0 = rng.randint(0, 120), rng.randint(0, total)
            body = {"points": [p0, 120 - p0], "tricks": [t0, total - t0], "bonus": [0, 0]}
            r = t["member"].post(f"{t['base']}/tables/{table}/hands", {"result": body})
            expected = 201 if oracle.bisca_result_possible(variant, body["points"], body["tricks"]) else 422
            assert r.status_code == expected, (variant, body, r.json)


def test_random_scopa_results_are_logged_exactly_when_the_forward_search_finds_them(kop_table):
    from games.scopa import game as scopa_game
    from games.scopa.result import play_order
    from tests.oracles import results as oracle
    t, rng = kop_table, random.Random(16)
    table = _table(t, "scopa", {"players": 4, "target": 61}, 4)
    rules = scopa_game.parse_rules({"players": 4})
    for number in range(30):
        dealer = number % 4
        scopas = [rng.randint(0, 12), rng.randint(0, 12)]
        body = {"cards": 0, "coins": 1, "primiera": None, "settebello": 0, "scopas": scopas}
        possible = (oracle.scopas_possible(scopas, list(play_order(rules, dealer, 4)), False)
                    and 2 * scopas[1] < 20)  # side 0 took most cards; each scopa takes two or more
        r = t["member"].post(f"{t['base']}/tables/{table}/hands", {"result": body})
        assert r.status_code == (201 if possible else 422), (scopas, r.json)
        if r.status_code != 201:  # the deal stays with this dealer: log a hand without scopas to move on
            assert t["member"].post(f"{t['base']}/tables/{table}/hands",
                                    {"result": {**body, "scopas": [0, 0]}}).status_code == 201
