"""An evening in Chromium where every member's word is signed by a key that only their own phone
holds (API.md, "Members hold their own keys"; static/sign.js): four phones join by invitation
and each holds its member's key; a Kop hand at an ``entry: "seats"`` table is dealt and played
card by card, each phone signing its own cards and each card it plays; a hand the admin logs
from a score sheet waits for its two payers, who confirm it on their phones, one of them while
its network is away (the tap kept with the signature made when it was tapped); the admin voids
it, and it changes nothing until the two it lowers agree on theirs. Every act's event carries
its member's signature, ``bitka verify`` finds the store whole, and every phone's witness
checked each signature it was shown. A fifth browser, signed in as the admin, cannot confirm in
a payer's name; a phone without its member's key sends nothing and says why. Then Ala's
confirmation loses its signature behind the server's back (every hash and Merkle node
recomputed): ``bitka verify`` names it, and a phone that checks the log afresh says so."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import arrive, call, cli, start_server, stop_server
from tests.e2e.test_browser import _words, browser  # noqa: F401 - the fixture
from tests.tampering import rewrite_log

pytestmark = pytest.mark.e2e
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]
PHONE = {"width": 390, "height": 844}
STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}  # Ala and Cyd pay


@pytest.fixture
def evening(tmp_path):
    db = tmp_path / "signed.db"
    proc, base = start_server(db, tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    assert st == 201, g
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1] for n in NAMES]
    st, table = call(base, "POST", f"/v1/groups/{g['id']}/tables",
                     {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                      "seats": [m["id"] for m in members]}, admin)
    assert st == 201, table
    yield {"base": base, "db": db, "group": g["id"], "admin": admin, "members": members, "table": table["id"]}
    stop_server(proc)


def _join(browser, t, seat: int):  # noqa: F811 - the fixture
    """A phone that opens its member's invitation and holds that member's key: the one the join
    page made, or (a join page that makes none) one made in this browser by keys.js and
    registered with the member's token."""
    base, group, member = t["base"], t["group"], t["members"][seat]
    st, invitation = call(base, "POST", f"/v1/groups/{group}/invitations", {"member": member["id"]}, t["admin"])
    assert st == 201, invitation
    page = browser.new_context(viewport=PHONE).new_page()
    arrive(page, base + f"/join/{invitation['code']}")
    page.get_by_role("button", name=re.compile(f"I am {NAMES[seat]}")).click()
    page.wait_for_url(f"{base}/g/{group}*")
    page.wait_for_function("window.bitkaKeys !== undefined")
    held = page.evaluate("([g, m]) => window.bitkaKeys.keyFor(g, m)", [group, member["id"]])
    st, listed = call(base, "GET", f"/v1/groups/{group}/members/{member['id']}/devices", token=t["admin"])
    kids = [d["kid"] for d in (listed.get("devices") or [])] if st == 200 else []
    if held is None or held["kid"] not in kids:
        assert not kids, f"{NAMES[seat]} holds a key this phone does not"
        held = page.evaluate("([g, m]) => window.bitkaKeys.makeKey(g, m)", [group, member["id"]])
        st, added = call(base, "POST", f"/v1/groups/{group}/members/{member['id']}/devices", {"key": held["key"]},
                         token=member["token"])
        assert st == 201 and added["kid"] == held["kid"], added
    return page


def _events(t) -> list[dict]:
    st, answer = call(t["base"], "GET", f"/v1/groups/{t['group']}/events?limit=1000", token=t["admin"])
    assert st == 200, answer
    return answer["events"]


def _pick(page, cards) -> None:
    for card in cards:
        page.locator(f'label.pick:has(input[value="{card}"])').click()


def _witnessed(page, t) -> None:
    arrive(page, f"{t['base']}/g/{t['group']}")
    page.locator(".witness.ok").wait_for(timeout=15_000)


