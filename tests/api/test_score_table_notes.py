"""The notes beside a hand in a table's score table are its game's (``Game.forms.notes``), in the
reader's language where the catalog has them: a Baśka hand played in a bok-runda says so, and
so does the hand that makes one due; a game that notes nothing has no such note."""
from __future__ import annotations

import html
import re

from tests.api.test_corrections import _group, _log
from tests.backends import ON_SQLITE

FIFTY_TWO = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 52, "tricks": 2}  # a bok-runda falls due
PLAIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


def _page(client, group) -> str:
    browser = client.http.application.test_client()
    page = browser.get("/").get_data(as_text=True)
    token = re.search(r'name="signin_token" value="([^"]+)"', page).group(1)
    assert browser.post("/signin", data={"signin_token": token, "token": group["token"]}).status_code == 303
    shown = browser.get(f"/g/{group['id']}/tables/{group['table']}")
    assert shown.status_code == 200
    return html.unescape(shown.get_data(as_text=True))


@ON_SQLITE
def test_the_score_table_notes_what_the_game_notes(client):
    baska = _group(client, 4, "baska", {"variant": "bytow-2005"})
    baska["token"] = baska["admin"].token
    for result in (FIFTY_TWO, PLAIN):
        _log(baska, result)
    page = _page(client, baska)
    assert page.count("makes a bok-runda due") == 1 and page.count("in a bok-runda (doubled)") == 1
    kop = _group(client, 4, "kop", {}, within=baska)
    for result in (FIFTY_TWO, PLAIN):
        _log(kop, result)
    assert "bok-runda" not in _page(client, kop).split("<table", 1)[-1]
