"""Random legal Kop hands over HTTP, one table, hand after hand: every payout is the one a
second reading of the rules gives, the balances are their running sums, and the dealer
passes round the table."""
import random

from games import kop
from games.autoplay import play_out
from games.base import Command
from games.errors import RuleViolation
from tests.kop_oracle import CALLS, oracle_amounts


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
        paid = [round(float(p["amount"]) * 100) for p in r.json["settlement"]["payouts"]]
        assert paid == expected, (number, accepted, won)
        running = [a + b for a, b in zip(running, expected, strict=True)]
    balances = t["member"].get(f"{t['base']}/balances").json
    assert [round(float(b["balance"]) * 100) for b in balances["balances"]] == running
    assert balances["total"] == "0.00"
