"""The pages' sessions: a random id in the cookie, kept in the store as its hash; ended by
signing out, from another device, by 30 days unused and by rotating the token it came from;
never a token in a cookie (both backends)."""
from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta, timezone

import pytest

from service.web import session as web_session

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Gecko/20100101 Firefox/128.0"
LAPTOP = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
          "Safari/605.1.15")


class Browser:
    """A test client of its own (its own cookie jar) that keeps every Set-Cookie it was sent."""

    def __init__(self, app, agent: str = LAPTOP):
        self.http = app.test_client()
        self.agent = agent
        self.set_cookies: list[str] = []

    def get(self, path, **kw):
        return self._kept(self.http.get(path, headers={"User-Agent": self.agent}, **kw))

    def post(self, path, data=None, **kw):
        return self._kept(self.http.post(path, data=data or {}, headers={"User-Agent": self.agent}, **kw))

    def _kept(self, answer):
        self.set_cookies += answer.headers.getlist("Set-Cookie")
        return answer

    def cookie(self) -> str | None:
        found = self.http.get_cookie(web_session.COOKIE)
        return found.value if found else None

    def sign_in(self, token: str, expect: int = 303):
        page = self.get("/?choose=1").get_data(as_text=True)
        answer = self.post("/signin", {"signin_token": _hidden(page, "signin_token"), "token": token})
        assert answer.status_code == expect, answer.get_data(as_text=True)
        return answer

    def form(self, path: str) -> dict:
        return {"form_token": _hidden(self.get(path).get_data(as_text=True), "form_token")}

    def signed_in_to(self, group: str) -> bool:
        answer = self.get(f"/g/{group}")
        assert answer.status_code in (200, 302), answer.status_code
        return answer.status_code == 200


def _hidden(text, name):
    return re.search(rf'name="{name}" value="([^"]*)"', text).group(1)


def _devices(page: str) -> dict[str, str]:
    """The devices a page of signed-in devices lists: name -> the session its button ends."""
    listed = page[page.index('<ul class="devices">'):]
    return dict(re.findall(r'<li><strong>([^<]+)</strong>.*?name="session" value="([^"]+)"', listed, re.DOTALL))


def _rows(app, sql):
    with app.extensions["bitka.store"].reading() as r:
        return r.conn.execute(sql).fetchall()


def _sign_out(browser, group):
    answer = browser.post("/signout", {**browser.form(f"/g/{group}"), "group": group})
    assert answer.status_code == 303
    return answer


def test_sign_out_ends_the_session_and_the_same_cookie_value_is_refused(app, kop_table):
    gid, ala = kop_table["group"], Browser(app)
    ala.sign_in(kop_table["members"][0]["token"])
    kept = ala.cookie()
    assert kept and ala.signed_in_to(gid)
    assert len(_rows(app, "SELECT id FROM sessions")) == 1
    _sign_out(ala, gid)
    assert ala.cookie() is None and not ala.signed_in_to(gid)
    assert _rows(app, "SELECT id FROM sessions") == []  # ended in the store, not only in this browser
    ala.http.set_cookie(web_session.COOKIE, kept)  # the same cookie value, sent again after signing out
    assert not ala.signed_in_to(gid)
    assert ala.get(f"/g/{gid}/hands/h_x/live").status_code == 403


def test_a_session_id_is_stored_only_as_its_hash_and_forms_are_tied_to_the_session(app, kop_table):
    gid, ala = kop_table["group"], Browser(app)
    ala.sign_in(kop_table["members"][0]["token"])
    secret = ala.cookie()
    assert len(secret) == 43  # 256 random bits
    stored = [value for row in _rows(app, "SELECT * FROM sessions") for value in row]
    assert secret not in stored and web_session.session_hash(secret) in stored
    old_form = ala.form(f"/g/{gid}")
    _sign_out(ala, gid)
    ala.sign_in(kop_table["members"][0]["token"])
    refused = ala.post("/signout", {**old_form, "group": gid})  # the earlier session's form token
    assert refused.status_code == 403 and ala.signed_in_to(gid)


