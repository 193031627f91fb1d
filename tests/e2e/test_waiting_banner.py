"""What waits for a payer, on whichever page they open (service/web/waiting.py,
static/waiting.js), in Chromium against a live ``bitka serve``: two results of the evening wait
for Ala, at two tables; her phone, which holds her key, opens a hand's page (not the group's),
sees both said at the top, and confirms both with one tap, each confirmation signed by her
phone's key; she lands back on that hand's page, where nothing waits any more (another browser
signed in as her, holding none of her keys, says it cannot sign them). The log's check
is a quiet line at the foot of the page, and what became of a tap sent later goes by itself."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import arrive, call
from tests.e2e.test_browser import _accessible, browser  # noqa: F401 - the fixture
from tests.e2e.test_signed_evening import PHONE, STARE_WIN, _events, _join, evening  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e


def test_a_payer_confirms_the_evenings_results_from_a_hands_page_with_one_signed_tap(browser, evening):  # noqa: F811
    t, base, group = evening, evening["base"], evening["group"]
    ids = [m["id"] for m in t["members"]]
    st, second = call(base, "POST", f"/v1/groups/{group}/tables",
                      {"game": "kop", "rules": {}, "stake": "2.00", "seats": ids}, t["admin"])
    assert st == 201, second
    waiting = []
    for table in (t["table"], second["id"]):  # Ala and Cyprian pay in each, and each waits for them
        st, logged = call(base, "POST", f"/v1/groups/{group}/tables/{table}/hands", {"result": STARE_WIN}, t["admin"])
        assert st == 201 and ids[0] in logged["confirmation"]["waiting_for"], logged
        waiting.append(logged["id"])

    phone = _join(browser, t, 0)
    held = phone.evaluate("([g, m]) => window.bitkaKeys.keyFor(g, m)", [group, ids[0]])
    hand_page = f"{base}/g/{group}/hands/{waiting[0]}"
    arrive(phone, hand_page)
    banner = phone.locator("#waiting")
    expect(banner).to_contain_text("1 result at Kop at PLN 1.00")
    expect(banner).to_contain_text("1 result at Kop at PLN 2.00")
    tap = banner.get_by_role("button", name="Yes to all 2")
    expect(tap).to_be_enabled()  # this phone holds her key: nothing says it cannot sign
    expect(banner.locator(".waiting-no-key")).to_be_hidden()
    _accessible(phone, "waiting-banner")
    # Drawn again, as the page's live part does when the table moves (static/live.js): the new form is signed too.
    phone.evaluate("""async () => {
        const part = document.getElementById("waiting");
        part.innerHTML = await (await fetch(part.dataset.refresh, {credentials: "same-origin"})).text();
    }""")
    expect(tap).to_be_enabled()

    # Another browser signed in as Ala, holding none of her keys: the banner says it cannot sign, and where to turn.
    copy = browser.new_context(viewport=PHONE).new_page()
    arrive(copy, base + "/")
    copy.get_by_text("Sign in with a token").click()
    copy.get_by_label("Your token").fill(t["members"][0]["token"])
    copy.get_by_role("button", name="Sign in").click()
    copy.wait_for_url(f"{base}/g/*")
    arrive(copy, hand_page)
    cannot = copy.locator("#waiting .waiting-no-key")
    expect(cannot).to_be_visible()
    expect(cannot).to_contain_text("This phone cannot sign for you")
    expect(cannot.get_by_role("link", name="the page of your devices")).to_have_attribute(
        "href", f"/g/{group}/devices")
    expect(copy.locator("#waiting").get_by_role("button", name="Yes to all 2")).to_be_disabled()
    copy.context.close()
    assert not [e for e in _events(t) if e["type"] == "confirmation"]

    with phone.expect_navigation(url=hand_page):  # the same page again, drawn anew once the tap is logged
        tap.click()
    expect(banner).to_be_empty()  # nothing waits for her any more: no banner
    confirmed = [e for e in _events(t) if e["type"] == "confirmation"]
    assert [(e["hand"], e["actor"]) for e in confirmed] == [(waiting[0], ids[0]), (waiting[1], ids[0])]
    for e in confirmed:  # each signed by the key her phone holds, with a nonce of its own
        assert e["data"]["signed"]["kid"] == held["kid"]
    assert len({e["data"]["signed"]["nonce"] for e in confirmed}) == 2

    # The page furniture: the log's check is a quiet line at the foot (no log size to go stale), nothing at the top.
    quiet = phone.locator("footer #witness.ok")
    expect(quiet).to_have_text("This phone checked the group's log: nothing was rewritten since its last visit.")
    expect(phone.locator("#witness-alarm")).to_be_empty()
    # What became of a tap this phone sent later is said on the next pages, then goes by itself.
    phone.evaluate("""([group, member]) => localStorage.setItem("bitka-taps", JSON.stringify([{
        id: "1-x", key: "web-" + "x".repeat(22), sign: "", action: `/g/${group}/waiting`, fields: [], group, member,
        name: "Ala", groupName: "Czwartek", label: "Yes to all 2", where: "page", made: Date.now(), state: "done",
        tab: "gone", fresh: false, lease: null, outcome: {kind: "logged"}, doneAt: Date.now()}]))""",
                   [group, ids[0]])
    for path in (hand_page, hand_page, f"{base}/g/{group}"):  # two pages of this tab (one drawn again is no other)
        arrive(phone, path)
        expect(phone.locator("#taps .taps-done")).to_contain_text("Yes to all 2: logged.")
    arrive(phone, f"{base}/g/{group}/tables/{t['table']}")
    expect(phone.locator("#taps .taps-done")).to_have_count(0)
