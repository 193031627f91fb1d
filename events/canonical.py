"""Canonical JSON and the event hash, exactly as API.md defines them.

The hash of an event is the lowercase hex SHA-256 of the canonical JSON (keys sorted, no
spaces, UTF-8, ``ensure_ascii=False``) of its envelope without ``hash``, with the group id
added as ``"group"``. The first event's ``prev_hash`` is 64 zeros.
"""
from __future__ import annotations

import hashlib
import json
import re
from json.encoder import encode_basestring as _quote  # what json.dumps uses with ensure_ascii=False
from typing import Any, Mapping

import orjson

from .errors import Unprocessable

GENESIS = "0" * 64
EXACT_INTEGERS = range(-2 ** 63, 2 ** 64)  # what orjson reads back as the same int
_LONG_DIGITS = re.compile(r"[0-9]{19}")


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def event_data_json(data: Mapping[str, Any]) -> str:
    """The canonical JSON text the store keeps of an event's data.

    Event data holds no integer beyond 64 bits: ``read_event_data`` parses with orjson,
    which reads such an integer back as a float. No rule of any game needs one, so one is
    refused here, before anything is written, rather than read back changed."""
    text = canonical_bytes(data).decode("utf-8")
    if _LONG_DIGITS.search(text):  # only then can there be one: walk the data to be sure
        _refuse_long_integers(data)
    return text


def _refuse_long_integers(value: Any) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value not in EXACT_INTEGERS:
        raise Unprocessable(f"the number {value} is out of range: event data holds integers of at most 64 bits")
    if isinstance(value, Mapping):
        for item in value.values():
            _refuse_long_integers(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _refuse_long_integers(item)


def read_event_data(text: str) -> Any:
    """An event's data from the text ``event_data_json`` wrote. orjson, because replay
    parses every event ever logged and orjson reads the same values three times as fast as
    ``json.loads``; the two agree on everything that text can hold."""
    return orjson.loads(text)


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
