"""A tournament to play in tests: a points group with as many players as Kop's tables seat
(13, seated 4, 4, 5: a table of five seats its dealer out), a whole legal Kop hand for any
table of the round, whoever deals, each player's check-in for a round (API.md, "A draw nobody
can arrange, whoever holds the server's key") and the draw as a reader of API.md would write
it: from the last event's hash (a tournament from before check-ins) or from the players'
entropies."""
from __future__ import annotations

import hashlib
import struct

from games.registry import GAMES

from .conftest import KOP_HANDS, KOP_TRICKS

KOP = GAMES["kop"]
FIVE = KOP.seated({}, 5) is not None
PLAYERS = 13 if FIVE else 12
NAMES = ("Ala", "Bożena", "Cyprian", "Dorota", "Edek", "Franek", "Gienia", "Halina", "Irek", "Janusz", "Kasia",
         "Leszek", "Łucja")[:PLAYERS]


def whole_hand(seats: int, dealer: int, kontra: bool = False) -> dict:
    """A whole Kop hand at a table of ``seats`` dealt by ``dealer``: tests/conftest.py's hand
    turned so that the seat after the dealer leads as its seat 1 does (at a table of five the
    dealer sits it out with no cards). The leader and the third to play hold the black queens
    and win it, 3 stakes each, 6 when the fourth to play (of the other side) called kontra."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    order = [(dealer + 1 + k) % seats for k in range(4)]  # the four who play, from the one who leads
    for k, seat in enumerate(order):
        hands[seat] = list(KOP_HANDS[(k + 1) % 4])
    body = {"deal": {"dealer": dealer, "hands": hands}, "tricks": [{"cards": t} for t in KOP_TRICKS]}
    if kontra:
        body["bids"] = [{"seat": order[3], "call": "kontra"}]
    return body


def dealt_only(seats: int, dealer: int) -> dict:
    """The same hand dealt and not played: every card still in a hand."""
    return {"deal": whole_hand(seats, dealer)["deal"]}


def entropy(member: str, number: int) -> str:
    """What ``member``'s device sends as its entropy for round ``number`` in these tests:
    fixed, so that a test can say beforehand what the seed must be (a phone sends 32 fresh
    random bytes)."""
    return hashlib.sha256(f"{member} {number}".encode()).hexdigest()


def check_in(api, base: str, tournament: str, number: int, member: str, token: str, device=None,
             sent: str | None = None):
    """``member`` checks in for round ``number`` with their own token (signed ``check_in`` by
    ``device`` when they hold a key), sending ``sent`` or their entropy: the answer."""
    said = sent if sent is not None else entropy(member, number)
    group = base.rstrip("/").rsplit("/", 1)[-1]
    headers = device.header("check_in", group, tournament=tournament, round=number, entropy=said) if device else None
    return api.as_(token).post(f"{base}/tournaments/{tournament}/rounds/{number}/check-in", {"entropy": said},
                               headers=headers)


def check_in_every(api, base: str, tournament: str, number: int, tokens: dict[str, str], players: list[str],
                   devices: dict | None = None) -> dict[str, int]:
    """Each of ``players`` checks in for round ``number``, in the order given, each with their
    own token (and device, when they hold a key): each one's check-in seq. Each answer says
    what was checked in, and the next check-in's seq follows."""
    seqs = {}
    for member in players:
        r = check_in(api, base, tournament, number, member, tokens[member], (devices or {}).get(member))
        assert r.status_code == 201, r.json
        assert {k: r.json[k] for k in ("member", "tournament", "round", "entropy")} == {
            "member": member, "tournament": tournament, "round": number, "entropy": entropy(member, number)}
        seqs[member] = r.json["seq"]
    return seqs


def their_seed(secret: bytes, entropies: list[str]) -> bytes:
    """API.md's seed of a round drawn from check-ins, as its words say it: SHA-256 of the
    secret's bytes, then each checked-in player's 32 entropy bytes (given in the tournament's
    player order)."""
    digest = hashlib.sha256()
    digest.update(secret)
    for text in entropies:
        raw = bytes.fromhex(text)
        assert len(raw) == 32
        digest.update(raw)
    return digest.digest()


def their_check_in_shuffle(players: list[str], secret: bytes, checked: dict[str, str]) -> list[str]:
    """The players shuffled by the seed of a round drawn from check-ins: ``checked`` is each
    checked-in player's entropy (those drawn without theirs are not in it)."""
    return shuffled_by(players, their_seed(secret, [checked[p] for p in players if p in checked]))


def their_shuffle(players: list[str], secret: bytes, event_hash: str) -> list[str]:
    """API.md's draw written another way than events/draw.py, from the hash of the event
    before it (a tournament from before check-ins)."""
    return shuffled_by(players, hashlib.sha256(secret + bytes.fromhex(event_hash)).digest())


def shuffled_by(players: list[str], seed: bytes) -> list[str]:
    """API.md's shuffle written another way than events/draw.py: the whole stream first,
    unpacked at once by struct, then the swaps."""
    stream = b"".join(hashlib.sha256(seed + struct.pack(">Q", i)).digest() for i in range(len(players)))
    us = struct.unpack(f">{len(stream) // 8}Q", stream)
    out = list(players)
    for step, j in enumerate(range(len(out) - 1, 0, -1)):
        k = us[step] % (j + 1)
        out[j], out[k] = out[k], out[j]
    return out
