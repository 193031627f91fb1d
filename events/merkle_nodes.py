"""Each group's Merkle tree (RFC 9162) as stored perfect-subtree hashes: a root or a proof
costs a few dozen lookups however long the log is."""
from __future__ import annotations

import threading
from collections import OrderedDict

from . import merkle
from .envelope import RawEvent

Nodes = dict[tuple[int, int], bytes]  # (level, index) -> hash


def frontier(size: int) -> list[tuple[int, int]]:
    """The perfect subtrees a tree of ``size`` leaves splits into, largest first: all that
    its root and its next leaf's parents need."""
    keys, start = [], 0
    for level in reversed(range(size.bit_length())):
        if size >> level & 1:
            keys.append((level, start >> level))
            start += 1 << level
    return keys


class CommittedNodes:
    """For each group a process has written to lately, the frontier of its Merkle tree as the
    last committed write of this process left it, with the seq and hash of that write's last
    event, so that the next write reads none of them from the database.

    A write uses them only while the log still holds that hash at that seq: the hash chains
    every event before it, so the same hash there means the same log up to it, and the same
    nodes. A log rewritten behind the process's back leaves another hash there, and its nodes
    are read from the database again, so the checkpoints the server signs are always those
    of the log as it is, and members' witnesses see the rewrite. Only a durably committed
    write's nodes are kept. The groups least recently written go first beyond ``most``."""

    def __init__(self, most: int = 2048):
        self.most = most
        self._groups: OrderedDict[str, tuple[int, str, Nodes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, group: str) -> tuple[int, str, Nodes] | None:
        with self._lock:
            return self._groups.get(group)

    def keep(self, group: str, seq: int, digest: str, nodes: Nodes) -> None:
        """The frontier at ``seq`` out of ``nodes`` (the ones a write read or made)."""
        edge = {key: nodes[key] for key in frontier(seq) if key in nodes}
        with self._lock:
            kept = self._groups.get(group)
            if kept is not None and kept[0] > seq:  # a later write of the same batch got here first
                return
            self._groups[group] = (seq, digest, edge)
            self._groups.move_to_end(group)
            while len(self._groups) > self.most:
                self._groups.popitem(last=False)

    def __len__(self) -> int:
        return len(self._groups)


class MerkleReads:
    def known_nodes(self, group: str) -> dict[tuple[int, int], bytes]:
        """Where the nodes read are kept: for this read alone (a Writer keeps them longer)."""
        return {}

    def merkle_root(self, group: str, size: int) -> bytes:
        """The root of the group's Merkle tree at ``size`` events, from the stored nodes."""
        return merkle.root(self.merkle_nodes(group), size)

    def merkle_nodes(self, group: str):
        """The stored perfect subtree hashes of a group's Merkle tree, as events.merkle wants them.
        A node once stored never changes, so a writer keeps those it read or made."""
        seen = self.known_nodes(group)

        def node(level: int, index: int) -> bytes:
            if (level, index) not in seen:
                found = self.conn.execute("SELECT hash FROM merkle_nodes WHERE group_id = ? AND level = ? AND idx = ?",
                                          (group, level, index)).fetchone()
                if found is None:
                    raise LookupError(f"group {group} has no Merkle node ({level}, {index}); "
                                      "run bitka replay --rebuild")
                seen[(level, index)] = found[0]
            return seen[(level, index)]
        return node



KEPT_NODES = 4096  # a writer's nodes of one group beyond this shrink to the tree's frontier


class MerkleWrites:
    def add_merkle_leaf(self, group: str, seq: int, canonical: bytes) -> None:
        """The event's leaf, and every parent it completes, into the stored tree. A write
        keeps the nodes it reads or makes, but only the frontier is ever needed again to
        append: past ``KEPT_NODES`` the others are let go, so a write of a million events
        (an import) holds a few dozen, not two million."""
        made = merkle.parents_completed(seq - 1, merkle.leaf_hash(canonical), self.merkle_nodes(group))
        known = self.known_nodes(group)
        known.update(((level, index), h) for level, index, h in made)
        if len(known) > KEPT_NODES:
            edge = {key: known[key] for key in frontier(seq) if key in known}
            known.clear()
            known.update(edge)
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

