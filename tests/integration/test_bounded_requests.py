"""One small request never stores megabytes (issue 44). At a Scopa table played to 11 with
the stake per point, 3,000 hands logged, correcting hand 1 moves the end of every game after
it, so it settles every later hand again: it used to append a 2 MB event, grow the table's
row by as much, and make every later hand there read and write that row. Now a correction
settles at most ``MOST_SETTLED_AGAIN`` later hands again (hand 1 of 3,000 is refused, with
what to do instead), records only what changes in each, the table's row stays small (each
hand's corrections are in a row of its own), a later hand reads and writes a few KiB
(counted, not timed), the store exports and imports again row for row, and a request that
would still append more than 1 MiB is refused with a sentence, the log as it was."""
from __future__ import annotations

import json
import sqlite3

import pytest

from events import limits
from events.canonical import canonical_bytes
from events.rows import RowReads, RowWrites
from projections import corrected
from service import handlers
from service.app import create_app
from service.commands import NewHand
from tests.command import run
from tests.conftest import Client
from tests.round_trip import every_row

HANDS = 3000
CORRECTED = HANDS - limits.MOST_SETTLED_AGAIN + 50  # a hand with fewer later hands than the bound; it starts a game
SIDE_0 = {"cards": None, "coins": None, "primiera": None, "settebello": 0, "scopas": [0, 0]}  # one point to side 0
SIDE_1 = dict(SIDE_0, settebello=1)


@pytest.fixture(scope="module")
def long_table(tmp_path_factory):
    """3,000 hands of Scopa to 11, stake per point, each one point to side 0 (a game every 11
    hands), logged through the ledger's handler in batches; then hand 1 corrected through the
    API to a point for side 1 (refused: every later hand would be settled again), and the
    hand ``CORRECTED`` so, every game after it ending a hand later."""
    tmp = tmp_path_factory.mktemp("long")
    db = str(tmp / "long.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Long", "currency": "PLN", "confirmations": "off"}).json
    admin, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    seats = [admin.post(f"{base}/members", {"name": n}).json["id"] for n in ("Ala", "Bob")]
    table = admin.post(f"{base}/tables", {"game": "scopa", "rules": {"target": 11, "stake_per": "point"},
                                          "stake": "1.00", "seats": seats}).json["id"]
    store, ids = app.extensions["bitka.store"], []
    for start in range(0, HANDS, 250):
        with store.writing(g["id"]) as w:
            ids += [handlers.handle(NewHand(g["id"], "admin", table, {"result": SIDE_0}), w).hand.id
                    for _ in range(start, min(HANDS, start + 250))]
    before = admin.get(base).json["version"]
    first = admin.post(f"{base}/hands/{ids[0]}/correct", {"reason": "side 1 took the settebello", "result": SIDE_1})
    assert admin.get(base).json["version"] == before
    r = admin.post(f"{base}/hands/{ids[CORRECTED]}/correct", {"reason": "side 1 took the settebello",
                                                                "result": SIDE_1})
    assert r.status_code == 201, r.json
    yield {"app": app, "admin": admin, "base": base, "group": g["id"], "table": table, "ids": ids, "db": db,
           "before": before, "tmp": tmp, "first": first}
    store.close()


def _appended(store, group: str, after: int) -> list:
    with store.reading() as r:
        return r.events(group, after=after, limit=1000)