def test_an_evening_where_every_phone_signs_its_members_word(browser, evening):  # noqa: F811 - the fixture
    t, base, group = evening, evening["base"], evening["group"]
    phones = [_join(browser, t, seat) for seat in range(4)]
    ids = [m["id"] for m in t["members"]]

    # The Kop hand at the seats table: Ala deals; each phone picks up its own cards and plays them.
    arrive(phones[0], f"{base}/g/{group}/tables/{t['table']}")
    phones[0].get_by_role("button", name="Deal: each phone enters its own cards").click()
    hand = phones[0].url.split("#")[0].split("/")[-1]
    for phone in phones[1:]:
        arrive(phone, f"{base}/g/{group}/hands/{hand}")
    for seat, phone in enumerate(phones):
        phone.get_by_role("button", name="These are my cards").wait_for(timeout=10_000)
        _pick(phone, KOP_HANDS[seat])
        phone.get_by_role("button", name="These are my cards").click()
        phone.get_by_role("heading", name=f"Your cards, {NAMES[seat]}").wait_for()
    holder = {card: seat for seat, cards in enumerate(KOP_HANDS) for card in cards}
    for trick in KOP_TRICKS:
        for card in trick:
            phone = phones[holder[card]]
            phone.get_by_text("Your turn.", exact=True).wait_for(timeout=10_000)
            phone.get_by_role("button", name=f"play the {_words(card)}").click()
            phone.wait_for_load_state()
    phones[0].get_by_text("This hand is over.").wait_for(timeout=10_000)
    played = [e for e in _events(t) if e.get("hand") == hand]
    acts = [e for e in played if e["type"] in ("seat_cards", "play")]
    assert len(acts) == 4 + 16
    for e in acts:  # each by its own seat's member, signed by the key that member's phone holds
        assert e["data"]["signed"]["kid"] and e["actor"] == ids[e["data"]["seat"]], e

    # A result the admin logs from the score sheet: Ala and Cyprian pay, and it waits for them.
    st, logged = call(base, "POST", f"/v1/groups/{group}/tables/{t['table']}/hands", {"result": STARE_WIN},
                      t["admin"])
    assert st == 201 and logged["confirmation"]["waiting_for"] == [ids[0], ids[2]], logged
    waiting = logged["id"]

    # The admin's browser (a fifth) is offered no confirmation, and one sent in a payer's name is refused.
    desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    arrive(desk, base + "/")
    desk.get_by_text("Sign in with a token").click()
    desk.get_by_label("Your token").fill(t["admin"])
    desk.get_by_role("button", name="Sign in").click()
    desk.wait_for_url(f"{base}/g/*")
    arrive(desk, f"{base}/g/{group}/hands/{waiting}")
    assert desk.get_by_role("button", name="Confirm: it is right").count() == 0
    answer = desk.evaluate("""async ([path, token]) => {
        const body = new URLSearchParams({form_token: token, once: "web-" + "x".repeat(22), action: "confirm"});
        const r = await fetch(path, {method: "POST", body, credentials: "same-origin"});
        return [r.status, await r.text()];
    }""", [f"/g/{group}/hands/{waiting}/verdict", desk.locator("header input[name=form_token]").input_value()])
    assert answer[0] == 403 and "no member" in answer[1], answer[0]

    # A phone holding no key of its member's sends nothing, and says why: Ala's key forgotten on a copy.
    ala_again = browser.new_context(viewport=PHONE).new_page()
    arrive(ala_again, base + "/")
    ala_again.get_by_text("Sign in with a token").click()
    ala_again.get_by_label("Your token").fill(t["members"][0]["token"])
    ala_again.get_by_role("button", name="Sign in").click()
    ala_again.wait_for_url(f"{base}/g/*")
    arrive(ala_again, f"{base}/g/{group}/hands/{waiting}")
    ala_again.get_by_role("button", name="Confirm: it is right").click()
    said = ala_again.locator("form .sign-problem")
    said.wait_for(timeout=10_000)
    assert "Nothing was sent" in said.inner_text() and "holds no key of yours" in said.inner_text()
    assert not [e for e in _events(t) if e["type"] == "confirmation"]

    # Ala confirms on her phone, the payouts she signs said beside the button.
    arrive(phones[0], f"{base}/g/{group}/hands/{waiting}")
    assert re.search(r"Ala -", phones[0].locator("#signs-payouts").inner_text())
    phones[0].get_by_role("button", name="Confirm: it is right").click()
    phones[0].get_by_text("Still to agree: Cyprian.").wait_for(timeout=10_000)
    # Cyprian confirms from the table's one tap while his phone has no network: kept, then sent, signed as tapped.
    arrive(phones[2], f"{base}/g/{group}/tables/{t['table']}")
    phones[2].context.set_offline(True)
    phones[2].get_by_role("button", name="Confirm my 1 result at this table").click()
    phones[2].locator(".taps-waiting").wait_for(timeout=10_000)
    assert not [e for e in _events(t) if e["type"] == "confirmation" and e["actor"] == ids[2]]
    phones[2].context.set_offline(False)
    try:
        phones[2].evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError:  # the phone saw its network come back by itself and already sent the tap (a new page)
        pass
    for _ in range(100):
        confirmed = [e for e in _events(t) if e["type"] == "confirmation"]
        if len(confirmed) == 2:
            break
        phones[2].wait_for_timeout(200)
    assert [e["actor"] for e in confirmed] == [ids[0], ids[2]]
    settled = next(e for e in _events(t) if e["type"] == "settlement" and e.get("hand") == waiting)
    for e in confirmed:
        assert e["data"]["settlement"] == settled["hash"] and len(e["data"]["signed"]["nonce"]) == 32

    # The admin voids that hand: it counts as before until Bożena and Dorota, whom it lowers, agree on their phones.
    st, voided = call(base, "POST", f"/v1/groups/{group}/hands/{waiting}/correct",
                      {"reason": "misdeal", "void": True}, t["admin"])
    assert st == 201, voided
    _witnessed(phones[0], t)  # the balances the page shows, with the void waiting, are those the phone folds
    assert "a correction waits for Bożena, Dorota" in phones[0].locator("main").inner_text()
    for seat in (1, 3):
        arrive(phones[seat], f"{base}/g/{group}/hands/{waiting}")
        phones[seat].get_by_role("button", name="Agree to the correction").click()
        phones[seat].get_by_role("button", name="Agree to the correction").wait_for(state="detached", timeout=10_000)
    agreed = [e for e in _events(t) if e["type"] == "agreement"]
    assert [e["actor"] for e in agreed] == [ids[1], ids[3]] and all(e["data"]["signed"] for e in agreed)

    # The store as a whole, and every phone's witness of every signature it was shown.
    verified = cli(t["db"], "verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    for phone in phones:
        _witnessed(phone, t)

    # Behind the server's back: Ala's confirmation without her signature, the log rehashed whole.
    unsigned = confirmed[0]["seq"]
    rewrite_log(str(t["db"]), lambda seq, data: {k: v for k, v in data.items() if k != "signed"}
                if seq == unsigned else data)
    found = cli(t["db"], "verify")
    assert found.returncode == 1 and f"seq {unsigned}" in found.stdout + found.stderr, found.stdout + found.stderr
    fresh = browser.new_context(viewport=PHONE).new_page()  # a phone that never saw the log before
    arrive(fresh, base + "/")
    fresh.get_by_text("Sign in with a token").click()
    fresh.get_by_label("Your token").fill(t["members"][3]["token"])
    fresh.get_by_role("button", name="Sign in").click()
    fresh.wait_for_url(f"{base}/g/*")
    alarm = fresh.locator(".witness.alarm")
    alarm.wait_for(timeout=15_000)
    assert f"event {unsigned} binds a member without their signature holding" in alarm.inner_text()
