"""Backups that run themselves: a schedule on a fake clock, backups damaged on disk, restore
round trips on both backends, and what the admin's page says of them."""
from __future__ import annotations

import html
import re
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cli.backups import RETRY, Schedule, into_directory, last_good_at, signing_key
from events import backups
from events.database import open_store
from tests.backends import drop_schema, drop_trigger, fresh_schema_url, run_raw
from tests.command import demo_store, run

T0 = datetime(2026, 11, 29, 14, 0, tzinfo=timezone.utc).timestamp()
HOUR = 3600


class FakeClock:
    """Time that passes only when the schedule sleeps."""

    def __init__(self, t: float):
        self.t = t
        self.naps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.naps.append(seconds)
        self.t += seconds


def _events(db: str) -> int:
    store = open_store(db)
    with store.reading() as r:
        count = r.count()
    store.close()
    return count


def _key(db: str):
    """The store's signing key's public half: what a backup's manifest is checked with."""
    return signing_key(db).public_key()


def test_a_schedule_on_a_fake_clock_backs_up_every_interval_and_keeps_the_newest_n(tmp_path):
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    clock, made = FakeClock(T0), []

    def backup(now):
        done = into_directory(db, where, 3, now)
        made.append((now, _events(db)))
        if len(made) == 3:  # the club plays on between backups
            run("--db", db, "demo")
        return done

    schedule = Schedule(backup, HOUR, last_good_at(where, HOUR, _key(db), clock.now), clock.now, clock.sleep, nap=600)
    assert schedule.run(attempts=5) == 5
    assert [at for at, _ in made] == [T0 + k * HOUR for k in range(5)]  # the first at once, then on the hour
    assert max(clock.naps) <= 600 and sum(clock.naps) == 4 * HOUR
    kept, unreadable = backups.listed(where)
    assert not unreadable
    assert [b.name for b in kept] == ["bitka-20261129T180000Z.db", "bitka-20261129T170000Z.db",
                                      "bitka-20261129T160000Z.db"]  # the newest 3, the older 2 deleted
    assert sorted(p.name for p in where.iterdir() if p.name.startswith("bitka-")) == sorted(
        [b.name for b in kept] + [b.name + ".json" for b in kept])
    one_group, two_groups = made[2][1], made[3][1]
    assert [(len(b.facts["groups"]), b.facts["events"]) for b in kept] == [(2, two_groups), (2, two_groups),
                                                                           (1, one_group)]
    for b in kept:
        assert backups.damage(b) is None and b.facts["sha256"] == backups.sha256_of(b.file)
        assert b.facts["made_at"].startswith(b.name[6:10])
        assert b.facts["kind"] == "sqlite" and b.facts["settlements"] > 0
    # A server started again half an hour after the last backup waits for the next hour, not a whole interval.
    later = FakeClock(T0 + 4.5 * HOUR)
    restarted = Schedule(backup, HOUR, last_good_at(where, HOUR, _key(db), later.now), later.now, later.sleep)
    assert restarted.due() == T0 + 5 * HOUR
    fresh = FakeClock(T0)
    assert Schedule(backup, HOUR, last_good_at(tmp_path / "none", HOUR, _key(db)), fresh.now, fresh.sleep).due() == T0


def test_the_schedule_stops_when_the_server_that_started_it_is_gone(tmp_path):
    clock, answers = FakeClock(T0), iter([True, True, False])
    made = []
    schedule = Schedule(lambda now: made.append(now), HOUR, lambda: T0, clock.now, clock.sleep,
                        alive=lambda: next(answers), nap=HOUR / 4)
    assert schedule.run() == 0 and made == [] and clock.t == T0 + HOUR / 2


def test_a_failed_backup_is_tried_again_soon_counts_for_nothing_and_deletes_nothing(tmp_path):
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    group = demo_store(db)
    clock, attempts = FakeClock(T0), []

    def backup(now):
        attempts.append(now)
        return into_directory(db, where, 1, now)

    schedule = Schedule(backup, HOUR, last_good_at(where, HOUR, _key(db), clock.now), clock.now, clock.sleep, nap=HOUR)
    schedule.run(attempts=1)
    store = open_store(db)
    run_raw(store, drop_trigger(store, "events_refuse_update"),
            "UPDATE events SET actor = 'mallory' WHERE seq = 5")  # the store itself goes bad
    store.close()
    schedule.run(attempts=2)
    assert attempts == [T0, T0 + HOUR, T0 + HOUR + RETRY]
    [only], _ = backups.listed(where)
    assert only.made_at == T0 and not list(where.glob(".*partial"))  # keep=1, yet the good one stays
    state = backups.status(where, HOUR, _key(db), now=clock.t)
    assert state.last_good == only and state.fresh
    assert f"group {group}: first bad seq 5" in state.failed["problem"]
    assert any("the last attempt" in p and "first bad seq 5" in p for p in state.problems)
    made = run("--db", db, "backup", "--dir", str(where))
    assert made.exit_code == 1 and "first bad seq 5" in made.output


