"""The pages under their Content-Security-Policy in a real browser (Chromium against a live
``bitka serve``): every page a member opens, the live hand, the verify button and the
phone's witness run with no violation of the policy, and another site cannot frame a page."""
from __future__ import annotations

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import call
from tests.e2e.test_browser import _sign_in_by_keyboard, browser, table  # noqa: F401 - fixtures

pytestmark = pytest.mark.e2e

# Every violation the page meets, as the browser reports it (the listener is the browser's own
# script, run before the page's: the policy does not govern it).
LISTEN = ("window.__violations = []; document.addEventListener('securitypolicyviolation', "
          "e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")


def _watched(page) -> list[str]:
    said = []
    page.on("console", lambda m: said.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(LISTEN)
    return said


def test_the_pages_their_scripts_and_the_verify_button_run_under_the_policy(browser, table):  # noqa: F811
    base, gid = table["base"], table["group"]
    st, done = call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/hands",
                    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": t} for t in KOP_TRICKS]},
                    table["admin"])
    st, playing = call(base, "POST", f"/v1/groups/{gid}/tables/{table['table']}/hands",
                       {"deal": {"dealer": 1, "hands": KOP_HANDS}}, table["admin"])
    page = browser.new_page(viewport={"width": 390, "height": 844})
    said = _watched(page)
    _sign_in_by_keyboard(page, base, table["members"][0]["token"])
    # A live part's wait for news never ends while the page is open: answered at once here (a
    # 304 that did not wait, so live.js asks again 2 s later), the network goes idle between asks.
    page.route("**/live", lambda route: route.fulfill(status=304))
    for path in (f"/g/{gid}", f"/g/{gid}/tables/{table['table']}", f"/g/{gid}/hands/{playing['id']}",
                 f"/g/{gid}/hands/{done['id']}"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__violations") == [], path
    page.get_by_role("button", name="Verify in this browser").click()
    page.locator("#verify-result").filter(has_text="erified").wait_for()  # verify.js ran: fetch and WebCrypto
    assert page.locator("#witness").inner_text() != ""  # witness.js ran on every visit
    assert page.evaluate("window.__violations") == [] and said == []


def test_another_site_cannot_frame_a_page(browser, table):  # noqa: F811
    page = browser.new_page()
    page.set_content(f'<iframe src="{table["base"]}/"></iframe>', wait_until="load")  # the frame's load too
    framed = page.frames[-1]
    assert framed.url.startswith("chrome-error://") and "Start a new group" not in framed.content(), framed.url
