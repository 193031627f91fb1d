"""An event as the log holds it: the envelope of API.md, and an event about to be appended."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping, NamedTuple, Sequence

from .canonical import canonical_bytes, envelope_bytes, read_event_data


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: Mapping[str, Any]
    hand: str | None = None
    table: str | None = None


class Envelope(NamedTuple):
    """A stored event. A named tuple rather than a dataclass: replay builds one per event."""
    position: int
    group: str
    seq: int
    type: str
    hand: str | None
    table: str | None
    data: Mapping[str, Any]
    actor: str
    recorded_at: str
    prev_hash: str
    hash: str

    def public(self) -> dict:
        """The envelope as API.md serves it (and, without ``hash``, hashes it)."""
        env = {"seq": self.seq, "type": self.type, "data": self.data, "actor": self.actor,
               "recorded_at": self.recorded_at, "prev_hash": self.prev_hash, "hash": self.hash}
        if self.hand is not None:
            env["hand"] = self.hand
        if self.table is not None:
            env["table"] = self.table
        return env

    def canonical(self) -> bytes:
        """The bytes whose SHA-256 is ``hash``."""
        return envelope_bytes(self.group, self.seq, self.type, self.hand, self.table,
                              canonical_bytes(self.data).decode("utf-8"), self.actor, self.recorded_at,
                              self.prev_hash)

    @classmethod
    def from_row(cls, row: Sequence) -> "Envelope":
        return cls(row[0], row[1], row[2], row[3], row[4], row[5], read_event_data(row[6]),
                   row[7], row[8], row[9], row[10])


class RawEvent(NamedTuple):
    """A stored event as its columns, with ``data`` still the stored canonical JSON text."""
    group: str
    seq: int
    type: str
    hand: str | None
    table: str | None
    data_json: str
    actor: str
    recorded_at: str
    prev_hash: str
    hash: str

    def canonical(self) -> bytes:
        return envelope_bytes(self.group, self.seq, self.type, self.hand, self.table, self.data_json,
                              self.actor, self.recorded_at, self.prev_hash)
