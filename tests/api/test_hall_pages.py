"""The hall's network and the installed app, through the pages (both backends).

- ``bitka serve --lan`` (``BITKA_LAN``): the sign-in cookies go without ``Secure`` there only,
  still ``HttpOnly`` and ``SameSite=Strict``, and every page says in a sentence that only the
  hall's Wi-Fi protects the sign-in; everywhere else they are ``Secure`` and nothing is said.
- The hall's address as a QR code, under the address the links carry.
- The manifest, the service worker (at the root, with a policy of its own that lets it fetch
  from this site only, keeping nothing but the files everyone gets and the page without a
  network) and that page, which shows nobody's group, even to a browser signed in.
"""
from __future__ import annotations

import json
import re

import pytest

from service import headers
from service.app import create_app
from tests.api.test_pages import _signed_in
from tests.conftest import Client, kop_group

NOTE = "your sign-in is protected only by the hall's Wi-Fi"


@pytest.fixture
def hall_app(db_url, tmp_path):
    app = create_app({"BITKA_DB": db_url, "BITKA_KEY": str(tmp_path / "bitka.key"), "TESTING": True,
                      "BITKA_LAN": True, "BITKA_SERVED_AT": "http://192.168.1.20:8000"})
    yield app
    app.extensions["bitka.store"].close()


def _cookies(answer) -> dict[str, str]:
    return {c.split("=", 1)[0]: c for c in answer.headers.getlist("Set-Cookie")}


def _sign_in_cookies(app) -> dict[str, str]:
    """Every cookie a sign-in sets: the sign-in form's own, then the session's."""
    client = Client(app.test_client())
    t = kop_group(client)
    form = client.http.get("/?choose=1")
    signed = _signed_in(client, t["members"][0]["token"])
    return {**_cookies(form), **_cookies(signed)}


def test_on_the_halls_network_the_sign_in_cookies_go_without_secure_and_nowhere_else(app, hall_app):
    for name, cookie in _sign_in_cookies(hall_app).items():
        assert "Secure" not in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie, name
    assert set(_sign_in_cookies(hall_app)) >= {"bitka_signin", "bitka_session"}
    for name, cookie in _sign_in_cookies(app).items():
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie, name


def test_every_page_on_the_halls_network_says_what_protects_the_sign_in(app, hall_app):
    for served, said in ((hall_app, True), (app, False)):
        client = Client(served.test_client())
        t = kop_group(client)
        _signed_in(client, t["members"][0]["token"])
        for path in ("/?choose=1", "/new", f"/g/{t['group']}", f"/g/{t['group']}/tables/{t['table']}", "/offline",
                     "/no/such/page"):
            page = client.http.get(path, headers={"Accept": "text/html"}).get_data(as_text=True)
            assert (NOTE in page) is said, (path, said)


def test_the_halls_address_as_a_qr_code_under_the_address_the_links_carry(hall_app):
    client = Client(hall_app.test_client())
    t = kop_group(client)
    assert client.http.get(f"/g/{t['group']}/hall").status_code == 302  # signed in nowhere: the sign-in page
    _signed_in(client, t["admin"].token)
    page = client.http.get(f"/g/{t['group']}/hall").get_data(as_text=True)
    assert '<a class="link" href="http://192.168.1.20:8000/"><kbd>http://192.168.1.20:8000/</kbd></a>' in page
    assert '<svg' in page and 'class="qr"' in page and "Served over plain HTTP" in page
    members = client.http.get(f"/g/{t['group']}/members").get_data(as_text=True)
    assert f'href="/g/{t["group"]}/hall"' in members
    invited = t["admin"].post(f"/v1/groups/{t['group']}/invitations", {"name": "Ewa"}).json
    assert invited["url"].startswith("http://192.168.1.20:8000/join/")


def test_behind_a_proxy_the_halls_page_shows_the_public_address(app, kop_table):
    app.config["BITKA_PUBLIC_URL"] = "https://cards.example.org"
    client = Client(app.test_client())
    _signed_in(client, kop_table["members"][1]["token"])  # any member may show it
    page = client.http.get(f"/g/{kop_table['group']}/hall").get_data(as_text=True)
    assert 'href="https://cards.example.org/"' in page and "Served over plain HTTP" not in page


def test_the_manifest_installs_bitka_from_the_sites_root(client):
    answer = client.http.get("/manifest.webmanifest", headers={"Accept-Language": "pl"})
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    body = json.loads(answer.get_data(as_text=True))
    assert body["start_url"] == body["scope"] == body["id"] == "/" and body["display"] == "standalone"
    assert body["lang"] == "pl" and body["name"] == "bitka"
    for icon in body["icons"]:
        assert client.http.get(icon["src"]).status_code == 200
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"}
    page = client.http.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "manifest-src 'self'" in headers.PAGES and "worker-src 'self'" in headers.PAGES


def test_the_service_worker_keeps_only_what_everyone_gets(client):
    answer = client.http.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    policy = answer.headers["Content-Security-Policy"]
    assert "connect-src 'self'" in policy and "script-src" not in policy and "default-src 'none'" in policy
    script = answer.get_data(as_text=True)
    kept = json.loads(re.search(r"const KEPT = (\[.*?\]);", script).group(1))
    assert kept[:2] == ["/offline", "/manifest.webmanifest"]
    assert all(re.fullmatch(r"/static/(vendor/(noble-hashes/)?)?[\w.-]+", path) for path in kept[2:])
    assert {"/static/taps.js", "/static/bitka.css", "/static/words.js"} <= set(kept)
    assert "sw.js" not in "".join(kept)  # not itself: a browser checks the worker for news on its own
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', script).group(1)
    assert client.http.get("/sw.js").get_data(as_text=True).count(version) == 1
    assert 'request.method !== "GET"' in script  # a form sent goes to the network, never to a cache


def test_the_page_without_a_network_shows_nobodys_group_even_signed_in(client, kop_table):
    _signed_in(client, kop_table["members"][0]["token"])
    answer = client.http.get("/offline")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "No network" in page
    for private in ("form_token", kop_table["group"], "Czwartek", "Ala", "Signed in as"):
        assert private not in page, private
    assert 'id="taps"' in page and "data-group" not in page
