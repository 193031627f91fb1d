"""The pages a table reads all evening, on a phone 360 and 390 px wide in Chromium, in English
and in Polish (longer words): a table's running score with four and with six players (Kop;
Bisca de seis, the "bisca:4" preset's rules) and a hand's log fit the phone's width without sideways
scrolling, and nothing in them is wider than its box; each text of the evening's picture lies
inside the picture, an amount up to 9 999 999,99 in each of bitka's languages; the radio
buttons of the two forms that have them sit beside their words. Each page is photographed
into ``$BITKA_ARTIFACTS`` (artifacts/ by default)."""
from __future__ import annotations

import re

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import call, start_server, stop_server
from tests.e2e.test_browser import ARTIFACTS, _accessible, _sign_in_by_keyboard, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
LOCALES = {"en": "en-GB", "pl": "pl-PL", "it": "it-IT", "pt_BR": "pt-BR"}
WIDTHS = (360, 390)
# Long names, as Polish names are: each longer than a column of six players on a phone.
NAMES = ["Bartłomiej", "Małgorzata", "Przemysław", "Katarzyna", "Władysław", "Agnieszka"]
LONG_NAME = "Bartłomiej Grzegorz Brzęczyszczykiewicz z Chrząszczyżewoszyc"
KOP_RESULTS = [  # at a stake of 12.50, running totals of three digits ("-100.00")
    {"contract": "normal", "stare": [1, 3], "doubles": [2, 1], "points": 70, "tricks": 3},
    {"contract": "normal", "stare": [0, 2], "doubles": [], "points": 40, "tricks": 1},
    {"contract": "normal", "stare": [0, 1], "doubles": [3], "points": 80, "tricks": 3},
]
BISCA_RESULTS = [([120, 0], [6, 0]), ([30, 90], [1, 5]), ([61, 59], [3, 3]), ([0, 120], [0, 6]),
                 ([91, 29], [5, 1]), ([120, 0], [6, 0]), ([30, 90], [1, 5]), ([61, 59], [3, 3])]
BIG = "9999999.99"


def _group(base: str, name: str, currency: str, names: list[str]) -> dict:
    st, g = call(base, "POST", "/v1/groups", {"name": name, "currency": currency, "confirmations": "off"})
    assert st == 201, g
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, g["admin_token"])[1] for n in names]
    return {"id": g["id"], "admin": g["admin_token"], "members": [m["id"] for m in members]}


def _table(base: str, group: dict, game: str, rules: dict, stake: str, seats: int) -> str:
    st, t = call(base, "POST", f"/v1/groups/{group['id']}/tables",
                 {"game": game, "rules": rules, "stake": stake, "seats": group["members"][:seats]}, group["admin"])
    assert st == 201, t
    return t["id"]


def _hand(base: str, group: dict, table: str, body: dict) -> str:
    st, hand = call(base, "POST", f"/v1/groups/{group['id']}/tables/{table}/hands", body, group["admin"])
    assert st == 201, hand
    return hand["id"]


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """One server: a group whose Kop table (4 players) played a hand card by card and three
    from the score sheet, the last voided, and whose Bisca de seis table (6 players, a game
    point paid at once) played eight; and one group per currency where three players won
    9 999 999,99 each and three lost it, beside a member with a very long name."""
    where = tmp_path_factory.mktemp("phone-layout")
    proc, base = start_server(where / "phone.db", where)
    group = _group(base, "Czwartkowe karty u Bartłomieja", "PLN", NAMES)
    kop = _table(base, group, "kop", {}, "12.50", 4)
    hands = {4: _hand(base, group, kop, {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                         "tricks": [{"cards": t} for t in KOP_TRICKS]})}
    last = [_hand(base, group, kop, {"result": result}) for result in KOP_RESULTS][-1]
    st, voided = call(base, "POST", f"/v1/groups/{group['id']}/hands/{last}/void", {"reason": "we miscounted"},
                      group["admin"])
    assert st in (200, 201), voided
    seis = _table(base, group, "bisca", {"variant": "seis", "stake_per": "game-point"}, "37.50", 6)
    for points, tricks in BISCA_RESULTS:
        hands[6] = _hand(base, group, seis, {"result": {"points": points, "tricks": tricks}})
    big = {}
    for currency in ("PLN", "EUR", "BRL"):
        rich = _group(base, f"Wielka gra o {currency}", currency, [*NAMES, LONG_NAME])
        table = _table(base, rich, "bisca", {"variant": "seis", "stake_per": "game-point"}, BIG, 6)
        _hand(base, rich, table, {"result": {"points": [61, 59], "tricks": [3, 3]}})
        big[currency] = rich
    yield {"base": base, "group": group, "tables": {4: kop, 6: seis}, "hands": hands, "big": big}
    stop_server(proc)


