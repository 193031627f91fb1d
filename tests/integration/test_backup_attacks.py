"""Backups that cannot be turned against their owner (issue 44): whoever can write to the
backup directory, or an operator's mistake, cannot make bitka run a command, bring back a
back door, stop the schedule while health stays green, or delete a file bitka did not make."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest

from cli.backups import MADE, WORK, BackupFailed, Schedule, into_directory, last_good_at, signing_key
from cli.pg_dumps import tables_in
from events import backups
from events.database import open_store
from tests.backends import POSTGRES_URL, drop_schema, fresh_schema_url, require_postgres
from tests.command import demo_store, run

HOUR = 3600
FAR = "2099-12-31T23:59:59.000000Z"


def _forged(manifest: Path, file: Path, **changes) -> dict:
    """What an attacker writes: the manifest with its size and SHA-256 computed again for the
    file as it now is (and any other change), its signature left as it was."""
    facts = json.loads(manifest.read_text())
    facts.update(size=file.stat().st_size, sha256=hashlib.sha256(file.read_bytes()).hexdigest(), **changes)
    manifest.write_text(json.dumps(facts))
    return facts


def _copied_as(backup: backups.Backup, name: str) -> tuple[Path, Path]:
    file = backup.file.with_name(name)
    file.write_bytes(backup.file.read_bytes())
    manifest = file.with_name(name + ".json")
    manifest.write_text(json.dumps({**backup.facts, "file": name}))
    return file, manifest


def _signed_and_refused(file: Path, manifest: Path, key, db: str, to: Path) -> str:
    """The backup's manifest signed with the store's own key (the store tampered with before it
    was backed up), then restored to ``to``: refused, nothing written there; what restore said."""
    manifest.write_text(json.dumps(backups.signed(json.loads(manifest.read_text()), key)))
    said = run("restore", str(file), "--to", str(to), "--key", db + ".key")
    assert said.exit_code == 1 and "does not prove itself" in said.output, said.output
    assert not to.exists()
    return said.output


def test_a_postgresql_backup_is_data_and_nothing_in_it_runs_or_reaches_another_schema(tmp_path):
    require_postgres()
    import psycopg
    store_url, store_schema = fresh_schema_url()
    target, target_schema = fresh_schema_url()
    bystander = f"{target_schema}_bystander"
    key, where, ran = str(tmp_path / "signing.key"), tmp_path / "backups", tmp_path / "ran"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {bystander}")
        conn.execute(f"CREATE TABLE {bystander}.kept (x int)")
    try:
        assert run("--db", store_url, "demo").exit_code == 0
        made = run("--db", store_url, "backup", "--dir", str(where), "--key", key)
        assert made.exit_code == 0, made.output
        [real], _ = backups.listed(where)
        assert real.name.endswith(".rows.gz") and real.facts["format"] == "rows"
        with gzip.open(real.file, "rb") as f:
            assert f.readline().startswith(b'{"bitka_rows":1,')  # data: no statement, no meta-command
        # 1. An old-style dump with a meta-command prepended, its manifest computed again, newest in the directory.
        script = where / "bitka-20991231T000000Z.sql.gz"
        script.write_bytes(gzip.compress(f"\\! id > {ran}\nDROP SCHEMA {bystander} CASCADE;\n".encode()))
        script.with_name(script.name + ".json").write_text(json.dumps({
            "bitka_backup": 1, "file": script.name, "kind": "postgresql", "made_at": "2026-12-01T00:00:00.000000Z",
            "size": script.stat().st_size, "sha256": backups.sha256_of(script), "events": 1, "groups": {}}))
        said = run("restore", str(script), "--to", target, "--key", key)
        assert said.exit_code == 2 and "pg_dump script made by an older bitka" in said.output, said.output
        assert "load it with psql" in said.output and not ran.exists()
        # 2. The same lines slipped into bitka's own rows, the manifest's size and SHA-256 computed again.
        tampered = where / real.name
        with gzip.open(real.file, "rb") as f:
            lines = f.readlines()
        tampered.write_bytes(gzip.compress(lines[0] + f"\\! id > {ran}\n".encode() + b"".join(lines[1:])))
        _forged(real.manifest, tampered)
        said = run("restore", str(where), "--to", target, "--key", key)
        assert said.exit_code == 1 and "is not signed by bitka's signing key" in said.output, said.output
        assert "there is no good backup" in said.output and not ran.exists()
        # 3. Even signed with the store's own key, a line of it is only ever a row of bitka's tables.
        attack = [lines[0]]
        for line in lines[1:]:
            attack.append(line)
            if b'"table":"credentials"' in line:
                attack.append(f"\\! id > {ran}\tg\tadmin'); DROP SCHEMA {bystander} CASCADE; --\n".encode())
        tampered.write_bytes(gzip.compress(b"".join(attack)))
        facts = _forged(real.manifest, tampered)
        real.manifest.write_text(json.dumps(backups.signed(facts, signing_key(store_url, key))))
        said = run("restore", str(where), "--to", target, "--key", key)
        assert said.exit_code == 1 and "does not prove itself" in said.output, said.output
        assert "which the log does not hold" in said.output and not ran.exists()
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            assert conn.execute(f"SELECT count(*) FROM {bystander}.kept").fetchone() == (0,)
            assert conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'bitka_check_%'").fetchone()[0] \
                == 0  # the scratch schema is gone
        assert tables_in(target, target_schema) == []  # nothing was restored
        # 4. A line PostgreSQL takes for the end of the rows, first among the credentials (signed): they would all
        # be gone without a word; the restore counts what went in.
        cut = []
        for line in lines:
            cut.append(line)
            if b'"table":"credentials"' in line:
                cut.append(b"\\.\r\n")
        tampered.write_bytes(gzip.compress(b"".join(cut)))
        facts = _forged(real.manifest, tampered)
        real.manifest.write_text(json.dumps(backups.signed(facts, signing_key(store_url, key))))
        said = run("restore", str(where), "--to", target, "--key", key)
        assert said.exit_code == 1 and "a line in it ended the table early" in said.output, said.output
        assert tables_in(target, target_schema) == []
    finally:
        for schema in (store_schema, target_schema, bystander):
            drop_schema(schema)


def _tamper_sqlite(path: Path, group: str) -> None:
    """An admin credential added, and a trigger that puts it back whenever a credential is deleted."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO credentials VALUES ('mallory-hash', ?, 'admin')", (group,))
    conn.execute("INSERT INTO credentials VALUES ('ghost-hash', ?, 'm_nobody')", (group,))
    conn.execute("CREATE TRIGGER keep_mallory AFTER DELETE ON credentials BEGIN "
                 f"INSERT OR IGNORE INTO credentials VALUES ('mallory-hash', '{group}', 'admin'); END")
    conn.commit()
    conn.close()


