"""The event store on PostgreSQL (psycopg 3), for deployments whose servers share one database.

The SQL is the store's own (``events.store``); this module connects, translates its
``?`` placeholders, streams scans through server-side cursors and takes the locks:

- a write locks its group (a transaction-scoped advisory lock on the schema and group
  id) before it reads anything, so two servers appending to one group queue, and the
  group's ``seq`` has no gaps; ``UNIQUE (group_id, seq)`` stands behind it;
- a read runs in one ``REPEATABLE READ`` snapshot, as an SQLite read does;
- migrations run under one advisory lock, so servers starting together migrate once.

A lock not granted within the busy timeout, a deadlock or a write that lost a race on
``UNIQUE (group_id, seq)`` is a 409 that says the request may be sent again: nothing was
written.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator, Sequence

import psycopg
from psycopg import errors as pg_errors
from psycopg import pq
from psycopg.pq import TransactionStatus

from . import migrations
from .unit_of_work import StoreBase
from .errors import Contention, VersionConflict
from .store import Backend

MIGRATION_LOCK = 0x6269746B61  # "bitka": the advisory lock that migrations take
STREAM_BATCH = 2000
RETRY_LATER = (pg_errors.LockNotAvailable, pg_errors.DeadlockDetected, pg_errors.SerializationFailure,
               pg_errors.UniqueViolation)


@lru_cache(maxsize=512)
def _pg(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (its SQL has no other ``?`` or ``%``)."""
    return sql.replace("%", "%%").replace("?", "%s")


class Connection:
    """A psycopg connection that speaks the store's SQL: ``execute(sql, args)`` with ``?``."""

    def __init__(self, raw: psycopg.Connection):
        self.raw = raw
        self._cursors = 0
        self.begin: str | None = None  # a BEGIN not sent yet: it goes out with the next statement

    def execute(self, sql: str, args: Sequence = ()):
        try:
            if self.begin is not None and self.raw.pgconn.pipeline_status == pq.PipelineStatus.OFF:
                with self.raw.pipeline():  # one round trip for both; the answer is read as the block ends
                    self._begun()
                    found = self.raw.execute(_pg(sql), args) if args else self.raw.execute(sql)
                return found
            self._begun()
            return self.raw.execute(_pg(sql), args) if args else self.raw.execute(sql)
        except RETRY_LATER as e:
            raise _conflict(e) from None

    def _begun(self) -> None:
        if self.begin is not None:
            begin, self.begin = self.begin, None
            self.raw.execute(begin)

    def forget_begin(self) -> None:
        """A BEGIN never sent (a read that asked nothing) stays unsent: the connection is idle."""
        self.begin = None

    def executemany(self, sql: str, rows: Sequence[tuple]) -> None:
        try:
            self._begun()
            with self.raw.cursor() as cur:
                cur.executemany(_pg(sql), rows)
        except RETRY_LATER as e:
            raise _conflict(e) from None

    def stream(self, sql: str, args: Sequence) -> Iterator[tuple]:
        if self.raw.pgconn.pipeline_status != pq.PipelineStatus.OFF:  # no server-side cursor in a pipeline
            yield from self.execute(sql, args)
            return
        self._begun()  # a server-side cursor lives in the transaction: its BEGIN goes first
        self._cursors += 1
        with self.raw.cursor(name=f"bitka_scan_{self._cursors}") as cur:
            cur.itersize = STREAM_BATCH
            cur.execute(_pg(sql), args) if args else cur.execute(sql)
            yield from cur

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def close(self) -> None:
        self.raw.close()


def _conflict(e: Exception) -> Contention | VersionConflict:
    if isinstance(e, pg_errors.UniqueViolation):
        return VersionConflict("another write to this group landed first; nothing was appended, so the request may "
                               "simply be sent again")
    return Contention(f"the group stayed locked by another write ({type(e).__name__}); nothing was appended, "
                      "so the request may simply be sent again")


