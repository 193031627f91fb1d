"""Every page of an evening in English, Polish, Italian and Brazilian Portuguese: the page
says its language, its headings are translated, amounts are written the language's way,
the language is chosen from the browser's Accept-Language or from the link at the foot of
every page (and remembered), and the games' own words stay theirs."""
from __future__ import annotations

import re

import pytest

from service.i18n.money import money
from tests.api.test_evening_pages import _form, _hidden, _open_table, evening  # noqa: F401 - the fixture

LANGUAGES = {"pl": "pl", "it": "it", "pt_BR": "pt-BR"}
# What each language's pages say for "3.00" of the evening's currency (PLN), as its readers write it.
AMOUNT = {"en": "PLN\xa0{}", "pl": "{}\xa0zł", "it": "{}\xa0PLN", "pt_BR": "PLN\xa0{}"}
WHEN = {  # an event's time on a hand's page: "29 lis 2026, 14:03:11 UTC", "29 nov 2026, ...", "29 de nov. de 2026 ..."
    "pl": r"\d{1,2} (sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4}, \d{2}:\d{2}:\d{2} UTC",
    "it": r"\d{1,2} (gen|feb|mar|apr|mag|giu|lug|ago|set|ott|nov|dic) \d{4}, \d{2}:\d{2}:\d{2} UTC",
    "pt_BR": r"\d{1,2} de [a-zç]{3}\.? de \d{4},? \d{2}:\d{2}:\d{2} UTC",
}
BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}  # what a browser asks a page for
DECIMAL = {"en": ".", "pl": ",", "it": ",", "pt_BR": ","}


def _headings(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", h).strip() for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", page, re.S)]


def _pages(admin, phone, group, kop, scopa, hand) -> dict:
    """Every page of the evening a player or the admin opens, by who opens it."""
    return {
        "group": (phone, f"/g/{group}"), "kop table": (phone, f"/g/{group}/tables/{kop}"),
        "scopa table": (phone, f"/g/{group}/tables/{scopa}"), "hand": (phone, f"/g/{group}/hands/{hand}"),
        "score sheet": (phone, f"/g/{group}/tables/{kop}/result"), "summary": (phone, f"/g/{group}/summary"),
        "members": (admin, f"/g/{group}/members"), "new table": (admin, f"/g/{group}/tables/new"),
        "correct": (admin, f"/g/{group}/hands/{hand}/correct"), "start": (phone, "/?choose=1"),
        "new group": (phone, "/new"), "kop words": (phone, "/glossary/kop"), "baska words": (phone, "/glossary/baska"),
        "scopa words": (phone, "/glossary/scopa"), "bisca words": (phone, "/glossary/bisca"),
        "not found": (phone, "/no/such/page"),
    }


def _choose(browser, language: str) -> None:
    chosen = browser.http.get(f"/language/{language}?next=/")
    assert chosen.status_code == 302 and chosen.headers["Location"] == "/"


@pytest.fixture
def played(app, evening):  # noqa: F811 - the fixture of the evening's pages
    admin, group, phones, names = evening
    kop = _open_table(admin, group, "kop:0", names, entry="scorer")  # a member's score sheet: a scorer's table
    scopa = _open_table(admin, group, "scopa:0", names[:2])
    page = phones[1].http.get(f"/g/{group}/tables/{kop}/result").get_data(as_text=True)
    result = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "contract": "normal",
              "stare": ["1", "3"], "doubles": "", "points": "40", "tricks": "1"}
    shown = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data={**result, "confirm": "no"})
    done = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data={
        **result, "confirm": "yes", "previewed": _hidden(shown.get_data(as_text=True), "previewed")})
    assert done.status_code == 303
    return admin, phones[0], group, kop, scopa, done.headers["Location"].split("/")[-1]


