"""The schema as numbered migrations: old stores are brought up to date, servers starting
together migrate once, and a store from a newer bitka is left alone."""
import sqlite3

import pytest

from events import migrations
from events.store import NewEvent
from events.database import Store, open_store
from events.verify import faults
from projections import kept
from projections.projector import project
from service import handlers
from service.commands import AddMember, Confirm, CreateGroup, NewHand, OpenTable
from tests.command import run
from tests.concurrency import failures_in_threads

LEGACY_SCHEMA = [s.replace("IF NOT EXISTS ", "") for s in migrations.SQLITE[0].statements]


def _applied(store):
    with store.reading() as r:
        return [v for (v,) in r.conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def test_a_store_from_before_versioning_is_migrated_and_keeps_its_log(tmp_path):
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    for statement in LEGACY_SCHEMA:  # as bitka created stores before migrations were numbered
        conn.execute(statement)
    conn.commit()
    conn.close()
    old = Store(db)
    with old.writing() as w:
        w.append("g1", [NewEvent("group_created", {"name": "G", "currency": "PLN"}),
                        NewEvent("deal", {"dealer": 0}, hand="h1", table="t1")], "admin")
    store = Store(db).setup()
    assert _applied(store) == [m.version for m in migrations.SQLITE]
    with store.reading() as r:
        indexes = {n for (n,) in r.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "deals_by_table" in indexes and "events_by_table" not in indexes
        assert [e.seq for e in r.scan()] == [1, 2] and list(faults(r.scan_raw())) == []
        assert r.table_hands("g1", "t1") == ["h1"] and r.missing_triggers() == []
    assert _applied(Store(db).setup()) == [m.version for m in migrations.SQLITE]  # again: nothing more to do


def test_servers_starting_together_migrate_a_new_database_once(pg_url):
    assert failures_in_threads(lambda: open_store(pg_url).setup(), 4) == []
    assert _applied(open_store(pg_url)) == [m.version for m in migrations.POSTGRES]


def test_a_store_migrated_by_a_newer_bitka_is_refused(db_url):
    store = open_store(db_url).setup()
    with store.writing() as w:
        w.conn.execute("INSERT INTO schema_migrations (version, what, applied_at) VALUES (?, ?, ?)",
                       (99, "from the future", "2030-01-01T00:00:00Z"))
    with pytest.raises(migrations.SchemaTooNew, match="version 99, newer than this bitka knows"):
        open_store(db_url).setup()


def test_migrations_are_numbered_from_one_without_gaps():
    for backend in (migrations.SQLITE, migrations.POSTGRES):
        assert [m.version for m in backend] == list(range(1, len(backend) + 1))


def test_the_store_url_picks_the_backend(tmp_path):
    from events.errors import Invalid
    from events.pgstore import PostgresStore
    from events.database import SQLiteStore, sqlite_path
    assert sqlite_path("club.db") == "club.db"
    assert sqlite_path("sqlite:///club.db") == "club.db"
    assert sqlite_path("sqlite:////srv/bitka/club.db") == "/srv/bitka/club.db"
    for bad in ("sqlite://club.db", "sqlite:///", "mysql://u@h/db"):
        with pytest.raises(Invalid):
            sqlite_path(bad)
    assert isinstance(open_store(f"sqlite:///{tmp_path}/a.db"), SQLiteStore)
    assert isinstance(open_store("postgresql://u@h/db"), PostgresStore)  # nothing connects until it is used
    assert isinstance(open_store("postgres://u@h/db"), PostgresStore)


def test_the_signing_key_defaults_beside_an_sqlite_store_and_to_bitka_key_for_a_database():
    from events.checkpoint import default_key_path
    assert default_key_path("club.db") == "club.db.key"
    assert default_key_path("sqlite:////srv/club.db") == "/srv/club.db.key"
    assert default_key_path("postgresql://bitka@db/bitka") == "bitka.key"


LOST = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}  # seats 0 and 2 pay


def _group_with_results_waiting(store, results: int) -> tuple[str, list[str]]:
    with store.writing() as w:
        group = handlers.handle(CreateGroup("Czwartek", "PLN"), w).id
        members = [handlers.handle(AddMember(group, "admin", n), w).id for n in ("Ala", "Bolek", "Cyla", "Dyzio")]
        table = handlers.handle(OpenTable(group, "admin", {"game": "kop", "seats": members, "stake": "1.00"}), w)
        for _ in range(results):  # Ala logs each: Cyla pays too, and has to agree
            handlers.handle(NewHand(group, members[0], table["id"], {"result": LOST}), w)
    return group, members


@pytest.mark.parametrize("named_seq", [True, False], ids=["entries-with-seq", "entries-before-seq"])
def test_a_store_whose_balances_row_kept_what_waits_is_carried_over_to_rows_of_their_own(db_url, named_seq):
    """Before schema 5 (PostgreSQL 4), the settlements that wait lived inside the group's
    balances row. A store written so is carried over on its next start: each in its own row,
    the balances row without them, and replay and verify find nothing to say."""
    store = open_store(db_url, projector=project).setup()
    group, members = _group_with_results_waiting(store, 3)
    with store.writing() as w:  # the store as the older bitka left it
        waiting = dict(w.pending_entries(group))
        row = w.row("balances", group, "")
        kept = waiting if named_seq else {h: {k: v for k, v in e.items() if k != "seq"} for h, e in waiting.items()}
        w.put_row("balances", group, "", {**row, "pending": kept})
        w.conn.execute("DROP TABLE pending_settlements")
        known = migrations.POSTGRES if store.backend.name == "postgresql" else migrations.SQLITE
        since = next(m.version for m in known if m.carry is migrations.pending_out_of_balances)
        w.conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (since,))
    store.close()
    assert len(waiting) == 3 and all(e["state"] == "pending" for e in waiting.values())
    again = open_store(db_url, projector=project).setup()
    with again.reading() as r:
        assert dict(r.pending_entries(group)) == waiting
        carried = r.row("balances", group, "")
        assert "pending" not in carried and carried["members"] == row["members"]
    again.close()
    for command in ("replay", "verify"):
        result = run("--db", db_url, command)
        assert result.exit_code == 0 and "differ" not in result.output, result.output
    after = open_store(db_url, projector=project).setup()  # and a payer's word still moves it
    hand = next(iter(waiting))
    with after.writing() as w:
        handlers.handle(Confirm(group, members[2], hand), w)
        assert w.pending_entry(group, hand) is None
    after.close()


