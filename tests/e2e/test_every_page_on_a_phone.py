"""Every page of a group that has played every game, in each language, on a 390 px phone in
Chromium: each page fits the phone's width without sideways scrolling, and its screenshot
goes to ``artifacts/every-page/<language>/`` for a person to look at.
``BITKA_EVERY_PAGE_GAMES=briscola,tressette`` shoots only those games' pages, of every preset
(a table of four and of two), and the glossary: to look at a game's words in each language.

The group is the one the language sweep reads (tests/api/every_page.py), made in-process and
then served by the real ``bitka serve``; the admin's browser signs in with the token form."""
from __future__ import annotations

import os
import re

import pytest

from games.registry import GAMES
from service.app import create_app
from tests.api import every_page
from tests.e2e.conftest import start_server, stop_server
from tests.e2e.test_browser import ARTIFACTS, _sign_in_by_keyboard, browser  # noqa: F401 - the fixture

LANGUAGES = {"en": "en-GB", "pl": "pl-PL", "it": "it-IT", "pt_BR": "pt-BR"}
PHONE = {"width": 390, "height": 844}
# Of each game, the pages of its first preset (the others differ in seats and rules, not in pages).
KINDS = ("table", "score sheet", "hand", "later hand", "score-sheet hand", "voided hand", "hand in play", "correct")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    where = tmp_path_factory.mktemp("every-page-served")
    db = where / "bitka.db"
    app = create_app({"BITKA_DB": str(db), "TESTING": True})
    group = every_page.played(app)
    app.extensions["bitka.store"].close()
    proc, base = start_server(db, where)
    yield base, group
    stop_server(proc)


def _shown(group: dict) -> dict[str, str]:
    """The pages a person is shown: every page but the other presets' and the live fragments
    (with ``BITKA_EVERY_PAGE_GAMES``, those games' pages of every preset and their glossaries)."""
    only = [g for g in os.environ.get("BITKA_EVERY_PAGE_GAMES", "").split(",") if g]
    if only:
        return {name: path for name, path in group["pages"].items()
                if any(name.startswith(f"{g}:") or name == f"{g} words" for g in only) and not name.endswith(" live")}
    firsts = {f"{name}:0 {kind}" for name in GAMES for kind in KINDS}
    return {name: path for name, path in group["pages"].items()
            if name in firsts or (":" not in name and name != "summary picture")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_phone_in_each_language(browser, served, language):  # noqa: F811 - the fixture
    base, group = served
    context = browser.new_context(locale=LANGUAGES[language], viewport=PHONE)
    page = context.new_page()
    _sign_in_by_keyboard(page, base, group["admin"].token)
    page.goto(f"{base}/language/{language}?next=/g/{group['group']}")
    page.wait_for_url(f"{base}/g/{group['group']}")
    shots = ARTIFACTS / "every-page" / language
    shots.mkdir(parents=True, exist_ok=True)
    too_wide = {}
    for name, path in _shown(group).items():
        answer = page.goto(base + path)
        assert answer is not None and answer.status == (404 if name == "not found" else 200), (language, name)
        page.screenshot(path=str(shots / f"{re.sub(r'[^a-z0-9]+', '-', name)}.png"), full_page=True)
        wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        if wide > window:
            too_wide[name] = wide
    context.close()
    assert not too_wide, f"pages wider than a {PHONE['width']} px phone in {language}: {too_wide}"