def test_every_page_in_each_language(played):
    admin, phone, group, kop, scopa, hand = played
    pages = _pages(admin, phone, group, kop, scopa, hand)
    english = {name: who.http.get(path, headers=BROWSER).get_data(as_text=True) for name, (who, path) in pages.items()}
    assert [name for name, page in english.items() if "<html lang=\"en\">" not in page] == []
    for language, tag in LANGUAGES.items():
        for browser in (admin, phone):
            _choose(browser, language)
        for name, (who, path) in pages.items():
            answer = who.http.get(path, headers=BROWSER)
            page = answer.get_data(as_text=True)
            assert answer.status_code == (404 if name == "not found" else 200), (language, name)
            assert f'<html lang="{tag}">' in page, (language, name)
            before, after = _headings(english[name]), _headings(page)
            assert len(before) == len(after), (language, name, before, after)
            fixed = {"Thursday cards", "Ala", "bitka"}  # names are names in every language
            said = [(b, a) for b, a in zip(before, after, strict=True) if b not in fixed and not b.startswith("Kop")]
            assert said and all(b != a for b, a in said), (language, name, said)
            assert "Skip to the content" not in page and "Signed in as" not in page, (language, name)
    for browser in (admin, phone):
        _choose(browser, "en")


def test_amounts_are_written_the_readers_way(played):
    admin, phone, group, kop, scopa, hand = played
    english = phone.http.get(f"/g/{group}").get_data(as_text=True)
    amounts = re.findall(r"PLN\xa0([0-9]+\.[0-9]{2})", english)
    assert amounts, "the group page shows amounts with their currency"
    for language in LANGUAGES:
        _choose(phone, language)
        page = phone.http.get(f"/g/{group}").get_data(as_text=True)
        for amount in amounts:
            assert AMOUNT[language].format(amount.replace(".", DECIMAL[language])) in page, (language, amount)
        hand_page = phone.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        assert re.search(WHEN[language], hand_page), (language, "each event's time, the language's way")
    assert money("3.00", "PLN", "pl") == "3,00\xa0zł" and money("3.00", "EUR", "it") == "3,00\xa0€"
    assert money("3.00", "BRL", "pt_BR") == "R$\xa03,00" and money("3.00", "EUR", "en") == "€3.00"
    assert money("150", "JPY", "pl") == "150\xa0JPY" and money("1.250", "KWD", "en") == "KWD\xa01.250"
    assert money("-1234.50", "PLN", "pl") == "-1\xa0234,50\xa0zł" and money("2.00", "PLN", "en", True) == "+PLN\xa02.00"


def test_the_browsers_language_is_the_default_and_a_choice_is_remembered(played):
    admin, phone, group, kop, scopa, hand = played
    asked = phone.http.get(f"/g/{group}", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert '<html lang="it">' in asked.get_data(as_text=True)
    portuguese = phone.http.get(f"/g/{group}", headers={"Accept-Language": "pt-PT"})
    assert '<html lang="pt-BR">' in portuguese.get_data(as_text=True)  # the one Portuguese bitka has
    unknown = phone.http.get(f"/g/{group}", headers={"Accept-Language": "de, fr;q=0.5"})
    assert '<html lang="en">' in unknown.get_data(as_text=True)
    page = phone.http.get(f"/g/{group}").get_data(as_text=True)
    link = re.search(r'href="(/language/pl\?next=[^"]+)"', page).group(1).replace("&amp;", "&")
    chosen = phone.http.get(link)
    assert chosen.status_code == 302 and chosen.headers["Location"].startswith(f"/g/{group}")
    again = phone.http.get(f"/g/{group}", headers={"Accept-Language": "it"})  # the choice wins over the browser
    assert '<html lang="pl">' in again.get_data(as_text=True)
    assert phone.http.get("/language/pl?next=//evil.example/").headers["Location"] == "/"
    assert phone.http.get("/language/xx").status_code == 404


def test_the_games_own_words_stay_theirs_and_the_glossary_explains_them(played):
    admin, phone, group, kop, scopa, hand = played
    _choose(phone, "it")
    words = phone.http.get("/glossary/scopa").get_data(as_text=True)
    assert "settebello" in words and "primiera" in words and "chiamarsi fuori" in words
    assert "The seven of coins" not in words
    _choose(phone, "pl")
    baska = phone.http.get("/glossary/baska").get_data(as_text=True)
    assert '<dt lang="csb">Bëtowskô Baśka</dt>' in baska and '<dt lang="csb">dëtczi</dt>' in baska
    assert '<dt lang="pl">bok-runda</dt>' in baska
    sheet = phone.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "seat" not in re.sub(r"<[^>]+>", " ", sheet).lower().replace("seat_", "")
