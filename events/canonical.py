"""Canonical JSON and the event hash, exactly as API.md defines them.

The hash of an event is the lowercase hex SHA-256 of the canonical JSON (keys sorted, no
spaces, UTF-8, ``ensure_ascii=False``) of its envelope without ``hash``, with the group id
added as ``"group"``. The first event's ``prev_hash`` is 64 zeros.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

GENESIS = "0" * 64


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def hashed_view(envelope: Mapping[str, Any], group: str) -> dict:
    """The envelope as it is hashed: without ``hash``, with ``group``."""
    view = {k: v for k, v in envelope.items() if k != "hash"}
    view["group"] = group
    return view


def event_hash(envelope: Mapping[str, Any], group: str) -> str:
    return hashlib.sha256(canonical_bytes(hashed_view(envelope, group))).hexdigest()
