"""What a store to be backed up or restored may hold beyond its log: only what bitka writes.

``bitka verify`` and ``bitka replay`` prove the log and everything derived from it; they
say nothing of what is not derived from the log. A backup could bring back:

- a schema object bitka's migrations do not make: a trigger (that puts a credential back
  after ``bitka rotate-token`` deletes it, say), a view, a table, an index; on SQLite,
  ``sqlite_master`` is compared with a store made by the migrations up to the store's
  version, every object by its SQL as well as its name (an index of bitka's name made
  ``UNIQUE``, or a table with a ``CHECK`` of its own, refuses what bitka writes); A PostgreSQL backup
  holds rows alone (cli/pg_dumps.py): its tables are made by the migrations themselves;
- a credential of a group the log has not made, or of a subject that is neither the
  group's admin nor a member the log added; a session whose token is no credential of
  that subject; an invitation for a member the log does not know.

A credential of a real member cannot be told from one bitka minted (tokens are not ledger
facts): what keeps an added one out of a restore is the backup's signature (events/backups.py).
Each finding is a sentence; none: the store holds only what bitka would have written.
"""
from __future__ import annotations

import json
import sqlite3
from collections import defaultdict

from events import migrations

ADMIN = "admin"  # the subject of a group's admin (service/auth.py)
SQLITE_OWN = {"sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4", "sqlite_sequence"}  # ANALYZE's, SQLite's


def _normal(text: str | None) -> str:
    return " ".join((text or "").split())


def schema_objects(conn) -> dict[tuple[str, str], tuple[str, str]]:
    """An SQLite store's schema objects: (type, name) -> (table, normalised SQL)."""
    return {(kind, name): (table, _normal(text)) for kind, name, table, text in
            conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}


def made_by_migrations(version: int) -> dict[tuple[str, str], tuple[str, str]]:
    """The schema objects bitka's SQLite migrations up to ``version`` make, in a store in memory."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrations.apply(conn, [m for m in migrations.SQLITE if m.version <= version], "1970-01-01T00:00:00Z")
        return schema_objects(conn)
    finally:
        conn.close()


def foreign_objects(conn) -> list[str]:
    """The schema objects of an SQLite store that bitka's migrations do not make (or make
    otherwise: by another SQL)."""
    try:
        version = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] or 0
    except sqlite3.Error:
        version = 0
    expected, found = made_by_migrations(version), schema_objects(conn)
    said = []
    for (kind, name), (table, text) in sorted(found.items()):
        if name in SQLITE_OWN and kind == "table":
            continue
        if (kind, name) not in expected:
            said.append(f"it holds the {kind} {name} (on {table}), which bitka does not make: {text[:200]}")
        elif expected[(kind, name)][1] != text:
            said.append(f"its {kind} {name} is not the one bitka makes: {text[:200]}")
    for kind, name in sorted(set(expected) - set(found)):
        if kind != "trigger":  # a missing trigger is said by the store's own check (Reader.missing_triggers)
            said.append(f"it lacks the {kind} {name} that bitka makes")
    return said


def unexplained_rows(conn) -> list[str]:
    """Credentials, sessions and invitations of the store that bitka would not have written:
    for a group or a member that the log does not hold (either backend's connection)."""
    groups = {g for (g,) in conn.execute("SELECT group_id FROM events WHERE type = 'group_created'")}
    members: dict[str, set] = defaultdict(set)
    for group, data in conn.execute("SELECT group_id, data FROM events WHERE type = 'member_added'"):
        try:
            members[group].add(json.loads(data)["member"])
        except (ValueError, KeyError, TypeError):
            continue  # the log's own checks say what is wrong with the event

    def known(group: str, subject: str) -> bool:
        return group in groups and (subject == ADMIN or subject in members[group])

    said = []
    credentials = {}
    for token_hash, group, subject in conn.execute("SELECT token_hash, group_id, subject FROM credentials"):
        credentials[token_hash] = (group, subject)
        if not known(group, subject):
            said.append(f"a credential (token hash {str(token_hash)[:12]}...) for {subject!r} of group {group!r}, "
                        "which the log does not hold")
    for session, group, subject, token_hash in conn.execute(
            "SELECT id, group_id, subject, token_hash FROM sessions"):
        if credentials.get(token_hash) != (group, subject):
            said.append(f"a sign-in session {str(session)[:12]}... for {subject!r} of group {group!r} whose token is "
                        "no credential of theirs")
    for code_hash, group, member in conn.execute("SELECT code_hash, group_id, member FROM invitations"):
        if not known(group, member):
            said.append(f"an invitation (code hash {str(code_hash)[:12]}...) for {member!r} of group {group!r}, "
                        "which the log does not hold")
    return said
