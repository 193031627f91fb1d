"""A member's device as a test drives it: its own Ed25519 key, and the signature header over
a statement built from API.md's words alone (not from the service's own code)."""
from __future__ import annotations

import base64
import hashlib
import json
import secrets

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Device:
    def __init__(self):
        self.private = Ed25519PrivateKey.generate()
        raw = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.key = b64url(raw)
        self.kid = hashlib.sha256(raw).hexdigest()[:32]

    def statement(self, act: str, group: str, nonce: str | None = None, **fields) -> dict:
        return {"act": act, "group": group, "nonce": nonce or secrets.token_hex(16), **fields}

    def sign(self, statement: dict) -> str:
        text = json.dumps(statement, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return b64url(self.private.sign(b"bitka statement v1\n" + text.encode()))

    def header(self, act: str, group: str, nonce: str | None = None, **fields) -> dict:
        said = self.statement(act, group, nonce, **fields)
        return {"Bitka-Signature": f"kid={self.kid}, nonce={said['nonce']}, sig={self.sign(said)}"}

    def signature(self, act: str, group: str, **fields) -> dict:
        said = self.statement(act, group, **fields)
        return {"kid": self.kid, "nonce": said["nonce"], "sig": self.sign(said)}