def test_a_session_is_listed_and_signed_out_from_another_device(app, kop_table):
    gid, token = kop_table["group"], kop_table["members"][0]["token"]
    phone, laptop, bob = Browser(app, PHONE), Browser(app, LAPTOP), Browser(app)
    phone.sign_in(token)
    laptop.sign_in(token)
    bob.sign_in(kop_table["members"][1]["token"])
    page = laptop.get(f"/g/{gid}/devices")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Signed-in devices" in text
    assert "Firefox on Android" in text and "Safari on macOS" in text and "(this browser)" in text
    assert text.count('name="session"') == 2  # Ala's two browsers, not Bob's
    listed = _devices(text)
    bobs = re.search(r'name="session" value="([^"]+)"', bob.get(f"/g/{gid}/devices").get_data(as_text=True))[1]

    form = laptop.form(f"/g/{gid}/devices")
    assert laptop.post(f"/g/{gid}/devices", {"session": listed["Firefox on Android"]}).status_code == 403  # no token
    assert phone.signed_in_to(gid)
    assert laptop.post(f"/g/{gid}/devices", {**form, "session": bobs}).status_code == 303  # not Ala's to end
    assert bob.signed_in_to(gid)
    ended = laptop.post(f"/g/{gid}/devices", {**form, "session": listed["Firefox on Android"]})
    assert ended.status_code == 303 and "ended=1" in ended.headers["Location"]
    assert "That browser is signed out." in laptop.get(ended.headers["Location"]).get_data(as_text=True)
    assert not phone.signed_in_to(gid) and laptop.signed_in_to(gid) and bob.signed_in_to(gid)
    assert laptop.get(f"/g/{gid}/devices").get_data(as_text=True).count('name="session"') == 1

    mine = laptop.post(f"/g/{gid}/devices", {**form, "session": listed["Safari on macOS"]})  # this one
    assert mine.status_code == 303 and mine.headers["Location"].startswith("/?choose=1")
    assert not laptop.signed_in_to(gid)


def test_a_session_unused_for_thirty_days_ends_by_itself(app, kop_table, monkeypatch):
    gid, ala = kop_table["group"], Browser(app)
    now = [datetime(2030, 3, 1, 20, 0, tzinfo=timezone.utc)]
    monkeypatch.setattr(web_session, "_now", lambda: now[0])
    ala.sign_in(kop_table["members"][0]["token"])
    for _week in range(6):  # a weekly evening: each visit keeps the session alive
        now[0] += timedelta(days=7)
        assert ala.signed_in_to(gid)
    [(used,)] = _rows(app, "SELECT last_used_at FROM sessions")
    assert used.startswith("2030-04-12T20:00")
    renewed = [c for c in ala.set_cookies if c.startswith(web_session.COOKIE + "=")][-1]
    assert "Max-Age=2592000" in renewed  # the cookie's 30 days start again with each use
    now[0] += timedelta(days=29, hours=23)
    assert ala.signed_in_to(gid)
    phone = Browser(app, PHONE)
    phone.sign_in(kop_table["members"][0]["token"])
    now[0] += timedelta(days=15)
    assert phone.signed_in_to(gid)
    now[0] += timedelta(days=15, seconds=1)
    listed = _devices(phone.get(f"/g/{gid}/devices").get_data(as_text=True))
    assert list(listed) == ["Firefox on Android"]  # the laptop, 30 days and a second unused, is no device of hers
    assert not ala.signed_in_to(gid)  # and signs in no more
    assert ala.cookie() is None  # and the cookie no longer holds it
    bob = Browser(app)
    bob.sign_in(kop_table["members"][1]["token"])  # a sign-in forgets the sessions that ended so
    kept = sorted(agent for (agent,) in _rows(app, "SELECT user_agent FROM sessions"))
    assert kept == sorted([LAPTOP, PHONE])  # Bob's laptop and Ala's phone; Ala's laptop is gone


