"""The bitka command line on real store files: exit codes, output, export and import."""
import json
import sqlite3

import pytest
from click.testing import CliRunner

from cli.main import bitka
from tests.command import demo_store, run
from events.database import Store


@pytest.fixture
def demo_db(tmp_path):
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(bitka, ["--db", db, "demo"])
    assert result.exit_code == 0, result.output
    with Store(db).reading() as r:
        group = r.group_ids()[0]
        hand = next(e.hand for e in r.scan(group) if e.type == "settlement")
    return db, group, hand


def test_demo_logs_every_kop_contract_and_prints_balances(demo_db):
    db, group, _ = demo_db
    with Store(db).reading() as r:
        contracts = [e.data["contract"] for e in r.scan(group) if e.type == "settlement"]
        doubled = [e.data for e in r.scan(group) if e.type == "settlement" and e.data["contract"] == "zolo"]
    assert {"normal", "wesele", "cicha", "zolo"} <= set(contracts)
    assert doubled and doubled[0]["multiplier"] == 4
    with Store(db).reading() as r:
        baska = [e.data for e in r.scan(group) if e.type == "settlement" and "bok_due" in e.data]
    assert baska[0]["bok_due"] and all(s["bok_runda"] for s in baska[1:4])
    assert all(any(f["name"] == "bok-runda" for f in s["factors"]) for s in baska[1:4])
    with Store(db).reading() as r:
        scopa = [e.data for e in r.scan(group) if e.type == "settlement" and "match" in e.data]
    scopa = [s for s in scopa if s["contract"] == "scopa"]
    assert scopa[-1]["match"]["game_over"] and not any(s["match"]["game_over"] for s in scopa[:-1])
    assert scopa[-1]["payouts"] and all(not s["payouts"] for s in scopa[:-1])
    with Store(db).reading() as r:
        bisca = [e.data for e in r.scan(group) if e.type == "settlement" and e.data["contract"] in ("nove", "capixaba")]
    assert [s["match"]["game_over"] for s in bisca if s["contract"] == "nove"][-1]
    assert any(b["name"].startswith("rela") for s in bisca if s["contract"] == "capixaba" for b in s["bonuses"])
    out = run("--db", db, "balances", "--group", group).output
    assert "total 0.00" in out and "Settle up" in out


def test_verify_passes_on_a_sound_store_and_fails_naming_the_changed_seq(demo_db, tmp_path):
    db, group, _ = demo_db
    ok = run("--db", db, "verify")
    assert ok.exit_code == 0 and "every hash and link holds" in ok.output
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_refuse_update")
    conn.execute("UPDATE events SET actor = 'mallory' WHERE seq = 9")
    conn.commit()
    conn.close()
    bad = run("--db", db, "verify", "--group", group)
    assert bad.exit_code == 1
    assert f"group {group}: first bad seq 9" in bad.output
    assert "append-only triggers are missing: events_refuse_update" in bad.output


def test_audit_prints_the_events_and_how_the_hand_was_settled(demo_db):
    db, group, hand = demo_db
    out = run("--db", db, "audit", "--group", group, "--hand", hand)
    assert out.exit_code == 0
    assert "deal by admin" in out.output and "How the settlement was reached" in out.output
    as_json = json.loads(run("--db", db, "audit", "--group", group, "--hand", hand, "--json").output)
    assert as_json["hand"] == hand


def test_export_then_import_gives_the_same_log_and_a_new_admin_token(demo_db, tmp_path):
    db, group, _ = demo_db
    out = tmp_path / "log.jsonl"
    assert run("--db", db, "export", "--group", group, "--out", str(out)).exit_code == 0
    copy = str(tmp_path / "copy.db")
    imported = run("--db", copy, "import", str(out))
    assert imported.exit_code == 0 and "new admin token" in imported.output
    with Store(db).reading() as a, Store(copy).reading() as b:
        assert [e.public() for e in a.scan(group)] == [e.public() for e in b.scan(group)]
        assert a.rows("balances", group) == b.rows("balances", group)
    assert run("--db", copy, "verify").exit_code == 0
    assert run("--db", copy, "replay").exit_code == 0
    again = run("--db", copy, "import", str(out))
    assert again.exit_code == 1 and "already holds" in again.output


