"""The secrets behind a tournament's draws: the service commits to each round's secret
before anyone can know the event its seed also takes (events/draw.py), and reveals it when
it draws the round.

A secret is never stored: it is an HMAC of the round's place (group, tournament, round)
under a key the service derives from its signing key, so every server that shares the key
file (as servers sharing one database do) draws alike, a restart forgets nothing, and
nothing in the store or its backups holds a secret before its round is drawn. A store
moved to a server with another key can no longer draw its tournaments' next rounds: the
secret it makes does not hash to the commitment, and the draw is refused saying so.

An import decides each draw again from what the log revealed (``Revealed``): the secret of
the round it draws and the commitment it published for the next.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Mapping, Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import draw

PURPOSE = b"bitka: the secrets of tournament draws\x00"


class Secrets(Protocol):
    def secret(self, group: str, tournament: str, round: int) -> bytes | None: ...

    def commitment(self, group: str, tournament: str, round: int) -> str: ...


@dataclass(frozen=True)
class Keyed:
    """The service's secrets: HMAC-SHA256 under a key derived from its signing key."""
    key: bytes

    @classmethod
    def of(cls, signing: Ed25519PrivateKey) -> "Keyed":
        raw = signing.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                    serialization.NoEncryption())
        return cls(hmac.new(raw, PURPOSE, hashlib.sha256).digest())

    def secret(self, group: str, tournament: str, round: int) -> bytes:
        place = f"{group}\x00{tournament}\x00{round}".encode("utf-8")
        return hmac.new(self.key, place, hashlib.sha256).digest()

    def commitment(self, group: str, tournament: str, round: int) -> str:
        return draw.commitment(self.secret(group, tournament, round))


@dataclass(frozen=True)
class Revealed:
    """What a log shows of the secrets: the secret of each round drawn, the commitment
    published for each round (by round number)."""
    secrets: Mapping[int, str] = field(default_factory=dict)  # hex
    commitments: Mapping[int, str | None] = field(default_factory=dict)

    def secret(self, group: str, tournament: str, round: int) -> bytes | None:
        text = self.secrets.get(round)
        try:
            return bytes.fromhex(text) if isinstance(text, str) and len(text) == 64 else None
        except ValueError:
            return None

    def commitment(self, group: str, tournament: str, round: int) -> str:
        return self.commitments.get(round)
