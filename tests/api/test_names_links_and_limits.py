"""The smaller findings of issue 30: a name drawn like another member's is refused, an open
invitation ends with the token it would mint, invitation links never come from the Host a
request names, the admin's link is kept by no cache, and a balance past 10^15 minor units
can be agreed and paid back."""
from __future__ import annotations

import re

import pytest

from cli.server import address
from tests.api.test_confirmations import STARE_WIN
from tests.api.test_evening_pages import _browser, _hidden, _join
from tests.api.test_pages import _signed_in
from tests.command import run
from tests.conftest import without_confirmations


def _version(t) -> int:
    return t["admin"].get(t["base"]).json["version"]


@pytest.mark.parametrize("name, said", [
    ("\u0410la", "mixes Latin letters with Cyrillic or Greek ones"),  # a Cyrillic А, then Latin
    ("Al\u03b1", "mixes Latin letters with Cyrillic or Greek ones"),  # a Greek alpha at the end
    ("\u0412\u041e\u0412", "reads as"),  # ВОВ, all Cyrillic, beside Bob
    ("AIa", "reads as"),  # a capital I for the l
    ("ala", "reads as"), ("BOB", "reads as"), ("\u0421yd", "mixes"),
])
def test_a_name_drawn_like_a_members_is_refused_at_once(kop_table, name, said):
    t = kop_table
    before = _version(t)
    for path, body in ((f"{t['base']}/members", {"name": name}), (f"{t['base']}/invitations", {"name": name})):
        r = t["admin"].post(path, body)
        assert r.status_code == 422 and said in r.json["detail"], r.json
    assert _version(t) == before


def test_names_in_one_other_alphabet_are_welcome(kop_table):
    t = kop_table
    for name in ("\u0410\u043b\u0430", "\u0391\u03bb\u03ad\u03be\u03b7\u03c2", "Zoe", "Zo\u00e9", "Ala 2", "Ala Nowak"):
        r = t["admin"].post(f"{t['base']}/members", {"name": name})  # Ала, Αλέξης
        assert r.status_code == 201, (name, r.json)


def test_the_members_page_says_why_a_look_alike_name_is_refused(client, kop_table):
    t = kop_table
    _signed_in(client, t["admin"].token)
    page = client.http.get(f"/g/{t['group']}/members").get_data(as_text=True)
    token = page.split('name="form_token" value="')[1].split('"')[0]
    r = client.http.post(f"/g/{t['group']}/members", data={"form_token": token, "name": "\u0410la"})
    assert r.status_code == 422 and "mixes Latin letters with Cyrillic or Greek ones" in r.get_data(as_text=True)


def test_rotating_a_members_token_ends_its_open_invitations(client, kop_table):
    t = kop_table
    bob = t["members"][1]["id"]
    invited = t["admin"].post(f"{t['base']}/invitations", {"member": bob}).json
    assert client.http.get(f"/join/{invited['code']}").status_code == 200
    assert t["admin"].post(f"{t['base']}/members/{bob}/token").status_code == 201
    assert client.http.get(f"/join/{invited['code']}").status_code == 404
    assert client.http.post(f"/join/{invited['code']}", data={}).status_code == 404
    admin_link = t["admin"].post(f"{t['base']}/invitations", {"member": t["members"][2]["id"]}).json
    assert t["admin"].post(f"{t['base']}/members/{bob}/token").status_code == 201
    assert client.http.get(f"/join/{admin_link['code']}").status_code == 200  # another member's stays


def test_invitation_links_never_come_from_the_host_a_request_names(app, kop_table):
    t = kop_table
    for host in ("evil.example", "evil.example:443", "127.0.0.1@evil.example"):
        r = t["admin"].post(f"{t['base']}/invitations", {"name": f"Ewa {len(host)}"}, headers={"Host": host})
        assert r.status_code == 201 and r.json["url"] == f"http://localhost/join/{r.json['code']}", r.json
    app.config["BITKA_SERVED_AT"] = "http://127.0.0.1:8123"  # as bitka serve --port 8123 sets it
    r = t["admin"].post(f"{t['base']}/invitations", {"name": "Iga"}, headers={"Host": "evil.example"})
    assert r.json["url"] == f"http://127.0.0.1:8123/join/{r.json['code']}"
    app.config["BITKA_PUBLIC_URL"] = "https://cards.example.org/"
    r = t["admin"].post(f"{t['base']}/invitations", {"name": "Ola"}, headers={"Host": "evil.example"})
    assert r.json["url"] == f"https://cards.example.org/join/{r.json['code']}"
    assert address("0.0.0.0", 8000) == address("::", 8000) == "http://127.0.0.1:8000"
    assert address("::1", 80) == "http://[::1]:80" and address("192.168.1.5", 8000) == "http://192.168.1.5:8000"


