"""A tournament run from the organizer's desktop in Chromium against a live ``bitka serve``:
the tournament made from the group's members with one player added on the spot (and handed
an invitation QR code); that player joins on their phone (which makes its key) and another
signs in on theirs, and each taps "I am here" (the phone's random bytes from check_in.js,
signed by sign.js where the phone holds a key); a draw before the others are here is refused
naming them, and round 1 is drawn without them (ticked) by a double tap (once), Back and
"Draw" again (nothing more), the seat plan saying who was drawn without their check-in, a
player's phone ("Your table: 3, seat 2"), a watch link opened on a
phone signed in nowhere, the standings moving live on both as the tables play (and the
watching phone saying so by itself once the link is ended), and the seat plan and the
standings printed to PDF on A4: the PDF's pages are A4, its text names every player and
table, and each page is turned into a PNG (in ``$BITKA_ARTIFACTS``) for a person to look at.
Round 2 is drawn once every player has checked in, one from their phone and the rest through
the API, and nobody is drawn without.
Every page passes axe-core. The test waits for states, never for time."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from tests.tournaments import entropy

from tests.e2e.conftest import arrive, call, start_server, stop_server
from tests.e2e.test_browser import ARTIFACTS, _accessible, _sign_in_by_keyboard, browser  # noqa: F401 - the fixture
from tests.e2e.test_csp import _watched
from tests.tournaments import NAMES, PLAYERS, whole_hand

pytestmark = pytest.mark.e2e
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
A4 = (595.28, 841.89)  # points: 210 x 297 mm
POPPLER = ("pdftoppm", "pdftotext", "pdfinfo")


@pytest.fixture
def poppler():
    missing = [tool for tool in POPPLER if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI checks the printed pages, but {', '.join(missing)} is missing (poppler-utils)")
        pytest.skip(f"{', '.join(missing)} is missing (apt-get install poppler-utils)")


@pytest.fixture
def group(tmp_path):
    """A group that keeps points, every player but the last a member already; results count at once."""
    proc, base = start_server(tmp_path / "tournament.db", tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Bytów", "currency": "points"})
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1] for n in NAMES[:-1]]
    assert call(base, "PATCH", f"/v1/groups/{g['id']}", {"confirmations": "off"}, admin)[0] == 200
    yield {"base": base, "group": g["id"], "admin": admin, "members": members}
    stop_server(proc)


def _tournament(group: dict, tournament: str) -> dict:
    st, t = call(group["base"], "GET", f"/v1/groups/{group['group']}/tournaments/{tournament}", token=group["admin"])
    assert st == 200, t
    return t


def _printed(page, name: str) -> tuple[str, list]:
    """The page printed to PDF on A4 as Chromium prints it: its text, and a PNG of each page."""
    pdf = ARTIFACTS / f"{name}.pdf"
    page.pdf(path=str(pdf), format="A4")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    width, height = map(float, re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.M).groups())
    assert abs(width - A4[0]) < 1 and abs(height - A4[1]) < 1, info
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(ARTIFACTS / name)], check=True)
    pngs = sorted(ARTIFACTS.glob(f"{name}-*.png"))
    assert len(pngs) == pages
    return text, pngs


def test_an_organizer_runs_a_tournament_from_a_desktop_and_prints_it(browser, group, poppler):  # noqa: F811
    base, gid = group["base"], group["group"]
    desk = browser.new_context(viewport=DESKTOP).new_page()
    said = _watched(desk)  # every page and script of it under the Content-Security-Policy
    _sign_in_by_keyboard(desk, base, group["admin"])

    # Created from the members, the last player added by name on the spot with an invitation.
    desk.get_by_role("link", name="Tournaments").click()
    desk.get_by_role("link", name="New tournament").click()
    desk.get_by_label("The tournament's name").fill("Bytów, 3 grudnia")
    desk.get_by_role("radio", name=re.compile(r"^Kop \(tables of 4\)")).check()
    for name in NAMES[:-1]:
        desk.get_by_role("checkbox", name=name, exact=True).check()
    desk.get_by_label("A new player, by name").fill(NAMES[-1])
    desk.get_by_role("button", name="Add, tick and invite").click()
    desk.get_by_role("heading", name=f"{NAMES[-1]}'s invitation").wait_for()
    assert desk.locator("svg.qr").count() == 1 and "/join/" in desk.locator("a.link").inner_text()
    invitation = desk.locator("a.link").inner_text()
    assert desk.get_by_label("The tournament's name").input_value() == "Bytów, 3 grudnia"  # the form as it was
    assert desk.get_by_role("checkbox", name=NAMES[-1], exact=True).is_checked()
    _accessible(desk, "tournament-1-new")
    desk.get_by_label("Rounds").fill("2")
    desk.get_by_label("Deals at each table in a round").fill("2")
    desk.get_by_role("button", name="Create the tournament").click()
    desk.get_by_role("button", name="Draw round 1").wait_for()
    tournament = desk.url.split("#")[0].rsplit("/", 1)[-1]
    page_of_it = f"{base}/g/{gid}/tournaments/{tournament}"
    assert "Nobody has checked in yet." in desk.locator("#live").inner_text()
    _accessible(desk, "tournament-2-page")

    # The player added on the spot joins on their phone, which makes its key, and is here: the
    # phone's random bytes, signed by its key. Another player, signed in by their token (no
    # key), is here too.
    joined = browser.new_context(viewport=PHONE).new_page()
    joined_said = _watched(joined)
    arrive(joined, invitation)
    joined.get_by_role("button", name=f"I am {NAMES[-1]}: sign me in on this phone").click()
    joined.get_by_text(f"Signed in as {NAMES[-1]}").wait_for()
    joined.locator("#phone-key[data-phone=current]").wait_for(state="attached")
    token_phone = browser.new_context(viewport=PHONE).new_page()
    _sign_in_by_keyboard(token_phone, base, group["members"][2]["token"])
    for phone in (joined, token_phone):
        arrive(phone, page_of_it)
        here = phone.get_by_role("button", name="I am here: check in for round 1")
        expect(here).to_be_enabled()  # check_in.js drew this phone's bytes
        if phone is joined:
            _accessible(phone, "tournament-2b-check-in")
        here.click()
        phone.get_by_text("You have checked in for round 1.").wait_for()
    st, log = call(base, "GET", f"/v1/groups/{gid}/events?limit=1000", token=group["admin"])
    came = {e["actor"]: e["data"] for e in log["events"] if e["type"] == "check_in"}
    joined_id = _tournament(group, tournament)["players"][-1]
    assert set(came) == {joined_id, group["members"][2]["id"]}
    assert came[joined_id]["signed"]["kid"] and "signed" not in came[group["members"][2]["id"]]
    assert all(re.fullmatch(r"[0-9a-f]{64}", c["entropy"]) for c in came.values())
    assert came[joined_id]["entropy"] != came[group["members"][2]["id"]]["entropy"]

    # Drawn before the others are here: refused, naming them. Then drawn without them, ticked.
    arrive(desk, page_of_it)
    desk.get_by_text(f"Checked in, 2 of {PLAYERS}: ").wait_for()
    missing = [n for n in NAMES if n not in (NAMES[-1], NAMES[2])]
    desk.get_by_role("button", name="Draw round 1").click()
    refusal = desk.locator("p.problem[role=alert]")
    refusal.wait_for()
    assert "have not checked in for round 1: wait for them, or tick them to draw without them" in refusal.inner_text()
    assert all(name in refusal.inner_text() for name in missing) and _tournament(group, tournament)["drawn"] == 0
    arrive(desk, page_of_it)
    for name in missing:
        desk.get_by_role("group", name="Draw without them").get_by_role("checkbox", name=name, exact=True).check()
    _accessible(desk, "tournament-2c-draw-without")

    # A double tap draws once; Back and "Draw" again draws nothing more.
    desk.get_by_role("button", name="Draw round 1").dblclick()
    expect(desk).to_have_url(re.compile(rf"/tournaments/{tournament}/rounds/1(\?.*)?$"), timeout=15_000)
    desk.get_by_role("heading", name="Table 1", exact=True).wait_for()
    assert _tournament(group, tournament)["drawn"] == 1
    desk.go_back()
    desk.get_by_role("button", name="Draw round 1").click()
    desk.wait_for_url(re.compile(r"/rounds/1\?already=1$"))
    assert "That form was sent before" in desk.locator("main").inner_text()
    drawn = _tournament(group, tournament)
    assert drawn["drawn"] == 1 and len(drawn["drawn_rounds"]) == 1

    # The seat plan: every player at the table and seat the draw gave them, and the draw re-run.
    st, listed = call(base, "GET", f"/v1/groups/{gid}", token=group["admin"])
    names = {m["id"]: m["name"] for m in listed["members"]}
    tables = drawn["drawn_rounds"][0]["tables"]
    absent = drawn["drawn_rounds"][0]["absent"]
    assert [names[m] for m in absent] == missing
    for number, table in enumerate(tables, 1):
        card = desk.locator(".plan-table").nth(number - 1)
        assert card.locator("h2").inner_text() == f"Table {number}"
        assert card.locator(".plan-name").all_inner_texts() == [names[m] for m in table["seats"]]
        seats = card.locator(".plan-seats li")
        for i, m in enumerate(table["seats"]):
            assert ("drawn without their check-in" in seats.nth(i).inner_text()) == (m in absent), names[m]
    proof = desk.locator(".draw-proof").inner_text()
    assert "the shuffle gives these tables" in proof
    assert came[joined_id]["entropy"] in proof and came[group["members"][2]["id"]]["entropy"] in proof
    desk.goto(desk.url.split("?")[0])  # the seat plan as anyone opens it, for its picture and its print
    _accessible(desk, "tournament-3-seat-plan")
    plan_text, plan_pages = _printed(desk, "tournament-seat-plan-a4")
    assert len(plan_pages) == 1, plan_text  # three or four tables fit one A4 page
    for number in range(1, len(tables) + 1):
        assert f"Table {number}" in plan_text
    assert all(name in plan_text for name in NAMES) and "Tournaments" not in plan_text and "Sign out" not in plan_text
    assert "Drawn without their check-in:" in plan_text

    # A player's phone: their table and seat, with a link to the table.
    number, table = next((n, t) for n, t in enumerate(tables, 1) if group["members"][2]["id"] in t["seats"])
    seat = table["seats"].index(group["members"][2]["id"]) + 1
    phone = browser.new_context(viewport=PHONE).new_page()
    _sign_in_by_keyboard(phone, base, group["members"][2]["token"])
    yours = phone.get_by_role("link", name=f"Your table: {number}, seat {seat}")
    _accessible(phone, "tournament-4-phone-group")
    yours.click()
    phone.wait_for_url(f"{base}/g/{gid}/tables/{table['id']}")
    assert f"round 1, table {number}" in phone.locator("main").inner_text()
    _accessible(phone, "tournament-4b-phone-table")

    # A watch link, opened on a phone signed in nowhere.
    arrive(desk, f"{base}/g/{gid}/tournaments/{tournament}")
    desk.get_by_role("button", name="Make a watch link").click()
    link = desk.locator("#watch-h ~ article a.link").first
    link.wait_for()
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher_said = _watched(watcher)
    arrive(watcher, link.inner_text())
    watcher.get_by_text("No standings yet: they start with the first hand played.").wait_for()
    assert "Signed in as" not in watcher.locator("body").inner_text()
    _accessible(watcher, "tournament-6-watch")

    # The standings move live as the tables play out round 1, without a reload, on the
    # organizer's screen and on the watching phone.
    arrive(desk, f"{base}/g/{gid}/tournaments/{tournament}/standings")
    desk.get_by_text("No standings yet: they start with the first hand played.").wait_for()
    for number, table in enumerate(tables, 1):
        for dealer in range(2):  # at every other table a kontra doubles the second deal
            st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['id']}/hands",
                            whole_hand(len(table["seats"]), dealer, kontra=dealer == 1 and number % 2 == 1),
                            group["admin"])
            assert st == 201, hand
    st, standings = call(base, "GET", f"/v1/groups/{gid}/tournaments/{tournament}/standings", token=group["admin"])
    assert standings["rounds_played"] == 1
    expect(desk.locator("#live")).to_contain_text("1 round of 2 played out.", timeout=15_000)
    expect(watcher.locator("#live")).to_contain_text("1 round of 2 played out.", timeout=15_000)
    assert watcher.locator(".deal-said").all_inner_texts() == ["All 2 deals played"] * len(tables)
    rows = desk.locator("table.standings tbody tr")
    for i, p in enumerate(standings["players"]):
        cells = rows.nth(i).locator("td, th").all_inner_texts()
        assert cells[:5] == [str(p["place"]), p["name"], p["points"], p["small"], str(p["first_places"])], cells
    _accessible(desk, "tournament-5-standings")
    text, pages = _printed(desk, "tournament-standings-a4")
    assert len(pages) == 1 and all(name in text for name in NAMES) and "Round 1" in text
    assert "Sign out" not in text and "Print" not in text

    # The tournament page says each table has played its deals. The watch link ended, the
    # watching phone says so by itself; round 2 can be drawn.
    arrive(desk, f"{base}/g/{gid}/tournaments/{tournament}")
    assert desk.locator(".deal-said").all_inner_texts() == ["All 2 deals played"] * len(tables)
    desk.get_by_role("button", name="End this link").click()
    desk.get_by_role("button", name="Make a watch link").wait_for()
    assert desk.get_by_role("button", name="End this link").count() == 0
    watcher.get_by_role("heading", name="This watch link was ended").wait_for(timeout=15_000)

    # Round 2: every player checks in, the joined one from their phone and the rest through
    # the API; the organizer's page says so as they come, and nobody is drawn without.
    arrive(joined, page_of_it)
    joined.get_by_role("button", name="I am here: check in for round 2").click()
    joined.get_by_text("You have checked in for round 2.").wait_for()
    for member in group["members"]:
        st, answer = call(base, "POST", f"/v1/groups/{gid}/tournaments/{tournament}/rounds/2/check-in",
                          {"entropy": entropy(member["id"], 2)}, member["token"])
        assert st == 201, answer
    expect(desk.locator("#live")).to_contain_text("Every player has checked in.", timeout=15_000)
    desk.reload()
    assert desk.get_by_role("group", name="Draw without them").count() == 0
    desk.get_by_role("button", name="Draw round 2").click()
    desk.wait_for_url(re.compile(r"/rounds/2$"))
    second = _tournament(group, tournament)
    assert second["drawn"] == 2 and second["drawn_rounds"][1]["absent"] == []
    assert "drawn without their check-in" not in desk.locator("main").inner_text()
    assert PLAYERS == len(NAMES)
    for page in (desk, watcher, joined):
        assert page.evaluate("window.__violations") == [], page.url
    assert said == [] and watcher_said == [] and joined_said == []
