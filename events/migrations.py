"""The store's schema, as numbered migrations for each backend, and the runner that applies them.

A store records the migrations it has had in ``schema_migrations``. ``migrate`` applies
the missing ones in order, inside one transaction that holds the backend's write lock, so
that several servers starting at once on one database migrate it once. Migrations are
append-only like the log: a change to the schema is a new migration, never an edit of
an old one. SQLite stores from before versioning have no ``schema_migrations``; their
first migration is written with ``IF NOT EXISTS`` throughout, so it finds them complete.
"""
from __future__ import annotations

import json
from typing import Callable, NamedTuple, Sequence



class Migration(NamedTuple):
    version: int
    what: str
    statements: tuple[str, ...]
    carry: Callable | None = None  # what moves the stored data over, after the statements, in their transaction
    # Rows the projections keep that a store from before this version lacks: built from its
    # log by whoever sets the store up (``StoreBase.setup(rebuild=...)``; the projections'
    # own folds, which this layer does not import), in the migration's transaction.
    rebuilt: tuple[str, ...] = ()


def _settled_at(conn, group: str, hand: str) -> int:
    """The seq of the hand's last settlement: where the fold puts a waiting settlement in
    the log's order."""
    found = conn.execute("SELECT max(seq) FROM events WHERE group_id = ? AND hand_id = ? AND type = 'settlement'",
                         (group, hand)).fetchone()
    return found[0] or 0


def pending_out_of_balances(conn) -> None:
    """Until schema 5 (PostgreSQL 4), a group's balances row kept every settlement that waits
    for confirmation under ``pending``, so every write to the group read and rewrote them all:
    each moves to a row of its own, and the balances row keeps the members' balances."""
    rows = conn.execute("SELECT group_id, data FROM projection_rows WHERE name = 'balances'").fetchall()
    for group, text in rows:
        row = json.loads(text)
        waiting = row.pop("pending", None)
        if waiting is None:
            continue
        for hand, entry in waiting.items():
            if "seq" not in entry:  # kept before entries named their settlement's seq (2026-12-01)
                entry = {**entry, "seq": _settled_at(conn, group, hand)}
            conn.execute("INSERT INTO pending_settlements (group_id, hand_id, table_id, seq, data) "
                         "VALUES (?, ?, ?, ?, ?)", (group, hand, entry["table"], entry["seq"],
                                                     json.dumps(entry, sort_keys=True, ensure_ascii=False)))
        conn.execute("UPDATE projection_rows SET data = ? WHERE name = 'balances' AND group_id = ? AND key = ''",
                     (json.dumps(row, sort_keys=True, ensure_ascii=False), group))


def evening_members_at_zero(conn) -> None:
    """Until schema 11 (PostgreSQL 10), a member kept a row of 0 in an eight-hour span once a
    void or a correction had taken out every hand of theirs that ended in it, where the rows
    built from the log (an older store's, replay's) had none: replay found a difference. Now
    a member has a row in a span only where their hands there came to other than 0 (a read
    counts a missing row as 0); each row of 0 is dropped."""
    rows = conn.execute("SELECT group_id, key, data FROM projection_rows WHERE name = 'evening_member'").fetchall()
    for group, key, text in rows:
        if json.loads(text).get("result") == 0:
            conn.execute("DELETE FROM projection_rows WHERE name = 'evening_member' AND group_id = ? AND key = ?",
                         (group, key))


EVENINGS = "rows kept for the evening to share: each hand's result and when it ended, and by eight hours what " \
           "the hands that ended then paid each member and how many were played at each table"
EVENING_ROWS = ("evening_hand", "evening_at", "evening_span", "evening_member", "evening_table")
STATS = "rows kept for the group's statistics: each hand's part in them, and each member's balance after each move"
STATS_ROWS = ("stats_hand", "stats_points", "stats_steps")
CARDS = "rows kept for the pages that list tournaments: each tournament's card, and each player's seat in each round"
CARD_ROWS = ("tournament_card", "tournament_seat")
AT_ZERO = "the evening's rows keep no member whose hands in a span came to 0"

