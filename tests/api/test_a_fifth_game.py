"""A fifth game needs nothing but its ``Game`` value and its registration: the high-card game
of tests/fifth_game.py, registered here only, is opened, dealt, played, settled, shown,
audited and replayed through the API, the pages and the command line unchanged."""
import pytest

from games.registry import GAMES, register
from tests import fifth_game
from tests.command import run
from tests.conftest import without_confirmations


@pytest.fixture
def high_card():
    register(fifth_game.GAME)
    yield fifth_game.GAME
    GAMES.pop(fifth_game.GAME.name)


def test_a_game_registered_in_the_tests_alone_is_played_through_the_api(high_card, kop_table, client, app):
    t = kop_table
    without_confirmations(t)
    seats = [m["id"] for m in t["members"][:2]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "highcard", "seats": seats, "stake": "2.00"})
    assert table.status_code == 201, table.json
    tid = table.json["id"]
    deal = {"dealer": 0, "hands": [["AS", "QS"], ["KS", "JS"]]}
    hand = t["member"].post(f"{t['base']}/tables/{tid}/hands", {"deal": deal}).json
    assert hand["turn"] == 1 and hand["phase"] == "play"
    refused = t["member"].post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": ["AS", "KS"]})
    assert refused.status_code == 422 and "seat 1 does not hold AS" in refused.json["detail"]
    first = t["member"].post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": ["KS", "AS"]}).json
    assert first["winner"] == 0
    done = t["member"].post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": ["QS", "JS"]}).json["hand"]
    assert [p["amount"] for p in done["settlement"]["payouts"]] == ["2.00", "-2.00"]
    balances = {b["member"]: b["balance"] for b in t["member"].get(f"{t['base']}/balances").json["balances"]}
    assert balances[seats[0]] == "2.00" and balances[seats[1]] == "-2.00"
    trail = t["member"].get(f"{t['base']}/hands/{hand['id']}/audit").json
    assert "takes it" in trail["events"][1]["summary"] and trail["explanation"][0] == "seat 0 took both tricks"
    sheet = t["member"].post(f"{t['base']}/tables/{tid}/hands", {"result": {"tricks": [1, 1]}}).json
    assert [p["amount"] for p in sheet["settlement"]["payouts"]] == ["0.00", "0.00"]
    from tests.api.test_pages import _signed_in
    _signed_in(client, t["members"][0]["token"])
    page = client.http.get(f"/g/{t['group']}/hands/{hand['id']}").get_data(as_text=True)
    assert "Hand 1, Ala dealt" in page and "High card" in page and "Ala took both tricks" in page  # with names
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output