def test_correcting_hand_1_of_3000_is_refused_and_a_later_one_records_what_changes_table_row_small(long_table):
    t = long_table
    first = t["first"]  # hand 1: every later hand would be settled again
    assert first.status_code == 422 and first.headers["Content-Type"] == "application/problem+json"
    assert "later hands of the table again, more than one request may" in first.json["detail"]
    assert "Correct a later hand" in first.json["detail"]
    store = t["app"].extensions["bitka.store"]
    [event] = _appended(store, t["group"], t["before"])
    size = len(canonical_bytes(event.data))
    settled_again = event.data["settlements"]
    later = HANDS - CORRECTED
    assert len(settled_again) == later  # every game now ends a hand later: every hand is settled again
    shown = [t["admin"].get(f"{t['base']}/hands/{h}").json for h in t["ids"][-30:]]
    whole = sum(len(canonical_bytes({"hand": s["id"], "settlement": s["settlement"]})) for s in shown) / 30 * later
    seen = CORRECTED + 150
    with store.reading() as r:
        table_row = r.row("table", t["group"], t["table"])
        hand_row = r.row(corrected.NAME, t["group"], t["ids"][seen])
    assert size < 100 * 1024
    assert size < whole / 3  # recorded whole, each hand's settlement came to three times as much and more
    assert len(canonical_bytes(table_row)) < 2048 and "corrections" not in table_row
    assert len(canonical_bytes(hand_row)) < 2048
    # The corrected hand gave side 1 its point: its game ends at its 12th hand, each later one 11 hands on.
    assert CORRECTED % 11 == 0
    assert t["admin"].get(f"{t['base']}/hands/{t['ids'][seen]}").json["settlement"]["match"]["before"] == [
        (seen - CORRECTED - 12) % 11, 0]


def test_a_later_hand_reads_and_writes_a_few_kib_of_rows(long_table, monkeypatch):
    t = long_table
    moved = {"read": 0, "written": 0}
    row, put_row = RowReads.row, RowWrites.put_row

    def counted_row(self, name, group, key):
        found = row(self, name, group, key)
        moved["read"] += len(json.dumps(found)) if found is not None else 0
        return found

    def counted_put(self, name, group, key, data):
        moved["written"] += len(json.dumps(data))
        return put_row(self, name, group, key, data)

    monkeypatch.setattr(RowReads, "row", counted_row)
    monkeypatch.setattr(RowWrites, "put_row", counted_put)
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"result": SIDE_0})
    assert r.status_code == 201, r.json
    assert moved["read"] < 16 * 1024 and moved["written"] < 16 * 1024, moved


def test_the_corrected_table_exports_and_imports_again_row_for_row(long_table):
    t = long_table
    out = t["tmp"] / "long.jsonl"
    assert run("--db", t["db"], "export", "--group", t["group"], "--out", str(out), "--force").exit_code == 0
    longest = max(len(line) for line in out.read_bytes().splitlines())
    assert longest <= limits.MAX_EXPORTED_LINE
    target = str(t["tmp"] / "again.db")
    imported = run("--db", target, "import", str(out))
    assert imported.exit_code == 0, imported.output
    rows = []
    for db in (t["db"], target):
        with sqlite3.connect(db) as conn:
            rows.append(every_row(conn))
    assert rows[0] == rows[1]


def test_a_correction_past_the_bound_is_refused_with_what_to_do_and_the_log_as_it_was(long_table, monkeypatch):
    t = long_table
    monkeypatch.setattr(limits, "MAX_APPEND_BYTES", 16 * 1024)
    version = t["admin"].get(t["base"]).json["version"]
    r = t["admin"].post(f"{t['base']}/hands/{t['ids'][CORRECTED - 11]}/correct", {"reason": "again",
                                                                                   "result": SIDE_1})
    assert r.status_code == 422, r.json
    assert r.headers["Content-Type"] == "application/problem+json"
    assert "more than the 16 KiB one request may append" in r.json["detail"]
    assert "Correct a later hand" in r.json["detail"] and r.json["limit"] == 16 * 1024
    assert t["admin"].get(t["base"]).json["version"] == version
    monkeypatch.setattr(limits, "MOST_SETTLED_AGAIN", 100)  # and the work: hands settled again in one request
    r = t["admin"].post(f"{t['base']}/hands/{t['ids'][CORRECTED - 11]}/correct", {"reason": "again",
                                                                                   "result": SIDE_1})
    assert r.status_code == 422 and "later hands of the table again, more than one request may" in r.json["detail"]
    assert t["admin"].get(t["base"]).json["version"] == version


def test_no_request_appends_past_the_bound_whatever_its_route(long_table, monkeypatch):
    t = long_table
    monkeypatch.setattr(limits, "MAX_APPEND_BYTES", 512)  # less than one hand's events
    version = t["admin"].get(t["base"]).json["version"]
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"result": SIDE_0})
    assert r.status_code == 422, r.json
    assert "one request may append; nothing was recorded" in r.json["detail"]
    assert t["admin"].get(t["base"]).json["version"] == version