def _phone(browser, evening, group: dict, language: str, width: int):  # noqa: F811 - the fixture
    context = browser.new_context(locale=LOCALES[language], viewport={"width": width, "height": 800})
    page = context.new_page()
    _sign_in_by_keyboard(page, evening["base"], group["admin"])
    assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
    return page


# Inside ``selector``, leaving out what is hidden for screen readers only (in a box 1 px wide):
# each element (the box itself included) whose content is wider than it shows, and the right
# edge of the cell that ends furthest right.
_TOO_WIDE = """(selector) => {
    const hidden = (e) => { for (; e; e = e.parentElement) if (e.getBoundingClientRect().width <= 1) return true;
                            return false; };
    const found = [];
    let right = 0;
    for (const box of document.querySelectorAll(selector)) {
        for (const e of [box, ...box.querySelectorAll('*')]) {
            if (hidden(e)) continue;
            if (e.scrollWidth > e.clientWidth && getComputedStyle(e).display !== 'inline')
                found.push(`${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 40)}": `
                           + `${e.scrollWidth} px in ${e.clientWidth}`);
            if (e.matches('td, th')) right = Math.max(right, e.getBoundingClientRect().right);
        }
    }
    return [found, right];
}"""


def _fits(page, selector: str, name: str) -> None:
    assert page.locator(selector).count() > 0, f"{name}: no {selector}"
    wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= window, f"{name}: the page is {wide} px wide in a {window} px window"
    too_wide, right = page.evaluate(_TOO_WIDE, selector)
    assert too_wide == [], name
    # Each cell whole inside the page's column: the score's last player is seen, not scrolled to.
    column = page.evaluate("""(() => { const main = document.querySelector('main');
        return main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight); })()""")
    assert right <= column + 0.5, f"{name}: a cell ends at {right} px, the page's column at {column}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("seats", (4, 6))
@pytest.mark.parametrize("language", ("en", "pl"))
def test_a_tables_running_score_fits_a_phone(browser, evening, language, seats, width):  # noqa: F811
    page = _phone(browser, evening, evening["group"], language, width)
    page.goto(f"{evening['base']}/g/{evening['group']['id']}/tables/{evening['tables'][seats]}")
    score = page.locator("table.score")
    assert score.locator("thead th").count() == seats + 1
    assert score.locator("tbody tr").count() == (4 if seats == 4 else len(BISCA_RESULTS))
    _fits(page, "section[aria-labelledby=score-h]", f"the score of {seats} in {language} at {width} px")
    first = score.locator("tbody th").first.inner_text()  # the hand's number and who dealt, one line of text
    assert first.startswith("1 ") and NAMES[0] in first, first
    _accessible(page, f"phone-score-{seats}-players-{language}-{width}")
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("seats", (4, 6))
@pytest.mark.parametrize("language", ("en", "pl"))
def test_a_hands_log_fits_a_phone(browser, evening, language, seats, width):  # noqa: F811
    page = _phone(browser, evening, evening["group"], language, width)
    page.goto(f"{evening['base']}/g/{evening['group']['id']}/hands/{evening['hands'][seats]}")
    events = page.locator("table.events tbody tr")
    assert events.count() >= 2
    _fits(page, "section[aria-labelledby=log-h]", f"the log of a hand of {seats} in {language} at {width} px")
    _fits(page, "section[aria-labelledby=why-h]", f"the payouts of a hand of {seats} in {language} at {width} px")
    hash_box, event_box = (events.first.locator(s).bounding_box() for s in (".hash", "td.event"))
    assert hash_box["y"] >= event_box["y"] + event_box["height"] - 1, "on a phone the hash goes under the event"
    assert events.first.locator(".hash").get_attribute("title").startswith(
        events.first.locator(".hash").inner_text().split(" ")[-1].rstrip("…"))
    _accessible(page, f"phone-log-{seats}-players-{language}-{width}")
    page.context.close()


# Each <text> of the picture: its words, its box (getBBox, in the viewBox's units) and whether
# that box lies inside the viewBox.
_TEXTS = """(svg) => {
    const [x0, y0, w, h] = svg.getAttribute('viewBox').split(/\\s+/).map(Number);
    return [...svg.querySelectorAll('text')].map((t) => {
        const b = t.getBBox();
        return {text: t.textContent, x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height,
                inside: b.x >= x0 && b.y >= y0 && b.x + b.width <= x0 + w && b.y + b.height <= y0 + h};
    });
}"""