SQLITE = (
    Migration(1, "events, Merkle nodes, projection rows, credentials, idempotency keys", (
        """CREATE TABLE IF NOT EXISTS events (
          position INTEGER PRIMARY KEY,
          group_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          type TEXT NOT NULL,
          hand_id TEXT,
          table_id TEXT,
          data TEXT NOT NULL,
          actor TEXT NOT NULL,
          recorded_at TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL,
          UNIQUE (group_id, seq))""",
        "CREATE INDEX IF NOT EXISTS events_by_hand ON events (group_id, hand_id, seq) WHERE hand_id IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS events_by_table ON events (group_id, table_id, type, seq) "
        "WHERE table_id IS NOT NULL",
        """CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END""",
        """CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END""",
        """CREATE TABLE IF NOT EXISTS merkle_nodes (
          group_id TEXT NOT NULL, level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL,
          PRIMARY KEY (group_id, level, idx)) WITHOUT ROWID""",
        """CREATE TABLE IF NOT EXISTS projection_rows (
          name TEXT NOT NULL, group_id TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL,
          PRIMARY KEY (name, group_id, key)) WITHOUT ROWID""",
        "CREATE TABLE IF NOT EXISTS projection_positions (name TEXT PRIMARY KEY, position INTEGER NOT NULL)",
        """CREATE TABLE IF NOT EXISTS credentials (
          token_hash TEXT PRIMARY KEY, group_id TEXT NOT NULL, subject TEXT NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS idempotency_keys (
          group_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
          body TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (group_id, key)) WITHOUT ROWID""",
    )),
    Migration(2, "a table's deals found by a partial index that tricks do not touch", (
        "DROP INDEX IF EXISTS events_by_table",
        "CREATE INDEX IF NOT EXISTS deals_by_table ON events (group_id, table_id, seq) "
        "WHERE type IN ('deal', 'result')",
    )),
    Migration(3, "invitations: one-time codes that sign a member in", (
        """CREATE TABLE invitations (
          code_hash TEXT PRIMARY KEY, group_id TEXT NOT NULL, member TEXT NOT NULL, expires_at TEXT,
          used_at TEXT)""",
    )),
    Migration(4, "sessions: the pages' sign-ins, each a random id kept as its hash", (
        """CREATE TABLE sessions (
          session_hash TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, group_id TEXT NOT NULL, subject TEXT NOT NULL,
          token_hash TEXT NOT NULL, created_at TEXT NOT NULL, last_used_at TEXT NOT NULL,
          user_agent TEXT NOT NULL)""",
        "CREATE INDEX sessions_by_subject ON sessions (group_id, subject)",
    )),
    Migration(5, "settlements that wait for confirmation in rows of their own, not inside the balances row", (
        """CREATE TABLE pending_settlements (
          group_id TEXT NOT NULL, hand_id TEXT NOT NULL, table_id TEXT NOT NULL, seq INTEGER NOT NULL,
          data TEXT NOT NULL, PRIMARY KEY (group_id, hand_id)) WITHOUT ROWID""",
        "CREATE INDEX pending_in_log_order ON pending_settlements (group_id, seq)",
        "CREATE INDEX pending_by_table ON pending_settlements (group_id, table_id, seq)",
    ), pending_out_of_balances),
    Migration(6, "rows kept for a big group's reads: the balances' last moves, the kinds of table", (),
              rebuilt=("balance_steps", "table_kind")),
    Migration(7, "a group's tables in rows of their own, in the order they were opened, not in the group's row; "
              "a table's own events (opened, closed) found by an index", (
        "CREATE INDEX IF NOT EXISTS table_events_without_hand ON events (group_id, table_id, seq) "
        "WHERE hand_id IS NULL AND table_id IS NOT NULL",
    ), rebuilt=("group", "table_order", "table_place")),
    Migration(8, EVENINGS, (), rebuilt=EVENING_ROWS),
    Migration(9, STATS, (), rebuilt=STATS_ROWS),
    Migration(10, CARDS, (), rebuilt=CARD_ROWS),
    Migration(11, AT_ZERO, (), carry=evening_members_at_zero),
)

