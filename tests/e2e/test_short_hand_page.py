"""A finished hand's page on a phone 390 px wide, in Chromium, in English and in Polish: the
log, most of the page when it lay open (a Kop hand played card by card on the players'
phones, 26 events: about 5 400 px in all), is folded under a line that counts its events,
so the page is about three screens; the verify button still checks every event folded,
a tap on the line opens the log, and a link to one event opens it by itself."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import call, start_server, stop_server
from tests.e2e.test_browser import _accessible, _sign_in_by_keyboard, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
LOCALES = {"en": "en-GB", "pl": "pl-PL"}
PHONE = {"width": 390, "height": 844}
# px: the whole page of the finished hand, its log folded: about three screens (2 500 px in English,
# 2 400 in Polish, where it was 5 400 and 5 500 with the log open), with room for another font.
SHORT = 2800


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A Kop hand at a table where each player logs their own cards: dealt seat by seat and
    played a card at a time, each from its player's token, as the phones do."""
    where = tmp_path_factory.mktemp("short-hand")
    proc, base = start_server(where / "hand.db", where)
    st, g = call(base, "POST", "/v1/groups", {"name": "Piątek u Ali", "currency": "PLN"})
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1]
               for n in ("Bartłomiej", "Małgorzata", "Przemysław", "Katarzyna")]
    st, table = call(base, "POST", f"/v1/groups/{g['id']}/tables", {
        "game": "kop", "stake": "1.00", "seats": [m["id"] for m in members], "rules": {"entry": "seats"}}, admin)
    assert st == 201, table
    st, hand = call(base, "POST", f"/v1/groups/{g['id']}/tables/{table['id']}/hands", {"deal": {"dealer": 0}}, admin)
    assert st == 201, hand
    path = f"/v1/groups/{g['id']}/hands/{hand['id']}"
    for seat, cards in enumerate(KOP_HANDS):
        assert call(base, "POST", f"{path}/cards", {"seat": seat, "cards": cards}, members[seat]["token"])[0] == 201
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s, cards in enumerate(KOP_HANDS) if card in cards)
            st, played = call(base, "POST", f"{path}/plays", {"seat": seat, "card": card}, members[seat]["token"])
            assert st == 201, played
    st, events = call(base, "GET", f"/v1/groups/{g['id']}/events?limit=1000", token=admin)
    seqs = [e["seq"] for e in events["events"] if e.get("hand") == hand["id"]]
    # The same four at a second table, a hand in play there: two cards of its first trick played.
    st, other = call(base, "POST", f"/v1/groups/{g['id']}/tables", {
        "game": "kop", "stake": "1.00", "seats": [m["id"] for m in members], "rules": {"entry": "seats"}}, admin)
    st, playing = call(base, "POST", f"/v1/groups/{g['id']}/tables/{other['id']}/hands", {"deal": {"dealer": 0}}, admin)
    in_play = f"/v1/groups/{g['id']}/hands/{playing['id']}"
    for seat, cards in enumerate(KOP_HANDS):
        assert call(base, "POST", f"{in_play}/cards", {"seat": seat, "cards": cards}, members[seat]["token"])[0] == 201

    def play(card):
        seat = next(s for s, cards in enumerate(KOP_HANDS) if card in cards)
        st, played = call(base, "POST", f"{in_play}/plays", {"seat": seat, "card": card}, members[seat]["token"])
        assert st == 201, played
    for card in KOP_TRICKS[0][:2]:
        play(card)
    yield {"base": base, "group": g["id"], "hand": hand["id"], "token": members[0]["token"], "seqs": seqs,
           "playing": playing["id"], "play": play}
    stop_server(proc)


@pytest.mark.parametrize("language", LOCALES)
def test_a_finished_hands_page_is_short_on_a_phone_its_log_folded(browser, finished, language):  # noqa: F811
    context = browser.new_context(locale=LOCALES[language], viewport=PHONE)
    page = context.new_page()
    _sign_in_by_keyboard(page, finished["base"], finished["token"])
    address = f"{finished['base']}/g/{finished['group']}/hands/{finished['hand']}"
    page.goto(address)
    expect(page.locator("#verify-result")).to_have_class(re.compile(r"\bok\b"))  # every event checked, folded
    log = page.locator("section[aria-labelledby=log-h] details")
    rows = log.locator("table.events tbody tr")
    assert rows.count() == len(finished["seqs"]) >= 20
    expect(log).not_to_have_attribute("open", re.compile(".*"))
    expect(rows.first).to_be_hidden()
    expect(log.locator("summary")).to_contain_text(str(len(finished["seqs"])))
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= SHORT, f"the finished hand's page is {height} px tall on a 390 px phone, in {language}"
    why = page.locator("section[aria-labelledby=why-h]").bounding_box()
    assert why["y"] < 2 * PHONE["height"], "what the hand paid is not in the phone's first two screens"
    _accessible(page, f"phone-hand-short-{language}-390")

    log.locator("summary").click()  # a tap opens the log
    expect(rows.last).to_be_visible()
    assert page.evaluate("document.documentElement.scrollHeight") > height + 20 * 40
    page.goto(f"{address}#event-{finished['seqs'][-1]}")  # a link to one event opens the fold by itself
    expect(page.locator(f"#event-{finished['seqs'][-1]}")).to_be_visible()
    context.close()


def test_a_folded_log_is_not_drawn_again_with_each_card_and_opening_it_brings_it_up_to_date(browser, finished):  # noqa: F811
    """The live part leaves a folded log out (each phone would draw it again for every card at
    its table): the phone keeps the rows it has, and the log's line still counts the events;
    opening the fold asks for the rows as they are now."""
    context = browser.new_context(locale="en-GB", viewport=PHONE)
    page = context.new_page()
    _sign_in_by_keyboard(page, finished["base"], finished["token"])
    page.goto(f"{finished['base']}/g/{finished['group']}/hands/{finished['playing']}")
    log = page.locator("section[aria-labelledby=log-h] details")
    rows = log.locator("table.events tbody tr")
    before = rows.count()
    expect(page.locator("#verify-result")).to_have_class(re.compile(r"\bok\b"))
    finished["play"](KOP_TRICKS[0][2])  # the third card of the first trick, from its player's phone
    expect(log.locator("summary")).to_contain_text(f"{before + 1} events")  # the live part came
    assert rows.count() == before  # the folded rows stayed as they were
    log.locator("summary").click()
    expect(rows).to_have_count(before + 1)  # opened: as the log is now
    expect(rows.last).to_be_visible()
    page.locator("#verify").click()  # the verify button checks the rows the page shows now
    expect(page.locator("#verify-result")).to_have_class(re.compile(r"\bok\b"))
    context.close()
