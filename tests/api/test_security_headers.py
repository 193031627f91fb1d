"""Every answer says what a browser may do with it (issue 30: no security headers on the
pages or the API): a page runs only the pages' own script files and no site frames it; an
API answer, a problem, a static file and a 404 run nothing; nothing is sniffed into a
script; no address of bitka's leaves in a Referer. /docs keeps Swagger UI's own policy."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import headers
from service.handlers import lookups
from tests.api.test_pages import _signed_in
from tests.conftest import KOP_HANDS, KOP_TRICKS

TEMPLATES = Path(__file__).resolve().parents[2] / "service" / "web" / "templates"


def _policy(answer) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in answer.headers["Content-Security-Policy"].split(";") if d.strip()}


def _guarded(answer) -> dict[str, list[str]]:
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] in ("no-referrer", "same-origin")
    policy = _policy(answer)
    assert policy["frame-ancestors"] == ["'none'"]
    return policy


def _page_policy(answer) -> None:
    policy = _guarded(answer)
    assert answer.mimetype == "text/html"
    assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'none'"]
    assert not any("unsafe" in source or source == "*" for sources in policy.values() for source in sources)
    assert policy["base-uri"] == ["'none'"] and policy["object-src"] == ["'none'"]


def _runs_nothing(answer) -> None:
    policy = _guarded(answer)
    assert policy["default-src"] == ["'none'"] and "script-src" not in policy


def _a_hand(t) -> str:
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {
        "deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": [], "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert r.status_code == 201, r.json
    return r.json["id"]


def test_every_page_runs_only_the_pages_own_scripts_and_no_site_frames_it(client, kop_table):
    t = kop_table
    hand = _a_hand(t)
    _page_policy(client.http.get("/"))  # signed in nowhere
    _page_policy(client.http.get(f"/g/{t['group']}"))  # a redirect to sign in, or the sign-in page
    _signed_in(client, t["members"][0]["token"])
    for path in (f"/g/{t['group']}", f"/g/{t['group']}/tables/{t['table']}", f"/g/{t['group']}/hands/{hand}",
                 f"/g/{t['group']}/hands/{hand}/live", "/g/g_000000000000", f"/g/{t['group']}/hands/h_000000000000"):
        answer = client.http.get(path)
        assert answer.status_code in (200, 403, 404), (path, answer.status_code)
        _page_policy(answer)
    refused = client.http.post(f"/g/{t['group']}/settings", data={"confirmations": "off"})  # no form token
    assert refused.status_code == 403
    _page_policy(refused)


def test_api_answers_problems_static_files_and_404s_run_nothing(client, kop_table):
    t = kop_table
    answers = [t["member"].get(t["base"]), t["admin"].post(f"{t['base']}/members", {"name": "Ewa"}),
               client.get(t["base"]), t["member"].get("/v1/groups/g_000000000000"),
               t["admin"].post(f"{t['base']}/members", {"name": ""}), client.http.get("/v1/nowhere"),
               client.http.get("/nowhere"), client.http.get("/static/bitka.css"),
               client.http.get("/static/verify.js"), client.http.get("/static/none.js"),
               client.http.get("/v1/openapi.json"), client.http.post("/v1/groups", data="x", content_type="text/plain")]
    assert [a.status_code for a in answers] == [200, 201, 401, 404, 400, 404, 404, 200, 200, 404, 200, 415]
    for answer in answers:
        if answer.mimetype == "text/html":
            _page_policy(answer)
        else:
            _runs_nothing(answer)


def test_an_error_bitka_did_not_expect_is_guarded_too(client, kop_table, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(lookups, "group_row", broken)
    answer = kop_table["member"].get(kop_table["base"])
    assert answer.status_code == 500 and answer.mimetype == "application/problem+json"
    _runs_nothing(answer)


def test_the_docs_keep_swagger_uis_policy_and_are_framed_by_nobody(client):
    for path in ("/docs", "/docs/start.js", "/docs/assets/swagger-ui-bundle.js"):
        answer = client.http.get(path)
        assert answer.status_code == 200
        policy = _guarded(answer)
        assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'self'"]


@pytest.mark.parametrize("template", sorted(TEMPLATES.glob("*.html")), ids=lambda p: p.name)
def test_no_template_has_an_inline_script_or_event_handler(template):
    text = template.read_text(encoding="utf-8")
    for tag in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in tag or 'type="application/json"' in tag, (template.name, tag)  # a file, or data
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", text), template.name
    assert not re.search(r"""\bstyle\s*=|<style\b|javascript:""", text), template.name
    assert headers.PAGES.count("'self'") >= 1
