"""Each phone makes and keeps its own key, in Chromium against a live ``bitka serve`` (API.md,
"Members hold their own keys"): four phones join by invitation and each holds a key of its
own, whose private half no request ever carried; the organizer's phone makes hers as she starts
the group and signs in as herself with the admin's rights; a phone whose storage was cleared
sees the way back, adds itself and is approved from another of its member's phones; a phone
whose key the admin's reset stopped says so once it is signed out; and a phone on the hall's
plain-HTTP address (no secure context) makes its key too. Every wait is for a state."""
from __future__ import annotations

import base64

import pytest

from tests.e2e.conftest import arrive, call, start_server, stop_server
from tests.e2e.test_browser import _accessible, browser  # noqa: F401 - the fixture
from tests.e2e.test_hall import HALL_NAME, HOST, Hall, named_browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]

_KEYS = """async () => {
    const db = await new Promise((ok, no) => {
        const asked = indexedDB.open('bitka-keys', 1);
        asked.onupgradeneeded = () => asked.result.createObjectStore('keys');
        asked.onsuccess = () => ok(asked.result);
        asked.onerror = () => no(asked.error);
    });
    const all = await new Promise((ok) => {
        const got = db.transaction('keys').objectStore('keys').getAll();
        got.onsuccess = () => ok(got.result);
    });
    db.close();
    return all.map((r) => ({group: r.group, member: r.member, kid: r.kid, key: r.key, secret: Array.from(r.secret)}));
}"""


@pytest.fixture
def served(tmp_path):
    proc, base = start_server(tmp_path / "keys.db", tmp_path)
    yield base
    stop_server(proc)


@pytest.fixture
def phones(browser):  # noqa: F811 - the fixture
    """New phones (a browser context each), every request body each one sent kept; put away after."""
    made = []

    def phone(storage_state=None, scripts=True):
        context = browser.new_context(viewport=PHONE, service_workers="block", storage_state=storage_state,
                                      java_script_enabled=scripts)
        context.sent = []
        context.on("request", lambda request: context.sent.append(request.post_data_buffer or b""))
        made.append(context)
        return context.new_page()
    yield phone
    for context in made:
        context.close()


def _group(base: str) -> dict:
    st, made = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    assert st == 201, made
    invited = [call(base, "POST", f"/v1/groups/{made['id']}/invitations", {"name": n}, made["admin_token"])[1]
               for n in NAMES]
    return {"base": base, "group": made["id"], "admin": made["admin_token"], "invited": invited}


def _join(page, link: str, name: str) -> None:
    arrive(page, link)
    page.get_by_role("button", name=f"I am {name}: sign me in on this phone").click()
    page.get_by_text(f"Signed in as {name}").wait_for()


def _state(page, state: str) -> None:
    page.locator(f"#phone-key[data-phone={state}]").wait_for(state="attached")


def _kids(e: dict, member: str) -> list[str]:
    st, listed = call(e["base"], "GET", f"/v1/groups/{e['group']}/members/{member}/devices", token=e["admin"])
    assert st == 200, listed
    return [d["kid"] for d in listed["devices"] if d["stopped_at"] is None]


def _private_forms(secret: list[int]) -> list[bytes]:
    raw = bytes(secret)
    return [raw, raw.hex().encode(), base64.urlsafe_b64encode(raw).rstrip(b"="), base64.b64encode(raw).rstrip(b"="),
            ",".join(map(str, secret)).encode()]


def test_four_phones_join_each_with_a_key_of_its_own_whose_private_half_no_request_carries(phones, served):
    e = _group(served)
    seen = []
    for name, invitation in zip(NAMES, e["invited"], strict=True):
        page = phones()
        arrive(page, invitation["url"])
        page.get_by_text("Results count once every player who pays in them agrees.").wait_for()
        page.get_by_role("button", name=f"I am {name}: sign me in on this phone").click()
        page.get_by_text(f"Signed in as {name}").wait_for()
        _state(page, "current")
        [kept] = page.evaluate(_KEYS)
        assert (kept["group"], kept["member"]) == (e["group"], invitation["member"])
        assert _kids(e, invitation["member"]) == [kept["kid"]]
        seen.append((page, kept))
    assert len({kept["kid"] for _page, kept in seen}) == 4
    for page, kept in seen:
        sent = b"\n".join(page.context.sent)
        assert kept["key"].encode() in sent  # the public half went, as the form's key
        for form in _private_forms(kept["secret"]):
            assert form not in sent
    page = seen[0][0]
    page.get_by_role("link", name="Signed-in devices").click()
    page.locator(".key-list .this-phone:not([hidden])").wait_for()
    assert page.locator("#this-key").inner_text() == f"This phone's key: {seen[0][1]['kid'][:8]}"
    _accessible(page, "keys-devices")


