"""A group anyone may make big (issue 44): what a read of it costs follows what it shows, not
how many tables the group has opened. The group's API answer pages its tables, its page lists
those opened last and links to every one, a page at a time, and neither reads a row per table."""
from __future__ import annotations

import re

import pytest

from events.rows import RowReads
from events.recorder import EventLog
from service.web.group import SHOWN_TABLES

BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}


def _signed_in(app, token: str):
    browser = app.test_client()
    page = browser.get("/?choose=1").get_data(as_text=True)
    signin = re.search(r'name="signin_token" value="([^"]*)"', page).group(1)
    assert browser.post("/signin", data={"signin_token": signin, "token": token}).status_code == 303
    return browser


@pytest.fixture
def counted(monkeypatch):
    """How many times each store read was asked for, by name (reset by the test)."""
    counts: dict[str, int] = {}
    for cls, names in ((RowReads, ("row", "rows_of", "rows")), (EventLog, ("table_events", "table_hands"))):
        for name in names:
            original = getattr(cls, name)

            def wrapped(self, *args, _original=original, _name=name, **kw):
                counts[_name] = counts.get(_name, 0) + 1
                return _original(self, *args, **kw)
            monkeypatch.setattr(cls, name, wrapped)
    return counts


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_reads_of_a_group_do_not_grow_with_its_tables(app, client, counted):
    g = client.post("/v1/groups", {"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    api, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    seats = [api.post(f"{base}/members", {"name": n}).get_json()["id"] for n in ("Ala", "Bob", "Cyd", "Dan")]
    browser = _signed_in(app, g["admin_token"])

    def opened(n: int) -> list[str]:
        return [api.post(f"{base}/tables", {"game": "kop", "seats": seats, "stake": "0.50"}).get_json()["id"]
                for _ in range(n)]

    def reads(path: str, who) -> int:
        counted.clear()
        answer = who.get(path, headers=BROWSER) if who is browser else who.get(path)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        return sum(counted.values())

    paths = [(base, api), (f"/g/{g['id']}", browser), (f"/g/{g['id']}/summary", browser)]
    tables = opened(3)
    api.post(f"{base}/tables/{tables[0]}/hands", {"deal": {"dealer": 0, "hands": _HANDS},
                                                  "tricks": [{"cards": t} for t in _TRICKS]})
    few = [reads(path, who) for path, who in paths]
    tables += opened(120)
    many = [reads(path, who) for path, who in paths]
    assert many == few, (few, many)

    first = api.get(base)
    body = first.get_json()
    assert [t["id"] for t in body["tables"]] == tables[:100]
    assert body["tables_total"] == 123 and body["tables_next"] == tables[99]
    assert f"tables_after={tables[99]}" in first.headers["Link"]
    rest = api.get(f"{base}?tables_after={tables[99]}").get_json()
    assert [t["id"] for t in rest["tables"]] == tables[100:] and rest["tables_next"] is None
    assert "Link" not in api.get(f"{base}?tables_after={tables[99]}").headers
    assert [t["id"] for t in api.get(f"{base}?tables_limit=2").get_json()["tables"]] == tables[:2]
    assert api.get(f"{base}?tables_limit=0").status_code == 400

    page = browser.get(f"/g/{g['id']}", headers=BROWSER).get_data(as_text=True)
    assert page.count('class="table-card"') == SHOWN_TABLES
    assert all(t in page for t in tables[-SHOWN_TABLES:]) and tables[0] not in page
    assert f'href="/g/{g["id"]}/tables"' in page
    listed = browser.get(f"/g/{g['id']}/tables", headers=BROWSER).get_data(as_text=True)
    assert listed.count('class="table-card"') == 100 and tables[0] in listed and tables[100] not in listed
    after = re.search(r'href="(/g/[^"]+/tables\?after=[^"]+)"', listed).group(1)
    last = browser.get(after, headers=BROWSER).get_data(as_text=True)
    assert last.count('class="table-card"') == 23 and tables[-1] in last and "?after=" not in last


_HANDS = [["10D", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"], ["QS", "JS", "AC", "10S"]]
_TRICKS = [["AH", "QH", "QS", "JD"], ["10H", "QD", "JS", "JH"], ["QC", "JC", "AC", "10D"], ["AD", "10C", "10S", "AS"]]