def test_a_tampered_sqlite_backup_with_a_back_door_is_refused(tmp_path):
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    group = demo_store(db)
    key = signing_key(db)
    older = into_directory(db, where, 48, 1_764_000_000)
    newest = into_directory(db, where, 48, 1_764_000_600)
    _tamper_sqlite(newest.file, group)
    manifest = newest.file.with_name(newest.file.name + ".json")
    _forged(manifest, newest.file)
    # Restoring the directory passes over it (its manifest's signature does not hold) to the older one.
    said = run("restore", str(where), "--to", str(tmp_path / "a.db"), "--key", db + ".key")
    assert said.exit_code == 0, said.output
    assert f"passed over: {newest.file.name}'s manifest is not signed by bitka's signing key" in said.output
    assert f"restored {older.file}" in said.output
    with open_store(str(tmp_path / "a.db")).reading() as r:
        assert r.credential("mallory-hash") is None
    named = run("restore", str(newest.file), "--to", str(tmp_path / "b.db"), "--key", db + ".key")
    assert named.exit_code == 1 and "is not signed by bitka's signing key" in named.output
    assert not (tmp_path / "b.db").exists()
    # Signed with the right key (the store itself tampered with before it was backed up), it is still refused.
    said = _signed_and_refused(newest.file, manifest, key, db, tmp_path / "c.db")
    assert "the trigger keep_mallory (on credentials), which bitka does not make" in said
    assert "a credential (token hash ghost-hash...) for 'm_nobody'" in said
    # ... and such a store is never backed up.
    _tamper_sqlite(Path(db), group)
    made = run("--db", db, "backup", str(tmp_path / "d.db"))
    assert made.exit_code == 1 and "keep_mallory" in made.output and not (tmp_path / "d.db").exists()


