"""Calls and refusals on a player's own phone, in Chromium against a live ``bitka serve``:
each seat is offered only the calls it may make now, each saying what it does, none
pre-selected; a first tap opens a call, a second makes it (a double tap makes it once), and
a live refresh never closes a call left open. A refusal names the card the player tapped
and stays on the phone through live refreshes until that phone acts again."""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import call, start_server, stop_server
from tests.e2e.test_browser import browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]
DEAL = [["QC", "QS", "AH", "10H"], ["JC", "AD", "10D", "QD"], ["JS", "JH", "JD", "AC"], ["10C", "AS", "10S", "QH"]]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def seats_table(tmp_path):
    proc, base = start_server(tmp_path / "calls.db", tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, g["admin_token"])[1] for n in NAMES]
    st, t = call(base, "POST", f"/v1/groups/{g['id']}/tables", {
        "game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": [m["id"] for m in members]},
        g["admin_token"])
    st, hand = call(base, "POST", f"/v1/groups/{g['id']}/tables/{t['id']}/hands", {"deal": {"dealer": 0}},
                    members[0]["token"])
    assert st == 201, hand
    yield {"base": base, "group": g["id"], "members": members, "hand": hand["id"]}
    stop_server(proc)


def _phone(browser, base: str, token: str):  # noqa: F811 - the fixture
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(base + "/")
    page.get_by_text("Sign in with a token").click()
    page.get_by_label("Your token").fill(token)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/g/*")
    return page


def _log_cards(t, seat: int) -> None:
    st, body = call(t["base"], "POST", f"/v1/groups/{t['group']}/hands/{t['hand']}/cards",
                    {"seat": seat, "cards": DEAL[seat]}, t["members"][seat]["token"])
    assert st == 201, body


def _hand(t) -> dict:
    return call(t["base"], "GET", f"/v1/groups/{t['group']}/hands/{t['hand']}", token=t["members"][0]["token"])[1]


def test_a_refusal_names_my_card_and_stays_through_live_refreshes(browser, seats_table):  # noqa: F811
    t = seats_table
    _log_cards(t, 0)
    phone = _phone(browser, t["base"], t["members"][1]["token"])
    phone.goto(f"{t['base']}/g/{t['group']}/hands/{t['hand']}")
    for card in ("QC", "AD", "10D", "QD"):  # QC is Ala's, logged already
        phone.locator(f'label.pick:has(input[value="{card}"])').click()
    phone.get_by_role("button", name="These are my cards").click()
    refusal = phone.locator("#live .problem")
    refusal.wait_for()
    said = refusal.inner_text()
    assert "Q♣" in said and "?" not in said and not re.search(r"Q♠|A♥|10♥|\bQS|AH|10H\b", said), said
    _log_cards(t, 2)  # the log moves: her three ticks kept, the phone says the table moved on
    phone.locator("#live-news").filter(has_text=re.compile(".")).wait_for(timeout=15_000)
    assert refusal.inner_text() == said  # still there, word for word
    # Bożena acts again: the one card she still owes (her other three stayed ticked), and the refusal is gone.
    phone.locator('label.pick:has(input[value="JC"])').click()
    phone.get_by_role("button", name="These are my cards").click()
    phone.get_by_role("heading", name="Your cards, Bożena").wait_for()
    assert phone.locator("#live .problem").count() == 0


def test_each_seat_gets_its_own_calls_and_a_second_tap_makes_one(browser, seats_table):  # noqa: F811
    t = seats_table
    for seat in (0, 1, 2, 3):
        _log_cards(t, seat)
    ala = _phone(browser, t["base"], t["members"][0]["token"])
    bozena = _phone(browser, t["base"], t["members"][1]["token"])
    address = f"{t['base']}/g/{t['group']}/hands/{t['hand']}"
    ala.goto(address)
    bozena.goto(address)
    wesele = ala.get_by_text("Wesele: the holder of J♣ plays with you against the other two")
    wesele.wait_for()
    assert ala.locator("details.call").count() == 3 and ala.locator("details.call[open]").count() == 0
    bozena.get_by_text("Kontra: you double what this hand pays").wait_for()
    assert bozena.get_by_text(re.compile("^Wesele")).count() == 0  # she lacks the black queens
    assert ala.locator(".my-calls select, .my-calls input:checked").count() == 0  # nothing pre-selected

    # A first tap opens the call; the log moving meanwhile (Bożena's kontra) does not close it.
    wesele.click()
    yes = ala.get_by_role("button", name="Yes, call wesele")
    yes.wait_for()
    bozena.get_by_text("Kontra: you double what this hand pays").click()
    bozena.get_by_role("button", name="Yes, call kontra").click()
    bozena.get_by_text("Bożena: kontra").wait_for()
    ala.get_by_text("The table moved on meanwhile").wait_for(timeout=15_000)  # said, not shown over her call
    assert ala.locator("details.call[open]").count() == 1 and yes.is_visible()
    assert ala.get_by_text("Bożena: kontra").count() == 0
    # Tapping the call again closes it: nothing was logged by Ala.
    wesele.click()
    yes.wait_for(state="hidden")
    assert [c["seat"] for c in _hand(t)["calls"]] == [1]
    # Closed, the live part comes again: it shows Bożena's kontra, and Ala's calls still stand.
    ala.get_by_text("Bożena: kontra").wait_for(timeout=15_000)
    assert ala.locator("#live-news").inner_text() == ""
    wesele.click()
    yes.dblclick()  # a double tap on the second tap
    ala.get_by_text("Ala: wesele", exact=True).wait_for(timeout=15_000)  # its jack unsaid
    calls = _hand(t)["calls"]
    assert [(c["seat"], c["call"]) for c in calls] == [(1, "kontra"), (0, "wesele")]
