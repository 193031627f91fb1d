"""The admin's tokens can be replaced: ``POST /v1/groups/{g}/members/admin/token``, the admin's
page and ``bitka rotate-token`` end every admin token (the one that made the group, each one
an admin link made), the admin's link and every admin session at once; the new token is
given once (both backends)."""
from __future__ import annotations

import re

from service import handlers
from tests.api.test_sessions import PHONE, Browser, _hidden
from tests.command import run


def _admin_link(browser: Browser, group: str) -> str:
    """The admin's own link, made on the members page and shown on the welcome page it leads
    to: the code of /join/{code}."""
    made = browser.post(f"/g/{group}/admin-link", browser.form(f"/g/{group}/members"))
    assert made.status_code == 303
    return re.search(r'href="http://localhost/join/([^"]+)"', browser.get(made.headers["Location"]).get_data(
        as_text=True))[1]


def _status(client, group, token) -> int:
    return client.as_(token).get(f"/v1/groups/{group}").status_code


def test_rotating_the_admin_token_stops_every_admin_token_at_once(app, client, kop_table):
    gid, base, first = kop_table["group"], kop_table["base"], kop_table["admin"].token
    laptop = Browser(app)
    laptop.sign_in(first)
    code = _admin_link(laptop, gid)
    from_link = client.post(f"/v1/invitations/{code}").json["token"]  # a token the admin's link made
    phone = Browser(app, PHONE)
    phone.post(f"/join/{code}", {"signin_token": _hidden(phone.get(f"/join/{code}").get_data(as_text=True),
                                                         "signin_token")})
    assert phone.signed_in_to(gid) and _status(client, gid, from_link) == 200
    version = client.as_(first).get(base).headers["ETag"]

    member = kop_table["member"].post(f"{base}/members/admin/token")
    assert member.status_code == 403 and _status(client, gid, first) == 200  # only the admin rotates the admin
    assert client.post(f"{base}/members/admin/token").status_code == 401

    rotated = client.as_(from_link).post(f"{base}/members/admin/token")
    assert rotated.status_code == 201, rotated.json
    assert rotated.json["id"] == "admin" and rotated.json["name"] == "admin"
    new = rotated.json["token"]
    assert new not in (first, from_link) and len(new) == 43
    for old in (first, from_link):  # every earlier admin token: 401 on reads and on writes
        assert _status(client, gid, old) == 401
        assert client.as_(old).post(f"{base}/members", {"name": "Eve"}).status_code == 401
    assert _status(client, gid, new) == 200 and _status(client, gid, kop_table["members"][0]["token"]) == 200
    assert client.as_(new).get(base).headers["ETag"] == version  # nothing appended to the log
    assert client.post(f"/v1/invitations/{code}").status_code == 404  # the admin's link went with them

    assert not laptop.signed_in_to(gid) and not phone.signed_in_to(gid)  # their sessions ended
    laptop.sign_in(first, expect=401)  # an old admin token signs in on no page
    laptop.sign_in(new)
    assert laptop.signed_in_to(gid)


def test_a_replayed_admin_rotation_gives_no_token_again(client, kop_table):
    base, admin = kop_table["base"], kop_table["admin"]
    key = {"Idempotency-Key": "rotate-admin-1"}
    first = admin.post(f"{base}/members/admin/token", headers=key)
    assert first.status_code == 201 and "token" in first.json
    again = admin.as_(first.json["token"]).post(f"{base}/members/admin/token", headers=key)
    assert again.status_code == 201 and again.json.get("token_withheld") is True and "token" not in again.json
    assert _status(admin, kop_table["group"], first.json["token"]) == 200  # the replay rotated nothing


