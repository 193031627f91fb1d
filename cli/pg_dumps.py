"""PostgreSQL backups in bitka's own format: data, never a script.

A backup of a PostgreSQL store is its tables' rows, nothing else, gzipped::

    {"bitka_rows": 1, "schema": 4, "tables": ["credentials", "events", ...]}
    {"table": "credentials", "columns": ["token_hash", "group_id", "subject"]}
    <the table's rows, as PostgreSQL's COPY text writes them, a line each>
    \\.
    {"table": "events", ...}

read in one snapshot of the store (``REPEATABLE READ``), through psycopg's ``COPY ... TO
STDOUT``. Loading it is the other way round, in one transaction: bitka's own migrations
make the tables in the schema it is loaded into (as they were at the backup's schema
version), and each table's rows go in through ``COPY ... FROM STDIN``, whose names (schema,
table, columns) are bitka's, quoted as identifiers, never the file's text. A line of the
file is only ever a row of a table bitka made: nothing in it is run as a statement, and no
external tool (``psql``, ``pg_dump``) reads it. The file names a table or a column bitka
does not make, or leaves one out: refused.

Backups of bitka before 2026-12 were ``pg_dump`` scripts (``.sql.gz``): they are never fed
to anything (cli/restore.py says how to bring one back by hand).
"""
from __future__ import annotations

import gzip
import json
import os
import re
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from events import migrations
from events.envelope import utc_now
from events.pgstore import Connection

SCRATCH = "bitka_check_"
FORMAT = 1
SUFFIX = ".rows.gz"
_END = b"\\.\n"
_MOST_IN_A_LINE = 1 << 20  # a header line of the file is short; a longer one is not bitka's
_CREATED = re.compile(r"^\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+)", re.I)


class DumpFailed(RuntimeError):
    """The store could not be read or written, or the file is not a backup bitka made: the sentence says why."""


def tables_made(version: int) -> list[str]:
    """The tables bitka's PostgreSQL migrations up to ``version`` make, and the table of migrations."""
    names = {"schema_migrations"}
    for m in migrations.POSTGRES:
        if m.version <= version:
            names.update(found.group(1) for s in m.statements if (found := _CREATED.match(s)))
    return sorted(names)


def in_schema(url: str, schema: str) -> str:
    """The URL whose connections work in ``schema`` (its ``search_path``), other options kept."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "options"]
    kept = [o for (k, v) in parse_qsl(parts.query) if k == "options" for o in v.split()
            if not re.match(r"-c\s*search_path=", o)]
    query.append(("options", " ".join([*kept, f"-csearch_path={schema}"])))
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


def schema_of(url: str) -> str:
    """The schema a store URL works in: its connection's current schema, or the first of its
    ``search_path`` when that schema does not exist yet."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        current = conn.execute("SELECT current_schema()").fetchone()[0]
        if current:
            return current
        path = conn.execute("SHOW search_path").fetchone()[0]
    first = path.split(",")[0].strip()
    return first[1:-1].replace('""', '"') if first.startswith('"') else first


def tables_in(url: str, schema: str) -> list[str]:
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        return _tables(conn, schema)


def _tables(conn: psycopg.Connection, schema: str) -> list[str]:
    return [name for (name,) in conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname", (schema,))]


def _columns(conn: psycopg.Connection, schema: str, table: str) -> list[str]:
    return [name for (name,) in conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped "
        "ORDER BY attnum", (sql.Identifier(schema, table).as_string(conn),))]


def _line(value: dict) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\n"


def dump(url: str, schema: str, out: Path) -> int:
    """Every table of the store in ``schema`` that bitka's migrations made, its rows in one
    snapshot, gzipped to ``out`` (a new file); the store's schema version."""
    try:
        with psycopg.connect(url, connect_timeout=10) as conn, \
                os.fdopen(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "wb") as raw, \
                gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as packed:  # token hashes: the owner's alone
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            name = sql.Identifier(schema, "schema_migrations")
            version = conn.execute(sql.SQL("SELECT max(version) FROM {}").format(name)).fetchone()[0]
            names = [t for t in tables_made(version or 0) if t in set(_tables(conn, schema))]
            packed.write(_line({"bitka_rows": FORMAT, "schema": version, "tables": names}))
            for table in names:
                columns = _columns(conn, schema, table)
                packed.write(_line({"table": table, "columns": columns}))
                statement = sql.SQL("COPY {} ({}) TO STDOUT").format(
                    sql.Identifier(schema, table), sql.SQL(", ").join(map(sql.Identifier, columns)))
                with conn.cursor().copy(statement) as copy:
                    for row in copy:
                        packed.write(row)
                packed.write(_END)
            conn.rollback()
    except psycopg.Error as e:
        raise DumpFailed(f"the store could not be read: {str(e).strip()}") from None
    return version


