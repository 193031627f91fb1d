"""The two store backends for tests: where PostgreSQL is, a fresh schema for each test, and
raw access to a store's database for the tests that play the attacker."""
from __future__ import annotations

import os
import sqlite3
import uuid
from functools import lru_cache

import pytest

# Point the tests at another server with BITKA_TEST_POSTGRES (a libpq URL whose user may
# create schemas); BITKA_TEST_BACKENDS=sqlite runs the SQLite half alone.
POSTGRES_URL = os.environ.get("BITKA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = tuple(b for b in os.environ.get("BITKA_TEST_BACKENDS", "sqlite,postgresql").split(",") if b)


@lru_cache(maxsize=1)
def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used for tests here, or None when it can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.Error as e:
        return f"no PostgreSQL answers at {POSTGRES_URL} ({str(e).strip()})"
    return None


def require_postgres() -> None:
    """Skip without PostgreSQL, except in CI, where its absence is a failure."""
    problem = postgres_problem()
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs every test on PostgreSQL too, but {problem}")
        pytest.skip(problem)


def fresh_schema_url() -> tuple[str, str]:
    """A new empty schema and the URL whose connections work in it."""
    import psycopg
    schema = f"bitka_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}", schema


def drop_schema(schema: str) -> None:
    import psycopg
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def raw_errors() -> tuple[type[Exception], ...]:
    try:
        import psycopg
    except ImportError:
        return (sqlite3.DatabaseError,)
    return sqlite3.DatabaseError, psycopg.Error


def run_raw(store, *statements: str) -> None:
    """Statements run straight on the store's database, as whoever holds it could."""
    if store.backend.name == "sqlite":
        conn = sqlite3.connect(store.path, isolation_level=None)
    else:
        import psycopg
        conn = psycopg.connect(store.url, autocommit=True)
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()


def drop_trigger(store, name: str) -> str:
    return f"DROP TRIGGER {name}" + (" ON events" if store.backend.name == "postgresql" else "")


def everything_stored(store) -> bytes:
    """All a store's database holds, as bytes to search: the SQLite file and its WAL, or
    every row of every table as PostgreSQL prints it."""
    if store.backend.name == "sqlite":
        from pathlib import Path
        db = Path(store.path)
        return b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())
    import psycopg
    with psycopg.connect(store.url, autocommit=True) as conn:
        tables = [t for (t,) in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
        return "\n".join(str(row[0]) for t in tables for row in conn.execute(f"SELECT t::text FROM {t} AS t")).encode()


# A test whose subject is the cards (what a game decides, what each reader is shown of them)
# and not the store runs on SQLite alone; the store's and the API's own tests run on both
# backends. Each one so marked costs seconds per run, and CI has 25 minutes for everything.
ON_SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
