"""Sessions: a browser signed in to the pages of one group, kept as the SHA-256 of the random
id its cookie holds (never the id, never a token), with its group and subject (a member or
the admin), the credential it was made from (the token's hash), when it was made and last
used, and the browser's user agent. Not ledger facts, like credentials.

A session lives only while the credential it came from does: every read joins the
credentials, so a token rotated away ends its sessions in the same write (and
``drop_credentials`` deletes their rows)."""
from __future__ import annotations

from typing import NamedTuple


class SessionRow(NamedTuple):
    id: str  # the session's public name, for the page that lists a member's devices
    group: str
    subject: str
    token_hash: str
    created_at: str
    last_used_at: str
    user_agent: str


_COLUMNS = ("s.id, s.group_id, s.subject, s.token_hash, s.created_at, s.last_used_at, s.user_agent "
            "FROM sessions s JOIN credentials c ON c.token_hash = s.token_hash "
            "AND c.group_id = s.group_id AND c.subject = s.subject")


class SessionReads:
    def session(self, session_hash: str) -> SessionRow | None:
        """The session of a cookie id's hash, while its credential lives; None otherwise."""
        found = self.conn.execute(f"SELECT {_COLUMNS} WHERE s.session_hash = ?", (session_hash,)).fetchone()
        return SessionRow(*found) if found else None

    def sessions_of(self, group: str, subject: str) -> list[SessionRow]:
        """Every live session of one member (or the admin) of a group, the latest used first."""
        return [SessionRow(*row) for row in self.conn.execute(
            f"SELECT {_COLUMNS} WHERE s.group_id = ? AND s.subject = ? ORDER BY s.last_used_at DESC, s.id",
            (group, subject)).fetchall()]


class SessionWrites:
    def add_session(self, session_hash: str, row: SessionRow) -> None:
        self.conn.execute("INSERT INTO sessions (session_hash, id, group_id, subject, token_hash, created_at, "
                          "last_used_at, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (session_hash, *row))

    def touch_session(self, session_hash: str, now: str) -> None:
        self.conn.execute("UPDATE sessions SET last_used_at = ? WHERE session_hash = ? AND last_used_at < ?",
                          (now, session_hash, now))

    def drop_session(self, session_hash: str) -> None:
        self.conn.execute("DELETE FROM sessions WHERE session_hash = ?", (session_hash,))

    def drop_session_named(self, group: str, subject: str, session_id: str) -> bool:
        """End one session of a member by its public name; False when it has none by that name."""
        return self.conn.execute("DELETE FROM sessions WHERE group_id = ? AND subject = ? AND id = ? RETURNING 1",
                                 (group, subject, session_id)).fetchone() is not None

    def drop_sessions(self, group: str, subject: str) -> None:
        """End every session of one member (or the admin) of a group."""
        self.conn.execute("DELETE FROM sessions WHERE group_id = ? AND subject = ?", (group, subject))

    def drop_idle_sessions(self, used_before: str) -> None:
        """Forget the sessions nobody used since ``used_before`` (they no longer sign in)."""
        self.conn.execute("DELETE FROM sessions WHERE last_used_at < ?", (used_before,))
