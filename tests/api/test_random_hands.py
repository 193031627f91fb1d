"""Random legal Kop hands over HTTP, one table, hand after hand: every payout is the one a
second reading of the rules gives, the balances are their running sums, and the dealer
passes round the table."""
import random

from games.kop import game as kop
from games.engine.autoplay import play_out
from games.engine.base import Command
from games.engine.errors import RuleViolation
from tests.money import minor
from tests.games.kop.oracle import CALLS, oracle_amounts
from tests.conftest import without_confirmations


def _random_hand(rng: random.Random, dealer: int):
    cards = sorted(kop.PACK)
    rng.shuffle(cards)
    hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
    state = kop.new_hand(kop.parse_rules({}), {"dealer": dealer, "hands": hands})
    accepted, bids = [], []
    for _ in range(rng.randrange(6)):
        bid = {"seat": rng.randrange(4), "call": rng.choice(CALLS)}
        try:
            [event] = kop.decide(state, Command("bid", bid))
        except RuleViolation:
            continue
        state = kop.evolve(state, event)
        bids.append(bid)
        accepted.append((bid["seat"], event.data["call"], event.data.get("jack")))
    state, tricks = play_out(kop, state, lambda legal: rng.choice(list(legal)))
    return hands, bids, tricks, accepted, [(t.winner, t.points) for t in state.tricks]


def test_forty_random_hands_pay_what_the_rules_say(kop_table):
    t, rng = kop_table, random.Random(20261129)
    without_confirmations(t)
    running = [0, 0, 0, 0]
    for number in range(40):
        dealer = number % 4
        table = t["member"].get(f"{t['base']}/tables/{t['table']}").json
        assert table["next_dealer"] == dealer
        hands, bids, tricks, accepted, won = _random_hand(rng, dealer)
        body = {"deal": {"dealer": dealer, "hands": hands}, "bids": bids, "tricks": [{"cards": c} for c in tricks]}
        r = t["member"].post(f"{t['base']}/tables/{t['table']}/hands", body)
        assert r.status_code == 201, r.json
        expected = oracle_amounts(hands, accepted, won, 100)
        paid = [minor(p["amount"]) for p in r.json["settlement"]["payouts"]]
        assert paid == expected, (number, accepted, won)
        running = [a + b for a, b in zip(running, expected, strict=True)]
    balances = t["member"].get(f"{t['base']}/balances").json
    assert [minor(b["balance"]) for b in balances["balances"]] == running
    assert balances["total"] == "0.00"


BASKA_CALLS = ["pass", "wesele", "gran", "zolo", "gran-du", "zolo-du", "kontra", "rekontra", "hirsch", "bok"]


def _random_baska_hand(rng: random.Random, dealer: int):
    from games.baska import game as baska
    cards = sorted(kop.PACK)
    while True:
        rng.shuffle(cards)
        hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
        state = baska.new_hand(baska.parse_rules({}), {"dealer": dealer, "hands": hands})
        accepted, bids = [], []
        for _ in range(rng.randrange(6)):
            bid = {"seat": rng.randrange(4), "call": rng.choice(BASKA_CALLS)}
            try:
                [event] = baska.decide(state, Command("bid", bid))
            except RuleViolation:
                continue
            state = baska.evolve(state, event)
            bids.append(bid)
            accepted.append((bid["seat"], event.data["call"], event.data.get("jack")))
        try:
            state, tricks = play_out(baska, state, lambda legal: rng.choice(list(legal)))
        except RuleViolation:  # an unlosable cicha: deal again
            continue
        return hands, bids, tricks, accepted, [(t.winner, t.points) for t in state.tricks]


def test_forty_random_baska_hands_pay_what_the_rules_say_bok_rundy_and_all(kop_table):
    from tests.games.baska.oracle import baska_amounts
    t, rng = kop_table, random.Random(5)
    seats = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "baska", "seats": seats, "stake": "1.00"}).json
    left, queued = 0, 0  # the bok-runda, kept here as the rules file tells it
    doubled = 0
    for number in range(40):
        hands, bids, tricks, accepted, won = _random_baska_hand(rng, number % 4)
        body = {"deal": {"dealer": number % 4, "hands": hands}, "bids": bids,
                "tricks": [{"cards": c} for c in tricks]}
        r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", body)
        assert r.status_code == 201, r.json
        s = r.json["settlement"]
        paid = [minor(p["amount"]) for p in s["payouts"]]
        assert paid == baska_amounts(hands, accepted, won, "bytow-2005", left > 0, 100), (number, accepted, won)
        doubled += left > 0
        contract = s["contract"]
        tie = s["sides"][0]["points"] == 52
        due = contract in ("gran-du", "zolo-du") or tie  # any 52-52 (rules/baska.md)
        left = max(0, left - 1) if left else 0
        queued += due
        if left == 0 and queued:
            left, queued = 4, queued - 1
        bok = t["member"].get(f"{t['base']}/tables/{table['id']}").json["bok"]
        assert (bok["hands_left"], bok["queued"]) == (left, queued)
    assert doubled >= 4  # the sequence did play hands in bok-rundy
