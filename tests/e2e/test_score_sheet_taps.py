"""The score sheet on a phone, tap by tap (issue 43: "the evening as the players feel it"), in
Chromium against a live ``bitka serve``. A tap is what a player does with a finger: a click on
one of the page's own controls, or a key pressed on the keypad. The sheet asks the contract,
then who, then the numbers, and only what the contract needs; the keypad comes up for a number
by itself; the settlement shows as soon as every answer is in. So a Kop hand without doubles
takes at most 6 taps (contract, players, points, tricks, show, log) and each double one more;
an impossible total comes back with the totals near it that can happen, one tap each, every
other answer kept; a Scopa hand takes at most 8, and its first hand, which pays nothing yet,
says so in words."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import call, start_server, stop_server
from tests.e2e.test_browser import _accessible, _sign_in_by_keyboard, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}
NAMES = ("Ala", "Bożena", "Cyprian", "Dorota")


@pytest.fixture
def tables(tmp_path):
    proc, base = start_server(tmp_path / "sheet.db", tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1] for n in NAMES]
    seats = [m["id"] for m in members]
    st, kop = call(base, "POST", f"/v1/groups/{g['id']}/tables", {"game": "kop", "stake": "1.00", "seats": seats},
                   admin)
    st, scopa = call(base, "POST", f"/v1/groups/{g['id']}/tables",
                     {"game": "scopa", "stake": "1.00", "seats": seats[:2]}, admin)
    yield {"base": base, "group": g["id"], "admin": admin, "members": members, "kop": kop["id"],
           "scopa": scopa["id"]}
    stop_server(proc)


class Taps:
    """A phone's taps, counted: each click on a control, each key pressed."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, control) -> None:
        control.click()
        self.count += 1

    def keys(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.count += len(text)


def _logged(page, e: dict) -> dict:
    """The result of the hand the page went to once it was logged, as the API reads it."""
    page.wait_for_url(f"{e['base']}/g/{e['group']}/hands/*")
    hand = page.url.split("?")[0].rsplit("/", 1)[-1]
    st, read = call(e["base"], "GET", f"/v1/groups/{e['group']}/hands/{hand}", token=e["admin"])
    return read["result"]


def test_a_kop_and_a_scopa_hand_each_take_a_few_taps_on_the_score_sheet(browser, tables):  # noqa: F811 - the fixture
    e = tables
    page = browser.new_page(viewport=PHONE)
    _sign_in_by_keyboard(page, e["base"], e["members"][0]["token"])
    sheet = f"{e['base']}/g/{e['group']}/tables/{e['kop']}/result"

    # A normal game with one double: the stare, the double, the card points, the tricks, the log.
    page.goto(sheet)
    taps = Taps(page)
    stare = page.get_by_role("group", name="who held Q♣ and Q♠")
    expect(page.get_by_role("group", name="Any other contract")).to_be_hidden()  # asked only of other contracts
    taps.tap(stare.get_by_label("Bożena"))
    taps.tap(stare.get_by_label("Dorota"))
    points = page.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104")
    expect(points).to_be_focused()  # the keypad comes up by itself
    taps.tap(page.get_by_role("button", name="Cyprian: kontra"))  # one tap, no page loaded
    expect(page.locator("ol.doubles")).to_have_text("Cyprian: kontra")
    expect(points).to_be_focused()
    taps.keys("70")
    taps.tap(page.get_by_role("group", name="Tricks they took").get_by_label("3", exact=True))
    expect(page.get_by_role("heading", name="It would settle like this")).to_be_visible()  # shown, not tapped for
    assert "multiplier 2" in page.locator(".preview").inner_text()
    _accessible(page, "score-sheet-kop-taps")
    taps.tap(page.get_by_role("button", name="Log this result"))
    assert _logged(page, e) == {"contract": "normal", "stare": [1, 3], "doubles": [2], "points": 70, "tricks": 3}
    assert taps.count <= 6 + 1, taps.count

    # Zolo, its card points typed wrong: the totals its trick can hold come back, one tap each.
    page.goto(sheet)
    taps = Taps(page)
    taps.tap(page.get_by_label("zolo", exact=True))
    expect(page.get_by_role("group", name="who held Q♣ and Q♠")).to_be_hidden()
    declarer = page.get_by_role("group", name="Who called zolo?")
    taps.tap(declarer.get_by_label("Cyprian"))
    points = page.get_by_label("Card points of the one who played alone, 0 to 104")
    expect(points).to_be_focused()
    taps.keys("75")
    one = page.get_by_role("group", name="Tricks the one who played alone took").get_by_label("1", exact=True)
    taps.tap(one)
    expect(page.get_by_role("alert")).to_contain_text("75 card points in 1 trick is impossible")
    expect(declarer.get_by_label("Cyprian")).to_be_checked()  # nothing typed is lost
    expect(one).to_be_checked()
    taps.tap(page.locator("#points-said").get_by_role("button", name="44", exact=True))
    expect(points).to_have_value("44")
    expect(page.get_by_role("heading", name="It would settle like this")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    taps.tap(page.get_by_role("button", name="Log this result"))
    assert _logged(page, e) == {"contract": "zolo", "declarer": 2, "doubles": [], "points": 44, "tricks": 1}
    assert taps.count <= 6 + 1, taps.count  # no double, one value taken instead of the one typed

    # Scopa: who took each category, a scopa, the log; back to the table, not the group.
    page.goto(f"{e['base']}/g/{e['group']}/tables/{e['scopa']}/result")
    back = page.get_by_role("link", name="← Scopa for two at")
    assert back.get_attribute("href") == f"/g/{e['group']}/tables/{e['scopa']}"
    taps = Taps(page)
    for category in ("cards", "coins", "primiera", "settebello"):
        taps.tap(page.get_by_role("group", name=f"Who took the {category}").get_by_label("Ala"))
    scopas = page.get_by_role("group", name="Scopas made by").get_by_label("Ala")
    taps.tap(scopas)
    taps.keys("1")  # over the 0 the field held
    expect(scopas).to_have_value("1")
    preview = page.locator(".preview")
    expect(preview).to_contain_text("Ala 5, Bożena 0")  # the game score, for the form as it is now
    expect(preview).to_contain_text("Nobody pays or receives anything for this hand.")
    assert preview.locator("table").count() == 0
    _accessible(page, "score-sheet-scopa-taps")
    taps.tap(page.get_by_role("button", name="Log this result"))
    assert _logged(page, e) == {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [1, 0]}
    assert taps.count <= 8, taps.count
