"""The pages in a real browser (Playwright driving Debian's Chromium) against a live
``bitka serve``: sign in, deal and log a whole Kop hand one tap per card, see the balances
move, verify the hand in the browser, and enter a score-sheet result with a mistake first.
Every page passes axe-core's accessibility rules; a screenshot of each is kept in
``$BITKA_ARTIFACTS`` (default ``artifacts/``) for CI to keep."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import call, start_server, stop_server

pytestmark = pytest.mark.e2e
CHROMIUM = os.environ.get("BITKA_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("BITKA_ARTIFACTS", Path(__file__).resolve().parents[2] / "artifacts"))
SYMBOLS = {"S": "spades", "C": "clubs", "H": "hearts", "D": "diamonds"}
WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def _words(card: str) -> str:
    return f"{WORDS.get(card[:-1], card[:-1])} of {SYMBOLS[card[-1]]}"


@pytest.fixture(scope="module")
def browser():
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "playwright is not installed"
    if problem is None and not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        problem = f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; or set BITKA_CHROMIUM)"
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the browser tests, but {problem}")
        pytest.skip(problem)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def table(tmp_path):
    proc, base = start_server(tmp_path / "browser.db", tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1] for n in
               ("Ala", "Bożena", "Cyprian", "Dorota")]
    st, t = call(base, "POST", f"/v1/groups/{g['id']}/tables",
                 {"game": "kop", "stake": "1.00", "seats": [m["id"] for m in members]}, admin)
    yield {"base": base, "group": g["id"], "admin": admin, "members": members, "table": t["id"]}
    stop_server(proc)


def _accessible(page, name: str) -> None:
    """axe-core's WCAG rules on the page as it stands, and a screenshot of it."""
    from axe_playwright_python.sync_playwright import Axe
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}: {results.generate_report()}"
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{name}: the page is {wide[0]} px wide in a {wide[1]} px window"


