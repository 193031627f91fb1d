"""A group anyone may make big (issue 44): what a read of it costs follows what it shows, not
how many tables the group has opened. The group's API answer pages its tables, its page lists
those opened last and links to every one, a page at a time, and neither reads a row per table."""
from __future__ import annotations

import re
from types import SimpleNamespace

import orjson
import pytest

from events import migrations, rows
from events.rows import RowReads
from events.recorder import EventLog
from projections import group_tables
from service.app import create_app
from service.web.group import SHOWN_BALANCES, SHOWN_TABLES, SHOWN_TRANSFERS, _furthest, _largest
from tests.command import run

BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}


def _signed_in(app, token: str):
    browser = app.test_client()
    page = browser.get("/?choose=1").get_data(as_text=True)
    signin = re.search(r'name="signin_token" value="([^"]*)"', page).group(1)
    assert browser.post("/signin", data={"signin_token": signin, "token": token}).status_code == 303
    return browser


@pytest.fixture
def counted(monkeypatch):
    """How much each store read read, by name (reset by the test): a row read counts one, and
    so does a page of rows asked for by key (at most a page: what the reader is shown) and a
    table's hand ids (an index); a read of every row of a kind, or of events, as many as it gave."""
    counts: dict[str, int] = {}

    def counting(cls, name, size):
        original = getattr(cls, name)

        def wrapped(self, *args, **kw):
            found = original(self, *args, **kw)
            if name == "scan":
                return _counted_scan(found, counts)
            counts[name] = counts.get(name, 0) + size(found)
            return found
        monkeypatch.setattr(cls, name, wrapped)
    for cls, name in ((RowReads, "row"), (RowReads, "rows_of"), (EventLog, "table_hands")):
        counting(cls, name, lambda found: 1)
    for cls, name in ((RowReads, "rows"), (EventLog, "table_events"),
                      (EventLog, "hand_events"), (EventLog, "events"), (EventLog, "scan")):
        counting(cls, name, len)
    return counts


def _counted_scan(events, counts):
    for env in events:
        counts["scan"] = counts.get("scan", 0) + 1
        yield env


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

    tables = opened(3)
    hand = api.post(f"{base}/tables/{tables[0]}/hands", {"deal": {"dealer": 0, "hands": _HANDS},
                                                         "tricks": [{"cards": t} for t in _TRICKS]}).get_json()["id"]
    page, at, of = f"/g/{g['id']}", f"/g/{g['id']}/tables/{tables[0]}", f"/g/{g['id']}/hands/{hand}"
    # Each read, and whether it may fold the group's log (the evening's summary still does).
    paths = [(base, api, False), (page, browser, False), (f"{page}/live", browser, False),
             (f"{page}/summary", browser, True), (at, browser, False), (f"{at}/live", browser, False),
             (of, browser, False), (f"{of}/live", browser, False), (f"{of}/correct", browser, False),
             (f"{base}/tables/{tables[0]}", api, False), (f"{base}/hands/{hand}", api, False)]

    def all_reads() -> list[int]:
        return [reads(path, who) - (counted.get("scan", 0) if log else 0) for path, who, log in paths]
    few = all_reads()
    tables += opened(120)
    many = all_reads()
    assert many == few, [(path, a, b) for (path, _, _), a, b in zip(paths, few, many, strict=True) if a != b]
    for _ in range(3):  # more hands at the hand's table: its page reads no more of the log
        more = api.post(f"{base}/tables/{tables[0]}/hands", {"result": _RESULT})
        assert more.status_code == 201, more.get_data(as_text=True)[:300]
    hand_reads = [reads(path, browser) for path in (of, f"{of}/live", f"{of}/correct")]
    assert hand_reads == few[6:9], (few[6:9], hand_reads)
    shown = browser.get(of, headers=BROWSER).get_data(as_text=True)
    assert "Hand 1, Ala dealt" in shown

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


