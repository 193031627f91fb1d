"""PostgreSQL backups: ``pg_dump`` of the store's schema (plain SQL, gzipped), and that dump
loaded again with ``psql`` into another schema of a database: a scratch schema, to verify
and replay it as a store of its own, or the schema a restore names.

A plain dump names every object by its schema (``public.events``); loading it elsewhere
says each name again with the other schema, outside the rows it copies (their text is
never touched). A load runs in one transaction (``psql --single-transaction``), so it lands
whole or not at all; a restore that replaces a store drops its tables in that transaction
too. The password of a URL goes to ``pg_dump`` and ``psql`` in their environment, never on
a command line another user could read.
"""
from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

SCRATCH = "bitka_check_"
_COPY = re.compile(rb"^COPY .* FROM stdin;\r?\n$")
_END_OF_COPY = (b"\\.\n", b"\\.\r\n")
_SCHEMA_STATEMENTS = (b"CREATE SCHEMA ", b"ALTER SCHEMA ", b"COMMENT ON SCHEMA ")


class DumpFailed(RuntimeError):
    """pg_dump or psql could not do it: the sentence says why."""


def tools_problem() -> str | None:
    """Why PostgreSQL stores cannot be backed up or restored here (None: they can)."""
    missing = [tool for tool in ("pg_dump", "psql") if shutil.which(tool) is None]
    if missing:
        return (f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed; PostgreSQL backups "
                "need them (Debian: apt-get install postgresql-client)")
    return None


def _conninfo(url: str) -> tuple[str, dict]:
    """The URL as the libpq tools take it, without its password, and the environment that
    carries the password."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    password = info.pop("password", None)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = str(password)
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items()}), env


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
        return [name for (name,) in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname", (schema,))]


def dump(url: str, schema: str, out: Path) -> None:
    """``pg_dump`` of ``schema`` (one consistent snapshot, taken while servers write), gzipped to ``out``."""
    conninfo, env = _conninfo(url)
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # a dump holds token hashes: the owner's
    with tempfile.TemporaryFile() as errors, os.fdopen(fd, "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as packed:
        process = subprocess.Popen(["pg_dump", "--dbname", conninfo, "--schema", schema, "--format", "plain",
                                    "--no-owner", "--no-privileges"], stdout=subprocess.PIPE, stderr=errors, env=env)
        for block in iter(lambda: process.stdout.read(1 << 20), b""):
            packed.write(block)
        if process.wait() != 0:
            errors.seek(0)
            raise DumpFailed(f"pg_dump failed: {errors.read().decode('utf-8', 'replace').strip()}")


def _said_again(line: bytes, pattern: re.Pattern, target: bytes) -> bytes:
    return pattern.sub(target + b".", line)


def _qualified(schema: str) -> re.Pattern:
    forms = sorted({schema, '"' + schema.replace('"', '""') + '"'}, key=len, reverse=True)
    return re.compile(rb'(?<![\w$".])(?:' + b"|".join(re.escape(f.encode("utf-8")) for f in forms) + rb")\.")


def _ident(name: str) -> bytes:
    return ('"' + name.replace('"', '""') + '"').encode("utf-8")


def rewritten(dump_file: Path, source: str, target: str) -> Iterator[bytes]:
    """The dump's lines with every name in ``source`` said in ``target``; the rows it copies
    stay as they are, and the statements about the schema itself are left out."""
    pattern, said = _qualified(source), _ident(target)
    copying = False
    with gzip.open(dump_file, "rb") as lines:
        for line in lines:
            if copying:
                copying = line not in _END_OF_COPY
                yield line
                continue
            if line.startswith(_SCHEMA_STATEMENTS):
                continue
            copying = bool(_COPY.match(line))
            yield _said_again(line, pattern, said)


def load(dump_file: Path, url: str, source: str, target: str, replacing: list[str] = ()) -> None:
    """Load the dump of schema ``source`` into schema ``target`` of ``url``'s database in one
    transaction, dropping the tables ``replacing`` names there first."""
    conninfo, env = _conninfo(url)
    prelude = [b"SET lock_timeout = '10s';\n", b"CREATE SCHEMA IF NOT EXISTS " + _ident(target) + b";\n"]
    for table in replacing:
        prelude.append(b"DROP TABLE IF EXISTS " + _ident(target) + b"." + _ident(table) + b" CASCADE;\n")
    if replacing:
        prelude.append(b"DROP FUNCTION IF EXISTS " + _ident(target) + b".bitka_refuse_change() CASCADE;\n")
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(["psql", "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1",
                                    "--single-transaction", "--dbname", conninfo, "--file", "-"],
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors, env=env)
        try:
            for line in prelude:
                process.stdin.write(line)
            for line in rewritten(dump_file, source, target):
                process.stdin.write(line)
            process.stdin.close()
        except BrokenPipeError:  # psql stopped at an error: it says which below
            pass
        except OSError as e:  # the dump could not be read (gzip's or the disk's error)
            process.kill()
            process.wait()
            raise DumpFailed(f"the dump cannot be read: {e}") from None
        if process.wait() != 0:
            errors.seek(0)
            raise DumpFailed(f"psql could not load the dump: {errors.read().decode('utf-8', 'replace').strip()}")


@contextmanager
def scratch(url: str) -> Iterator[tuple[str, str]]:
    """A schema of its own in ``url``'s database (its URL and name), dropped afterwards."""
    name = f"{SCRATCH}{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    except psycopg.Error as e:
        raise DumpFailed(f"a scratch schema to check the dump in cannot be made ({str(e).strip()}); the store's "
                         "user needs the CREATE privilege on its database") from None
    try:
        yield in_schema(url, name), name
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))