def test_rotating_a_members_token_ends_its_sessions(app, kop_table):
    gid, ala, ala_again, bob = kop_table["group"], Browser(app), Browser(app, PHONE), Browser(app)
    ala.sign_in(kop_table["members"][0]["token"])
    ala_again.sign_in(kop_table["members"][0]["token"])
    bob.sign_in(kop_table["members"][1]["token"])
    kept = ala.cookie()
    rotated = kop_table["admin"].post(f"{kop_table['base']}/members/{kop_table['members'][0]['id']}/token")
    assert rotated.status_code == 201
    assert not ala.signed_in_to(gid) and not ala_again.signed_in_to(gid)
    ala.http.set_cookie(web_session.COOKIE, kept)
    assert not ala.signed_in_to(gid)
    assert bob.signed_in_to(gid)  # another member's session is not touched
    ala.sign_in(kop_table["members"][0]["token"], expect=401)  # the old token signs in nowhere
    ala.sign_in(rotated.json["token"])
    assert ala.signed_in_to(gid)


def _credential_hashes(app) -> set[str]:
    return {h for (h,) in _rows(app, "SELECT token_hash FROM credentials")}


def test_no_cookie_ever_holds_a_token(app, kop_table):
    """Every way a browser signs in (the token form, a new group, an invitation, the admin's
    new link), out, and is shown pages: no Set-Cookie value is a token, or anything whose
    SHA-256 is a credential's (so not a token the test never saw either)."""
    gid = kop_table["group"]
    tokens = [kop_table["admin"].token, *(m["token"] for m in kop_table["members"])]
    ala, admin, phone = Browser(app), Browser(app), Browser(app, PHONE)
    ala.sign_in(tokens[1])
    ala.get(f"/g/{gid}")
    ala.get(f"/g/{gid}/devices")
    page = admin.get("/new").get_data(as_text=True)
    made = admin.post("/new", {"signin_token": _hidden(page, "signin_token"), "name": "Family", "currency": "EUR",
                               "confirmations": "payers"})
    family = made.headers["Location"].split("/")[2]
    invited = admin.post(f"/g/{family}/members", {**admin.form(f"/g/{family}/members"), "name": "Ewa"})
    link = re.search(r'href="http://localhost(/join/[^"]+)"', invited.get_data(as_text=True))[1]
    phone.post(link, {"signin_token": _hidden(phone.get(link).get_data(as_text=True), "signin_token")})
    assert phone.signed_in_to(family)
    admin.sign_in(tokens[0])  # a second group on this browser
    replaced = admin.post(f"/g/{family}/admin-token", admin.form(f"/g/{family}/admin-token"))
    assert replaced.status_code == 200
    _sign_out(ala, gid)

    hashes = _credential_hashes(app)
    for browser in (ala, admin, phone):
        assert browser.set_cookies
        for header in browser.set_cookies:
            value = header.split(";", 1)[0].split("=", 1)[1]
            for piece in re.split(r"[.\"]", value):
                assert piece not in tokens, header
                assert hashlib.sha256(piece.encode()).hexdigest() not in hashes, header
    assert admin.cookie().count(".") == 1  # two groups, two sessions


def test_a_cookie_of_an_earlier_bitka_holding_a_token_signs_in_nowhere_and_is_deleted(app, kop_table):
    gid, ala = kop_table["group"], Browser(app)
    ala.http.set_cookie(web_session.EARLIER_COOKIE, kop_table["members"][0]["token"])
    answer = ala.get(f"/g/{gid}")
    assert answer.status_code == 302  # to sign in
    assert any(c.startswith(web_session.EARLIER_COOKIE + "=;") for c in answer.headers.getlist("Set-Cookie"))
    assert ala.http.get_cookie(web_session.EARLIER_COOKIE) is None


@pytest.mark.parametrize("agent, named", [
    (PHONE, "Firefox on Android"), (LAPTOP, "Safari on macOS"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "CriOS/126.0 Mobile/15E148 Safari/604.1", "Chrome on iPhone"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 "
     "Edg/126.0", "Edge on Windows"),
    ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36",
     "Chrome on Linux"),
    ("curl/8.5.0", "curl/8.5.0"), ("", "a browser that does not say which")])
def test_a_device_is_named_by_its_browser_and_system(app, agent, named):
    from service.web.devices import device
    with app.test_request_context("/"):
        assert device(agent) == named
