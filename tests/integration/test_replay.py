"""Replay: projections rebuilt from the log equal the live rows; settlements re-derived."""
import sqlite3

from click.testing import CliRunner

from cli.checks import _streams, replay_store, verify_store
from cli.main import bitka
from events.database import Store
from projections.replay import replay
from tests.tampering import rewrite_log


def _demo(tmp_path):
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(bitka, ["--db", db, "demo"])
    assert result.exit_code == 0, result.output
    return db


def _inflate_first_settlement(db) -> int:
    """Rewrite the first settlement's multiplier in the file, as an attacker with the file
    could; returns its seq."""
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_refuse_update")
    seq = conn.execute("SELECT min(seq) FROM events WHERE type = 'settlement'").fetchone()[0]
    conn.execute("UPDATE events SET data = json_set(data, '$.multiplier', 64) WHERE seq = ?", (seq,))
    conn.commit()
    conn.close()
    return seq


def _settled(db: str) -> int:
    """How many settlements the demo logged (one per hand of every game it plays)."""
    with Store(db).reading() as r:
        return sum(1 for e in r.scan() if e.type == "settlement")


def test_the_demo_replays_to_the_very_rows_the_service_wrote(tmp_path, store):
    db = _demo(tmp_path)
    from events.database import Store
    s = Store(db)
    with s.reading() as r:
        report = replay(r.scan(), r)
    assert report.differences == []
    assert report.settlements == _settled(db) > 20 and report.groups == 1


def test_a_settlement_rewritten_in_the_file_is_found_by_replay(tmp_path):
    db = _demo(tmp_path)
    seq = _inflate_first_settlement(db)
    result = CliRunner().invoke(bitka, ["--db", db, "replay"])
    assert result.exit_code == 1
    assert f"seq {seq}: the settlement of hand" in result.output and "multiplier" in result.output


