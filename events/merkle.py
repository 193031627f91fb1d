"""The RFC 9162 Merkle tree over a group's events: roots, inclusion and consistency proofs.

Leaf i (the event of seq i + 1) is SHA-256(0x00 || its canonical bytes); a node is
SHA-256(0x01 || left || right); a tree of n leaves splits at the largest power of two
below n (RFC 9162 section 2.1). Everything here works through ``nodes(level, index)``: the
hash of the perfect subtree holding leaves [index * 2^level, (index + 1) * 2^level). The
store keeps those (each append adds its leaf and the parents it completes), so a root or a
proof at any size costs O(log n) lookups, never a pass over the log. ``Leaves`` computes
the same from a list of leaf hashes, for clients and tests.
"""
from __future__ import annotations

import hashlib
from typing import Callable, Sequence

Nodes = Callable[[int, int], bytes]  # (level, index) -> the perfect subtree's hash


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def subtree_root(nodes: Nodes, start: int, end: int) -> bytes:
    """MTH of leaves [start, end): perfect aligned subtrees come straight from ``nodes``."""
    n = end - start
    if n & (n - 1) == 0 and start % n == 0:
        return nodes(n.bit_length() - 1, start // n)
    k = split(n)
    return node_hash(subtree_root(nodes, start, start + k), subtree_root(nodes, start + k, end))


def root(nodes: Nodes, size: int) -> bytes:
    if size < 1:
        raise ValueError("a Merkle tree needs at least one leaf")
    return subtree_root(nodes, 0, size)


def inclusion_path(nodes: Nodes, index: int, size: int) -> list[bytes]:
    """PATH(index, D[0:size]) of RFC 9162 2.1.3.1, leaf first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path, start, end = [], 0, size
    while end - start > 1:
        k = split(end - start)
        if index < start + k:
            path.append(subtree_root(nodes, start + k, end))
            end = start + k
        else:
            path.append(subtree_root(nodes, start, start + k))
            start += k
    return path[::-1]


def consistency_path(nodes: Nodes, old: int, new: int) -> list[bytes]:
    """PROOF(old, D[0:new]) of RFC 9162 2.1.4.1."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from {old} to {new}")
    path: list[bytes] = []
    start, end, whole = 0, new, True
    while True:
        if old - start == end - start:  # m == n
            if not whole:
                path.append(subtree_root(nodes, start, end))
            return path[::-1]
        k = split(end - start)
        if old - start <= k:
            path.append(subtree_root(nodes, start + k, end))
            end = start + k
        else:
            path.append(subtree_root(nodes, start, start + k))
            start, whole = start + k, False


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def verify_consistency(old: int, new: int, old_root: bytes, new_root: bytes, path: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2."""
    if not 0 < old <= new:
        return False
    if old == new:
        return not path and old_root == new_root
    if not path:
        return False
    path = list(path)
    if old & (old - 1) == 0:  # old is a power of two: its root starts the walk
        path = [old_root, *path]
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


class Leaves:
    """``nodes`` over leaf hashes held in memory (a client's own copy of the log)."""

    def __init__(self, leaves: Sequence[bytes]):
        self.leaves = list(leaves)
        self.memo: dict[tuple[int, int], bytes] = {}

    def __call__(self, level: int, index: int) -> bytes:
        if level == 0:
            return self.leaves[index]
        key = (level, index)
        if key not in self.memo:
            self.memo[key] = node_hash(self(level - 1, 2 * index), self(level - 1, 2 * index + 1))
        return self.memo[key]


def parents_completed(index: int, leaf: bytes, nodes: Nodes) -> list[tuple[int, int, bytes]]:
    """The (level, index, hash) nodes that appending leaf ``index`` completes, itself first."""
    made = [(0, index, leaf)]
    level, i, h = 0, index, leaf
    while i & 1:
        h = node_hash(nodes(level, i - 1), h)
        level, i = level + 1, i >> 1
        made.append((level, i, h))
    return made


def streaming_root(leaves) -> tuple[bytes, int]:
    """The root of all the leaves an iterator yields, and how many there were, keeping only
    one hash per level (a log of any length is folded in constant memory)."""
    stack: list[tuple[int, bytes]] = []
    count = 0
    for leaf in leaves:
        count += 1
        level, h = 0, leaf
        while stack and stack[-1][0] == level:
            h = node_hash(stack.pop()[1], h)
            level += 1
        stack.append((level, h))
    if not stack:
        raise ValueError("a Merkle tree needs at least one leaf")
    r = stack[-1][1]
    for _, h in reversed(stack[:-1]):
        r = node_hash(h, r)
    return r, count