@pytest.fixture
def parsed(monkeypatch):
    """How many bytes of kept rows the reads parsed (reset by the test): what a row that
    grows with the group's tables would show, however few reads read it."""
    count = [0]

    def loads(text):
        count[0] += len(text)
        return orjson.loads(text)
    monkeypatch.setattr(rows, "orjson", SimpleNamespace(loads=loads))
    return count


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_no_read_of_a_group_parses_its_every_table(app, client, parsed):
    """The group's row does not list its tables (they have rows of their own, read a page at a
    time): with 120 tables more, a read that shows as much parses as many bytes of kept rows,
    give or take a digit of a count (one table listed in the group's row was 37 bytes)."""
    g = client.post("/v1/groups", {"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    api, base, page = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}", f"/g/{g['id']}"
    seats = [api.post(f"{base}/members", {"name": n}).get_json()["id"] for n in ("Ala", "Bob", "Cyd", "Dan")]
    browser = _signed_in(app, g["admin_token"])
    tables = [api.post(f"{base}/tables", {"game": "kop", "seats": seats, "stake": "0.50"}).get_json()["id"]
              for _ in range(30)]
    hand = api.post(f"{base}/tables/{tables[0]}/hands", {"result": _RESULT}).get_json()["id"]

    def bytes_parsed() -> dict[str, int]:
        found = {}
        last = tables[-4]  # the last three tables after it, in either group: as many shown
        for path, who in ((f"{base}?tables_after={last}", api), (base + "/balances", api), (base + "/settle-up", api),
                          (f"{base}/tables/{tables[0]}", api), (f"{base}/hands/{hand}", api),
                          (page, browser), (f"{page}/live", browser), (f"{page}/tables?after={last}", browser),
                          (f"{page}/members", browser), (f"{page}/waiting", browser),
                          (f"{page}/tables/{tables[0]}", browser), (f"{page}/hands/{hand}", browser)):
            parsed[0] = 0
            answer = who.get(path, headers=BROWSER) if who is browser else who.get(path)
            assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:300])
            found[path.replace(last, "LAST")] = parsed[0]
        return found
    few = bytes_parsed()
    tables += [api.post(f"{base}/tables", {"game": "kop", "seats": seats, "stake": "0.50"}).get_json()["id"]
               for _ in range(120)]
    many = bytes_parsed()
    grown = {path: many[path] - few[path] for path in few if many[path] - few[path] > 8}
    assert not grown, grown
    assert all(few.values())


