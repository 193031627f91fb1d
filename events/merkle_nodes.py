"""Each group's Merkle tree (RFC 9162) as stored perfect-subtree hashes: a root or a proof
costs a few dozen lookups however long the log is."""
from __future__ import annotations

from . import merkle
from .envelope import RawEvent


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

