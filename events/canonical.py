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
    written in sorted order, and strings quoted exactly as ``json.dumps`` quotes them.
    """
    return envelope_text(_quote(group), seq, _quote(type_), hand, table, data_json, actor, recorded_at,
                         prev_hash).encode("utf-8")


def envelope_text(quoted_group: str, seq: int, quoted_type: str, hand: str | None, table: str | None,
                  data_json: str, actor: str, recorded_at: str, prev_hash: str) -> str:
    """``envelope_bytes`` before encoding, with the group and type already quoted: ``verify``
    runs this for every event ever logged and quotes those once per group and per type."""
    hand_part = f',"hand":{_quote(hand)}' if hand is not None else ""
    table_part = f',"table":{_quote(table)}' if table is not None else ""
    return (f'{{"actor":{_quote(actor)},"data":{data_json},"group":{quoted_group}{hand_part},'
            f'"prev_hash":{_quote(prev_hash)},"recorded_at":{_quote(recorded_at)},"seq":{seq}{table_part},'
            f'"type":{quoted_type}}}')


def quote(text: str) -> str:
    """A JSON string literal, exactly as canonical JSON writes it."""
    return _quote(text)