def _header(lines: BinaryIO, what: str) -> dict:
    line = lines.readline(_MOST_IN_A_LINE)
    try:
        value = json.loads(line)
        if not isinstance(value, dict):
            raise ValueError("not an object")
        return value
    except ValueError:
        raise DumpFailed(f"the backup is not bitka's rows: where {what} should be, it holds "
                         f"{line[:60]!r}") from None


def _rows(lines: BinaryIO) -> Iterator[bytes]:
    """A table's lines of COPY text, up to its end (``\\.``)."""
    for line in lines:
        if line == _END:
            return
        yield line
    raise DumpFailed("the backup ends in the middle of a table")


def load(backup: Path, url: str, schema: str, replacing: bool = False) -> None:
    """Load the backup into ``schema`` of ``url``'s database, in one transaction: its tables
    made there by bitka's migrations (at the backup's schema version; with ``replacing``, the
    tables of bitka's that are there dropped first), then its rows copied into them."""
    try:
        with gzip.open(backup, "rb") as lines, psycopg.connect(url, connect_timeout=10) as conn:
            _load(lines, conn, schema, replacing)
    except (OSError, EOFError) as e:  # gzip's or the disk's
        raise DumpFailed(f"the backup cannot be read: {e}") from None
    except psycopg.Error as e:
        raise DumpFailed(f"the backup could not be loaded: {str(e).strip()}") from None


def _load(lines: BinaryIO, conn: psycopg.Connection, schema: str, replacing: bool) -> None:
    head = _header(lines, "its first line")
    version = head.get("schema")
    known = {m.version for m in migrations.POSTGRES}
    if head.get("bitka_rows") != FORMAT or type(version) is not int or version not in known:
        raise DumpFailed(f"the backup is not bitka's rows of a schema this bitka knows (it says {head!r:.200})")
    conn.execute("SET LOCAL lock_timeout = '10s'")
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    if replacing:
        for table in tables_made(max(known)):
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(sql.Identifier(schema, table)))
        conn.execute(sql.SQL("DROP FUNCTION IF EXISTS {}() CASCADE").format(
            sql.Identifier(schema, "bitka_refuse_change")))
    conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(schema)))
    migrations.apply(Connection(conn), [m for m in migrations.POSTGRES if m.version <= version], utc_now())
    conn.execute("DELETE FROM schema_migrations")  # the backup's own say when each was applied
    wanted, seen = tables_made(version), set()
    while len(seen) < len(wanted):
        said = _header(lines, "a table")
        table, columns = said.get("table"), said.get("columns")
        if table not in wanted or table in seen:
            raise DumpFailed(f"the backup holds a table bitka does not make here, or one twice: {table!r:.80}")
        ours = _columns(conn, schema, table)
        if columns != ours:
            raise DumpFailed(f"the backup's table {table} has the columns {columns!r:.300}, and bitka's has {ours}")
        seen.add(table)
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(schema, table), sql.SQL(", ").join(map(sql.Identifier, ours)))
        fed = 0
        with conn.cursor().copy(statement) as copy:
            for row in _rows(lines):
                copy.write(row)
                fed += 1
        went_in = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, table))).fetchone()[0]
        if went_in != fed:  # a line PostgreSQL reads as the end of the rows ("\." and a carriage return) cut it short
            raise DumpFailed(f"the backup's table {table} has {fed} lines of rows, and {went_in} rows went in: "
                             "a line in it ended the table early")
    if lines.read(1):
        raise DumpFailed("the backup goes on after its last table")
    conn.execute(sql.SQL("SELECT setval(pg_get_serial_sequence({}, 'position'), coalesce(max(position), 0) + 1, "
                         "false) FROM {}").format(sql.Literal(sql.Identifier(schema, "events").as_string(conn)),
                                                  sql.Identifier(schema, "events")))
    found = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
    if found != version:
        raise DumpFailed(f"the backup says schema {version}, and its table of migrations {found}")


@contextmanager
def scratch(url: str) -> Iterator[tuple[str, str]]:
    """A schema of its own in ``url``'s database (its URL and name), dropped afterwards."""
    name = f"{SCRATCH}{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    except psycopg.Error as e:
        raise DumpFailed(f"a scratch schema to check the backup in cannot be made ({str(e).strip()}); the store's "
                         "user needs the CREATE privilege on its database") from None
    try:
        yield in_schema(url, name), name
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))
