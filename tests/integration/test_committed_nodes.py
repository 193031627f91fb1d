"""The Merkle nodes a process keeps between units of work (events/merkle_nodes.py
CommittedNodes) are only ever nodes of committed events: a write that was rolled back
leaves none behind, so a root taken after another process appended in its place is the
root of the log as it is."""
from __future__ import annotations

import pytest

from events import merkle
from events.database import open_store
from events.merkle_nodes import CommittedNodes
from events.envelope import RawEvent
from events.store import NewEvent


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


def _append(store, group, *names):
    with store.writing(group) as w:
        w.append(group, [NewEvent("note", {"said": n}) for n in names], "tester")


def test_a_rolled_back_write_leaves_no_node_for_a_later_root(db_url, two_processes):
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
    with first.reading() as r:
        assert r.merkle_root(group, 5) == _log_root(db_url, group, 5)
        assert r.merkle_root(group, 4) == _log_root(db_url, group, 4)


def test_a_committed_write_keeps_its_nodes_and_roots_agree_with_the_log(db_url, two_processes):
    first, _ = two_processes
    group = "g_kept"
    for n in range(9):
        _append(first, group, f"event {n}")
    assert len(first.committed_nodes) >= 9  # the leaves at least, kept between writes
    with first.reading() as r:
        for size in range(1, 10):
            assert r.merkle_root(group, size) == _log_root(db_url, group, size)


def test_the_kept_nodes_are_bounded_and_the_least_recently_used_go_first():
    kept = CommittedNodes(most=4)
    kept.keep(((("g", 0, i), bytes([i])) for i in range(6)))
    assert len(kept) == 4
    assert kept.get(("g", 0, 0)) is None and kept.get(("g", 0, 1)) is None
    assert kept.get(("g", 0, 2)) == bytes([2])  # used now, so it outlives 3 when one more comes
    kept.keep(((("g", 0, 6), b"\x06"),))
    assert kept.get(("g", 0, 3)) is None and kept.get(("g", 0, 2)) == bytes([2])
