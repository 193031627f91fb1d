"""Credentials: the SHA-256 of each token, with the group and the subject (a member or
the admin) it stands for. Never the token itself."""
from __future__ import annotations

from typing import Iterator


class CredentialReads:
    def credential(self, token_hash: str) -> tuple[str, str, str] | None:
        """(group, subject, stored hash) for a token's hash, or None."""
        found = self.conn.execute(
            "SELECT group_id, subject, token_hash FROM credentials WHERE token_hash = ?", (token_hash,)).fetchone()
        return (found[0], found[1], found[2]) if found else None

    def credentials(self) -> Iterator[tuple[str, str, str]]:
        """Every (token hash, group, subject): what moving a store must carry along."""
        return self.backend.stream(self.conn, "SELECT token_hash, group_id, subject FROM credentials "
                                              "ORDER BY group_id, token_hash", ())



class CredentialWrites:
    def drop_credentials(self, group: str, subject: str) -> int:
        """Forget every token of one subject of a group, and so end the sessions made from
        them (events/sessions.py); returns how many tokens there were."""
        self.drop_sessions(group, subject)
        return len(self.conn.execute("DELETE FROM credentials WHERE group_id = ? AND subject = ? RETURNING 1",
                                     (group, subject)).fetchall())

    def add_credential(self, token_hash: str, group: str, subject: str) -> None:
        self.conn.execute("INSERT INTO credentials (token_hash, group_id, subject) VALUES (?, ?, ?)",
                          (token_hash, group, subject))

