"""``bitka pending`` and ``bitka correct``: the operator's side of confirmations and
corrections, on a store the service wrote."""
from __future__ import annotations

import json

import pytest

from service.app import create_app
from tests.command import run
from tests.conftest import Client

WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


@pytest.fixture
def club(tmp_path):
    db = str(tmp_path / "club.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Club", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json["id"]
    hands = [client.as_(members[1]["token"]).post(f"{base}/tables/{table}/hands", {"result": WIN}).json["id"]
             for _ in range(2)]
    app.extensions["bitka.store"].close()
    return db, g["id"], hands


def test_pending_lists_what_waits_and_correct_settles_it(club):
    db, group, hands = club
    listed = run("--db", db, "pending", "--group", group)
    assert listed.exit_code == 0 and f"hand {hands[0]} (pending): Ala -1.00, Bob 1.00" in listed.output
    lost = json.dumps({**WIN, "points": 40, "tricks": 1})
    done = run("--db", db, "correct", "--group", group, "--hand", hands[0], "--reason", "40, not 70",
               "--result", lost)
    assert done.exit_code == 0, done.output
    assert f"hand {hands[0]} pays differently: Ala +2.00, Bob -2.00, Cyd +2.00, Dan -2.00" in done.output
    voided = run("--db", db, "correct", "--group", group, "--hand", hands[1], "--reason", "misdeal", "--void")
    assert voided.exit_code == 0 and "counts as never played" in voided.output
    assert "pays differently: Ala +1.00, Bob -1.00, Cyd +1.00, Dan -1.00" in voided.output
    # The first hand, corrected while it waited, is a new result: Bob and Dan, who pay now, confirm it.
    still = run("--db", db, "pending", "--group", group).output
    assert f"hand {hands[0]} (pending): Ala 1.00, Bob -1.00" in still and hands[1] not in still
    balances = run("--db", db, "balances", "--group", group).output
    assert "Ala" in balances and "1.00" in balances
    assert run("--db", db, "replay").exit_code == 0


def test_correct_of_a_group_that_is_not_there_is_a_usage_error(club):
    db, _, hands = club
    result = run("--db", db, "correct", "--group", "g_nope", "--hand", hands[0], "--reason", "x", "--void")
    assert result.exit_code == 2 and "there is no group 'g_nope'" in result.output


@pytest.mark.parametrize("args, code, said", [
    (["--void", "--result", "{}"], 2, "either --void or --result"),
    ([], 2, "either --void or --result"),
    (["--result", "{not json"], 2, "--result is not JSON"),
    (["--result", json.dumps({**WIN, "points": 200})], 1, "from 0 to 104"),
    (["--void", "--reason", ""], 2, "--reason"),
    (["--void", "--reason", "a\u202eb"], 2, "--reason"),
    (["--void", "--reason", "x" * 501], 2, "--reason"),
])
def test_correct_says_what_is_wrong_and_changes_nothing(club, args, code, said):
    db, group, hands = club
    reason = [] if "--reason" in args else ["--reason", "x"]
    result = run("--db", db, "correct", "--group", group, "--hand", hands[0], *reason, *args)
    assert result.exit_code == code and said in result.output and "Traceback" not in result.output, result.output
    assert f"hand {hands[0]} (pending)" in run("--db", db, "pending", "--group", group).output
