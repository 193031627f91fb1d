"""Invitations: one-time codes that sign a member in on a phone, kept as the SHA-256 of each
code (never the code), with the group, the member (or ``admin``), when the code expires
(none for the admin's own link) and when it was used. Not ledger facts: a code only lets
its holder get a token, as a credential does."""
from __future__ import annotations


class InvitationReads:
    def invitation(self, code_hash: str) -> tuple[str, str, str | None, str | None] | None:
        """(group, member, expires_at, used_at) of a code's hash, or None."""
        found = self.conn.execute("SELECT group_id, member, expires_at, used_at FROM invitations WHERE code_hash = ?",
                                  (code_hash,)).fetchone()
        return (found[0], found[1], found[2], found[3]) if found else None

    def unused_invitations(self, group: str) -> list[tuple[str, str, str]]:
        """(code hash, member, expires_at) of each of a group's member invitations not used yet
        (expired ones too: the caller compares times; the admin's own link, which never
        expires, is not one)."""
        return [(row[0], row[1], row[2]) for row in self.conn.execute(
            "SELECT code_hash, member, expires_at FROM invitations WHERE group_id = ? AND used_at IS NULL "
            "AND expires_at IS NOT NULL", (group,)).fetchall()]


class InvitationWrites:
    def add_invitation(self, code_hash: str, group: str, member: str, expires_at: str | None) -> None:
        self.conn.execute("INSERT INTO invitations (code_hash, group_id, member, expires_at, used_at) "
                          "VALUES (?, ?, ?, ?, NULL)", (code_hash, group, member, expires_at))

    def use_invitation(self, code_hash: str, now: str) -> bool:
        """Mark a code used, once: False when it was used already (by a request that won). The
        answer is read back (RETURNING), not counted: a pipelined write knows no rowcount yet."""
        return self.conn.execute("UPDATE invitations SET used_at = ? WHERE code_hash = ? AND used_at IS NULL "
                                 "RETURNING 1", (now, code_hash)).fetchone() is not None

    def drop_invitations(self, group: str, member: str) -> int:
        """Forget every code of one member of a group (the admin's link, when it is replaced)."""
        return len(self.conn.execute("DELETE FROM invitations WHERE group_id = ? AND member = ? RETURNING 1",
                                     (group, member)).fetchall())
