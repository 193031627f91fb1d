"""Every phone up to date without a tap, in Chromium against a live ``bitka serve``: four
phones at a table where each logs its own cards, one on the table's page and three on the
hand's, and one more on the group's page. As the hand is played (through the API, as other
phones would) each hand page says whose turn it is; once it is over, one phone taps "Deal
the next hand", and every other phone is taken to the new hand by itself, from the hand's
page, the table's and the group's. A phone that goes back to the table's page from the hand
stays there as the hand goes on. Then the server stops at once though the phones are
waiting for news (each wait is answered as the worker stops)."""
from __future__ import annotations

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import arrive, call, start_server, stop_server
from tests.e2e.test_browser import browser  # noqa: F401 - the fixture
from tests.e2e.test_phone_calls import _phone

pytestmark = pytest.mark.e2e
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]


@pytest.fixture
def evening(tmp_path):
    proc, base = start_server(tmp_path / "live.db", tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, g["admin_token"])[1] for n in NAMES]
    call(base, "PATCH", f"/v1/groups/{g['id']}", {"confirmations": "off"}, g["admin_token"])
    st, t = call(base, "POST", f"/v1/groups/{g['id']}/tables", {
        "game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": [m["id"] for m in members]},
        g["admin_token"])
    st, hand = call(base, "POST", f"/v1/groups/{g['id']}/tables/{t['id']}/hands", {"deal": {"dealer": 0}},
                    members[0]["token"])
    assert st == 201, hand
    box = {"base": base, "group": g["id"], "table": t["id"], "members": members, "hand": hand["id"], "proc": proc}
    yield box
    if box["proc"] is not None:
        stop_server(box["proc"])


def _as(t, seat: int, method: str, what: str, body: dict) -> None:
    st, answer = call(t["base"], method, f"/v1/groups/{t['group']}/hands/{t['hand']}/{what}", body,
                      t["members"][seat]["token"])
    assert st == 201, answer


def test_phones_follow_the_table_to_the_next_hand_without_a_tap(browser, evening):  # noqa: F811
    t = evening
    table_phone = _phone(browser, t["base"], t["members"][0]["token"])
    arrive(table_phone, f"{t['base']}/g/{t['group']}/tables/{t['table']}")
    group_phone = _phone(browser, t["base"], t["members"][0]["token"])
    arrive(group_phone, f"{t['base']}/g/{t['group']}")
    hand_phones = [_phone(browser, t["base"], t["members"][seat]["token"]) for seat in (1, 2, 3)]
    for phone in hand_phones:
        arrive(phone, f"{t['base']}/g/{t['group']}/hands/{t['hand']}")
    for seat, cards in enumerate(KOP_HANDS):
        _as(t, seat, "POST", "cards", {"seat": seat, "cards": cards})
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s in range(4) if card in KOP_HANDS[s])
            if seat in (1, 2, 3):  # the phone learns it is its turn, with no tap and no reload
                hand_phones[seat - 1].locator("#live p.turn", has_text="Your turn.").wait_for()
            _as(t, seat, "POST", "plays", {"card": card})
    deal = hand_phones[0].get_by_role("button", name="Deal the next hand")
    deal.wait_for()
    deal.click()
    # a hand's address other than the one the phone is on: under load the tap's answer may come after this
    hand_phones[0].wait_for_url(lambda url: "/hands/" in url and t["hand"] not in url)
    new_hand = hand_phones[0].url.split("/hands/")[1].split("#")[0]
    assert new_hand != t["hand"]
    for phone in hand_phones[1:]:  # taken there by themselves
        phone.wait_for_url(f"**/hands/{new_hand}*")
        phone.get_by_role("heading", name="At the table: the cards are being entered").wait_for()
    for phone in (table_phone, group_phone):  # a seated player's page leads to the hand dealt
        phone.wait_for_url(f"**/hands/{new_hand}*")
    table_phone.goto(f"{t['base']}/g/{t['group']}/tables/{t['table']}")  # back to the table, on purpose
    table_phone.locator("#live a", has_text="being played").wait_for()
    assert table_phone.locator("#live button", has_text="Deal").count() == 0
    with table_phone.expect_response(lambda r: "/live" in r.url and r.status == 200):
        t["hand"] = new_hand
        _as(t, 1, "POST", "cards", {"seat": 1, "cards": KOP_HANDS[1]})  # the table's part moves on
    with table_phone.expect_request(lambda r: "/live" in r.url):  # drawn, and waiting again
        pass
    assert f"/tables/{t['table']}" in table_phone.url  # not taken back to the hand it left
    stop_server(t["proc"])  # every phone is waiting for news: the server still stops within stop_server's wait
    t["proc"] = None