def _sign_in_by_keyboard(page, base: str, token: str) -> None:
    """An API user's way in: the token form folded under the start page's invitation text."""
    page.goto(base + "/")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # bitka
    page.keyboard.press("Tab")  # start a new group
    page.keyboard.press("Tab")  # "Sign in with a token"
    page.keyboard.press("Enter")  # unfolds it
    page.keyboard.press("Tab")  # the token field
    page.keyboard.type(token)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/g/*")


def _to_table(page) -> None:
    page.get_by_role("link", name=re.compile(r"^Kop at ")).click()


def test_a_whole_kop_hand_card_by_card_then_verified_in_the_browser(browser, table):
    base, gid = table["base"], table["group"]
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(base + "/")
    _accessible(page, "1-sign-in")
    page.get_by_text("Sign in with a token").click()
    page.get_by_label("Your token").fill("not-a-token")
    page.get_by_role("button", name="Sign in").click()
    assert "not known here" in page.get_by_role("alert").inner_text()
    _sign_in_by_keyboard(page, base, table["members"][0]["token"])
    assert page.url == f"{base}/g/{gid}"
    [cookie] = [c for c in page.context.cookies() if c["name"] == "bitka_session"]
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict"
    assert table["members"][0]["token"] not in cookie["value"]  # a session of its own, not the token
    assert page.evaluate("document.cookie") == ""  # scripts cannot read the session
    _accessible(page, "2-group")
    page.get_by_role("link", name="Signed-in devices").click()
    page.get_by_text("(this browser)").wait_for()  # Chrome on Linux, made and last used just now
    _accessible(page, "2b-devices")
    page.goto(f"{base}/g/{gid}")

    _to_table(page)
    page.get_by_role("link", name="Type in the deal").click()
    for seat, cards in enumerate(KOP_HANDS):
        page.locator(f"#seat{seat}").fill(" ".join(cards))
    _accessible(page, "3-deal")
    page.get_by_role("button", name="Deal").click()
    for number, trick in enumerate(KOP_TRICKS, 1):
        page.get_by_role("heading", name=f"Trick {number}").wait_for()
        for i, card in enumerate(trick):
            if number == 1 and i == 0:
                page.get_by_role("heading", name="Before the first trick: a call").wait_for()
                _accessible(page, "4a-first-card-or-a-call")
            if number == 1 and i == 1:
                _accessible(page, "4-card-by-card")
                illegal = page.locator(".play.illegal")
                assert illegal.count() > 0  # the service said which cards may not follow
            name = f"play the {_words(card)}" + (" and log the trick" if i == len(trick) - 1 else "")
            target = page.get_by_role("button" if i == len(trick) - 1 else "link", name=name, exact=True)
            if number == 2:  # one whole trick from the keyboard alone
                target.focus()
                page.keyboard.press("Enter")
            else:
                target.click()

    page.wait_for_url(f"{base}/g/{gid}/hands/*")
    page.get_by_role("heading", name="Why it paid what it paid").wait_for()
    assert page.locator(".card.red").count() > 0 and page.locator(".card.black").count() > 0
    _accessible(page, "5-hand")
    page.get_by_role("button", name="Verify in this browser").click()
    result = page.locator("#verify-result")
    result.filter(has_text="erified").wait_for()
    assert result.inner_text().startswith("Verified in this browser: every event of this hand (6 in all)"), \
        result.inner_text()

    st, waiting = call(base, "GET", f"/v1/groups/{gid}/balances", token=table["admin"])
    tokens = {m["id"]: m["token"] for m in table["members"]}
    for member in waiting["pending"][0]["waiting_for"]:  # Ala logged it; the other payer agrees too
        assert call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/confirm", None, tokens[member])[0] == 201
    page.goto(f"{base}/g/{gid}")
    st, balances = call(base, "GET", f"/v1/groups/{gid}/balances", token=table["admin"])
    shown = page.locator("table.money").first.inner_text()
    for b in balances["balances"]:
        assert b["balance"] != "0.00" and b["balance"] in shown  # the balances moved, as the API says
    assert page.locator("svg.chart polyline").count() == 4
    _accessible(page, "6-group-after")


def test_a_hand_in_play_shows_a_member_only_its_own_cards_and_still_verifies(browser, table):
    """The scorer (the admin here) logged the whole deal; Bożena, at seat 1, sees her four
    cards and three face-down hands, and the verify button proves the sealed deal's place in
    the signed log without its content."""
    base, gid = table["base"], table["group"]
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/hands",
                    {"deal": {"dealer": 0, "hands": KOP_HANDS}}, table["admin"])
    page = browser.new_page(viewport={"width": 360, "height": 740})
    _sign_in_by_keyboard(page, base, table["members"][1]["token"])
    page.goto(f"{base}/g/{gid}/hands/{hand['id']}")
    text = page.content()
    assert all(_words(c) in text for c in KOP_HANDS[1])
    assert not any(_words(c) in text for seat in (0, 2, 3) for c in KOP_HANDS[seat])
    assert page.locator(".card.sealed").count() == 12
    _accessible(page, "7-sealed-hand")
    page.get_by_role("button", name="Verify in this browser").click()
    result = page.locator("#verify-result")
    result.filter(has_text="erified").wait_for()
    assert "Sealed while the hand is in play: 1 of its events" in result.inner_text(), result.inner_text()


def test_the_verify_button_refuses_a_page_that_shows_another_hash(browser, table):
    base, gid = table["base"], table["group"]
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/hands",
                    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": t} for t in KOP_TRICKS]},
                    table["admin"])
    page = browser.new_page()
    _sign_in_by_keyboard(page, base, table["admin"])
    page.goto(f"{base}/g/{gid}/hands/{hand['id']}")
    page.evaluate("document.querySelector('#event-7 .hash').setAttribute('title', '00' + '11'.repeat(31))")
    page.get_by_role("button", name="Verify in this browser").click()
    page.locator("#verify-result.bad").wait_for()
    assert "the page shows another hash for event 7" in page.locator("#verify-result").inner_text()


def _events(table):
    st, page = call(table["base"], "GET", f"/v1/groups/{table['group']}/events?limit=1000", token=table["admin"])
    return [e["type"] for e in page["events"]]


def test_a_score_sheet_result_shows_its_error_then_its_settlement_before_it_is_logged(browser, table):
    base, gid = table["base"], table["group"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    _sign_in_by_keyboard(page, base, table["members"][1]["token"])
    _to_table(page)
    page.get_by_role("link", name="Score sheet: enter a result").click()
    page.get_by_label("normal game (no call)").check()
    page.get_by_role("group", name="who held Q♣ and Q♠").get_by_label("Bożena").check()  # the stare: two names
    page.get_by_role("group", name="who held Q♣ and Q♠").get_by_label("Dorota").check()
    page.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104").fill("130")
    page.get_by_role("group", name="Tricks they took, 0 to 4").get_by_label("3", exact=True).check()
    page.get_by_role("button", name="Show the settlement").click()
    error = page.locator("#points-error")
    error.wait_for()  # the page after the click, not the one before it
    assert "points" in error.inner_text()
    field = page.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104")
    assert field.get_attribute("aria-invalid") == "true"
    _accessible(page, "7-score-sheet-error")
    field.fill("70")
    page.get_by_role("button", name="Show the settlement").click()
    page.get_by_role("heading", name="It would settle like this").wait_for()
    _accessible(page, "8-score-sheet-preview")
    assert _events(table).count("result") == 0  # the preview appended nothing
    page.get_by_role("button", name="Log this result").click()
    page.wait_for_url(f"{base}/g/{gid}/hands/*")
    assert _events(table)[-2:] == ["result", "settlement"]


def test_doubles_are_tapped_by_name_and_back_and_log_again_logs_nothing_more(browser, table):
    """The issue's two: every double refused ("2:kontra" typed as the placeholder said), and
    Back then "Log this result" logging the hand twice."""
    base, gid = table["base"], table["group"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    _sign_in_by_keyboard(page, base, table["members"][0]["token"])
    _to_table(page)
    page.get_by_role("link", name="Score sheet: enter a result").click()
    page.get_by_label("normal game (no call)").check()
    page.get_by_role("group", name="who held Q♣ and Q♠").get_by_label("Bożena").check()
    page.get_by_role("group", name="who held Q♣ and Q♠").get_by_label("Dorota").check()
    page.get_by_role("button", name="Cyprian: kontra").click()  # młodzi double...
    page.get_by_role("button", name="Bożena: re").click()  # ...stare answer
    assert page.locator("ol.doubles").inner_text().splitlines() == ["Cyprian: kontra", "Bożena: re"]
    _accessible(page, "9-score-sheet-doubles")
    page.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104").fill("70")
    page.get_by_role("group", name="Tricks they took, 0 to 4").get_by_label("3", exact=True).check()
    page.get_by_role("button", name="Show the settlement").click()
    assert "multiplier 4" in page.locator(".preview").inner_text()  # two runs of doubles
    page.get_by_role("button", name="Log this result").dblclick()  # a double tap
    # The second tap's navigation may cut the first's short (net::ERR_ABORTED), which
    # wait_for_url takes for a failure: wait for the address the page ends on instead.
    expect(page).to_have_url(re.compile(rf"{re.escape(base)}/g/{gid}/hands/[^/?]+(\?.*)?$"), timeout=15_000)
    page.wait_for_load_state()
    # The second tap may land after the first (on the same hand, "?already=1") or not at all:
    # the hand is the address without its query either way.
    hand_url = page.url.split("?")[0]
    assert _events(table).count("result") == 1
    page.go_back()
    page.get_by_role("button", name="Log this result").click()
    page.wait_for_url(f"{base}/g/{gid}/hands/*")
    assert page.url.split("?")[0] == hand_url and "That form was sent before" in page.locator("main").inner_text()
    assert _events(table).count("result") == 1
    st, hand = call(base, "GET", f"/v1/groups/{gid}/hands/{hand_url.rsplit('/', 1)[-1]}", token=table["admin"])
    assert hand["result"]["doubles"] == [2, 1]
    page.reload()  # the hand page again: nothing is sent
    assert _events(table).count("result") == 1


@pytest.mark.parametrize("locale, lang, heading, verified", [
    ("pl-PL", "pl", "Skąd takie wypłaty", "Zweryfikowano"),
    ("it-IT", "it", None, "Verificato"),
])
def test_the_group_and_a_hand_in_polish_and_italian(browser, table, locale, lang, heading, verified):
    """A phone set to Polish or Italian gets the pages in its language (Accept-Language),
    the amounts its way, and the verify button speaking it; screenshots go to artifacts/."""
    base, gid = table["base"], table["group"]
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/hands",
                    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": t} for t in KOP_TRICKS]},
                    table["admin"])
    assert st == 201, hand
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = context.new_page()
    _sign_in_by_keyboard(page, base, table["members"][0]["token"])
    assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
    assert re.search(r"\d,\d\d\s(zł|PLN)", page.locator("main").inner_text())  # "3,00 zł", "3,00 PLN"
    _accessible(page, f"{lang}-group")
    page.goto(f"{base}/g/{gid}/hands/{hand['id']}")
    if heading:
        page.get_by_role("heading", name=heading).wait_for()
    _accessible(page, f"{lang}-hand")
    page.locator("#verify").click()
    page.locator("#verify-result.ok").wait_for()
    said = page.locator("#verify-result").inner_text()
    assert said.startswith(verified), said
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", said), "the signature's time, as the language writes it"
    assert re.search(r"\d{2}:\d{2}:\d{2} UTC", said), said
    context.close()
