"""The evidence a member can check a group's log with: the server's public key, signed
checkpoints (the Merkle tree's head), and RFC 9162 inclusion and consistency proofs, each
assembled here once for the API's proofs, a hand's audit trail and the pages' verify button."""
from __future__ import annotations

from flask import current_app

from events import merkle
from events.checkpoint import published, sign
from events.envelope import utc_now
from events.store import Reader


def public_key() -> dict:
    """The server's signing key as ``GET /v1/keys`` lists it (never the private half)."""
    return published(current_app.extensions["bitka.key"])


def signed_head(group: str, size: int, root: bytes) -> dict:
    """The checkpoint of a tree head, signed with the server's key now."""
    return sign(current_app.extensions["bitka.key"], group, size, root, utc_now())


def checkpoint(reader: Reader, group: str, size: int | None = None) -> dict:
    """The group's tree head at ``size`` (now, if None), signed."""
    size = reader.version(group) if size is None else size
    return signed_head(group, size, reader.merkle_root(group, size))


def inclusions(reader: Reader, group: str, seqs, size: int) -> dict[int, dict]:
    """Each event's inclusion proof in the group's tree of ``size`` events: its leaf and
    audit path (RFC 9162 2.1.3), in hex."""
    nodes = reader.merkle_nodes(group)
    return {seq: {"seq": seq, "size": size, "leaf": nodes(0, seq - 1).hex(),
                  "path": [h.hex() for h in merkle.inclusion_path(nodes, seq - 1, size)]} for seq in seqs}


def consistency(reader: Reader, group: str, old: int, new: int) -> dict:
    """The proof (RFC 9162 2.1.4) that the tree of ``new`` events extends that of ``old``."""
    path = merkle.consistency_path(reader.merkle_nodes(group), old, new)
    return {"from": old, "to": new, "path": [h.hex() for h in path]}