# Ids and hashes compare byte by byte (COLLATE "C"), as SQLite compares them, so that both
# backends list groups, and so export them, in the same order.
POSTGRES = (
    Migration(1, "events, Merkle nodes, projection rows, credentials, idempotency keys", (
        """CREATE TABLE events (
          position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          group_id TEXT COLLATE "C" NOT NULL,
          seq BIGINT NOT NULL,
          type TEXT COLLATE "C" NOT NULL,
          hand_id TEXT COLLATE "C",
          table_id TEXT COLLATE "C",
          data TEXT NOT NULL,
          actor TEXT COLLATE "C" NOT NULL,
          recorded_at TEXT COLLATE "C" NOT NULL,
          prev_hash TEXT COLLATE "C" NOT NULL,
          hash TEXT COLLATE "C" NOT NULL,
          UNIQUE (group_id, seq))""",
        "CREATE INDEX events_by_hand ON events (group_id, hand_id, seq) WHERE hand_id IS NOT NULL",
        "CREATE INDEX deals_by_table ON events (group_id, table_id, seq) WHERE type IN ('deal', 'result')",
        """CREATE FUNCTION bitka_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $body$""",
        "CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events "
        "FOR EACH ROW EXECUTE FUNCTION bitka_refuse_change()",
        "CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events "
        "FOR EACH ROW EXECUTE FUNCTION bitka_refuse_change()",
        "CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events "
        "FOR EACH STATEMENT EXECUTE FUNCTION bitka_refuse_change()",
        """CREATE TABLE merkle_nodes (
          group_id TEXT COLLATE "C" NOT NULL, level INTEGER NOT NULL, idx BIGINT NOT NULL, hash BYTEA NOT NULL,
          PRIMARY KEY (group_id, level, idx))""",
        """CREATE TABLE projection_rows (
          name TEXT COLLATE "C" NOT NULL, group_id TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL,
          data TEXT NOT NULL, PRIMARY KEY (name, group_id, key))""",
        "CREATE TABLE projection_positions (name TEXT PRIMARY KEY, position BIGINT NOT NULL)",
        """CREATE TABLE credentials (
          token_hash TEXT PRIMARY KEY, group_id TEXT COLLATE "C" NOT NULL, subject TEXT NOT NULL)""",
        """CREATE TABLE idempotency_keys (
          group_id TEXT COLLATE "C" NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
          status INTEGER NOT NULL, body TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (group_id, key))""",
    )),
    Migration(2, "invitations: one-time codes that sign a member in", (
        """CREATE TABLE invitations (
          code_hash TEXT PRIMARY KEY, group_id TEXT COLLATE "C" NOT NULL, member TEXT COLLATE "C" NOT NULL,
          expires_at TEXT, used_at TEXT)""",
    )),
    Migration(3, "sessions: the pages' sign-ins, each a random id kept as its hash", (
        """CREATE TABLE sessions (
          session_hash TEXT COLLATE "C" PRIMARY KEY, id TEXT COLLATE "C" NOT NULL UNIQUE,
          group_id TEXT COLLATE "C" NOT NULL, subject TEXT COLLATE "C" NOT NULL, token_hash TEXT COLLATE "C" NOT NULL,
          created_at TEXT COLLATE "C" NOT NULL, last_used_at TEXT COLLATE "C" NOT NULL, user_agent TEXT NOT NULL)""",
        "CREATE INDEX sessions_by_subject ON sessions (group_id, subject)",
    )),
    Migration(4, "settlements that wait for confirmation in rows of their own, not inside the balances row", (
        """CREATE TABLE pending_settlements (
          group_id TEXT COLLATE "C" NOT NULL, hand_id TEXT COLLATE "C" NOT NULL, table_id TEXT COLLATE "C" NOT NULL,
          seq BIGINT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (group_id, hand_id))""",
        "CREATE INDEX pending_in_log_order ON pending_settlements (group_id, seq)",
        "CREATE INDEX pending_by_table ON pending_settlements (group_id, table_id, seq)",
    ), pending_out_of_balances),
    Migration(5, "rows kept for a big group's reads: the balances' last moves, the kinds of table", (),
              rebuilt=("balance_steps", "table_kind")),
    Migration(6, "a group's tables in rows of their own, in the order they were opened, not in the group's row; "
              "a table's own events (opened, closed) found by an index", (
        "CREATE INDEX IF NOT EXISTS table_events_without_hand ON events (group_id, table_id, seq) "
        "WHERE hand_id IS NULL AND table_id IS NOT NULL",
    ), rebuilt=("group", "table_order", "table_place")),
    Migration(7, EVENINGS, (), rebuilt=EVENING_ROWS),
    Migration(8, STATS, (), rebuilt=STATS_ROWS),
    Migration(9, CARDS, (), rebuilt=CARD_ROWS),
    Migration(10, AT_ZERO, (), carry=evening_members_at_zero),
)

TRIGGERS = {"sqlite": ("events_refuse_update", "events_refuse_delete"),
            "postgresql": ("events_refuse_update", "events_refuse_delete", "events_refuse_truncate")}


class SchemaTooNew(RuntimeError):
    """The store was migrated by a newer bitka: this one must not write to it."""


def pending(applied: set[int], migrations: Sequence[Migration]) -> list[Migration]:
    """The migrations a store that has had ``applied`` still needs, in order."""
    return [m for m in migrations if m.version not in applied]


def apply(conn, migrations: Sequence[Migration], now: str,
          rebuild: Callable[[object, tuple[str, ...]], None] | None = None) -> list[int]:
    """Inside the caller's write transaction: record the table of migrations if it is new,
    then run and record each missing migration, and ``rebuild(conn, names)`` the kept rows
    the applied ones name (``Migration.rebuilt``). Returns the versions it applied."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                 "version INTEGER PRIMARY KEY, what TEXT NOT NULL, applied_at TEXT NOT NULL)")
    applied = {v for (v,) in conn.execute("SELECT version FROM schema_migrations")}
    if applied and max(applied) > latest(migrations):
        raise SchemaTooNew(f"the store's schema is at version {max(applied)}, newer than this bitka knows "
                           f"({latest(migrations)}); upgrade bitka before using it")
    done = []
    for m in pending(applied, migrations):
        for statement in m.statements:
            conn.execute(statement)
        if m.carry is not None:
            m.carry(conn)
        conn.execute("INSERT INTO schema_migrations (version, what, applied_at) VALUES (?, ?, ?)",
                     (m.version, m.what, now))
        done.append(m.version)
    names = tuple(sorted({name for m in migrations if m.version in done for name in m.rebuilt}))
    if names and rebuild is not None and applied:  # a new store has no rows to build
        rebuild(conn, names)
    return done


def latest(migrations: Sequence[Migration]) -> int:
    return max(m.version for m in migrations)
