"""Every phone a witness of what it is shown, in Chromium against a live ``bitka serve``
whose SQLite file is edited behind its back. The phone keeps, from its last visit, the tree
it grew from every event it verified and the balances it folded from them; on the next
visit it folds only what is new, and the group page's balances must be what it folded.
Three edits, each caught on the phone: the balances row alone (the page's money moved, the
log kept), a settlement's amounts edited in place (no hash recomputed), and the whole log
rewritten with every hash, link and Merkle node recomputed."""
from __future__ import annotations

import json
import sqlite3

import pytest

from events import merkle
from events.canonical import canonical_bytes
from tests.e2e.conftest import arrive, call, start_server, stop_server
from tests.e2e.test_browser import browser  # noqa: F401 - the fixture
from tests.tampering import rewrite_log

pytestmark = pytest.mark.e2e
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]
STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


@pytest.fixture
def evening(tmp_path):
    """A group with one Kop result that counts (confirmations off): Bożena and Dorota up."""
    db = tmp_path / "witness.db"
    proc, base = start_server(db, tmp_path)
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN", "confirmations": "off"})
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, g["admin_token"])[1] for n in NAMES]
    st, t = call(base, "POST", f"/v1/groups/{g['id']}/tables",
                 {"game": "kop", "stake": "1.00", "seats": [m["id"] for m in members]}, g["admin_token"])
    st, hand = call(base, "POST", f"/v1/groups/{g['id']}/tables/{t['id']}/hands", {"result": STARE_WIN},
                    members[0]["token"])
    assert st == 201, hand
    yield {"base": base, "db": str(db), "group": g["id"], "admin": g["admin_token"], "members": members,
           "table": t["id"]}
    stop_server(proc)


