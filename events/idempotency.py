"""Idempotency keys: a group's used keys, each with its request's fingerprint and the answer
it got, kept durably in the same transaction as the events the request appended."""
from __future__ import annotations

import json
from typing import Any, Iterator

from .envelope import utc_now


class KeyReads:
    def remembered(self, group: str, key: str) -> tuple[str, int, Any] | None:
        """An idempotency key's (fingerprint, status, body), if the group has used it."""
        found = self.conn.execute(
            "SELECT fingerprint, status, body FROM idempotency_keys WHERE group_id = ? AND key = ?",
            (group, key)).fetchone()
        return (found[0], found[1], json.loads(found[2])) if found else None

    def idempotency_keys(self) -> Iterator[tuple]:
        """Every (group, key, fingerprint, status, body, recorded_at)."""
        return self.backend.stream(self.conn, "SELECT group_id, key, fingerprint, status, body, recorded_at "
                                              "FROM idempotency_keys ORDER BY group_id, key", ())


class KeyWrites:
    def remember(self, group: str, key: str, fingerprint: str, status: int, body: Any,
                 recorded_at: str | None = None) -> None:
        self.conn.execute(
            "INSERT INTO idempotency_keys (group_id, key, fingerprint, status, body, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (group, key, fingerprint, status,
                                          body if isinstance(body, str) else json.dumps(body),
                                          recorded_at or utc_now()))
