"""The Merkle frontier a process keeps between its writes (events/merkle_nodes.py
CommittedNodes) is used only while the log still ends as that write left it: a write that
was rolled back leaves nothing behind, and a log rewritten behind the process's back is
read again, so every root a write takes is the root of the log as it is."""
from __future__ import annotations

import pytest

from events import merkle, merkle_nodes
from events.database import open_store
from events.envelope import RawEvent
from events.merkle_nodes import CommittedNodes, frontier
from events.store import NewEvent
from tests.backends import run_raw
from tests.tampering import rewrite_log


class Refused(Exception):
    pass


def _log_root(url: str, group: str, size: int) -> bytes:
    """The root from the stored events alone, by a process that keeps nothing."""
    fresh = open_store(url)
    try:
        with fresh.reading() as r:
            leaves = [merkle.leaf_hash(RawEvent._make(row).canonical()) for row in r.scan_raw(group, 1, size)]
    finally:
        fresh.close()
    return merkle.root(merkle.Leaves(leaves), size)


@pytest.fixture
def two_processes(db_url):
    """Two stores on one database, each with what its own process would keep."""
    first, second = open_store(db_url).setup(), open_store(db_url)
    yield first, second
    first.close()
    second.close()


def _append(store, group, *said) -> bytes:
    """Append notes and return the root the write itself takes, as the service's writes do."""
    with store.writing(group) as w:
        w.append(group, [NewEvent("note", {"said": s}) for s in said], "tester")
        return w.merkle_root(group, w.version(group))


def test_a_rolled_back_write_leaves_nothing_for_the_next_write(db_url, two_processes):
    first, second = two_processes
    group = "g_committed"
    _append(first, group, "one", "two", "three")
    with pytest.raises(Refused):
        with first.writing(group) as w:
            w.append(group, [NewEvent("note", {"said": "lost four"}), NewEvent("note", {"said": "lost five"})],
                     "tester")
            assert w.merkle_root(group, 5)  # its nodes made and read: none of them may outlive the rollback
            raise Refused
    _append(second, group, "four", "five")  # another process takes seqs 4 and 5
    assert _append(first, group, "six") == _log_root(db_url, group, 6)


def test_the_next_write_of_the_process_reads_no_node_it_kept(db_url, two_processes):
    first, _ = two_processes
    group = "g_kept"
    for n in range(9):
        assert _append(first, group, f"event {n}") == _log_root(db_url, group, n + 1)
    seq, _, nodes = first.committed_nodes.get(group)
    assert seq == 9 and set(nodes) == set(frontier(9)) == {(3, 0), (0, 8)}
    run_raw(first, "DELETE FROM merkle_nodes")  # a process that looked them up would fail now
    assert _append(first, group, "event 9") == _log_root(db_url, group, 10)


def test_a_log_rewritten_behind_the_process_is_read_again(tmp_path):
    db = str(tmp_path / "bitka.db")
    store = open_store(db).setup()
    group = "g_rewritten"
    try:
        for n in range(5):
            _append(store, group, f"event {n}")
        rewrite_log(db, lambda seq, data: {**data, "said": "forged"} if seq == 2 else data)
        assert _append(store, group, "event 5") == _log_root(db, group, 6)
    finally:
        store.close()


def test_the_kept_groups_are_bounded_and_the_least_recently_written_go_first():
    kept = CommittedNodes(most=2)
    for name in ("a", "b", "c"):
        kept.keep(name, 1, "h", {(0, 0): b"leaf"})
    assert kept.get("a") is None and len(kept) == 2
    kept.keep("b", 2, "h2", {(1, 0): b"node", (0, 0): b"leaf", (0, 1): b"leaf2"})
    assert kept.get("b") == (2, "h2", {(1, 0): b"node"})  # the frontier of 2 leaves only
    kept.keep("b", 1, "h", {(0, 0): b"leaf"})  # an earlier write of the same batch, finishing later
    assert kept.get("b")[0] == 2


def test_a_long_write_keeps_only_the_frontier_of_the_nodes_it_made_and_every_root_holds(db_url, monkeypatch):
    """An import is one write of every event: the nodes it makes are let go past a bound,
    all but the frontier an append needs, and the tree it leaves is the log's."""
    monkeypatch.setattr(merkle_nodes, "KEPT_NODES", 16)
    store = open_store(db_url).setup()
    with store.writing() as w:
        w.append("g1", [NewEvent("group_created", {"name": "G", "currency": "PLN"})], "admin")
        for n in range(200):
            w.append("g1", [NewEvent("member_added", {"member": f"m{n}", "name": f"M{n}"})], "admin")
        assert len(w.known_nodes("g1")) <= 16 + len(frontier(201))
        inside = w.merkle_root("g1", 201)
    assert inside == _log_root(db_url, "g1", 201)
    with store.reading() as r:
        assert r.merkle_root("g1", 201) == _log_root(db_url, "g1", 201)
        assert r.merkle_root("g1", 77) == _log_root(db_url, "g1", 77)  # an older tree, from the stored nodes
    store.close()