def test_import_refuses_a_file_with_a_changed_event_and_writes_nothing(demo_db, tmp_path):
    db, group, _ = demo_db
    out = tmp_path / "log.jsonl"
    run("--db", db, "export", "--group", group, "--out", str(out))
    lines = out.read_text().splitlines()
    event = json.loads(lines[10])
    event["data"]["cards"] = list(reversed(event["data"].get("cards", [])))
    event["actor"] = "mallory"
    lines[10] = json.dumps(event)
    out.write_text("\n".join(lines) + "\n")
    copy = str(tmp_path / "copy.db")
    result = run("--db", copy, "import", str(out))
    assert result.exit_code == 1 and "first bad seq 11" in result.output
    with Store(copy).setup().reading() as r:
        assert r.count() == 0


def test_bad_usage_exits_2(demo_db, tmp_path):
    db, group, _ = demo_db
    assert run("--db", str(tmp_path / "none.db"), "verify").exit_code == 2
    assert run("--db", db, "balances", "--group", "g_nope").exit_code == 2
    assert run("--db", db, "audit", "--group", group, "--hand", "h_nope").exit_code == 2
    assert run("--db", db, "frobnicate").exit_code == 2


def test_every_command_has_help_with_an_example():
    for command in ("serve", "demo", "verify", "replay", "audit", "balances", "export", "import", "checkpoint",
                    "stats", "backup"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Example" in result.output, command


def test_a_store_that_cannot_be_opened_is_bad_usage_not_a_traceback(tmp_path):
    garbage = tmp_path / "garbage.db"
    garbage.write_text("not sqlite at all")
    for db in (str(tmp_path / "no" / "such" / "dir.db"), str(garbage)):
        result = run("--db", db, "demo")
        assert result.exit_code == 2 and "cannot be used as a bitka store" in result.output
    assert run("--db", str(garbage), "verify").exit_code == 2


def test_stats_prints_each_member_and_draws_the_balances(demo_db, tmp_path):
    db, group, _ = demo_db
    chart = tmp_path / "balances.png"
    out = run("--db", db, "stats", "--group", group, "--plot", str(chart))
    assert out.exit_code == 0 and "Ala:" in out.output and "balance now:" in out.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    as_json = json.loads(run("--db", db, "stats", "--group", group, "--json").output)
    assert sum(m["hands_played"] for m in as_json["members"]) > 0


def test_export_as_csv_is_the_ledger(demo_db, tmp_path):
    db, group, _ = demo_db
    out = tmp_path / "ledger.csv"
    assert run("--db", db, "export", "--group", group, "--format", "csv", "--out", str(out)).exit_code == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "seq,recorded_at,kind,hand,table,game,contract,member,name,amount,balance"
    assert len(lines) > 20


def test_a_backup_of_a_live_store_verifies_and_restores_the_same_balances(demo_db, tmp_path):
    db, group, _ = demo_db
    copy = tmp_path / "backup.db"
    writer = Store(db).connect()
    writer.execute("BEGIN IMMEDIATE")  # another writer is in the middle of a transaction
    try:
        result = run("--db", db, "backup", str(copy))
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.exit_code == 0 and "the copy verifies and replays" in result.output
    with Store(db).reading() as a, Store(str(copy)).reading() as b:
        assert a.rows("balances") == b.rows("balances") and a.version(group) == b.version(group)
    assert run("--db", str(copy), "balances", "--group", group).output == run("--db", db, "balances",
                                                                                  "--group", group).output
    assert run("--db", db, "backup", str(copy)).exit_code == 2  # never over an existing file


def test_stats_plot_to_a_missing_directory_says_so_before_printing_anything(tmp_path):
    db = str(tmp_path / "demo.db")
    group = demo_store(db)
    out = run("--db", db, "stats", "--group", group, "--plot", str(tmp_path / "nowhere" / "chart.png"))
    assert out.exit_code == 2 and "there is no directory" in out.output and "hands" not in out.output
    assert "Traceback" not in out.output
