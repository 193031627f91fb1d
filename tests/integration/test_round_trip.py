"""Whatever the service can append, export and import carry (issue 44, "An honest store that
cannot be imported again"): random histories of every game (payers who confirm, voids,
corrections by cards and voids of past hands, pay-to details, payments, a tournament) are
exported and imported into a fresh store, and every row of the two stores is compared:
events, projection rows, settlements that wait, Merkle nodes. Every game runs on SQLite; a
smaller pass (one game, drawn) on PostgreSQL. And ``bitka import`` refuses what no API
makes: a member whose id is ``admin``, an id that names two things."""
from __future__ import annotations

import json
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cli.transfer import from_line
from games.registry import GAMES
from events.money import format_amount
from projections import corrections, ledger_views
from service.app import create_app
from tests.backends import BACKENDS, drop_schema, fresh_schema_url, require_postgres
from tests.command import run
from tests.conftest import Client
from tests.round_trip import every_row, history
from tests.tampering import rechained


def _round_trip(source: str, target: str, tmp, game: str, seed: int) -> None:
    app = create_app({"BITKA_DB": source, "BITKA_KEY": str(tmp / "k.key"), "TESTING": True})
    try:
        group = history(Client(app.test_client()), game, random.Random(seed))
        with app.extensions["bitka.store"].reading() as r:
            stats = ledger_views.statistics(r.scan(group), {m: m for m in _members(r.scan(group))})
            said = {m["member"]: m["balance_after"] for m in stats["members"] if m["balance_after"]}
            assert said == _every_move(r.scan(group))
    finally:
        app.extensions["bitka.store"].close()
    out = tmp / f"{game}-{seed}.jsonl"
    exported = run("--db", source, "export", "--group", group, "--out", str(out), "--force")
    assert exported.exit_code == 0, exported.output
    imported = run("--db", target, "import", str(out))
    assert imported.exit_code == 0, (game, seed, imported.output)
    assert _rows(source) == _rows(target)


def _members(envelopes) -> list[str]:
    return [env.data["member"] for env in envelopes if env.type == "member_added"]


def _every_move(envelopes) -> dict[str, list[dict]]:
    """Each member's balance after every step that moved it (or first counted it), found by
    comparing every member at every step: what /stats says, comparing only those seated."""
    series, row = {}, None
    for env, moved in ledger_views.balance_steps(envelopes):
        if moved is not None:
            for member, minor in moved["members"].items() - (row["members"].items() if row else ()):
                series.setdefault(member, []).append({"seq": env.seq, "balance": format_amount(minor, moved["digits"])})
            row = moved
    return series


def _rows(url: str) -> dict:
    if url.startswith("postgresql"):
        import psycopg
        with psycopg.connect(url) as conn:
            return every_row(conn)
    conn = sqlite3.connect(url)
    try:
        return every_row(conn)
    finally:
        conn.close()


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_every_games_random_history_exports_and_imports_row_for_row_on_sqlite(tmp_path, game, seed):
    tmp = Path(tempfile.mkdtemp(dir=tmp_path))  # one directory per example
    _round_trip(str(tmp / "source.db"), str(tmp / "target.db"), tmp, game, seed)


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="BITKA_TEST_BACKENDS leaves PostgreSQL out")
def test_a_random_history_exports_and_imports_row_for_row_on_postgresql(tmp_path):
    require_postgres()
    rng = random.Random()
    game, seed = rng.choice(sorted(GAMES)), rng.randrange(2 ** 32)
    (source, one), (target, two) = fresh_schema_url(), fresh_schema_url()
    try:
        _round_trip(source, target, tmp_path, game, seed)
    finally:
        drop_schema(one)
        drop_schema(two)


def _exported(tmp_path) -> list[dict]:
    db = str(tmp_path / "small.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Ids", "currency": "PLN"}).json
    admin, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    seats = [admin.post(f"{base}/members", {"name": n}).json["id"] for n in ("Ala", "Bob", "Cyd", "Dan")]
    assert admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00", "seats": seats}).status_code \
        == 201
    assert admin.post(f"{base}/tournaments", {"name": "Cup", "game": "kop", "rules": {}, "players": seats,
                                              "rounds": 1, "deals": 1, "places": [3, 2, 1, 0],
                                              "stake": "1.00"}).status_code == 201
    app.extensions["bitka.store"].close()
    out = tmp_path / "small.jsonl"
    assert run("--db", db, "export", "--group", g["id"], "--out", str(out)).exit_code == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def _renamed(envelopes: list[dict], old: str, new: str) -> list[dict]:
    return json.loads(json.dumps(envelopes).replace(f'"{old}"', f'"{new}"'))