def test_a_tampered_projection_row_is_found_by_replay(tmp_path):
    db = _demo(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE projection_rows SET data = json_set(data, '$.members', json('{}')) WHERE name = 'balances'")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(bitka, ["--db", db, "replay"])
    assert result.exit_code == 1 and "balances row - is different" in result.output


def test_every_row_kept_for_reads_is_checked_by_replay(tmp_path):
    """The rows a big group's pages read instead of the log (the balances' last moves, the
    order of tables, the evening's rows by time) are rows an operator could change as well:
    each one changed, or one added, is a difference."""
    db = _demo(tmp_path)
    for name in ("balance_steps", "table_order", "evening_hand", "evening_span", "evening_member",
                 "evening_table", "evening_at"):
        conn = sqlite3.connect(db)
        key = conn.execute("SELECT key FROM projection_rows WHERE name = ? LIMIT 1", (name,)).fetchone()[0]
        conn.execute("INSERT INTO projection_rows (name, group_id, key, data) SELECT name, group_id, key || 'x', data "
                     "FROM projection_rows WHERE name = ? AND key = ?", (name, key))
        conn.commit()
        conn.close()
        result = CliRunner().invoke(bitka, ["--db", db, "replay"])
        assert result.exit_code == 1 and f"{name} row {key}x is not in the log" in result.output, (name, result.output)
        conn = sqlite3.connect(db)
        conn.execute("DELETE FROM projection_rows WHERE name = ? AND key = ?", (name, key + "x"))
        conn.commit()
        conn.close()
    assert CliRunner().invoke(bitka, ["--db", db, "replay"]).exit_code == 0


def test_replay_until_prints_the_balances_at_that_seq(tmp_path):
    db = _demo(tmp_path)
    from events.database import Store
    with Store(db).reading() as r:
        group = r.group_ids()[0]
    result = CliRunner().invoke(bitka, ["--db", db, "replay", "--group", group, "--until", "6"])
    assert result.exit_code == 0, result.output
    assert "rebuilt from the log" in result.output and "0.00" in result.output
    assert "0 settlements" in result.output
    assert CliRunner().invoke(bitka, ["--db", db, "replay", "--until", "6"]).exit_code == 2


def test_verify_and_replay_in_worker_processes_find_what_one_process_finds(tmp_path):
    db = _demo(tmp_path)

    def count(n=1):
        pass
    assert verify_store(db, None, count, parallel_from=0) == []
    assert replay_store(db, None, None, True, count, parallel_from=0).differences == []
    seq = _inflate_first_settlement(db)
    [fault] = verify_store(db, None, count, parallel_from=0)
    assert fault.seq == seq
    report = replay_store(db, None, None, True, count, parallel_from=0)
    assert any(f"seq {seq}: the settlement" in d for d in report.differences)
    assert report.settlements == _settled(db)


def test_replay_rebuild_repairs_a_tampered_projection_row(tmp_path):
    db = _demo(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE projection_rows SET data = json_set(data, '$.members', json('{}')) WHERE name = 'balances'")
    conn.execute("DELETE FROM projection_rows WHERE name = 'hand' AND key = "
                 "(SELECT min(key) FROM projection_rows WHERE name = 'hand')")
    conn.execute("DELETE FROM merkle_nodes WHERE level > 0")  # as in a store from before the tree
    conn.commit()
    conn.close()
    assert CliRunner().invoke(bitka, ["--db", db, "replay"]).exit_code == 1
    repaired = CliRunner().invoke(bitka, ["--db", db, "replay", "--rebuild"])
    assert repaired.exit_code == 0, repaired.output
    assert CliRunner().invoke(bitka, ["--db", db, "replay"]).exit_code == 0
    with Store(db).reading() as r:
        group = r.group_ids()[0]
        assert CliRunner().invoke(bitka, ["--db", db, "checkpoint", "--group", group]).exit_code == 0


def test_a_rewritten_settlement_with_the_whole_chain_rehashed_passes_verify_but_not_replay(tmp_path):
    """Whoever holds the file can rewrite a result and recompute every hash after it: the
    chain then holds, but the cards still give the true settlement, and replay says so."""
    db = _demo(tmp_path)
    with Store(db).reading() as r:
        target = next(e.seq for e in r.scan() if e.type == "settlement")

    def swap_first_settlement(seq, data):  # a loser and a winner swap what they were paid: still zero-sum
        if seq == target:
            payouts = [dict(p) for p in data["payouts"]]
            loser = next(p for p in payouts if p["amount"].startswith("-"))
            winner = next(p for p in payouts if not p["amount"].startswith("-"))
            loser["amount"], winner["amount"] = winner["amount"], loser["amount"]
            data["payouts"] = payouts
        return data

    rewrite_log(db, swap_first_settlement, restore_triggers=False)
    checked = CliRunner().invoke(bitka, ["--db", db, "verify"])
    assert checked.exit_code == 1 and "first bad seq" not in checked.output  # only the dropped trigger shows
    result = CliRunner().invoke(bitka, ["--db", db, "replay"])
    assert result.exit_code == 1
    assert f"seq {target}: the settlement of hand" in result.output and "payouts" in result.output


def test_each_part_of_a_replay_holds_only_the_hands_still_open(tmp_path):
    """The rows part alone (as one of replay's two processes runs it) must set each finished
    hand's row aside too: a group that played for years must not be held in memory."""
    from projections import hands as hand_rows
    from projections.replay import GroupRebuild, Report
    db = _demo(tmp_path)
    with Store(db).reading() as r:
        for parts in (("rows",), ("settlements",), ("rows", "settlements")):
            report = Report()
            rebuild, most, dealt = None, 0, 0
            for env in r.scan():
                dealt += env.type in ("deal", "result")
                if rebuild is None:
                    rebuild = GroupRebuild(env.group, r, report, parts)
                rebuild.add(env)
                held = sum(1 for name, _ in rebuild.rows if name == hand_rows.NAME) + len(rebuild.open)
                most = max(most, held)
            rebuild.finish()
            tables = len({k for n, k in rebuild.rows if n == "table"} | set(rebuild.at_table))
            assert report.differences == [] and len(rebuild.done_hands) == dealt - tables, parts
            assert most <= 2 * tables, (parts, most)  # a hand row and an open hand per table at most


def test_the_two_replay_processes_re_derive_every_settlement_exactly_once(tmp_path):
    """replay splits the hands between its processes by a checksum of their ids: together
    they must re-derive each settlement once, so a rewritten one is reported once."""
    from cli.checks import SETTLING_SHARES
    from projections.replay import in_share, merge
    db = _demo(tmp_path)
    seq = _inflate_first_settlement(db)
    first, rest = frozenset({0}), frozenset(range(1, SETTLING_SHARES))
    with Store(db).reading() as r:
        hands = {e.hand for e in r.scan() if e.type == "settlement"}
        reports = [replay(r.scan(), r, ("rows", "settlements"), (first, SETTLING_SHARES)),
                   replay(r.scan(), r, ("settlements",), (rest, SETTLING_SHARES))]
    assert all(in_share(h, (first, SETTLING_SHARES)) != in_share(h, (rest, SETTLING_SHARES)) for h in hands)
    merged = merge(reports)
    assert merged.settlements == len(hands) == _settled(db)
    found = [d for d in merged.differences if "the settlement of hand" in d]
    assert len(found) == 1 and f"seq {seq}: " in found[0]


def test_the_settling_process_knows_a_group_that_confirms_nothing(tmp_path):
    """Settlements that counted at once because their group confirms nothing hold in the
    process that re-derives settlements alone (it folds the group's row as well as the
    tables'), as in one process: a big log is replayed by both."""
    import random
    from bench.run import fill, hand_bodies
    from cli.checks import SETTLING_SHARES
    from projections.projector import project
    from projections.replay import merge
    store = Store(tmp_path / "off.db", projector=project).setup()
    fill(store, 1200, hand_bodies(random.Random(3), 4))  # the bench's group: confirmations off
    first, rest = frozenset({0}), frozenset(range(1, SETTLING_SHARES))
    with store.reading() as r:
        apart = merge([replay(r.scan(), r, ("rows", "settlements"), (first, SETTLING_SHARES)),
                       replay(r.scan(), r, ("settlements",), (rest, SETTLING_SHARES))])
        together = replay(r.scan(), r)
    assert apart.settlements == together.settlements > 100
    assert apart.differences == together.differences == []


def test_groups_replay_as_streams_of_their_own_and_find_what_one_process_finds(tmp_path):
    db = _demo(tmp_path)
    for _ in range(2):  # three groups of the same size
        assert CliRunner().invoke(bitka, ["--db", db, "demo"]).exit_code == 0
    with Store(db).reading() as r:
        sizes, total = r.sizes(None), r.count(None)
    assert len(_streams(sizes, 2)) == 2  # whole groups, dealt into two streams
    report = replay_store(db, None, None, True, lambda n=1: None, parallel_from=0)
    assert (report.groups, report.events, report.differences) == (3, total, [])
    assert report.settlements == _settled(db) and len(report.balances) == 3
    seq = _inflate_first_settlement(db)
    found = replay_store(db, None, None, True, lambda n=1: None, parallel_from=0).differences
    assert any(f"seq {seq}: the settlement" in d for d in found)


def test_a_store_of_one_big_group_shares_its_hands_out_instead_of_its_groups():
    assert _streams({"g1": 100_000, "g2": 40, "g3": 40}, 2) == []
    assert _streams({"g1": 100_000}, 2) == []
    assert _streams({"a": 50, "b": 30, "c": 20, "d": 10}, 2) == [["a", "d"], ["b", "c"]]
