"""Papercuts of the pages, each as the page shows it: the members page keeps every link
nobody has used yet (and only for the browser that made them), the table and hand pages
lead to the game's words, a correction starts from the hand as it stands, a score sheet
starts with nothing chosen that its scorer has to answer, and a result that waits says
which table it is from."""
from __future__ import annotations

import re
from datetime import timedelta

from service import invitations
from service.http import store
from tests.api.test_evening_pages import _hidden, _invite, _join, _start

NAMES = ("Ala", "Bob", "Cyd", "Dan")


def _text(answer) -> str:
    return answer.get_data(as_text=True)


def _links(page: str) -> set[str]:
    return set(re.findall(r'href="http://localhost(/join/[^"]+)"', page))


def test_the_members_page_shows_each_link_nobody_has_used_yet_with_its_code(app):
    admin, group = _start(app)
    links = {name: _invite(admin, group, name) for name in ("Ala", "Bob", "Cyd", "Dan")}
    page = _text(admin.http.get(f"/g/{group}/members"))
    assert _links(page) == set(links.values())
    for name in links:
        assert f"{name}'s invitation" in page and f"Scan to join as {name}." in page
    assert page.count('<svg') >= len(links)
    # Inviting a fifth shows the new link first, the four waiting below it.
    fifth = _invite(admin, group, "Eve")
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == {*links.values(), fifth}
    # A used link leaves the page; the others stay.
    _join(app, links["Bob"])
    page = _text(admin.http.get(f"/g/{group}/members"))
    assert _links(page) == {links["Ala"], links["Cyd"], links["Dan"], fifth}
    assert "Bob's invitation" not in page


def test_only_the_browser_that_made_a_link_is_shown_it_again_and_the_store_keeps_none(app, monkeypatch):
    admin, group = _start(app)
    link = _invite(admin, group, "Ala")
    page = _text(admin.http.get(f"/g/{group}/members"))
    made = admin.http.post(f"/g/{group}/admin-link", data={"form_token": _hidden(page, "form_token")})
    admin_link = _links(_text(admin.http.get(made.headers["Location"]))).pop()
    other = _join(app, admin_link)  # the admin on a second phone, by the admin's own link
    assert _links(_text(other.http.get(f"/g/{group}/members"))) == set()
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == {link}
    code = link.removeprefix("/join/")
    with app.app_context(), store().reading() as r:
        kept = [str(v) for row in r.conn.execute("SELECT * FROM invitations").fetchall() for v in row]
    assert kept and not any(code in v for v in kept)
    # Seven days on, the link has expired and leaves the page.
    later = invitations._now() + timedelta(days=7, minutes=1)
    monkeypatch.setattr(invitations, "_now", lambda: later)
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == set()
