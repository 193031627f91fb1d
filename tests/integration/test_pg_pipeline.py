"""PostgreSQL writes to one group run in psycopg's pipeline mode (events/pgstore.py
``pipelined``): a statement's error arrives at a later read, and the connection goes back to
the pool afterwards. These check what that must not change: a held group is still a 409, a
refused write leaves nothing and its connection serves the next write, a write can still
scan its group, and what a write counts is read back rather than taken from a rowcount
that a pipeline does not know yet."""
from __future__ import annotations

import pytest

from events.database import open_store
from events.errors import Contention, Unprocessable
from events.store import NewEvent

GROUP = "g_pipelined"


@pytest.fixture
def store(pg_url):
    s = open_store(pg_url, busy_timeout_ms=300).setup()
    with s.writing(GROUP) as w:
        w.append(GROUP, [NewEvent("note", {"said": "first"})], "tester")
    yield s
    s.close()


def _said(store) -> list[str]:
    with store.reading() as r:
        return [e.data["said"] for e in r.scan(GROUP)]


def test_a_group_held_by_another_write_is_a_409_though_the_lock_is_answered_late(store, pg_url):
    import psycopg
    holder = psycopg.connect(pg_url, autocommit=True)
    try:
        holder.execute("BEGIN")
        holder.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || %s::text, 0))",
                       (GROUP,))
        with pytest.raises(Contention, match="may simply be sent again"):
            with store.writing(GROUP) as w:
                w.append(GROUP, [NewEvent("note", {"said": "blocked"})], "tester")
    finally:
        holder.close()
    assert _said(store) == ["first"]
    with store.writing(GROUP) as w:  # once the holder is gone, the same store writes again
        w.append(GROUP, [NewEvent("note", {"said": "after"})], "tester")
    assert _said(store) == ["first", "after"]


def test_a_write_refused_after_its_append_leaves_nothing_and_its_connection_serves_the_next(store):
    for _ in range(3):  # the pool keeps a few connections: each is used after a refusal
        with pytest.raises(Unprocessable), store.writing(GROUP) as w:
            w.append(GROUP, [NewEvent("note", {"said": "refused"})], "tester")
            w.put_row("note", GROUP, "", {"n": 1})
            raise Unprocessable("the decider said no after the append")
    with store.writing(GROUP) as w:
        w.append(GROUP, [NewEvent("note", {"said": "second"})], "tester")
    assert _said(store) == ["first", "second"]
    with store.reading() as r:
        assert r.row("note", GROUP, "") is None and r.version(GROUP) == 2


def test_a_pipelined_write_can_scan_its_group(store):
    with store.writing(GROUP) as w:
        w.append(GROUP, [NewEvent("note", {"said": "second"})], "tester")
        assert [row[1] for row in w.scan_raw(GROUP)] == [1, 2]


def test_a_write_about_one_group_is_pipelined_and_a_command_line_write_is_not(store):
    from psycopg import pq
    with store.writing(GROUP) as w:
        assert w.conn.raw.pgconn.pipeline_status != pq.PipelineStatus.OFF
    with store.writing() as w:
        assert w.conn.raw.pgconn.pipeline_status == pq.PipelineStatus.OFF


def test_what_a_pipelined_write_counts_is_read_back_not_taken_from_a_rowcount(store):
    with store.writing(GROUP) as w:
        w.add_invitation("code-hash", GROUP, "m_1", None)
        w.add_credential("token-hash", GROUP, "m_1")
    with store.writing(GROUP) as w:
        assert w.use_invitation("code-hash", "2026-12-01T12:00:00Z") is True
    with store.writing(GROUP) as w:
        assert w.use_invitation("code-hash", "2026-12-01T12:00:01Z") is False  # used once already
        assert w.drop_credentials(GROUP, "m_1") == 1
        assert w.drop_invitations(GROUP, "m_1") == 1


def test_a_reads_snapshot_begins_with_its_first_statement_and_still_holds_for_the_whole_read(store):
    """A read's BEGIN goes out with its first statement (one round trip fewer): nothing is
    sent before it, a write committed between the read's statements is still not seen, and a
    read that asked nothing hands back an idle connection, whose next write is no snapshot."""
    from psycopg.pq import TransactionStatus
    with store.reading() as r:
        assert r.conn.raw.info.transaction_status == TransactionStatus.IDLE  # nothing sent yet
        assert r.version(GROUP) == 1
        assert r.conn.raw.execute("SHOW transaction_isolation").fetchone()[0] == "repeatable read"
        with store.writing(GROUP) as w:  # another connection: the pool's one is taken by the read
            w.append(GROUP, [NewEvent("note", {"said": "meanwhile"})], "tester")
        assert r.version(GROUP) == 1 and [e.data["said"] for e in r.scan(GROUP)] == ["first"]
    with store.reading():
        pass  # asked nothing: no BEGIN waits on its connection
    with store.writing(GROUP) as w:
        assert w.conn.raw.execute("SHOW transaction_isolation").fetchone()[0] == "read committed"
        assert w.version(GROUP) == 2
