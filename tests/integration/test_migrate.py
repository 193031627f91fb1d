"""bitka migrate and the two backends side by side: the same log, byte for byte, and the
same answers, whichever database holds it."""

import pytest

from tests.command import demo_store, run
from events.database import open_store
from tests.backends import drop_trigger, run_raw


@pytest.fixture
def demo(tmp_path):
    db = str(tmp_path / "demo.db")
    return db, demo_store(db)


def _export(db, group, out):
    result = run("--db", db, "export", "--group", group, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_a_store_moved_to_postgresql_and_back_exports_byte_for_byte_the_same(demo, pg_url, tmp_path):
    db, group = demo
    moved = run("migrate", "--from", db, "--to", pg_url)
    assert moved.exit_code == 0, moved.output
    assert "every hash and Merkle root verified on arrival" in moved.output
    original = _export(db, group, tmp_path / "sqlite.jsonl")
    assert _export(pg_url, group, tmp_path / "pg.jsonl") == original
    for command in ("verify", "replay"):
        result = run("--db", pg_url, command)
        assert result.exit_code == 0, result.output
    back = tmp_path / "back.db"
    assert run("migrate", "--from", pg_url, "--to", f"sqlite:///{back}").exit_code == 0
    assert _export(str(back), group, tmp_path / "back.jsonl") == original
    with open_store(db).reading() as a, open_store(pg_url).reading() as b:
        assert list(a.credentials()) == list(b.credentials())  # tokens keep working
        assert a.rows("balances", group) == b.rows("balances", group)


def test_an_export_of_one_backend_imports_into_the_other_and_verifies(demo, pg_url, tmp_path):
    db, group = demo
    exported = _export(db, group, tmp_path / "club.jsonl")
    result = run("--db", pg_url, "import", str(tmp_path / "club.jsonl"))
    assert result.exit_code == 0, result.output
    assert _export(pg_url, group, tmp_path / "again.jsonl") == exported
    assert run("--db", pg_url, "verify").exit_code == 0


def test_migrate_refuses_a_target_that_holds_the_group_and_changes_nothing(demo, pg_url):
    db, group = demo
    assert run("migrate", "--from", db, "--to", pg_url).exit_code == 0
    with open_store(pg_url).reading() as r:
        before = r.count()
    again = run("migrate", "--from", db, "--to", pg_url)
    assert again.exit_code == 1 and f"already holds group(s) {group}" in again.output
    with open_store(pg_url).reading() as r:
        assert r.count() == before


def test_migrate_refuses_a_tampered_source_and_writes_nothing(demo, pg_url):
    db, group = demo
    source = open_store(db)
    run_raw(source, drop_trigger(source, "events_refuse_update"),
            "UPDATE events SET actor = 'mallory' WHERE seq = 5")
    result = run("migrate", "--from", db, "--to", pg_url)
    assert result.exit_code == 1
    assert f"group {group}: first bad seq 5" in result.output and "nothing was moved" in result.output
    with open_store(pg_url).reading() as r:
        assert not r.is_store()  # not even the schema was made


def test_migrate_says_what_is_wrong_with_its_arguments(tmp_path):
    missing = run("migrate", "--from", str(tmp_path / "nope.db"), "--to", str(tmp_path / "new.db"))
    assert missing.exit_code == 2 and "there is no store" in missing.output
    same = run("migrate", "--from", "a.db", "--to", "a.db")
    assert same.exit_code == 2 and "the same store" in same.output
    odd = run("--db", "mysql://x/y", "verify")
    assert odd.exit_code == 2 and "postgresql://" in odd.output


def test_the_postgresql_password_never_appears_in_messages():
    result = run("--db", "postgresql://bitka:s3cret@127.0.0.1:1/none", "verify")
    assert result.exit_code == 1 and "s3cret" not in result.output
    assert "cannot connect to postgresql://bitka@127.0.0.1:1/none" in result.output


def test_verify_and_replay_split_across_processes_on_postgresql(demo, pg_url):
    from cli.checks import replay_store, verify_store
    db, group = demo
    assert run("migrate", "--from", db, "--to", pg_url).exit_code == 0
    assert verify_store(pg_url, None, lambda n=1: None, parallel_from=0) == []
    report = replay_store(pg_url, None, None, True, lambda n=1: None, parallel_from=0)
    with open_store(db).reading() as r:
        settled = sum(1 for e in r.scan() if e.type == "settlement")
    assert report.differences == [] and report.settlements == settled > 20
    store = open_store(pg_url)
    run_raw(store, drop_trigger(store, "events_refuse_update"),
            "UPDATE events SET actor = 'mallory' WHERE seq = (SELECT min(seq) FROM events WHERE type = 'settlement')")
    [fault] = verify_store(pg_url, None, lambda n=1: None, parallel_from=0)
    assert fault.group == group and "do not match its hash" in fault.reason


def test_migrate_and_backup_refuse_a_source_whose_log_does_not_hold_though_its_hashes_do(demo, tmp_path):
    """A member added twice, appended through the store (every hash right): the same checks
    as import's stop migrate before it writes, and make backup report the copy."""
    from events.store import NewEvent
    from projections.projector import project
    db, group = demo
    store = open_store(db, projector=project)
    with store.reading() as r:
        first = next(e for e in r.scan(group) if e.type == "member_added")
    with store.writing() as w:
        [again] = w.append(group, [NewEvent("member_added", dict(first.data))], "admin")
    store.close()
    target = tmp_path / "moved.db"
    moved = run("migrate", "--from", db, "--to", str(target))
    assert moved.exit_code == 1 and "is added a second time" in moved.output and "nothing was moved" in moved.output
    with open_store(str(target)).reading() as r:
        assert not r.is_store()
    backed = run("--db", db, "backup", str(tmp_path / "copy.db"))
    assert backed.exit_code == 1 and f"seq {again.seq}: member" in backed.output


def test_migrate_names_the_to_path_that_cannot_be_a_store(demo, tmp_path):
    db, _group = demo
    folder = tmp_path / "adir"
    folder.mkdir()
    result = run("migrate", "--from", db, "--to", str(folder))
    assert result.exit_code == 2 and f"--to {folder} cannot be used as a bitka store" in result.output, result.output
    assert "bitka.db" not in result.output and not list(folder.iterdir())
