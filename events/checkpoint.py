"""Signed checkpoints: the server's Ed25519 key, and a group's tree head signed with it.

A checkpoint is ``{"group", "size", "root", "timestamp", "key_id", "signature"}``; the
signature is over the canonical JSON of the checkpoint without ``signature``. The private
key lives in a file created on first start (mode 0600) and is never served.
"""
from __future__ import annotations

import base64
import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .canonical import canonical_bytes
from .database import is_postgres, sqlite_path


DATABASE_KEY = "bitka.key"


def default_key_path(db: str) -> str:
    """Where the signing key lives unless ``--key`` / ``BITKA_KEY`` says: beside an SQLite
    store (its name + ``.key``), or ``bitka.key`` in the working directory for a server
    database. Servers sharing one database should be given one key file."""
    return DATABASE_KEY if is_postgres(db) else f"{sqlite_path(db)}.key"


def load_or_create_key(path: str | Path) -> Ed25519PrivateKey:
    path = Path(path)
    if path.exists():
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 private key")
        return key
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return load_or_create_key(path)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    return key


def public_raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:16]


def published(key: Ed25519PrivateKey) -> dict:
    """The key as GET /v1/keys shows it."""
    public = public_raw(key)
    return {"id": key_id(public), "alg": "Ed25519", "public_key": base64.b64encode(public).decode("ascii")}


@lru_cache(maxsize=4)
def _id_of(key: Ed25519PrivateKey) -> str:
    return key_id(public_raw(key))


def sign(key: Ed25519PrivateKey, group: str, size: int, root: bytes, timestamp: str) -> dict:
    body = {"group": group, "size": size, "root": root.hex(), "timestamp": timestamp, "key_id": _id_of(key)}
    return {**body, "signature": base64.b64encode(key.sign(canonical_bytes(body))).decode("ascii")}


def signature_holds(checkpoint: Mapping, public_key_b64: str) -> bool:
    """Is ``checkpoint`` signed by the key whose raw public bytes are given (base64)?"""
    try:
        body = {k: v for k, v in checkpoint.items() if k != "signature"}
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key_b64))
        public.verify(base64.b64decode(checkpoint["signature"]), canonical_bytes(body))
        return True
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