def test_the_admins_link_is_never_in_an_address_and_the_welcome_page_shows_only_the_real_one(app):
    """The admin's link is shown on the welcome page that follows the new group (and a new
    admin link), to the browser that made it, while it is the current one; its code is in no
    address (no Location, no page's URL: not in a history, a log or a Referer), and a code put
    in the address is never shown as the admin's link."""
    admin = _browser(app)
    page = admin.http.get("/new").get_data(as_text=True)
    made = admin.http.post("/new", data={"signin_token": _hidden(page, "signin_token"), "name": "Czwartek",
                                         "currency": "PLN", "confirmations": "payers", "organizer": "Ola"})
    welcome_at, group = made.headers["Location"], made.headers["Location"].split("/")[2]
    welcome = admin.http.get(welcome_at)
    assert welcome.status_code == 200 and "no-store" in welcome.headers["Cache-Control"]
    code = re.search(r'href="http://localhost/join/([^"]+)"', welcome.get_data(as_text=True))[1]
    assert code not in welcome_at and "code" not in welcome_at

    members = admin.http.get(f"/g/{group}/members").get_data(as_text=True)
    again = admin.http.post(f"/g/{group}/admin-link", data={"form_token": _hidden(members, "form_token")})
    assert again.status_code == 303 and "code" not in again.headers["Location"]
    new = re.search(r'href="http://localhost/join/([^"]+)"', admin.http.get(again.headers["Location"]).get_data(
        as_text=True))[1]
    assert new != code and new not in again.headers["Location"]
    old_page = admin.http.get(welcome_at).get_data(as_text=True)  # replaced: the old link is shown no more
    assert "/join/" not in old_page and "Your admin link is not shown here" in old_page

    laptop = _join(app, f"/join/{new}")  # the admin on another browser, by the link: it is not shown there
    for at in (again.headers["Location"], f"/g/{group}/welcome?code=FAKEFAKEFAKEFAKE1234",
               f"/g/{group}/welcome?link=FAKEFAKEFAKEFAKE1234&code=FAKEFAKEFAKEFAKE1234"):
        for browser in (laptop, admin) if "FAKE" in at else (laptop,):
            shown = browser.http.get(at).get_data(as_text=True)
            assert "/join/" not in shown and "Your admin link is not shown here" in shown


def test_an_invitation_page_with_its_code_in_the_address_is_kept_by_no_cache(client, kop_table):
    t = kop_table
    code = t["admin"].post(f"{t['base']}/invitations", {"name": "Iga"}).json["code"]
    page = client.http.get(f"/join/{code}")
    assert page.status_code == 200 and "no-store" in page.headers["Cache-Control"]


def test_a_balance_past_the_largest_payout_is_agreed_and_paid_back_in_one_payment(client, kop_table, db_url):
    t = kop_table
    without_confirmations(t)
    ids = [m["id"] for m in t["members"]]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "seats": ids,
                                                    "stake": "10000000000000.00"}).json  # 10^15 minor units
    for _ in range(3):
        r = t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", {"result": STARE_WIN})
        assert r.status_code == 201, r.json
    shown = {b["member"]: b["balance"] for b in t["admin"].get(f"{t['base']}/balances").json["balances"]}
    assert shown[ids[1]] == "30000000000000.00" and shown[ids[0]] == "-30000000000000.00"
    agreed = t["admin"].post(f"{t['base']}/assertions", {"member": ids[1], "balance": "30000000000000.00"})
    assert agreed.status_code == 201, agreed.json
    paid = t["admin"].post(f"{t['base']}/payments", {"from": ids[0], "to": ids[1], "amount": "30000000000000.00"})
    assert paid.status_code == 201, paid.json
    shown = {b["member"]: b["balance"] for b in t["admin"].get(f"{t['base']}/balances").json["balances"]}
    assert shown[ids[0]] == shown[ids[1]] == "0.00"
    too_much = t["admin"].post(f"{t['base']}/payments", {"from": ids[2], "to": ids[3],
                                                         "amount": "10000000000000000.01"})
    assert too_much.status_code == 400 and "at most 10000000000000000.00" in too_much.json["detail"]
    stake = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "seats": ids,
                                                    "stake": "10000000000000.01"})
    assert stake.status_code == 400 and "at most 10000000000000.00" in stake.json["detail"]
    for command in ("verify", "replay"):  # the log with its large payment holds, as written
        result = run("--db", db_url, command)
        assert result.exit_code == 0, result.output