def _two_backups_the_newest_damaged(tmp_path, now: float) -> tuple[str, Path, backups.Backup, backups.Backup]:
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    into_directory(db, where, 48, now - 1800)
    into_directory(db, where, 48, now - 60)
    newest, older = backups.listed(where)[0]
    with open(newest.file, "r+b") as f:  # one byte rots on disk; the size stays
        f.seek(4096 + 100)
        byte = f.read(1)
        f.seek(4096 + 100)
        f.write(bytes([byte[0] ^ 0xFF]))
    return db, where, newest, older


def test_a_backup_damaged_on_disk_is_reported_and_never_the_last_good_one(tmp_path):
    from service.app import create_app
    now = time.time()
    db, where, newest, older = _two_backups_the_newest_damaged(tmp_path, now)
    state = backups.status(where, HOUR, _key(db))
    assert state.last_good == older and [name for name, _ in state.damaged] == [newest.name]
    assert "does not match its manifest" in state.problems[0]
    # restore of the damaged file refuses it; restore of the directory passes over it to the older one
    refused = run("restore", str(newest.file), "--to", str(tmp_path / "a.db"), "--key", db + ".key")
    assert refused.exit_code == 1 and "does not match its manifest" in refused.output
    assert "nothing was restored" in refused.output and not (tmp_path / "a.db").exists()
    restored = run("restore", str(where), "--to", str(tmp_path / "b.db"), "--key", db + ".key")
    assert restored.exit_code == 0, restored.output
    assert f"passed over: {newest.name} does not match its manifest" in restored.output
    assert f"restored {older.file}" in restored.output
    # the health check names it: not ready, though the older good one is fresh
    app = create_app({"BITKA_DB": db, "BITKA_KEY": db + ".key", "TESTING": True,
                      "BITKA_BACKUP_DIR": str(where), "BITKA_BACKUP_EVERY": "1h"})
    ready = app.test_client().get("/readyz")
    assert ready.status_code == 503 and ready.json["not_ready"] == ["backups"]
    assert newest.name in ready.json["checks"]["backups"]["detail"]
    metrics = app.test_client().get("/metrics").get_data(as_text=True)
    assert "bitka_backups_damaged 1.0" in metrics and "bitka_backup_fresh 0.0" in metrics
    # keeping 1 keeps the older good one, not the damaged one alone
    assert into_directory(db, where, 1, now).removed == (newest.name, older.name)
    app.extensions["bitka.store"].close()


def test_a_manifest_that_cannot_be_read_is_named_and_its_backup_not_counted(tmp_path):
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    made = into_directory(db, where, 48, T0)
    manifest = made.file.with_name(made.file.name + ".json")
    manifest.write_text(manifest.read_text()[:-20])
    state = backups.status(where, HOUR, _key(db), now=T0 + 60)
    assert state.last_good is None and "cannot be read" in state.damaged[0][1]
    said = run("restore", str(made.file), "--to", str(tmp_path / "a.db"), "--key", db + ".key")
    assert said.exit_code == 1 and "cannot be read" in said.output


def _same_store(a: str, b: str) -> None:
    sa, sb = open_store(a), open_store(b)
    with sa.reading() as ra, sb.reading() as rb:
        assert ra.sizes() == rb.sizes() and ra.sizes()
        assert ra.rows("balances") == rb.rows("balances")
        assert list(ra.credentials()) == list(rb.credentials())
        for g, n in ra.sizes().items():
            assert ra.merkle_root(g, n) == rb.merkle_root(g, n)
    sa.close()
    sb.close()


@pytest.fixture
def target(db_url, tmp_path):
    """Where to restore to: a new SQLite file, or a new schema of the PostgreSQL database."""
    if not db_url.startswith("postgresql"):
        yield str(tmp_path / "restored.db")
        return
    url, schema = fresh_schema_url()
    yield url
    drop_schema(schema)