def _texts_inside(svg, name: str) -> list[dict]:
    texts = svg.evaluate(_TEXTS)
    assert texts, name
    outside = [t for t in texts if not t["inside"]]
    assert outside == [], f"{name}: cut at the picture's edge: {outside}"
    for one in texts:  # a name and its amount share a line: neither runs into the other
        for other in texts:
            if one is not other and abs(one["y"] - other["y"]) < 4 and one["x"] < other["x"]:
                assert one["right"] <= other["x"], f"{name}: {one['text']!r} runs into {other['text']!r}"
    return texts


@pytest.mark.parametrize("language", LOCALES)
def test_the_evening_picture_keeps_every_amount_and_name_inside(browser, evening, language):  # noqa: F811
    for currency, group in evening["big"].items():
        page = _phone(browser, evening, group, language, 390)
        page.goto(f"{evening['base']}/g/{group['id']}/summary")
        name = f"the picture in {language} in {currency}"
        texts = _texts_inside(page.locator("figure.summary-image svg"), name)
        amounts = [t["text"] for t in texts if "999" in t["text"]]
        assert len(amounts) == 6 and all(re.sub(r"\D", "", a) == "999999999" for a in amounts), amounts
        assert any(t["text"] == LONG_NAME or t["text"].endswith("…") for t in texts)
        _accessible(page, f"phone-summary-{currency}-{language}-390")
        figure = page.locator("figure.summary-image svg")
        figure.screenshot(path=str(ARTIFACTS / f"phone-summary-picture-{currency}-{language}.png"))
        # The picture as it is downloaded and shared, drawn at its own 480 px.
        page.set_viewport_size({"width": 480, "height": 800})
        page.goto(f"{evening['base']}/g/{group['id']}/summary.svg")
        _texts_inside(page.locator("svg"), f"{name}, downloaded")
        page.context.close()


# Each radio the form shows (a game's own rules show once that game is chosen): its box, the box
# of the first line of its words, the label's box, and how many lines its words take.
_RADIOS = """() => [...document.querySelectorAll('main input[type=radio]')]
    .filter((radio) => radio.closest('label').getClientRects().length).map((radio) => {
    const label = radio.closest('label');
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    const lines = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        lines.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
    }
    const bottoms = [...new Set(lines.map((x) => Math.round(x.bottom)))].sort((a, b) => a - b);
    const first = lines.filter((x) => Math.round(x.bottom) === bottoms[0]);
    const r = radio.getBoundingClientRect(), l = label.getBoundingClientRect();
    return {words: label.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40),
            radio: [r.left, r.top, r.right, r.bottom],
            first: [Math.min(...first.map((x) => x.left)), Math.min(...first.map((x) => x.top)),
                    Math.max(...first.map((x) => x.right)), Math.max(...first.map((x) => x.bottom))],
            label: [l.left, l.right, l.height], lines: bottoms.length};
})"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ("en", "pl"))
def test_each_radio_sits_beside_its_words(browser, evening, language, width):  # noqa: F811
    page = _phone(browser, evening, evening["group"], language, width)
    for form, path in (("new-group", "/new"), ("new-table", f"/g/{evening['group']['id']}/tables/new")):
        page.goto(evening["base"] + path)
        radios = page.evaluate(_RADIOS)
        assert len(radios) >= 2, form
        for radio in radios:
            words, (_, top, right, bottom) = radio["words"], radio["radio"]
            first_left, first_top, first_right, first_bottom = radio["first"]
            label_left, label_right, label_height = radio["label"]
            assert first_top <= (top + bottom) / 2 <= first_bottom, f"{form}: the radio of {words!r} is not beside it"
            assert right <= first_left <= right + 20, f"{form}: the words of {words!r} are not beside the radio"
            assert label_height >= 44 and label_right - label_left >= 44, f"{form}: {words!r} is hard to tap"
            if len(words) <= 12:  # "At once", "Od razu": one line
                assert radio["lines"] == 1, f"{form}: {words!r} takes {radio['lines']} lines"
            elif radio["lines"] > 1:  # words that wrap fill their first line first
                assert first_right >= label_left + 0.6 * (label_right - label_left), f"{form}: {words!r} wraps early"
        _accessible(page, f"phone-radios-{form}-{language}-{width}")
    page.context.close()
