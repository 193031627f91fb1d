"""bench/taps.py, the counter behind bench/evening.py: every action on a counted page, or on
anything reached from it (a locator, its ``first``, ``all()``, the keyboard), is counted for its
device and step; reading and waiting count nothing; a field's typing counts the keys that
change what it holds. A page served by a route, in Chromium: no server."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bench.taps import Count, Counted, Tally, keys_to_change, raw
from tests.e2e.test_browser import browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
PAGE = """<!doctype html><html lang="en"><body><main>
<a href="/next">Next</a>
<label for="points">Points</label><input id="points" value="30">
<label for="contract">Contract</label>
<select id="contract"><option value="a">A</option><option value="b">B</option></select>
<label><input type="checkbox" name="stare" value="0"> Ala</label>
<button type="button">One</button><button type="button">Two</button>
</main></body></html>"""


def test_keys_to_change_a_field():
    assert keys_to_change("", "70") == 2
    assert keys_to_change("30", "35") == 2  # a backspace, then the 5
    assert keys_to_change("55", "70") == 4
    assert keys_to_change("70", "70") == 0
    assert keys_to_change("PL61", "") == 4


def test_every_action_from_a_counted_page_is_counted_and_nothing_else(browser):  # noqa: F811 - the fixture
    context = browser.new_context()
    context.route("http://bench.test/**", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    tally = Tally()
    page = Counted(context.new_page(), "Ala", tally)

    tally.begin("on the page", "pages")
    page.goto("http://bench.test/")
    page.get_by_label("Points").fill("35")
    page.get_by_label("Contract").select_option("b")
    page.get_by_role("checkbox").check()
    page.locator("button").all()[1].click()
    page.locator("button").first.dblclick()
    page.get_by_label("Points").focus()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    assert page.get_by_role("button").count() == 2 and page.locator("main").inner_text()  # reading: nothing
    expect(raw(page.get_by_label("Points"))).to_have_value(re.compile("12"))  # waiting: nothing
    assert tally.step.counts == {"Ala": Count(taps=1 + 1 + 2 + 1 + 1 + 2, typed=2 + 2 + 1)}

    tally.begin("moving", "pages")
    with tally.moving():
        page.get_by_role("link", name="Next").click()
        page.wait_for_url("http://bench.test/next")
        page.reload()
    page.get_by_label("Points").clear()
    assert tally.of("moving", "Ala") == Count(taps=3, typed=2, moves=2)
    assert tally.of("on the page", "Ala").taps == 8  # the first step's count stays its own

    tally.note("a way taken")
    tally.note("reloaded", "Ala")
    tally.note("reloaded", "Ala")  # said once
    assert Tally.said(tally.step) == "a way taken; Ala: reloaded"
    assert [a[2].split()[0] for a in tally.actions[-3:]] == ["click", "reload", "clear"]
    context.close()