def test_a_store_whose_index_or_table_bitka_names_is_made_otherwise_is_neither_backed_up_nor_restored(tmp_path):
    """An index of bitka's name made UNIQUE (each group then takes one more event, and no
    other) and a table given a CHECK of its own (no member's credential can be written): a
    store so changed is not backed up, and a backup of one, signed with the store's key, is not
    restored."""
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    key = signing_key(db)
    made = into_directory(db, where, 48, 1_764_000_000)
    conn = sqlite3.connect(made.file)
    conn.execute("DROP INDEX events_by_hand")
    conn.execute("CREATE UNIQUE INDEX events_by_hand ON events (group_id, hand_id) WHERE hand_id IS NOT NULL "
                 "AND 0 = 1")
    columns = ", ".join(f"{name} {kind}" for _cid, name, kind, *_rest in conn.execute("PRAGMA table_info(credentials)"))
    conn.execute("ALTER TABLE credentials RENAME TO old_credentials")
    conn.execute(f"CREATE TABLE credentials ({columns}, CHECK (subject = 'admin'))")
    conn.execute("INSERT INTO credentials SELECT * FROM old_credentials WHERE subject = 'admin'")
    conn.execute("DROP TABLE old_credentials")
    conn.commit()
    conn.close()
    manifest = made.file.with_name(made.file.name + ".json")
    _forged(manifest, made.file)
    said = _signed_and_refused(made.file, manifest, key, db, tmp_path / "a.db")
    assert "its index events_by_hand is not the one bitka makes" in said
    assert "its table credentials is not the one bitka makes" in said
    backed = run("--db", str(made.file), "backup", str(tmp_path / "b.db"))
    assert backed.exit_code == 1 and "events_by_hand" in backed.output and not (tmp_path / "b.db").exists()


def test_what_someone_else_put_in_the_backup_directory_is_neither_deleted_nor_able_to_stop_the_schedule(tmp_path):
    """A directory named as bitka's work directories are, but not made by a backup, stays
    with what it holds (one a killed backup left is removed); an old backup replaced by a
    directory is left where it is when pruning would remove it, and the backup still counts;
    whatever a backup raises, the schedule says it and tries again."""
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    first = into_directory(db, where, 1, 1_764_000_000)
    notes = where / f"{WORK}notes"
    notes.mkdir()
    (notes / "mine.txt").write_text("not bitka's")
    left = where / f"{WORK}killed"
    left.mkdir()
    (left / MADE).touch()
    first.file.unlink()
    first.file.mkdir()  # in place of the oldest backup, which pruning removes next
    (first.file / "keep.txt").write_text("someone's")
    second = into_directory(db, where, 1, 1_764_000_600)
    assert (notes / "mine.txt").read_text() == "not bitka's" and not left.exists()
    assert (first.file / "keep.txt").read_text() == "someone's" and second.file.is_file()
    said = run("--db", db, "backup", "--dir", str(where), "--keep", "1")
    assert said.exit_code == 0 and "Traceback" not in said.output, said.output
    told, attempts = [], iter([OSError("the disk went away"), BackupFailed("no room"), "made"])

    def backup(now):
        outcome = next(attempts)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome
    clock = [1_764_100_000.0]
    schedule = Schedule(backup, HOUR, lambda: None, lambda: clock[0], lambda s: clock.__setitem__(0, clock[0] + s),
                        said=told.append)
    assert schedule.run(attempts=3) == 3
    assert "OSError: the disk went away" in told[0] and "no room" in told[1] and told[2] == "made"