def _phone(browser, t, seat: int):  # noqa: F811 - the fixture
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    arrive(page, t["base"] + "/")
    page.get_by_text("Sign in with a token").click()
    page.get_by_label("Your token").fill(t["members"][seat]["token"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{t['base']}/g/*")
    return page


def _witnessed(phone, t) -> str:
    arrive(phone, f"{t['base']}/g/{t['group']}")
    box = phone.locator(".witness.ok")
    box.wait_for(timeout=15_000)
    return box.inner_text()


def _alarm(phone, t) -> str:
    arrive(phone, f"{t['base']}/g/{t['group']}")
    box = phone.locator(".witness.alarm")
    box.wait_for(timeout=15_000)
    return box.inner_text()


def _another_result(t) -> None:
    st, body = call(t["base"], "POST", f"/v1/groups/{t['group']}/tables/{t['table']}/hands", {"result": STARE_WIN},
                    t["members"][0]["token"])
    assert st == 201, body


def test_the_phone_folds_the_balances_from_the_events_it_verified_only_what_is_new(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    said = _witnessed(phone, t)
    assert "the balances shown are what its events give" in said
    kept = json.loads(phone.evaluate(f"localStorage.getItem('bitka-witness:{t['group']}')"))
    size = kept["checkpoint"]["size"]
    assert kept["seen"]["size"] == size and len(kept["seen"]["edge"]) == bin(size).count("1")
    _another_result(t)
    asked = []
    phone.on("request", lambda r: asked.append(r.url) if "witness.json" in r.url else None)
    assert "the balances shown are what its events give" in _witnessed(phone, t)
    assert asked and all(u.endswith(f"after={size}") for u in asked)  # only what is new


def test_balances_moved_in_the_row_alone_are_caught_by_the_phone(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)
    conn = sqlite3.connect(t["db"])
    [(data,)] = conn.execute("SELECT data FROM projection_rows WHERE name = 'balances'").fetchall()
    row = json.loads(data)
    ala, bozena = t["members"][0]["id"], t["members"][1]["id"]
    row["members"][ala] += 10000  # 100.00 PLN from Bożena to Ala, the sum kept
    row["members"][bozena] -= 10000
    conn.execute("UPDATE projection_rows SET data = ? WHERE name = 'balances'", (json.dumps(row, sort_keys=True),))
    conn.commit()
    conn.close()
    said = _alarm(phone, t)
    assert "This page shows" in said and "for Ala, but the events of the group's log give" in said, said
    assert phone.get_by_role("alert").count() >= 1
    other = _phone(browser, t, 2)  # a phone on its first visit folds it all, and sees it too
    assert "for Ala, but the events of the group's log give" in _alarm(other, t)


def test_a_settlement_edited_in_the_store_without_its_hash_is_said_on_the_phone(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)

    def richer(seq, data):
        if "payouts" not in data:
            return data
        return {**data, "payouts": [{**p, "amount": p["amount"].replace("1", "9")} for p in data["payouts"]]}
    rewrite_log(t["db"], richer, rehash=False)
    arrive(phone, f"{t['base']}/g/{t['group']}")
    shown = phone.locator("main").inner_text()
    assert "damaged" in shown.lower(), shown
    alarm = phone.locator(".witness.alarm")  # and the phone says it of the log it keeps
    alarm.wait_for(timeout=15_000)
    assert "store of the group's log is damaged at event" in alarm.inner_text()
    assert "9.00" not in shown and "-9.00" not in shown  # the edited amounts are never shown as if true


def test_a_full_rewrite_is_caught_on_the_next_visit(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)
    rewrite_log(t["db"], lambda seq, data: {**data, "name": "Alicja"} if seq == 2 else data)
    said = _alarm(phone, t)
    assert "history was rewritten since this phone's last visit" in said
    assert phone.get_by_role("link", name="checkpoint-seen-before.json").count() == 1


def _lying(phone, change) -> None:
    """A proxy that lies: every witness.json answer the phone gets goes through ``change``
    (its body and the address asked), the checkpoint's signature left as it is."""
    def handle(route):
        answer = route.fetch()
        if answer.status != 200:
            route.fulfill(response=answer)
            return
        route.fulfill(response=answer, json=change(answer.json(), route.request.url))
    phone.route("**/witness.json*", handle)


def _true_leaf(event: dict, group: str) -> str:
    body = {k: v for k, v in event.items() if k != "hash"}
    return merkle.leaf_hash(canonical_bytes({**body, "group": group})).hex()


@pytest.mark.parametrize("hand", ["never dealt", "settled"])
def test_a_payment_served_as_a_sealed_card_is_caught(browser, evening, hand):  # noqa: F811
    """The proxy hides a payment as a sealed card event with its true leaf (so the root still
    holds): of a hand never dealt, or of the hand that was settled before it."""
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)
    cyd, ala = t["members"][2]["id"], t["members"][0]["id"]
    st, paid = call(t["base"], "POST", f"/v1/groups/{t['group']}/payments",
                    {"from": cyd, "to": ala, "amount": "5.00"}, t["admin"])
    assert st == 201, paid
    settled = call(t["base"], "GET", f"/v1/groups/{t['group']}/events?limit=1000", token=t["admin"])[1]["events"]
    real_hand = next(e["hand"] for e in settled if e["type"] == "settlement")

    def disguise(body, url):
        for e in body["events"]:
            if e["type"] == "payment":
                leaf = _true_leaf(e, t["group"])
                e.update(type="play", hand="h_000000000000" if hand == "never dealt" else real_hand, data={},
                         sealed=True, leaf=leaf)
        return body
    _lying(phone, disguise)
    said = _alarm(phone, t)
    assert "came sealed, but only the cards of a hand in play are ever sealed" in said, said


def test_a_server_that_never_reaches_the_end_of_its_log_is_caught(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)
    _another_result(t)

    def stall(body, url):  # never an event, always "ask again from where you are"
        return {**body, "events": [], "next": int(url.split("after=")[1].split("&")[0])}
    _lying(phone, stall)
    assert "the server skipped events" in _alarm(phone, t)


def test_a_witness_that_could_not_check_says_so(browser, evening):  # noqa: F811
    t = evening
    phone = _phone(browser, t, 0)
    _witnessed(phone, t)
    phone.route("**/witness.json*", lambda route: route.fulfill(status=503, body="busy"))
    arrive(phone, f"{t['base']}/g/{t['group']}")
    box = phone.locator(".witness.unchecked")
    box.wait_for(timeout=15_000)
    assert "could not check the group's log on this visit (the server answered 503)" in box.inner_text()
