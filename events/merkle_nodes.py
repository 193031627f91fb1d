"""Each group's Merkle tree (RFC 9162) as stored perfect-subtree hashes: a root or a proof
costs a few dozen lookups however long the log is."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Iterable

from . import merkle
from .envelope import RawEvent

NodeKey = tuple[str, int, int]  # (group, level, index)


class CommittedNodes:
    """The Merkle nodes a process has seen committed, kept across its units of work, so that
    a write or a proof looks up in the database only the nodes it has not met before.

    A committed node never goes stale: it hashes leaves, and a committed event never
    changes. A node enters only from a committed snapshot (a read) or from a write once its
    transaction is durably committed: a node of a write that was rolled back would stand for
    events that are not in the log. The least recently used go first beyond ``most``."""

    def __init__(self, most: int = 8_192):  # about 1.5 MB; a group in play needs a few dozen
        self.most = most
        self._nodes: OrderedDict[NodeKey, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: NodeKey) -> bytes | None:
        with self._lock:
            found = self._nodes.get(key)
            if found is not None:
                self._nodes.move_to_end(key)
            return found

    def keep(self, nodes: Iterable[tuple[NodeKey, bytes]]) -> None:
        with self._lock:
            for key, h in nodes:
                self._nodes[key] = h
                self._nodes.move_to_end(key)
            while len(self._nodes) > self.most:
                self._nodes.popitem(last=False)

    def __len__(self) -> int:
        return len(self._nodes)


class MerkleReads:
    committed: CommittedNodes | None = None  # the store's, when its process keeps them

    def known_nodes(self, group: str) -> dict[tuple[int, int], bytes]:
        """Where the nodes read are kept: for this read alone (a Writer keeps them longer)."""
        return {}

    def read_node(self, key: NodeKey, h: bytes) -> None:
        """A node just read from the database: a read's snapshot holds only committed ones."""
        if self.committed is not None:
            self.committed.keep(((key, h),))

    def merkle_root(self, group: str, size: int) -> bytes:
        """The root of the group's Merkle tree at ``size`` events, from the stored nodes."""
        return merkle.root(self.merkle_nodes(group), size)

    def merkle_nodes(self, group: str):
        """The stored perfect subtree hashes of a group's Merkle tree, as events.merkle wants them.
        A node once stored never changes, so a writer keeps those it read or made."""
        seen, committed = self.known_nodes(group), self.committed

        def node(level: int, index: int) -> bytes:
            h = seen.get((level, index))
            if h is None and committed is not None:
                h = committed.get((group, level, index))
            if h is None:
                found = self.conn.execute("SELECT hash FROM merkle_nodes WHERE group_id = ? AND level = ? AND idx = ?",
                                          (group, level, index)).fetchone()
                if found is None:
                    raise LookupError(f"group {group} has no Merkle node ({level}, {index}); "
                                      "run bitka replay --rebuild")
                h = found[0]
                self.read_node((group, level, index), h)
            seen[(level, index)] = h
            return h
        return node



class MerkleWrites:
    def add_merkle_leaf(self, group: str, seq: int, canonical: bytes) -> None:
        """The event's leaf, and every parent it completes, into the stored tree."""
        made = merkle.parents_completed(seq - 1, merkle.leaf_hash(canonical), self.merkle_nodes(group))
        self.known_nodes(group).update(((level, index), h) for level, index, h in made)
        self.backend.executemany(
            self.conn, "INSERT INTO merkle_nodes (group_id, level, idx, hash) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (group_id, level, idx) DO UPDATE SET hash = excluded.hash",
            [(group, level, index, h) for level, index, h in made])

    def rebuild_merkle(self, group: str | None = None) -> None:
        """Every stored Merkle node made again from the events (a store from before them)."""
        if group is None:
            self.conn.execute("DELETE FROM merkle_nodes")
            self.nodes.clear()
        else:
            self.conn.execute("DELETE FROM merkle_nodes WHERE group_id = ?", (group,))
            self.nodes.pop(group, None)
        for row in self.scan_raw(group):
            self.add_merkle_leaf(row[0], row[1], RawEvent._make(row).canonical())