def test_a_backup_dated_in_the_future_neither_stops_the_schedule_nor_looks_fresh(tmp_path):
    from service.app import create_app
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    key = signing_key(db)
    now = time.time()
    real = into_directory(db, where, 48, now - 3 * HOUR)
    [made], _ = backups.listed(where)
    # Even signed (a clock gone wrong, or a key that leaked), a date in the future is a finding.
    file, manifest = _copied_as(made, "bitka-20991231T235959Z.db")
    manifest.write_text(json.dumps(backups.signed({**json.loads(manifest.read_text()), "made_at": FAR}, key)))
    state = backups.status(where, HOUR, key.public_key(), now)
    assert state.last_good.name == real.file.name and state.ahead == 1 and not state.fresh
    assert "in the future" in state.damaged[0][1]
    schedule = Schedule(lambda at: None, HOUR, last_good_at(where, HOUR, key.public_key(), lambda: now),
                        lambda: now, lambda s: None)
    assert schedule.due() == pytest.approx(now - 2 * HOUR, abs=0.01)  # due long since: the next backup is made at once
    app = create_app({"BITKA_DB": db, "BITKA_KEY": db + ".key", "TESTING": True,
                      "BITKA_BACKUP_DIR": str(where), "BITKA_BACKUP_EVERY": HOUR})
    client = app.test_client()
    ready = client.get("/readyz").json
    assert ready["not_ready"] == ["backups"] and "in the future" in ready["checks"]["backups"]["detail"]
    metrics = client.get("/metrics").get_data(as_text=True)
    assert "bitka_backup_fresh 0.0" in metrics and "bitka_backups_in_the_future 1.0" in metrics
    assert 3 * HOUR <= float(re.search(r"^bitka_backup_age_seconds (\S+)$", metrics, re.M).group(1)) < 4 * HOUR
    app.extensions["bitka.store"].close()
    said = run("restore", str(where), "--to", str(tmp_path / "a.db"), "--key", db + ".key")
    assert said.exit_code == 0 and f"restored {real.file}" in said.output
    assert f"passed over: {file.name}'s manifest says it was made at {FAR}, in the future" in said.output
    # A new backup is made, and it keeps it: the future one neither counts nor takes the place of a real one.
    assert into_directory(db, where, 1, now).removed == (real.file.name,)
    assert file.exists() and manifest.exists()


def test_the_metrics_directory_is_bitkas_own_and_nothing_else_there_is_deleted(tmp_path, monkeypatch):
    from cli.server import metrics_across_workers
    store = tmp_path / "club.db"
    store.write_bytes(b"the club's store")
    (tmp_path / "bitka-20261129T140000Z.db").write_bytes(b"a backup")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    _child_exit, on_exit = metrics_across_workers()
    made = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    assert made.parent == tmp_path and made.name.startswith("bitka-metrics-")
    assert oct(made.stat().st_mode & 0o777) == "0o700"
    assert store.read_bytes() == b"the club's store" and (tmp_path / "bitka-20261129T140000Z.db").exists()
    (made / "counter_123.db").write_bytes(b"a worker's counts")
    on_exit(None)
    assert not made.exists() and store.exists() and (tmp_path / "bitka-20261129T140000Z.db").exists()


def test_a_link_planted_in_the_backup_directory_is_never_written_through(tmp_path):
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    where.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious")
    for name in (".last-attempt.json.partial", "last-attempt.json"):
        (where / name).symlink_to(victim)
    made = into_directory(db, where, 48, 1_764_000_000)
    assert victim.read_text() == "precious" and made.file.exists()
    assert json.loads((where / "last-attempt.json").read_text())["ok"] is True  # the link replaced, not followed
    (where / ".bitka-backup.lock").unlink()
    (where / ".bitka-backup.lock").symlink_to(tmp_path / "created-through-the-link")
    said = run("--db", db, "backup", "--dir", str(where))
    assert said.exit_code == 1 and "cannot be opened as bitka's lock" in said.output
    assert not (tmp_path / "created-through-the-link").exists()


@pytest.mark.parametrize("token", [None, "scraper-s3cret"])
def test_metrics_served_to_a_hall_answer_only_this_machine_or_the_token(tmp_path, token):
    from service.app import create_app
    app = create_app({"BITKA_DB": str(tmp_path / "club.db"), "BITKA_KEY": str(tmp_path / "k"), "TESTING": True,
                      "BITKA_LAN": True, **({"BITKA_METRICS_TOKEN": token} if token else {})})
    client = app.test_client()
    phone = {"REMOTE_ADDR": "192.168.1.30"}
    header = {"Authorization": f"Bearer {token}"} if token else {}
    refused = client.get("/metrics", environ_base=phone)
    assert refused.status_code == (401 if token else 403)
    assert refused.mimetype == "application/problem+json"
    assert client.get("/metrics", environ_base=phone, headers=header).status_code == (200 if token else 403)
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"}, headers=header).status_code == 200
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "::1"}, headers=header).status_code == 200
    # Readiness tells a phone of the hall whether the server is ready, not where its store,
    # key and backups are: those details are this machine's.
    told = client.get("/readyz", environ_base=phone).get_json()
    assert "checks" not in told and "ready" in told and str(tmp_path) not in json.dumps(told)
    assert "checks" in client.get("/readyz", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_json()
    app.extensions["bitka.store"].close()
