"""Scopa over HTTP: plays one by one, hands until a game ends, the table's game score, a claim."""
import random

from games.scopa import game as scopa
from games.engine.autoplay import play_by_plays


def _deal(rng, dealer, players=2):
    cards = sorted(scopa.PACK)
    while True:
        rng.shuffle(cards)
        if sum(1 for c in cards[3 * players:3 * players + 4] if c[:-1] == "K") < 3:
            break
    hands = [cards[i * 3:(i + 1) * 3] for i in range(players)]
    return {"dealer": dealer, "hands": hands, "table": cards[3 * players:3 * players + 4],
            "stock": cards[3 * players + 4:]}


def _table(t, rules):
    seats = [m["id"] for m in t["members"][:rules.get("players", 2)]]
    r = t["admin"].post(f"{t['base']}/tables", {"game": "scopa", "rules": rules, "seats": seats, "stake": "2.00"})
    assert r.status_code == 201, r.json
    return r.json


def test_plays_one_by_one_with_the_service_telling_whose_turn_it_is(kop_table):
    t, rng = kop_table, random.Random(1)
    table = _table(t, {})
    assert table["match"] == {"sides": [[0], [1]], "scores": [0, 0], "target": 11, "games": 0, "last_game": None}
    deal = _deal(rng, 0)
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal}).json
    assert hand["turn"] == 1 and hand["table_cards"] == deal["table"]
    card = deal["hands"][0][0]
    wrong = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": card})
    assert wrong.status_code == 422 and f"{card} is held by seat 0, but it is seat 1's turn" in wrong.json["detail"]
    state = scopa.new_hand(scopa.parse_rules({}), {**deal, "game": "scopa"})
    card, capture = scopa.legal_plays(state)[0]
    r = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": card, "capture": list(capture)})
    assert r.status_code == 201 and r.json["play"]["card"] == card and r.json["hand"]["turn"] == 0


def test_hands_until_a_game_ends_then_the_winner_is_paid_and_the_score_starts_again(kop_table):
    t, rng = kop_table, random.Random(7)
    table = _table(t, {})
    scores, dealer = [0, 0], 0
    for _ in range(30):
        deal = _deal(rng, dealer)
        state = scopa.new_hand(scopa.parse_rules({}), {**deal, "game": "scopa"})
        _, plays = play_by_plays(scopa, state)
        r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal, "plays": plays})
        assert r.status_code == 201, r.json
        s = r.json["settlement"]
        match = s["match"]
        assert match["before"] == scores
        scores = match["after"]
        dealer = (dealer + 1) % 2
        shown = t["member"].get(f"{t['base']}/tables/{table['id']}").json
        assert shown["next_dealer"] == dealer
        if s["outcome"] == "game":
            winner = match["winners"][0]
            assert max(scores) >= 11 and scores[winner] == max(scores)
            assert [p["amount"] for p in s["payouts"]] == (["2.00", "-2.00"] if winner == 0 else ["-2.00", "2.00"])
            assert shown["match"]["scores"] == [0, 0] and shown["match"]["games"] == 1
            break
        assert s["payouts"] == [] and shown["match"]["scores"] == scores
    else:
        raise AssertionError("no game ended in 30 hands")
    balances = t["member"].get(f"{t['base']}/balances").json
    assert balances["total"] == "0.00"
    trail = t["member"].get(f"{t['base']}/hands/{r.json['id']}/audit").json
    assert any(line.startswith("primiera: ") for line in trail["explanation"])
    assert any("plays" in e["summary"] for e in trail["events"] if e["type"] == "play")


def test_a_false_claim_over_http_loses_the_game_at_once(kop_table):
    t, rng = kop_table, random.Random(3)
    table = _table(t, {})
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": _deal(rng, 0)}).json
    r = t["member"].post(f"{t['base']}/hands/{hand['id']}/claims", {"seat": 1})
    assert r.status_code == 201 and r.json["hand"]["phase"] == "done"
    s = r.json["hand"]["settlement"]
    assert s["outcome"] == "claim-false" and s["winner"] == [0]
    assert [p["amount"] for p in s["payouts"]] == ["2.00", "-2.00"]
    again = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": "AC"})
    assert again.status_code == 422
    assert t["member"].get(f"{t['base']}/tables/{table['id']}").json["match"]["games"] == 1
    t["admin"].post(f"{t['base']}/hands/{hand['id']}/void", {"reason": "the claim was a joke"})
    shown = t["member"].get(f"{t['base']}/tables/{table['id']}").json
    assert shown["match"]["games"] == 0 and shown["next_dealer"] == 0
    assert [b["balance"] for b in t["member"].get(f"{t['base']}/balances").json["balances"]][:2] == ["0.00", "0.00"]


def test_four_players_score_as_two_teams(kop_table):
    t, rng = kop_table, random.Random(11)
    table = _table(t, {"players": 4, "deal": "scopone"})
    assert table["match"]["sides"] == [[0, 2], [1, 3]]
    cards = sorted(scopa.PACK)
    while True:
        rng.shuffle(cards)
        if sum(1 for c in cards[36:] if c[:-1] == "K") < 3:
            break
    deal = {"dealer": 0, "hands": [cards[i * 9:(i + 1) * 9] for i in range(4)], "table": cards[36:], "stock": []}
    state = scopa.new_hand(scopa.parse_rules({"players": 4, "deal": "scopone"}), {**deal, "game": "scopa"})
    _, plays = play_by_plays(scopa, state)
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal, "plays": plays})
    assert r.status_code == 201, r.json
    assert [side["seats"] for side in r.json["settlement"]["sides"]] == [[0, 2], [1, 3]]
