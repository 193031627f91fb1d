"""A tournament to play in tests: a points group with as many players as Kop's tables seat
(13, seated 4, 4, 5: a table of five seats its dealer out), a whole legal Kop hand for any
table of the round, whoever deals, and the draw as a reader of API.md would write it."""
from __future__ import annotations

import hashlib
import struct

from games.registry import GAMES

from .conftest import KOP_HANDS, KOP_TRICKS

KOP = GAMES["kop"]
FIVE = KOP.seated(KOP.parse_rules({}), 5) is not None
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


def their_shuffle(players: list[str], secret: bytes, event_hash: str) -> list[str]:
    """API.md's draw written another way than events/draw.py: the whole stream first,
    unpacked at once by struct, then the swaps."""
    seed = hashlib.sha256(secret + bytes.fromhex(event_hash)).digest()
    stream = b"".join(hashlib.sha256(seed + struct.pack(">Q", i)).digest() for i in range(len(players)))
    us = struct.unpack(f">{len(stream) // 8}Q", stream)
    out = list(players)
    for step, j in enumerate(range(len(out) - 1, 0, -1)):
        k = us[step] % (j + 1)
        out[j], out[k] = out[k], out[j]
    return out
