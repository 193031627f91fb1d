"""The Merkle tree against RFC 9162's test vectors and against a naive recomputation."""
import hashlib

import pytest

from events import merkle

# The test leaves of RFC 6962 / RFC 9162 implementations and the roots of their prefixes.
LEAVES = [b"", b"\x00", b"\x10", b"\x20\x21", b"\x30\x31", b"\x40\x41\x42\x43",
          b"\x50\x51\x52\x53\x54\x55\x56\x57", bytes(range(0x60, 0x70))]
ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def test_the_rfc_test_vectors_and_their_prefixes():
    nodes = merkle.Leaves([merkle.leaf_hash(x) for x in LEAVES])
    assert [merkle.root(nodes, n).hex() for n in range(1, 9)] == ROOTS


def naive_root(leaves):
    if len(leaves) == 1:
        return leaves[0]
    k = merkle.split(len(leaves))
    return hashlib.sha256(b"\x01" + naive_root(leaves[:k]) + naive_root(leaves[k:])).digest()


def naive_path(m, leaves):
    if len(leaves) == 1:
        return []
    k = merkle.split(len(leaves))
    if m < k:
        return naive_path(m, leaves[:k]) + [naive_root(leaves[k:])]
    return naive_path(m - k, leaves[k:]) + [naive_root(leaves[:k])]


def naive_proof(m, leaves, whole=True):
    n = len(leaves)
    if m == n:
        return [] if whole else [naive_root(leaves)]
    k = merkle.split(n)
    if m <= k:
        return naive_proof(m, leaves[:k], whole) + [naive_root(leaves[k:])]
    return naive_proof(m - k, leaves[k:], False) + [naive_root(leaves[:k])]


LEAF_HASHES = [merkle.leaf_hash(bytes([i])) for i in range(64)]
NODES = merkle.Leaves(LEAF_HASHES)


@pytest.mark.parametrize("size", range(1, 65))
def test_inclusion_proofs_for_every_leaf_of_every_size_up_to_64(size):
    root = merkle.root(NODES, size)
    assert root == naive_root(LEAF_HASHES[:size])
    for index in range(size):
        path = merkle.inclusion_path(NODES, index, size)
        assert path == naive_path(index, LEAF_HASHES[:size])
        assert merkle.verify_inclusion(LEAF_HASHES[index], index, size, path, root)
        if size > 1:
            assert not merkle.verify_inclusion(LEAF_HASHES[(index + 1) % size], index, size, path, root)


@pytest.mark.parametrize("new", range(1, 65))
def test_consistency_proofs_for_every_pair_of_sizes_up_to_64(new):
    new_root = merkle.root(NODES, new)
    for old in range(1, new + 1):
        old_root = merkle.root(NODES, old)
        path = merkle.consistency_path(NODES, old, new)
        assert path == naive_proof(old, LEAF_HASHES[:new])
        assert merkle.verify_consistency(old, new, old_root, new_root, path)
        if old < new:
            forged = hashlib.sha256(old_root).digest()
            assert not merkle.verify_consistency(old, new, forged, new_root, path)


def test_proofs_are_refused_outside_the_tree():
    with pytest.raises(ValueError):
        merkle.inclusion_path(NODES, 5, 5)
    with pytest.raises(ValueError):
        merkle.consistency_path(NODES, 6, 5)
    assert not merkle.verify_inclusion(LEAF_HASHES[0], 3, 3, [], merkle.root(NODES, 3))


def test_appending_a_leaf_completes_exactly_the_parents_it_closes():
    made = merkle.parents_completed(7, LEAF_HASHES[7], NODES)
    assert [(level, index) for level, index, _ in made] == [(0, 7), (1, 3), (2, 1), (3, 0)]
    assert made[-1][2] == merkle.root(NODES, 8)
    assert [(lv, i) for lv, i, _ in merkle.parents_completed(4, LEAF_HASHES[4], NODES)] == [(0, 4)]


@pytest.mark.parametrize("size", range(1, 65))
def test_the_streaming_root_is_the_tree_root(size):
    assert merkle.streaming_root(iter(LEAF_HASHES[:size])) == (merkle.root(NODES, size), size)