def test_the_organizer_makes_her_key_as_she_starts_the_group_and_holds_both_rights(phones, served):
    page = phones()
    arrive(page, served + "/new")
    _accessible(page, "keys-new-group")
    page.get_by_label("The group's name").fill("Czwartek")
    page.get_by_label("Your name, as the others will see it").fill("Ola")
    page.get_by_role("button", name="Start the group").click()
    page.get_by_text("one sign-in for both").wait_for()
    _state(page, "current")  # her key, made before the group had an id, filed under it now
    [kept] = page.evaluate(_KEYS)
    group = page.url.split("/")[4]
    assert kept["group"] == group and kept["member"].startswith("m_")
    arrive(page, f"{served}/g/{group}")
    page.get_by_text("Signed in as Ola, the admin").wait_for()
    page.get_by_role("link", name="Members and invitations").click()
    page.get_by_label("Their name, as the group calls them").fill("Bożena")
    page.get_by_role("button", name="Add and invite").click()
    link = page.locator(".keep-link a.link").first.inner_text()
    _accessible(page, "keys-members")
    bozena = phones()
    arrive(bozena, link)
    _accessible(bozena, "keys-join")
    bozena.get_by_role("button", name="I am Bożena: sign me in on this phone").click()
    bozena.get_by_text("Signed in as Bożena").wait_for()
    _state(bozena, "current")
    arrive(page, f"{served}/g/{group}/members")
    page.get_by_text("Bożena holds a key on their own phone").wait_for()
    # A lost phone: the organizer resets Bożena's devices; every page says so; Bożena's old phone,
    # signed out by the reset, learns from bitka, asking with its key, that the admin stopped it.
    page.get_by_text("Reset Bożena's devices").first.click()
    page.get_by_label("Why").last.fill("lost her phone on the bus")  # Ola's own form comes first
    page.get_by_role("button", name="Reset Bożena's devices").click()
    page.get_by_text("Bożena's devices are reset").wait_for()
    arrive(page, f"{served}/g/{group}")
    page.get_by_text("The admin reset Bożena's devices on").wait_for()
    arrive(bozena, f"{served}/g/{group}")
    bozena.locator(".stopped-elsewhere").get_by_text("stopped this phone's key of Bożena").wait_for()
    bozena.get_by_role("button", name="Forget this key").click()
    assert bozena.evaluate(_KEYS) == []


def test_a_phone_whose_storage_was_cleared_adds_itself_and_another_of_its_phones_approves_it(phones, served):
    e = _group(served)
    ala, invitation = phones(), e["invited"][0]
    _join(ala, invitation["url"], "Ala")
    _state(ala, "current")
    [first] = ala.evaluate(_KEYS)
    # The same sign-in, without the key store: a phone whose storage was cleared (cookies kept).
    cleared = phones(storage_state={"cookies": ala.context.cookies(), "origins": []})
    arrive(cleared, f"{e['base']}/g/{e['group']}")
    _state(cleared, "none")
    cleared.get_by_text("This phone holds no key of yours").wait_for()
    cleared.get_by_text("ask the admin to reset your devices").wait_for()
    _accessible(cleared, "keys-no-key")
    cleared.locator("#phone-key").get_by_role("button", name="Add this phone").click()
    cleared.get_by_text("This phone waits for approval").first.wait_for()
    _state(cleared, "waiting")
    [second] = cleared.evaluate(_KEYS)
    assert second["kid"] != first["kid"] and _kids(e, invitation["member"]) == [first["kid"]]
    arrive(ala, f"{e['base']}/g/{e['group']}")
    ala.get_by_text("A new phone waits for your approval.").wait_for()
    ala.get_by_role("link", name="Approve it, if it is yours").click()
    ala.get_by_role("button", name="Approve").click()
    ala.get_by_text("Approved: that phone's key is yours now.").wait_for()
    assert sorted(_kids(e, invitation["member"])) == sorted([first["kid"], second["kid"]])
    cleared.reload()
    _state(cleared, "current")
    for form in _private_forms(first["secret"]) + _private_forms(second["secret"]):
        assert form not in b"\n".join(ala.context.sent + cleared.context.sent)


def test_a_browser_without_scripts_joins_without_a_key_as_before(phones, served):
    e = _group(served)
    page, invitation = phones(scripts=False), e["invited"][2]
    _join(page, invitation["url"], "Cyprian")
    assert _kids(e, invitation["member"]) == []
    page = phones()  # beside it, a phone with scripts joins with its key
    _join(page, e["invited"][3]["url"], "Dorota")
    _state(page, "current")


@pytest.fixture
def hall(tmp_path):
    served = Hall(tmp_path / "hall.db", tmp_path)
    served.start()
    yield served
    served.stop()


def test_a_phone_on_the_halls_plain_http_address_makes_its_key(named_browser, hall):  # noqa: F811
    e = _group(hall.base)
    invitation = e["invited"][1]
    page = named_browser.new_context(viewport=PHONE).new_page()
    _join(page, invitation["url"].replace(HOST, HALL_NAME), "Bożena")
    assert page.evaluate("window.isSecureContext") is False
    _state(page, "current")
    [kept] = page.evaluate(_KEYS)
    assert _kids(e, invitation["member"]) == [kept["kid"]]
    page.context.close()