class PostgresBackend(Backend):
    name = "postgresql"

    def stream(self, conn: Connection, sql: str, args) -> Iterator[tuple]:
        return conn.stream(sql, args)

    def executemany(self, conn: Connection, sql: str, rows: Sequence[tuple]) -> None:
        conn.executemany(sql, rows)

    def lock_group(self, conn: Connection, group: str) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || ?::text, 0))", (group,))

    def has_table(self, conn: Connection, name: str) -> bool:
        return conn.execute("SELECT to_regclass(?::text) IS NOT NULL", (name,)).fetchone()[0]

    def triggers(self, conn: Connection) -> set[str]:
        if not self.has_table(conn, "events"):
            return set()
        return {r[0] for r in conn.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass('events') AND NOT tgisinternal")}


POSTGRES = PostgresBackend()


class PostgresStore(StoreBase):
    backend = POSTGRES
    schema = migrations.POSTGRES

    def connect(self) -> Connection:
        try:
            raw = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as e:
            raise StoreUnavailable(f"cannot connect to {redacted(self.url)}: {str(e).strip()}") from None
        raw.execute(f"SET lock_timeout = {int(self.busy_timeout_ms)}")
        raw.execute("SET idle_in_transaction_session_timeout = 600000")
        return Connection(raw)

    def begin_reading(self, conn: Connection) -> None:
        """A read's snapshot begins with its first statement, sent together with it (psycopg's
        pipeline, for those two): a read costs one round trip fewer. The snapshot is still
        taken before that statement runs, so every statement of the read sees one state."""
        conn.begin = "BEGIN ISOLATION LEVEL REPEATABLE READ"

    def in_transaction(self, conn: Connection) -> bool:
        """Asked as a connection goes back to the pool (and when a write fails): a read's BEGIN
        never sent is forgotten there, as there is nothing to roll back."""
        conn.forget_begin()
        return conn.in_transaction

    def begin_writing(self, conn: Connection) -> None:
        conn.execute("BEGIN")

    @contextmanager
    def pipelined(self, conn: Connection, group: str | None) -> Iterator[None]:
        """A write to one group (the service's) runs in psycopg's pipeline mode: a statement
        whose answer nobody reads (BEGIN, the group's lock, the inserts and upserts after the
        event, COMMIT) goes out with the next one that is read, or at the end, so a trick
        costs a few round trips to the database rather than one a statement. Its errors
        therefore arrive at that later read: those that mean "try again" become the same 409
        as where they are raised at once. The commit's answer is awaited before the write
        returns. Writes of the command line (imports, rebuilds, migrations) are not
        pipelined: they stream through server-side cursors, which a pipeline cannot hold."""
        if group is None:
            yield
            return
        try:
            with conn.raw.pipeline():
                yield
        except RETRY_LATER as e:
            raise _conflict(e) from None

    def analyze(self) -> None:
        """Without fresh statistics, PostgreSQL plans a replay's batched row lookups from an
        empty table's and reads every row of the group for each batch: right after a bulk
        load, the rows part of a replay ran at 44,000 events/s instead of 100,000."""
        conn = self._acquire()
        try:
            conn.execute("ANALYZE")
        finally:
            self._release(conn)

    def lock_for_migrating(self, conn: Connection) -> None:
        """Servers starting together on one database migrate it once, one after the other."""
        conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))


class StoreUnavailable(Exception):
    """The database could not be reached: the command line says so in a sentence."""


def redacted(url: str) -> str:
    """A PostgreSQL URL without its password, fit for a message."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL URL given"
    user = info.get("user")
    hosts = str(info.get("host", "localhost")).split(",")
    ports = str(info.get("port", "")).split(",")
    ports = ports * len(hosts) if len(ports) == 1 else ports + [""] * (len(hosts) - len(ports))  # one for all, or each
    # A multi-host URL (a primary and its standby) keeps each host beside its own port.
    where = ",".join(f"{host}{':' + port if port else ''}" for host, port in zip(hosts, ports, strict=False))
    return f"postgresql://{user + '@' if user else ''}{where}/{info.get('dbname', '')}"