@pytest.mark.parametrize("what", ["a member called admin", "a tournament named as a table",
                                  "a table named as a member"])
def test_import_refuses_an_admin_member_and_ids_that_name_two_things(tmp_path, what):
    envelopes = _exported(tmp_path)
    members = [e["data"]["member"] for e in envelopes if e["type"] == "member_added"]
    table = next(e["data"]["table"] for e in envelopes if e["type"] == "table_opened")
    tournament = next(e["data"]["tournament"] for e in envelopes if e["type"] == "tournament_created")
    if what == "a member called admin":
        forged, said = _renamed(envelopes, members[1], "admin"), "a member has the id 'admin'"
    elif what == "a tournament named as a table":
        forged, said = _renamed(envelopes, tournament, table), f"the tournament id {table} names a table already"
    else:
        forged, said = _renamed(envelopes, table, members[0]), f"the table id {members[0]} names a member already"
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in rechained(forged)))
    target = str(tmp_path / "forged.db")
    result = run("--db", target, "import", str(path))
    assert result.exit_code == 1, result.output
    assert said in result.output and "nothing was imported" in result.output, result.output
    assert "Traceback" not in result.output
    with sqlite3.connect(target) as conn:
        left = conn.execute("SELECT count(*) FROM events").fetchone()[0] if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone() else 0
    assert left == 0


def test_a_correction_logged_whole_before_the_bound_still_imports(tmp_path):
    """A correction logged before corrections recorded only what changed (each hand it settled
    again whole) is what the ledger made then: it imports, and replays."""
    db = str(tmp_path / "before.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Before", "currency": "PLN", "confirmations": "off"}).json
    admin, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    seats = [admin.post(f"{base}/members", {"name": n}).json["id"] for n in ("Ala", "Bob")]
    table = admin.post(f"{base}/tables", {"game": "scopa", "rules": {"target": 11, "stake_per": "point"},
                                          "stake": "1.00", "seats": seats}).json["id"]
    point = {"cards": None, "coins": None, "primiera": None, "settebello": 0, "scopas": [0, 0]}
    hands = [admin.post(f"{base}/tables/{table}/hands", {"result": point}).json["id"] for _ in range(30)]
    assert admin.post(f"{base}/hands/{hands[0]}/correct", {"reason": "side 1", "result": dict(point, settebello=1)
                                                           }).status_code == 201
    app.extensions["bitka.store"].close()
    out = tmp_path / "before.jsonl"
    assert run("--db", db, "export", "--group", g["id"], "--out", str(out)).exit_code == 0
    lines = out.read_text().splitlines()
    envelopes = [from_line(line, n) for n, line in enumerate(lines, 1)]
    at = next(i for i, e in enumerate(envelopes) if e.type == "correction")
    past = corrections.history(envelopes[:at])
    before = {hand.id: hand.settlement for hand in past}  # what each hand settled as the correction found it
    entries = envelopes[at].data["settlements"]
    assert any("changed" in e for e in entries)  # what changed, as recorded today
    whole = [{"hand": e["hand"], "settlement": corrections.settlement_after(e, before[e["hand"]])} for e in entries]
    forged = [json.loads(line) for line in lines]
    forged[at]["data"]["settlements"] = whole
    path = tmp_path / "whole.jsonl"
    path.write_text("".join(line + "\n" for line in rechained(forged)))
    target = str(tmp_path / "after.db")
    imported = run("--db", target, "import", str(path))
    assert imported.exit_code == 0, imported.output
    assert run("--db", target, "replay").exit_code == 0
    after = create_app({"BITKA_DB": target, "BITKA_KEY": str(tmp_path / "k2.key"), "TESTING": True})
    token = imported.output.split("its new admin token: ")[1].split()[0]
    shown = Client(after.test_client(), token).get(f"{base}/hands/{hands[20]}").json
    assert shown["settlement"] == next(e["settlement"] for e in whole if e["hand"] == hands[20])
    after.extensions["bitka.store"].close()