def test_a_store_from_before_the_kept_rows_of_a_big_group_gets_them_built_from_its_log(db_url):
    """Before schema 6 (PostgreSQL 5) nothing kept the balances' last moves or the kinds of
    table: a store written so gets both on its next start, built from its log by the
    projections' own folds (projections/kept.py), the same rows its appends would have made."""
    store = open_store(db_url, projector=project).setup()
    group, members = _group_with_results_waiting(store, 2)
    with store.writing() as w:  # one result counts: the balances moved
        handlers.handle(Confirm(group, members[2], next(iter(dict(w.pending_entries(group))))), w)
    with store.writing() as w:  # the store as the older bitka left it
        made = {name: w.rows(name, group) for name in ("balance_steps", "table_kind")}
        for name in made:
            w.conn.execute("DELETE FROM projection_rows WHERE name = ?", (name,))
        known = migrations.POSTGRES if store.backend.name == "postgresql" else migrations.SQLITE
        since = next(m.version for m in known if m.rebuilt)
        w.conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (since,))
    store.close()
    assert all(made.values())
    again = open_store(db_url, projector=project).setup(kept.rebuild)
    with again.reading() as r:
        assert {name: r.rows(name, group) for name in made} == made
    again.close()
    result = run("--db", db_url, "replay")
    assert result.exit_code == 0 and "differ" not in result.output, result.output
