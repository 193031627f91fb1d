"""A tournament round's draw, as API.md "Points, tables of five, tournaments and seasons"
states it, so that anyone can run it again from what the log shows.

Before a round is drawn the service commits to a secret (the SHA-256 of its 32 raw bytes is
published). The round's seed is SHA-256(secret || the hash of the group's last event before
the draw), so neither the service (which cannot know that event's hash when it commits) nor
the players (who cannot know the secret) can arrange it. The seed makes a stream of bytes,
SHA-256(seed || i) for i = 0, 1, 2... as 8-byte big-endian counters, read 8 bytes at a time
as big-endian unsigned integers; a Fisher-Yates shuffle of the players in the tournament's
order takes them, and the shuffled list is cut in order into tables.

Pure: bytes and lists in, lists out.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Iterator, Mapping, Sequence, TypeVar

T = TypeVar("T")


def commitment(secret: bytes) -> str:
    """What is published before the draw: the lowercase hex SHA-256 of the secret's raw bytes."""
    return hashlib.sha256(secret).hexdigest()


def seed(secret: bytes, event_hash: str) -> bytes:
    """The round's seed: SHA-256 of the secret's bytes, then the raw 32 bytes of the hash (hex)
    of the group's last event before the draw."""
    return hashlib.sha256(secret + bytes.fromhex(event_hash)).digest()


def seed_of_check_ins(secret: bytes, entropies: Sequence[str]) -> bytes:
    """A round's seed in a tournament drawn from its players' check-ins (``"draw": 2``):
    SHA-256 of the secret's bytes, then each checked-in player's 32 entropy bytes (hex), in
    the tournament's player order. Whoever knows the secret early cannot choose it: the
    entropy comes from the players' devices after the commitment was published."""
    return hashlib.sha256(secret + b"".join(bytes.fromhex(e) for e in entropies)).digest()


def numbers(seeded: bytes) -> Iterator[int]:
    """The draw's numbers: SHA-256(seed || i), i as 8 bytes big-endian, concatenated and read
    8 bytes at a time as big-endian unsigned integers."""
    block = 0
    while True:
        digest = hashlib.sha256(seeded + block.to_bytes(8, "big")).digest()
        for start in range(0, len(digest), 8):
            yield int.from_bytes(digest[start:start + 8], "big")
        block += 1


def shuffled(players: Sequence[T], seeded: bytes) -> list[T]:
    """Fisher-Yates over ``players`` in their order: for j from n-1 down to 1, swap j with
    u mod (j + 1), u the draw's next number."""
    out, drawn = list(players), numbers(seeded)
    for j in range(len(out) - 1, 0, -1):
        k = next(drawn) % (j + 1)
        out[j], out[k] = out[k], out[j]
    return out


def table_sizes(players: int, size: int, larger: int | None) -> list[int] | None:
    """How ``players`` sit: tables of ``size``, the last ones of ``larger`` (one more) as
    many as needed (13 players at tables of four: 4, 4, 5); None when no such tables seat them all."""
    if larger is None:
        return [size] * (players // size) if players and players % size == 0 else None
    for big in range(players // larger + 1):
        rest = players - big * larger
        if rest >= 0 and rest % size == 0:
            return [size] * (rest // size) + [larger] * big
    return None


def tables(order: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """The shuffled players cut in order into tables of ``sizes``: each table's seats in that
    order, seat 0 dealing first."""
    out, at = [], 0
    for size in sizes:
        out.append(list(order[at:at + size]))
        at += size
    return out


def fault(drawn: Mapping, players: Sequence[str], committed: str | None, last_hash: str | None,
          sizes: Sequence[int] | None, entropies: Sequence[str] | None = None) -> str | None:
    """Why a recorded draw (``drawn``: its ``secret``, ``seed`` and ``tables``) is not the
    draw the rules make (None when it is): its secret must hash to the commitment published
    before it, its seed must come from that secret and ``last_hash`` (the hash of the event
    before the draw; None: a reader of the log without its hashes takes the recorded seed),
    and its tables must be ``players`` shuffled by the seed and cut into ``sizes``. Anyone can
    ask this of a log: ``bitka draw --check``."""
    secret, recorded_seed = drawn.get("secret"), drawn.get("seed")
    if not (_hex32(secret) and _hex32(recorded_seed)):
        return "its secret and seed are not 64 lowercase hex digits each"
    why = tables_fault(drawn.get("tables"))
    if why:
        return why
    if committed is None or commitment(bytes.fromhex(secret)) != committed:
        return f"its secret does not hash to the commitment published before it ({committed})"
    if entropies is not None:  # drawn from the players' check-ins
        seeded = seed_of_check_ins(bytes.fromhex(secret), entropies)
        if seeded.hex() != recorded_seed:
            return f"its seed is not SHA-256(secret || each check-in's entropy): that gives {seeded.hex()}"
    else:
        seeded = seed(bytes.fromhex(secret), last_hash) if last_hash is not None else bytes.fromhex(recorded_seed)
        if seeded.hex() != recorded_seed:
            return f"its seed is not SHA-256(secret || the hash of the event before it): that gives {seeded.hex()}"
    if sizes is None:
        return f"{len(players)} players fit no tables"
    expected = tables(shuffled(players, seeded), sizes)
    seated = [t.get("seats") for t in drawn["tables"]]
    if seated != expected:
        return f"its tables are not the players shuffled by its seed: the seed seats {expected}"
    return None


def tables_fault(drawn_tables) -> str | None:
    """Why a recorded draw's ``tables`` are not as a draw writes them (None when they are): a
    list of objects, each with an id of text of its own (no two tables share one) and its seats."""
    if not isinstance(drawn_tables, list) or not all(isinstance(t, Mapping) for t in drawn_tables):
        return "its tables are not a list of tables"
    ids = [t.get("id") for t in drawn_tables]
    if not all(isinstance(i, str) for i in ids):
        return "a table's id in it is not text"
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    if twice:
        return f"two of its tables share one id ({', '.join(twice)}): each table has an id of its own"
    return None


def _hex32(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
