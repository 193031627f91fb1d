"""The store's contract: what every backend's store must do (the chain, the triggers,
transactions, concurrency, scans), written once as ``StoreContract`` and run by each
backend's subclass, as the eventsourcing library's recorder test cases are; then what
only one backend has (SQLite's WAL and VM steps, PostgreSQL's TRUNCATE trigger)."""
import hashlib
import json
import sqlite3

import pytest

from events.canonical import GENESIS
from events.errors import Unprocessable
from events.store import NewEvent
from events.verify import faults
from tests.backends import BACKENDS, drop_trigger, raw_errors, run_raw
from tests.concurrency import failures_in_threads


def _append(store, group, n=1, kind="member_added"):
    with store.writing() as w:
        return w.append(group, [NewEvent(kind, {"member": f"m{i}", "name": f"n{i}"}) for i in range(n)], "admin")


def _group(store, group="g1"):
    with store.writing() as w:
        w.append(group, [NewEvent("group_created", {"name": "G", "currency": "PLN"})], "admin")


class StoreContract:
    """The store's contract. A backend's test class subclasses it and gives ``store``: a new,
    set-up, empty store of that backend."""

    @pytest.fixture
    def store(self):
        raise NotImplementedError("a backend's test class gives its own store")

    def test_seq_starts_at_one_per_group_and_has_no_gaps(self, store):
        _group(store, "g1")
        _group(store, "g2")
        _append(store, "g1", 3)
        _append(store, "g2", 1)
        with store.reading() as r:
            assert [e.seq for e in r.events("g1")] == [1, 2, 3, 4]
            assert [e.seq for e in r.events("g2")] == [1, 2]
            assert sorted(e.position for e in r.scan()) == [1, 2, 3, 4, 5, 6]  # global order of appends

    def test_hash_is_sha256_of_the_canonical_envelope_with_the_group(self, store):
        _group(store)
        _append(store, "g1", 2)
        with store.reading() as r:
            events = r.events("g1")
        prev = GENESIS
        for e in events:
            env = {"seq": e.seq, "type": e.type, "data": e.data, "actor": e.actor, "recorded_at": e.recorded_at,
                   "prev_hash": prev, "group": "g1"}
            raw = json.dumps(env, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            assert e.prev_hash == prev and e.hash == hashlib.sha256(raw).hexdigest()
            prev = e.hash

    def test_non_ascii_data_is_hashed_as_utf8_not_escaped(self, store):
        with store.writing() as w:
            [e] = w.append("g1", [NewEvent("group_created", {"name": "Łódź ♣", "currency": "PLN"})], "admin")
        view = {k: v for k, v in e.public().items() if k != "hash"} | {"group": "g1"}
        raw = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        assert "Łódź ♣".encode() in raw and hashlib.sha256(raw).hexdigest() == e.hash

    @pytest.mark.parametrize("sql", ["UPDATE events SET data = '{}' WHERE seq = 1", "DELETE FROM events WHERE seq = 1"])
    def test_the_store_refuses_update_and_delete_of_events(self, store, sql):
        _group(store)
        with pytest.raises(raw_errors(), match="append-only"):
            run_raw(store, sql)
        with store.reading() as r:
            assert r.version("g1") == 1 and r.missing_triggers() == []

    def test_a_failed_write_leaves_events_projections_and_keys_as_they_were(self, store):
        _group(store)
        with store.reading() as r:
            before = (list(r.scan()), r.rows("group"))
        with pytest.raises(Unprocessable), store.writing() as w:
            w.append("g1", [NewEvent("member_added", {"member": "m1", "name": "a"})], "admin")
            w.remember("g1", "key", "fp", 201, {})
            raise Unprocessable("the decider said no after the append")
        with store.reading() as r:
            assert (list(r.scan()), r.rows("group")) == before
            assert r.remembered("g1", "key") is None

    def test_an_event_with_an_integer_beyond_64_bits_is_refused_and_nothing_is_written(self, store):
        _group(store)
        with store.reading() as r:
            before = list(r.scan())
        with pytest.raises(Unprocessable, match="64 bits"), store.writing() as w:
            w.append("g1", [NewEvent("member_added", {"member": "m1", "name": "a"}),
                            NewEvent("member_added", {"member": "m2", "name": "b", "n": 10 ** 30})], "admin")
        with store.reading() as r:
            assert list(r.scan()) == before

    def test_a_read_sees_one_snapshot_from_its_first_statement_to_its_end(self, store):
        _group(store)
        with store.reading() as r:
            assert r.version("g1") == 1
            _append(store, "g1")  # committed while the read is open
            assert r.version("g1") == 1 and [e.seq for e in r.scan("g1")] == [1]
        with store.reading() as r:
            assert r.version("g1") == 2

    def test_projection_rows_are_written_in_the_append_transaction(self, store):
        _group(store)
        _append(store, "g1", 2)
        with store.reading() as r:
            row = r.row("group", "g1", "")
        assert [m["id"] for m in row["members"]] == ["m0", "m1"]

    def test_concurrent_writers_never_fork_or_skip_a_seq(self, store):
        _group(store)

        def writer():
            for _ in range(15):
                _append(store, "g1")
        assert failures_in_threads(writer, 4) == []
        with store.reading() as r:
            events = list(r.scan("g1"))
            assert [e.seq for e in events] == list(range(1, 62))
            assert list(faults(r.scan_raw("g1"))) == []
            assert len(r.row("group", "g1", "")["members"]) == 60

    def test_verify_names_the_first_bad_seq_of_each_group(self, store):
        _group(store, "g1")
        _group(store, "g2")
        _append(store, "g1", 4)
        _append(store, "g2", 2)
        run_raw(store, drop_trigger(store, "events_refuse_update"),
                "UPDATE events SET data = replace(data, '\"n1\"', '\"Mallory\"') WHERE group_id = 'g1' AND seq = 3",
                "UPDATE events SET prev_hash = hash WHERE group_id = 'g2' AND seq = 2")
        with store.reading() as r:
            found = list(faults(r.scan_raw()))
            assert r.missing_triggers() == ["events_refuse_update"]
        assert [(f.group, f.seq) for f in found] == [("g1", 3), ("g2", 2)]
        assert "contents do not match" in found[0].reason and "prev_hash" in found[1].reason

    def test_verify_finds_a_missing_seq(self, store):
        _group(store)
        _append(store, "g1", 3)
        run_raw(store, drop_trigger(store, "events_refuse_delete"), "DELETE FROM events WHERE seq = 2")
        with store.reading() as r:
            [fault] = faults(r.scan_raw())
        assert fault.seq == 2 and "missing" in fault.reason

    def test_a_bare_scan_gives_what_the_folds_read_and_leaves_out_the_rest(self, store):
        _group(store)
        _append(store, "g1", 3)
        with store.reading() as r:
            full, bare = list(r.scan("g1")), list(r.scan("g1", bare=True))
        kept = ("group", "seq", "type", "hand", "table", "data", "actor", "recorded_at")
        assert [[getattr(e, k) for k in kept] for e in bare] == [[getattr(e, k) for k in kept] for e in full]
        assert {(e.position, e.prev_hash, e.hash) for e in bare} == {(0, "", "")}


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path):
        from events.database import open_store
        from projections.projector import project
        made = open_store(str(tmp_path / "bitka.db"), projector=project).setup()
        yield made
        made.close()

    def test_the_sqlite_store_runs_in_wal_mode(self, tmp_path):
        from events.database import Store
        store = Store(tmp_path / "wal.db").setup()
        conn = sqlite3.connect(store.path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.close()

    def test_the_reads_of_a_request_cost_the_same_however_long_the_log_grows(self, tmp_path):
        """Flat cost: loading a hand, a table's hands or a group's head must not read the
        group's whole log. Counted in SQLite's own VM steps, the same in a group of 9 events
        as in one where 2,000 more were logged at other tables."""
        from events.database import Store
        store = Store(tmp_path / "plain.db").setup()  # no projector: the events alone
        _group(store)

        def hand(name, table):
            return [NewEvent("deal", {"dealer": 0}, hand=name, table=table),
                    *(NewEvent("trick", {"cards": []}, hand=name, table=table) for _ in range(3))]

        def steps() -> list[int]:
            counts = []

            def step():
                counts[-1] += 1
            with store.reading() as r:
                for read in (lambda: r.hand_events("g1", "h1"), lambda: r.table_hands("g1", "t1"),
                             lambda: r.head("g1")):
                    counts.append(0)
                    r.conn.set_progress_handler(step, 1)
                    read()
                    r.conn.set_progress_handler(None, 1)
            return counts

        with store.writing() as w:
            w.append("g1", hand("h1", "t1") + hand("h2", "t1"), "admin")
        small = steps()
        with store.writing() as w:
            for i in range(500):
                w.append("g1", hand(f"x{i}", f"t{2 + i % 7}"), "admin")
        grown = steps()  # a B-tree a level deeper may take a few steps more; a scan would take thousands
        assert all(after <= before + 10 for before, after in zip(small, grown, strict=True)), (small, grown)


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self, request):
        if "postgresql" not in BACKENDS:
            pytest.skip("BITKA_TEST_BACKENDS leaves PostgreSQL out")
        pg_url = request.getfixturevalue("pg_url")
        from events.database import open_store
        from projections.projector import project
        made = open_store(pg_url, projector=project).setup()
        yield made
        made.close()

    def test_postgresql_refuses_truncating_the_events_too(self, store):
        _group(store)
        with pytest.raises(raw_errors(), match="append-only: TRUNCATE refused"):
            run_raw(store, "TRUNCATE events")
        with store.reading() as r:
            assert r.version("g1") == 1
