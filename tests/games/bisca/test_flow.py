"""Bisca over HTTP: a whole hand of each variant against a second reading of the rules, a
match played to its end, Capixaba's swap-2, and a card that has not been drawn."""
import random

import pytest

from games.bisca import game as bisca
from games.engine.autoplay import play_out
from tests.games.bisca.oracle import game_points


def _members(t, client, n):
    """Seats for n players: the table fixture's four members, and more when six are needed."""
    ids = [m["id"] for m in t["members"]]
    for i in range(len(ids), n):
        ids.append(t["admin"].post(f"{t['base']}/members", {"name": f"Extra {i}"}).json["id"])
    return ids[:n]


def _deal(rng, variant, dealer):
    v = bisca.VARIANTS[variant]
    cards = sorted(bisca.PACKS[v.pack])
    while True:
        rng.shuffle(cards)
        if variant != "capixaba" or cards[-1][:-1] not in ("A", "7"):
            break
    n = v.players
    return {"dealer": dealer, "hands": [cards[i * v.hand:(i + 1) * v.hand] for i in range(n)],
            "trump": cards[-1], "stock": cards[n * v.hand:-1]}


def _table(t, client, rules):
    n = bisca.parse_rules(rules).players
    r = t["admin"].post(f"{t['base']}/tables", {"game": "bisca", "rules": rules, "seats": _members(t, client, n),
                                                 "stake": "1.00"})
    assert r.status_code == 201, r.json
    return r.json


@pytest.mark.parametrize("variant", sorted(bisca.VARIANTS))
def test_a_whole_hand_of_each_variant_earns_what_the_rules_say(kop_table, client, variant):
    t, rng = kop_table, random.Random(variant)
    table = _table(t, client, {"variant": variant})
    deal = _deal(rng, variant, 0)
    rules = bisca.parse_rules({"variant": variant})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    state, tricks = play_out(bisca, state, lambda legal: rng.choice(list(legal)))
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands",
                         {"deal": deal, "tricks": [{"cards": c} for c in tricks]})
    assert r.status_code == 201, r.json
    s = r.json["settlement"]
    expected, ended = game_points(variant, 0, rules.players, deal["trump"][-1], tricks)
    assert s["match"]["hand"] == expected and s["match"]["game_over"] == ended
    assert sum(side["points"] for side in s["sides"]) == 120
    shown = t["member"].get(f"{t['base']}/tables/{table['id']}").json["match"]
    assert shown["scores"] == (expected if not ended else [0, 0])


def test_a_de_nove_match_to_4_is_paid_when_it_ends(kop_table, client):
    t, rng = kop_table, random.Random(9)
    table = _table(t, client, {"variant": "nove"})
    rules = bisca.parse_rules({"variant": "nove"})
    scores = [0, 0]
    for number in range(30):
        deal = _deal(rng, "nove", number % 2)
        state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": scores})
        _, tricks = play_out(bisca, state, lambda legal: rng.choice(list(legal)))
        s = t["member"].post(f"{t['base']}/tables/{table['id']}/hands",
                             {"deal": deal, "tricks": [{"cards": c} for c in tricks]}).json["settlement"]
        assert s["match"]["before"] == scores
        scores = s["match"]["after"]
        if s["match"]["game_over"]:
            winner = s["match"]["winners"][0]
            assert scores[winner] >= 4
            assert [p["amount"] for p in s["payouts"]] == (["1.00", "-1.00"] if winner == 0 else ["-1.00", "1.00"])
            break
        assert s["payouts"] == []
    else:
        raise AssertionError("no match ended")
    assert t["member"].get(f"{t['base']}/balances").json["total"] == "0.00"


def test_capixaba_swap_2_and_a_card_not_yet_drawn(kop_table, client):
    t, rng = kop_table, random.Random(4)
    table = _table(t, client, {"variant": "capixaba"})
    deal = _deal(rng, "capixaba", 0)
    trump = deal["trump"]
    two = "2" + trump[-1]
    holder = next((s for s, h in enumerate(deal["hands"]) if two in h), None)
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal}).json
    if holder is not None:
        r = t["member"].post(f"{t['base']}/hands/{hand['id']}/bids", {"seat": holder, "call": "swap-2"})
        assert r.status_code == 201 and trump in r.json["held"][holder] and r.json["trump"] == two
    leader = hand["leader"]
    undrawn = deal["stock"][0]
    cards = [undrawn] + [deal["hands"][(leader + i) % 4][0] for i in range(1, 4)]
    r = t["member"].post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": cards})
    assert r.status_code == 422 and "has not been drawn yet" in r.json["detail"]


def test_a_quatro_hand_with_6s_turned_says_spades_in_the_api_the_page_and_bitka_audit(kop_table, client, app):
    """The issue's hand, explained "trump: none (a knock for hearts), S" everywhere."""
    from tests.command import run
    t, rng = kop_table, random.Random(61)
    table = _table(t, client, {"variant": "quatro"})
    cards = [c for c in sorted(bisca.PACKS["full"]) if c != "6S"]
    rng.shuffle(cards)
    deal = {"dealer": 0, "hands": [cards[i * 3:(i + 1) * 3] for i in range(4)], "trump": "6S", "stock": cards[12:]}
    rules = bisca.parse_rules({"variant": "quatro"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    _, tricks = play_out(bisca, state, lambda legal: rng.choice(list(legal)))
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands",
                            {"deal": deal, "tricks": [{"cards": c} for c in tricks]}).json
    said = "trump: spades, the suit of the card turned at the cut, 6S"
    assert hand["settlement"]["explanation"][0] == said
    assert said in t["member"].get(f"{t['base']}/hands/{hand['id']}/audit").json["explanation"]
    from tests.api.test_pages import _signed_in
    _signed_in(client, t["members"][0]["token"])
    page = client.http.get(f"/g/{t['group']}/hands/{hand['id']}").get_data(as_text=True)
    assert said.replace("6S", "6♠") in page  # the page draws the card as its face
    printed = run("--db", app.config["BITKA_DB"], "audit", "--group", t["group"], "--hand", hand["id"])
    assert printed.exit_code == 0 and said in printed.output and "knock" not in printed.output