@pytest.fixture
def texts(monkeypatch):
    """Each text of a kept row the reads parsed, in order (cleared by the test)."""
    found: list[str] = []

    def loads(text):
        found.append(text)
        return orjson.loads(text)
    monkeypatch.setattr(rows, "orjson", SimpleNamespace(loads=loads))
    return found


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_page_parses_each_tournament_row_once_and_a_list_none(app, client, texts):
    """A page about one tournament (its page, its standings, a round's seat plan) parses its row
    and its standings' totals at most once, and no other tournament's; a page that lists a
    group's tournaments or names a table's place in its round (the group's page and its live
    part, the list of tournaments, the list of tables, a table's page) parses none of those rows,
    which hold every player and table: it reads the tournaments' cards and seats."""
    g = client.post("/v1/groups", {"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    api, base, page = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}", f"/g/{g['id']}"
    made = [api.post(f"{base}/members", {"name": n}).get_json() for n in ("Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil")]
    players = [m["id"] for m in made][:4]
    tournaments = []
    for n, name in enumerate(("Puchar", "Liga", "Memoriał")):  # players in an order of its own: rows apart
        t = api.post(f"{base}/tournaments", {"name": name, "game": "kop", "players": players[n:] + players[:n],
                                             "rounds": 2, "deals": 2}).get_json()
        drawn = api.post(f"{base}/tournaments/{t['id']}/rounds", {"absent": players})
        assert drawn.status_code == 201, drawn.get_data(as_text=True)[:300]
        tournaments.append(t["id"])
    table = drawn.get_json()["tables"][0]["id"]
    assert api.post(f"{base}/tables/{table}/hands", {"result": _RESULT}).status_code == 201
    store = app.extensions["bitka.store"]
    with store.reading() as r:
        kept = {r.conn.execute("SELECT data FROM projection_rows WHERE name = ? AND group_id = ? AND key = ?",
                               (name, g["id"], x)).fetchone()[0]: (name, x)
                for x in tournaments for name in ("tournament", "standings")}
    assert len(kept) == 2 * len(tournaments)
    x, other = tournaments[-1], tournaments[0]
    for who in (_signed_in(app, g["admin_token"]), _signed_in(app, made[0]["token"])):
        for path, shows in ((page, tournaments), (f"{page}/live", tournaments), (f"{page}/tournaments", tournaments),
                            (f"{page}/tables", tournaments), (f"{page}/tournaments/{x}", [x]),
                            (f"{page}/tournaments/{x}/live", [x]), (f"{page}/tournaments/{x}/standings", [x]),
                            (f"{page}/tournaments/{x}/standings/live", [x]),
                            (f"{page}/tournaments/{x}/rounds/1", [x]), (f"{page}/tables/{table}", [x])):
            texts.clear()
            answer = who.get(path, headers=BROWSER)
            assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:300])
            parsed = [kept[text] for text in texts if text in kept]
            twice = {row for row in parsed if parsed.count(row) > 1}
            assert not twice, (path, twice)
            assert {t for _name, t in parsed} <= set(shows), (path, parsed)
            if path.endswith(("/tournaments", "/tables", f"/tables/{table}")) or path in (page, f"{page}/live"):
                assert parsed == [], (path, parsed)
            else:
                assert {t for _name, t in parsed} == {x}, (path, parsed)
    seat = _signed_in(app, made[0]["token"]).get(page, headers=BROWSER).get_data(as_text=True)
    assert seat.count('class="your-seat"') == len(tournaments)  # where Ala sits in each, from her seats' rows
    assert other in seat


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_group_page_of_many_members_lists_those_furthest_from_square(app, client):
    """In a group of more than SHOWN_BALANCES members the group's page lists the reader's
    balance and those furthest from square, says how many more there are and links to the
    group's money page, which lists every one; a group of fewer lists every one there."""
    g = client.post("/v1/groups", {"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    api, base, page = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}", f"/g/{g['id']}"
    made = [api.post(f"{base}/members", {"name": f"Gracz {i + 1}"}).get_json() for i in range(SHOWN_BALANCES + 6)]
    ids = [m["id"] for m in made]
    for seats in (ids[:4], ids[4:8]):
        table = api.post(f"{base}/tables", {"game": "kop", "seats": seats, "stake": "0.50"}).get_json()["id"]
        assert api.post(f"{base}/tables/{table}/hands", {"result": _RESULT}).status_code == 201
    moved = {b["member"] for b in api.get(f"{base}/balances").get_json()["balances"] if b["balance"] != "0.00"}
    assert moved and moved <= set(ids[:8])
    reader = made[-1]  # square, and last in the group's order

    def listed(html: str) -> list[str]:
        table = html[html.index('id="shown-balances"'):]
        return re.findall(r'<tr data-member="([^"]+)"', table[:table.index("</table>")])
    shown = _signed_in(app, reader["token"]).get(page, headers=BROWSER).get_data(as_text=True)
    lines = listed(shown)
    assert len(lines) == SHOWN_BALANCES and reader["id"] in lines and moved <= set(lines)
    assert lines == [m for m in ids if m in lines]  # in the group's order
    assert "And 6 more members, none further from square" in shown and f'href="/g/{g["id"]}/money"' in shown
    every = _signed_in(app, reader["token"]).get(f"{page}/money", headers=BROWSER)
    assert every.status_code == 200 and listed(every.get_data(as_text=True)) == ids
    small = client.post("/v1/groups", {"name": "Stolik", "currency": "PLN"}).get_json()
    few = [client.as_(small["admin_token"]).post(f"/v1/groups/{small['id']}/members", {"name": n}).get_json()["id"]
           for n in ("Ala", "Bob")]
    html = _signed_in(app, small["admin_token"]).get(f"/g/{small['id']}", headers=BROWSER).get_data(as_text=True)
    assert listed(html) == few and "more member" not in html


def test_the_transfers_the_group_page_lists_are_the_readers_and_the_largest():
    """Past SHOWN_TRANSFERS, the group's page lists the reader's transfers (paying or
    receiving) and the largest others, in the settle-up's order; up to it, every one."""
    transfers = [{"from": f"m{i}", "to": "big" if i % 2 else "other", "amount": f"{i}.00"}
                 for i in range(1, SHOWN_TRANSFERS + 11)]
    assert _largest(transfers[:SHOWN_TRANSFERS], "m1") == transfers[:SHOWN_TRANSFERS]
    chosen = _largest(transfers, "m1")
    assert len(chosen) == SHOWN_TRANSFERS and chosen[0] == transfers[0]
    assert chosen[1:] == transfers[-(SHOWN_TRANSFERS - 1):]
    theirs = _largest(transfers, "big")  # receives every other one
    assert [t for t in transfers if t["to"] == "big"] == [t for t in theirs if t["to"] == "big"]
    lines = [{"member": f"m{i}"} for i in range(SHOWN_BALANCES + 4)]
    far = _furthest(lines, {f"m{i}": (-1) ** i * i for i in range(SHOWN_BALANCES + 4)}, "m0")
    assert [b["member"] for b in far] == ["m0"] + [f"m{i}" for i in range(5, SHOWN_BALANCES + 4)]


def _old_group_row(w, group: str) -> None:
    """The group's row as bitka kept it before its tables had rows of their own (schema 7,
    PostgreSQL 6): every table listed in it, in the order they were opened."""
    listed = w.rows_in_order(group_tables.ORDER, group, limit=10_000)
    row = {k: v for k, v in w.row("group", group, "").items() if k != "table_count"}
    w.put_row("group", group, "", {**row, "tables": [entry for _key, entry in listed]})
    for name in (group_tables.ORDER, group_tables.PLACE):
        w.conn.execute("DELETE FROM projection_rows WHERE name = ?", (name,))
    w.conn.execute("DROP INDEX table_events_without_hand")
    known = migrations.POSTGRES if w.backend.name == "postgresql" else migrations.SQLITE
    since = next(m.version for m in known if group_tables.ORDER in m.rebuilt)
    w.conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (since,))


def test_a_store_whose_group_row_listed_its_tables_reads_the_same_once_migrated(db_url, tmp_path):
    """A store from before the group's tables had rows of their own opens: its group rows
    lose their lists, each table gets its rows (built from the log), and every read of the
    group answers as it did; replay finds the rows as the log makes them."""
    config = {"BITKA_DB": db_url, "BITKA_KEY": str(tmp_path / "bitka.key"), "TESTING": True}
    app = create_app(config)
    http = app.test_client()
    g = http.post("/v1/groups", json={"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    admin = {"Authorization": f"Bearer {g['admin_token']}"}
    base, page = f"/v1/groups/{g['id']}", f"/g/{g['id']}"
    seats = [http.post(f"{base}/members", json={"name": n}, headers=admin).get_json()["id"]
             for n in ("Ala", "Bob", "Cyd", "Dan", "Ewa")]
    tables = [http.post(f"{base}/tables", json={"game": "kop", "seats": seats[i % 2:i % 2 + 4], "stake": "0.50"},
                        headers=admin).get_json()["id"] for i in range(SHOWN_TABLES + 3)]
    for table in (tables[0], tables[-1], tables[0]):
        assert http.post(f"{base}/tables/{table}/hands", json={"result": _RESULT}, headers=admin).status_code == 201

    def answers(app) -> dict:
        browser = _signed_in(app, g["admin_token"])
        said = {}
        for path in (base, f"{base}?tables_limit=2", f"{base}?tables_after={tables[3]}&tables_limit=5",
                     f"{base}/tables/{tables[0]}", f"{base}/balances", f"{base}/stats"):
            said[path] = app.test_client().get(path, headers=admin).get_json()
        for path in (page, f"{page}/tables", f"{page}/tables?after={tables[4]}", f"{page}/summary",
                     f"{page}/tables/{tables[0]}"):
            shown = browser.get(path, headers=BROWSER).get_data(as_text=True)
            said[path] = (re.findall(r'href="/g/[^/"]+/tables/(t_[0-9a-f]+)"', shown),
                          re.findall(r"Tables \d+ to \d+ of \d+", shown), re.findall(r"Played: [^\n<]*", shown))
        return said
    before = answers(app)
    store = app.extensions["bitka.store"]
    with store.reading() as r:
        kept = {name: r.rows(name, g["id"]) for name in ("group", group_tables.ORDER, group_tables.PLACE)}
    with store.writing() as w:
        _old_group_row(w, g["id"])
    store.close()
    assert len(kept[group_tables.ORDER]) == len(tables) and kept["group"][g["id"], ""]["table_count"] == len(tables)
    again = create_app(config)
    try:
        with again.extensions["bitka.store"].reading() as r:
            assert {name: r.rows(name, g["id"]) for name in kept} == kept
        assert answers(again) == before
        assert before[page][0][-SHOWN_TABLES:] == tables[-SHOWN_TABLES:]
        assert [t["id"] for t in before[f"{base}?tables_limit=2"]["tables"]] == tables[:2]
    finally:
        again.extensions["bitka.store"].close()
    result = run("--db", db_url, "replay")
    assert result.exit_code == 0 and "differ" not in result.output, result.output


_RESULT = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}
_HANDS = [["10D", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"], ["QS", "JS", "AC", "10S"]]
_TRICKS = [["AH", "QH", "QS", "JD"], ["10H", "QD", "JS", "JH"], ["QC", "JC", "AC", "10D"], ["AD", "10C", "10S", "AS"]]


def test_a_hand_is_numbered_at_its_table_from_the_index_of_deals(app, client):
    """A result that waits is named by its hand's number at its table ("Hand 3 at ..."),
    counted in the log's index of deals instead of listing the table's every hand: the number
    is the hand's place in the table's hands (a voided hand keeps its place), another table's
    hands do not count, and a hand asked at a table it was not dealt at has none."""
    g = client.post("/v1/groups", {"name": "Hala", "currency": "PLN", "confirmations": "off"}).get_json()
    api, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    seats = [api.post(f"{base}/members", {"name": n}).get_json()["id"] for n in ("Ala", "Bob", "Cyd", "Dan")]
    here, there = (api.post(f"{base}/tables", {"game": "kop", "seats": seats, "stake": "0.50"}).get_json()["id"]
                   for _ in range(2))

    def logged(table: str) -> str:
        answer = api.post(f"{base}/tables/{table}/hands", {"result": _RESULT})
        assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
        return answer.get_json()["id"]
    hands = [logged(here), logged(there), logged(here)]
    assert api.post(f"{base}/hands/{hands[2]}/void", {"reason": "misdeal"}).status_code == 201
    hands.append(logged(here))
    with app.extensions["bitka.store"].reading() as r:
        order = r.table_hands(g["id"], here)
        assert order == [hands[0], hands[2], hands[3]]
        assert [r.hand_number(g["id"], here, h) for h in order] == [1, 2, 3]
        assert r.hand_number(g["id"], there, hands[1]) == 1
        assert r.hand_number(g["id"], there, hands[0]) is None and r.hand_number(g["id"], here, "h_none") is None
