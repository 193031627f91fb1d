"""Canonical JSON and the event hash, exactly as API.md defines them.

The hash of an event is the lowercase hex SHA-256 of the canonical JSON (keys sorted, no
spaces, UTF-8, ``ensure_ascii=False``) of its envelope without ``hash``, with the group id
added as ``"group"``. The first event's ``prev_hash`` is 64 zeros.
"""
from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring as _quote  # what json.dumps uses with ensure_ascii=False
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


def envelope_bytes(group: str, seq: int, type_: str, hand: str | None, table: str | None, data_json: str,
                   actor: str, recorded_at: str, prev_hash: str) -> bytes:
    """The canonical bytes of an envelope, built from its parts without a JSON round trip.

    ``data_json`` must already be the canonical JSON of ``data`` (the store keeps it so).
    Equal, byte for byte, to ``canonical_bytes(hashed_view(envelope, group))``: the keys are
    written here in sorted order, and strings quoted exactly as ``json.dumps`` quotes them.
    """
    parts = ['{"actor":', _quote(actor), ',"data":', data_json, ',"group":', _quote(group)]
    if hand is not None:
        parts += [',"hand":', _quote(hand)]
    parts += [',"prev_hash":', _quote(prev_hash), ',"recorded_at":', _quote(recorded_at), ',"seq":', str(seq)]
    if table is not None:
        parts += [',"table":', _quote(table)]
    parts += [',"type":', _quote(type_), "}"]
    return "".join(parts).encode("utf-8")
