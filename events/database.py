"""Opening a store: the choice of backend by the store's URL (a path or ``sqlite:///`` for
SQLite, ``postgresql://`` for PostgreSQL)."""
from __future__ import annotations

from pathlib import Path

from .errors import Invalid
from .pgstore import PostgresStore
from .sqlite import SQLiteStore
from .store import Projector
from .unit_of_work import StoreBase

__all__ = ["SQLiteStore", "Store", "StoreBase", "is_postgres", "open_store", "sqlite_path"]


def open_store(url: str | Path, projector: Projector | None = None, busy_timeout_ms: int = 10_000) -> StoreBase:
    """The store a ``--db`` / ``BITKA_DB`` names: ``postgresql://...`` (or ``postgres://``)
    is PostgreSQL; ``sqlite:///path`` or a plain path is an SQLite file."""
    url = str(url)
    if is_postgres(url):
        return PostgresStore(url, projector, busy_timeout_ms)
    return SQLiteStore(sqlite_path(url), projector, busy_timeout_ms)


def sqlite_path(url: str) -> str:
    """The file of an SQLite store URL (``sqlite:///relative.db``, ``sqlite:////abs.db``) or path."""
    if url.startswith("sqlite://"):
        path = url.removeprefix("sqlite://")
        if not path.startswith("/") or path == "/":
            raise Invalid(f"an SQLite store URL is sqlite:///path/to/file.db, not {url!r}")
        return path[1:] or path
    if "://" in url:
        raise Invalid(f"bitka stores are SQLite files (a path or sqlite:///path) or postgresql://... URLs, "
                         f"not {url!r}")
    return url


def is_postgres(url: str | Path) -> bool:
    return str(url).startswith(("postgresql://", "postgres://"))


Store = SQLiteStore  # what bitka's code and tests long called the SQLite store