def test_the_admins_page_signs_the_admin_out_everywhere_and_shows_the_new_link_once(app, client, kop_table):
    gid, first = kop_table["group"], kop_table["admin"].token
    laptop, phone, ala = Browser(app), Browser(app, PHONE), Browser(app)
    laptop.sign_in(first)
    phone.sign_in(first)
    ala.sign_in(kop_table["members"][0]["token"])
    members = laptop.get(f"/g/{gid}/members").get_data(as_text=True)
    assert f'href="/g/{gid}/admin-token"' in members and "Sign the admin out everywhere" in members
    ask = laptop.get(f"/g/{gid}/admin-token")
    text = ask.get_data(as_text=True)
    assert ask.status_code == 200 and "Yes, sign the admin out everywhere" in text and "/join/" not in text
    assert ala.get(f"/g/{gid}/admin-token").status_code == 403
    refused = ala.post(f"/g/{gid}/admin-token", ala.form(f"/g/{gid}"))  # a member's own session: still no
    assert refused.status_code == 403
    forged = laptop.post(f"/g/{gid}/admin-token", {})  # no form token: another site's button
    assert forged.status_code == 403 and _status(client, gid, first) == 200

    done = laptop.post(f"/g/{gid}/admin-token", {"form_token": _hidden(text, "form_token")})
    page = done.get_data(as_text=True)
    assert done.status_code == 200 and "The admin is signed out everywhere else" in page
    assert "no-store" in done.headers["Cache-Control"]  # the link is kept by no cache
    link = re.search(r'href="http://localhost(/join/[^"]+)"', page)[1]
    assert "<svg" in page and not re.search(r"[A-Za-z0-9_-]{43}", page.replace(link, ""))  # no token shown
    assert _status(client, gid, first) == 401
    assert laptop.signed_in_to(gid) and not phone.signed_in_to(gid) and ala.signed_in_to(gid)
    assert "/join/" not in laptop.get(f"/g/{gid}/admin-token").get_data(as_text=True)  # shown that once
    again = Browser(app)
    again.post(link, {"signin_token": _hidden(again.get(link).get_data(as_text=True), "signin_token")})
    assert again.signed_in_to(gid)  # the new link signs in as the admin
    assert "the admin" in again.get(f"/g/{gid}").get_data(as_text=True)


def test_a_double_tap_on_the_admins_button_leaves_this_browser_signed_in_with_the_last_link(app, kop_table):
    gid, laptop = kop_table["group"], Browser(app)
    laptop.sign_in(kop_table["admin"].token)
    cookie, form = laptop.cookie(), laptop.form(f"/g/{gid}/admin-token")
    first = laptop.post(f"/g/{gid}/admin-token", form)
    second = laptop.post(f"/g/{gid}/admin-token", form)  # the same form again, before the first answer showed
    assert first.status_code == second.status_code == 200
    assert laptop.cookie() == cookie and laptop.signed_in_to(gid)  # one session, kept through both
    links = [re.search(r'href="http://localhost(/join/[^"]+)"', a.get_data(as_text=True))[1] for a in (first, second)]
    assert laptop.get(links[0]).status_code == 404 and laptop.get(links[1]).status_code == 200  # the last one works
    assert [row[0] for row in _sessions(app)] == ["admin"]


def _sessions(app):
    with app.extensions["bitka.store"].reading() as r:
        return r.conn.execute("SELECT subject FROM sessions").fetchall()


def test_the_operator_rotates_the_admin_token_from_the_command_line(db_url, tmp_path):
    from events.database import open_store
    from projections.projector import project
    from service.auth import resolve, token_hash
    from service.commands import CreateGroup
    store = open_store(db_url, projector=project).setup()
    with store.writing() as w:
        made = handlers.handle(CreateGroup("Czwartek", "PLN", "payers"), w)
    store.close()
    result = run("--db", db_url, "rotate-token", "--group", made.id)
    assert result.exit_code == 0, result.output
    new = re.search(r"shown only this once\): (\S+)", result.output)[1]
    store = open_store(db_url, projector=project).setup()
    with store.reading() as r:
        assert resolve(r, f"Bearer {new}").is_admin
        assert r.credential(token_hash(made.admin_token)) is None
    store.close()
    unknown = run("--db", db_url, "rotate-token", "--group", made.id, "--member", "m_nobody")
    assert unknown.exit_code == 1 and "no member 'm_nobody'" in unknown.output
    assert run("--db", db_url, "rotate-token", "--group", "g_nope").exit_code == 2


def test_the_openapi_document_says_admin_rotates_the_admins_tokens(client):
    doc = client.get("/v1/openapi.json").json
    operation = doc["paths"]["/v1/groups/{group}/members/{member}/token"]["post"]
    assert "`admin`" in operation["description"] and "every admin token" in operation["description"]
    member = next(p for p in doc["paths"]["/v1/groups/{group}/members/{member}/token"]["parameters"]
                  if p["name"] == "member")
    assert "admin" in member["description"]
