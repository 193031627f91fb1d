"""Tressette over HTTP (SQLite): a hand dealt seat by seat, a declaration and every card
played one at a time, then a hand dealt whole and logged by its tricks; the hand page says
each trick's thirds as whole points and thirds, never as points (issue 45, point 1)."""
import html
import re

from games.engine.autoplay import play_through
from games.engine.base import Command
from games.tressette import GAME
from games.tressette.rules import PACK, parse_rules
from tests.api.test_pages import _signed_in
from tests.conftest import Client


def _hands() -> list[list[str]]:
    """Seat 1 holds the A, 2 and 3 of diamonds: a napoletana to declare."""
    rest = [c for c in sorted(PACK) if c not in ("AD", "2D", "3D")]
    return [rest[:10], ["AD", "2D", "3D", *rest[10:17]], rest[17:27], rest[27:37]]


def test_a_hand_seat_by_seat_with_a_declaration_then_one_dealt_whole(kop_table, app):
    t = kop_table
    seats = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "tressette", "rules": {"accuse": True}, "seats": seats,
                                                    "stake": "1.00"})
    assert table.status_code == 201, table.json
    api = [Client(app.test_client()).as_(m["token"]) for m in t["members"]]
    hand = t["member"].post(f"{t['base']}/tables/{table.json['id']}/hands", {"deal": {"dealer": 0}}).json["id"]
    hands = _hands()
    for seat, cards in enumerate(hands):
        r = api[seat].post(f"{t['base']}/hands/{hand}/cards", {"seat": seat, "cards": cards})
        assert r.status_code == 201, r.json
    r = api[1].post(f"{t['base']}/hands/{hand}/bids", {"seat": 1, "call": "accuse", "cards": ["AD", "2D", "3D"]})
    assert r.status_code == 201, r.json
    assert {"AD", "2D", "3D"} <= set(api[2].get(f"{t['base']}/hands/{hand}").json["table_cards"])  # shown to all
    rules = parse_rules({"accuse": True})
    state = GAME.initial_state(rules, GAME.parse_deal(rules, {"dealer": 0, "hands": hands}).data)
    state = GAME.evolve(state, GAME.decide(state, _bid())[0])
    done, commands = play_through(GAME, state)
    for command in commands:
        for seat, card in zip(GAME.trick_seats(state), command.data["cards"], strict=True):
            r = api[seat].post(f"{t['base']}/hands/{hand}/plays", {"card": card})
            assert r.status_code == 201, r.json
        for event in GAME.decide(state, command):
            state = GAME.evolve(state, event)
    shown = t["member"].get(f"{t['base']}/hands/{hand}").json
    settlement = shown["settlement"]
    thirds = GAME.forms.sheet(done)["thirds"]
    assert [s["points"] for s in settlement["sides"]] == [thirds[0] // 3, thirds[1] // 3 + 3]
    assert any("third(s))" in line for line in settlement["explanation"])
    reader = Client(app.test_client())
    _signed_in(reader, t["members"][0]["token"])
    page = html.unescape(reader.http.get(f"/g/{t['group']}/hands/{hand}").get_data(as_text=True))
    one = next(tr for tr in done.tricks if tr.points >= 3)
    whole = one.points // 3
    said = f"{whole} point{'s' if whole != 1 else ''} ({one.points} thirds)"
    assert said in page
    assert not re.search(r"won by <strong>[^<]*</strong>, \d+ points?</span>", page)  # no thirds said as points

    second = t["member"].post(f"{t['base']}/tables/{table.json['id']}/hands",
                              {"deal": {"dealer": 1, "hands": hands},
                               "tricks": [{"cards": c.data["cards"]} for c in _tricks_from(rules, hands, 1)]})
    assert second.status_code == 201, second.json
    assert second.json["settlement"]["match"]["before"] == settlement["match"]["after"]


def _bid():
    return Command("bid", {"seat": 1, "call": "accuse", "cards": ["AD", "2D", "3D"]})


def _tricks_from(rules, hands, dealer):
    state = GAME.initial_state(rules, GAME.parse_deal(rules, {"dealer": dealer, "hands": hands}).data)
    return play_through(GAME, state)[1]
