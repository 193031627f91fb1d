"""Baśka over HTTP: the table shows its bok-runda, which a du starts, which doubles the hands
in it, and which a void puts back."""
import random

from games.baska import game as baska
from games.engine.autoplay import play_out
from games.engine.base import Command


def _body(dealer, calls=(), seed=0, avoid_cicha=True):
    rng, cards = random.Random(seed), sorted(baska.kop.PACK)
    while True:
        rng.shuffle(cards)
        hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
        split = not any({"QC", "QS"} <= set(h) for h in hands)
        if split or not avoid_cicha:
            break
    state = baska.new_hand(baska.parse_rules({}), {"dealer": dealer, "hands": hands})
    for call in calls:
        [event] = baska.decide(state, Command("bid", call))
        state = baska.evolve(state, event)
    _, tricks = play_out(baska, state)
    return {"deal": {"dealer": dealer, "hands": hands}, "bids": list(calls), "tricks": [{"cards": t} for t in tricks]}


def test_a_du_starts_a_bok_runda_that_doubles_the_next_hands_and_a_void_puts_it_back(kop_table):
    t = kop_table
    seats = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "baska", "seats": seats, "stake": "1.00"}).json
    assert table["rules"] == {"variant": "bytow-2005"}
    assert table["bok"] == {"running": False, "hands_left": 0, "queued": 0}
    path = f"{t['base']}/tables/{table['id']}/hands"
    du = t["member"].post(path, _body(0, [{"seat": 1, "call": "zolo-du"}])).json
    assert du["settlement"]["bok_due"] is True
    assert t["member"].get(f"{t['base']}/tables/{table['id']}").json["bok"] == {
        "running": True, "hands_left": 4, "queued": 0}
    doubled = t["member"].post(path, _body(1, seed=1)).json
    assert doubled["settlement"]["bok_runda"] is True
    assert "bok-runda" in [f["name"] for f in doubled["settlement"]["factors"]]
    assert t["member"].get(f"{t['base']}/tables/{table['id']}").json["bok"]["hands_left"] == 3
    voided = t["admin"].post(f"{t['base']}/hands/{doubled['id']}/void", {"reason": "misdeal"})
    assert voided.status_code == 201
    after = t["member"].get(f"{t['base']}/tables/{table['id']}").json
    assert after["bok"]["hands_left"] == 4 and after["next_dealer"] == 1
    trail = t["member"].get(f"{t['base']}/hands/{du['id']}/audit").json
    assert any("bok-runda falls due" in line for line in trail["explanation"])


def test_a_classic_table_has_no_bok_rundy_and_refuses_a_false_baska(kop_table):
    t = kop_table
    seats = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "baska", "rules": {"variant": "classic"},
                                                     "seats": seats, "stake": "1.00"}).json
    assert table["bok"] is None
    body = _body(0)
    body["bids"] = [{"seat": 1, "call": "baska"}]
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", body)
    assert r.status_code == 422 and "only the holder of all four queens may call baska" in r.json["detail"]