def test_a_backup_restores_the_same_store_and_never_over_one_without_force(db_url, target, tmp_path):
    where, key = tmp_path / "backups", str(tmp_path / "signing.key")
    assert run("--db", db_url, "demo").exit_code == 0
    made = run("--db", db_url, "backup", "--dir", str(where), "--keep", "2", "--key", key)
    assert made.exit_code == 0 and "it verifies and replays" in made.output, made.output
    [backup], _ = backups.listed(where)
    assert backup.facts["kind"] == ("postgresql" if db_url.startswith("postgresql") else "sqlite")
    assert backup.name.endswith(".rows.gz" if db_url.startswith("postgresql") else ".db")
    assert oct(backup.file.stat().st_mode & 0o777) == "0o600"  # it holds token hashes: the owner's alone
    restored = run("restore", str(where), "--to", target, "--key", key)
    assert restored.exit_code == 0 and "it verifies and replays" in restored.output, restored.output
    _same_store(db_url, target)
    assert run("--db", target, "verify").exit_code == 0 and run("--db", target, "replay").exit_code == 0
    # a store that is not empty is not replaced without --force, and is with it
    again = run("restore", str(backup.file), "--to", target, "--key", key)
    assert again.exit_code == 2 and "is not empty" in again.output and "--force" in again.output
    assert run("--db", target, "demo").exit_code == 0  # the target moves on: now it differs from the backup
    forced = run("restore", str(backup.file), "--to", target, "--force", "--key", key)
    assert forced.exit_code == 0, forced.output
    _same_store(db_url, target)


def test_restore_says_what_it_cannot_do(tmp_path):
    db = str(tmp_path / "club.db")
    demo_store(db)
    copy = tmp_path / "plain-copy.db"
    copy.write_bytes(Path(db).read_bytes())
    said = run("restore", str(copy), "--to", str(tmp_path / "x.db"), "--key", db + ".key")
    assert said.exit_code == 2 and "has no manifest" in said.output
    assert run("--db", db, "backup", str(tmp_path / "one.db")).exit_code == 0  # a file of its own, manifest beside
    assert (tmp_path / "one.db.json").exists()
    said = run("restore", str(tmp_path / "one.db"), "--to", "postgresql://nobody@127.0.0.1:1/none", "--key",
              db + ".key")
    assert said.exit_code == 2 and "is an SQLite copy" in said.output
    said = run("restore", str(tmp_path), "--to", str(tmp_path / "y.db"), "--key", db + ".key")  # no bitka backups
    assert said.exit_code == 1 and "there is no good backup" in said.output
    assert run("--db", db, "backup", "--dir", str(tmp_path / "b"), "--every", "soon").exit_code == 2
    assert run("--db", db, "backup", str(tmp_path / "two.db"), "--every", "1h").exit_code == 2


def _signed_in_admin(client, token: str) -> None:
    page = client.get("/").get_data(as_text=True)
    form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1), "token": token}
    assert client.post("/signin", data=form).status_code == 303


def _page_sentences(app, group: str, token: str) -> str:
    client = app.test_client()
    _signed_in_admin(client, token)
    page = client.get(f"/g/{group}")
    assert page.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))).split())


@pytest.mark.parametrize("made_ago, fresh", [(1800, True), (3 * HOUR, False)])
def test_the_admins_page_says_when_the_last_good_backup_was_made_and_warns_when_it_is_old(tmp_path, made_ago, fresh):
    from service.app import create_app
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    app = create_app({"BITKA_DB": db, "BITKA_KEY": db + ".key", "TESTING": True,
                      "BITKA_BACKUP_DIR": str(where), "BITKA_BACKUP_EVERY": HOUR})
    http = app.test_client()
    g = http.post("/v1/groups", json={"name": "Czwartek", "currency": "PLN"}).json
    member = http.post(f"/v1/groups/{g['id']}/members", json={"name": "Ala"},
                       headers={"Authorization": f"Bearer {g['admin_token']}"}).json
    into_directory(db, where, 48, time.time() - made_ago)
    said = _page_sentences(app, g["id"], g["admin_token"])
    age = "30 minutes" if fresh else "3 hours"
    assert "The last good backup of this server was made" in said and f"{age} ago." in said
    warning = ("Warning: there has been no good backup for more than twice the backup interval (1 hour): backups may "
               "have stopped. Tell whoever runs this server.")
    assert (warning in said) is not fresh
    assert "The last good backup" not in _page_sentences(app, g["id"], member["token"])  # the admin's alone
    app.extensions["bitka.store"].close()


def test_the_admins_page_says_a_backup_is_damaged_and_when_none_is_configured(tmp_path):
    from service.app import create_app
    now = time.time()
    db, where, newest, _older = _two_backups_the_newest_damaged(tmp_path, now)
    for config, expected in [({"BITKA_BACKUP_DIR": str(where), "BITKA_BACKUP_EVERY": HOUR},
                              f"Warning: the backup {newest.name} does not count: it no longer matches its "
                              "manifest, or its manifest is not signed with this server's key, or it is dated in the "
                              "future. bitka restore names which."),
                             ({}, "This server is not set to make backups on a schedule.")]:
        app = create_app({"BITKA_DB": db, "BITKA_KEY": db + ".key", "TESTING": True, **config})
        http = app.test_client()
        g = http.post("/v1/groups", json={"name": "Piątek", "currency": "EUR"}).json
        said = _page_sentences(app, g["id"], g["admin_token"])
        assert expected in said
        app.extensions["bitka.store"].close()
