"""End to end: the real server process on 127.0.0.1, the shared contract smoke, hands over
HTTP, then the command line on the same store: verify, replay, and tampering found."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import CHECKOUT, bitka_command, call, cli, working_tree

pytestmark = pytest.mark.e2e
SMOKE = Path(__file__).resolve().parents[3] / "shared" / "tools" / "contract_smoke.py"


def test_contract_smoke_passes_against_the_real_server(server):
    if not SMOKE.exists():
        if os.environ.get("BITKA_REQUIRE_SMOKE"):
            pytest.fail(f"{SMOKE} is missing")
        pytest.skip("the shared contract smoke is not beside this checkout")
    base, _ = server
    result = subprocess.run([sys.executable, str(SMOKE), base], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def _log_hands(base):
    st, g = call(base, "POST", "/v1/groups", {"name": "E2E", "currency": "EUR"})
    gid, admin = g["id"], g["admin_token"]
    ids = [call(base, "POST", f"/v1/groups/{gid}/members", {"name": n}, admin)[1]["id"] for n in "NESW"]
    st, t = call(base, "POST", f"/v1/groups/{gid}/tables", {"game": "kop", "seats": ids, "stake": "0.50"}, admin)
    path = f"/v1/groups/{gid}/tables/{t['id']}/hands"
    st, h = call(base, "POST", path, {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                      "tricks": [{"cards": c} for c in KOP_TRICKS]}, admin)
    assert st == 201 and h["settlement"]["payouts"][1]["amount"] == "1.50"
    rotated = [KOP_HANDS[3], KOP_HANDS[0], KOP_HANDS[1], KOP_HANDS[2]]  # seat 2 now holds QC: dealer 1
    st, h2 = call(base, "POST", path, {"deal": {"dealer": 1, "hands": rotated}}, admin)
    assert st == 201 and h2["leader"] == 2
    for bid in ({"seat": 2, "call": "zolo"}, {"seat": 3, "call": "kontra"}):
        assert call(base, "POST", f"/v1/groups/{gid}/hands/{h2['id']}/bids", bid, admin)[0] == 201
    wrong = {"cards": ["10H", "AH", "QS", "JD"]}
    st, bad = call(base, "POST", f"/v1/groups/{gid}/hands/{h2['id']}/tricks", wrong, admin)
    assert st == 422 and "seat" in bad["detail"]
    for cards in KOP_TRICKS:
        st, r = call(base, "POST", f"/v1/groups/{gid}/hands/{h2['id']}/tricks", {"cards": cards}, admin)
        assert st == 201, r
    assert r["hand"]["settlement"]["contract"] == "zolo"
    st, b = call(base, "GET", f"/v1/groups/{gid}/balances", token=admin)
    assert b["total"] == "0.00"
    return gid


def test_hands_over_http_then_verify_replay_and_tampering(sqlite_server, tmp_path):
    base, db = sqlite_server
    gid = _log_hands(base)
    assert cli(db, "verify").returncode == 0
    replayed = cli(db, "replay")
    assert replayed.returncode == 0 and "2 settlements re-derived" in replayed.stdout
    copy = tmp_path / "tampered.db"
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    conn = sqlite3.connect(copy)
    conn.execute("DROP TRIGGER events_refuse_update")
    conn.execute("UPDATE events SET data = json_set(data, '$.winner', 0) WHERE group_id = ? AND seq = 8", (gid,))
    conn.commit()
    conn.close()
    result = cli(copy, "verify")
    assert result.returncode == 1
    assert f"group {gid}: first bad seq 8" in result.stdout
    assert cli(db, "verify").returncode == 0  # the original is untouched


def test_concurrent_clients_never_fork_or_skip_the_log(server):
    """Eight clients append payments at once, half of them with If-Match: every 201 is in
    the log exactly once, the losers of an If-Match race got 412, and seq has no gap."""
    import threading

    base, db = server
    st, g = call(base, "POST", "/v1/groups", {"name": "Rush", "currency": "PLN"})
    gid, admin = g["id"], g["admin_token"]
    ids = [call(base, "POST", f"/v1/groups/{gid}/members", {"name": n}, admin)[1]["id"] for n in "AB"]
    outcomes, lock = [], threading.Lock()

    def client(number):
        for i in range(10):
            version = call(base, "GET", f"/v1/groups/{gid}", token=admin)[1]["version"]
            body = {"from": ids[0], "to": ids[1], "amount": f"{number + 1}.{i:02d}"}
            headers = {"If-Match": f'"{version}"'} if number % 2 else {}
            status, answer = call(base, "POST", f"/v1/groups/{gid}/payments", body, admin, headers)
            with lock:
                outcomes.append((status, answer))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {s for s, _ in outcomes} <= {201, 412}
    created = [a["seq"] for s, a in outcomes if s == 201]
    events = call(base, "GET", f"/v1/groups/{gid}/events?limit=1000", token=admin)[1]["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert sorted(created) == [e["seq"] for e in events if e["type"] == "payment"]
    assert sum(1 for s, _ in outcomes if s == 201) >= 40  # the clients without If-Match never lose
    assert cli(db, "verify").returncode == 0 and cli(db, "replay").returncode == 0


def test_a_member_verifies_the_running_server_against_a_checkpoint_saved_earlier(server, tmp_path):
    base, db = server
    st, g = call(base, "POST", "/v1/groups", {"name": "Proof", "currency": "PLN"})
    gid, admin = g["id"], g["admin_token"]
    ids = [call(base, "POST", f"/v1/groups/{gid}/members", {"name": n}, admin)[1]["id"] for n in "NESW"]
    member_token = call(base, "POST", f"/v1/groups/{gid}/members", {"name": "Witness"}, admin)[1]["token"]
    st, saved = call(base, "GET", f"/v1/groups/{gid}/checkpoint", token=member_token)
    kept = tmp_path / "evening.json"
    kept.write_text(json.dumps(saved))
    st, t = call(base, "POST", f"/v1/groups/{gid}/tables", {"game": "kop", "seats": ids, "stake": "1.00"}, admin)
    st, played = call(base, "POST", f"/v1/groups/{gid}/tables/{t['id']}/hands",
                      {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]}, admin)
    st, _ = call(base, "POST", f"/v1/groups/{gid}/hands/{played['id']}/correct",
                 {"reason": "dealt by mistake", "void": True}, admin)
    assert st == 201
    ok = cli(db, "verify", "--url", base, "--group", gid, "--token", member_token, "--checkpoint", str(kept))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"extends the checkpoint of {saved['size']}" in ok.stdout
    assert f"the admin corrected hand {played['id']} (dealt by mistake): voided" in ok.stdout
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(dict(saved, root="cd" * 32)))
    bad = cli(db, "verify", "--url", base, "--group", gid, "--token", member_token, "--checkpoint", str(forged))
    assert bad.returncode == 1 and "signature does not hold" in bad.stdout
    # A hand in play, dealt whole by the admin: its deal is sealed from the witness, whose
    # verify still checks the deal's links and its place in the signed log.
    call(base, "POST", f"/v1/groups/{gid}/tables/{t['id']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}},
         admin)  # the void gave the deal back to seat 0
    sealed = cli(db, "verify", "--url", base, "--group", gid, "--token", member_token, "--checkpoint", str(kept))
    assert sealed.returncode == 0, sealed.stdout + sealed.stderr
    assert "1 event(s) are sealed from this token" in sealed.stdout


@pytest.mark.parametrize("what, status", [("line", 414), ("header", 431)])
def test_a_request_gunicorn_refuses_is_still_answered_as_problem_json(sqlite_server, what, status):
    """gunicorn refuses an over-long request line or header before bitka sees it; bitka's
    serve makes that answer the one error shape clients parse."""
    import http.client
    base, _ = sqlite_server
    conn = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
    if what == "line":
        conn.request("GET", "/v1/keys?" + "x" * 10_000)
    else:
        conn.request("GET", "/v1/keys", headers={"X-Padding": "y" * 20_000})
    answer = conn.getresponse()
    body = json.loads(answer.read())
    assert answer.status == status and answer.getheader("Content-Type") == "application/problem+json"
    assert body["status"] == status and body["detail"].startswith("the request")


def test_the_bitka_the_end_to_end_tests_run_is_the_working_trees():
    """Not a copy pip installed before the last edit: the server and the command line the
    tests start import bitka from this checkout."""
    found = subprocess.run([bitka_command()[0], "-c", "import cli, service; print(cli.__file__, service.__file__)"],
                           capture_output=True, text=True, env=working_tree(), cwd="/", timeout=60)
    assert found.returncode == 0, found.stderr
    assert all(Path(path).is_relative_to(CHECKOUT) for path in found.stdout.split()), found.stdout
