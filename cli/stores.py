"""The store a command names (``--db``, ``--from``, ``--to``): opened as the command needs
it, named in messages without a password, and what a store that cannot be used raises."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import click
import psycopg

from events.database import StoreBase, is_postgres, open_store, sqlite_path
from events.errors import DomainError
from events.pgstore import StoreUnavailable, redacted
from projections import kept
from projections.projector import project


class Context:
    """The store a command works on, as the command line named it (``named_by`` says how,
    for the message when there is none)."""

    def __init__(self, db: str, named_by: str = "--db or BITKA_DB"):
        self.db, self.named_by = db, named_by

    @property
    def shown(self) -> str:
        """The store as messages name it (a PostgreSQL URL without its password)."""
        return shown(self.db)

    def store(self, create: bool = False) -> StoreBase:
        """The store at --db. Only commands that write may create it; the others open it as
        it is (re-creating a dropped trigger before ``verify`` would hide the tampering)."""
        try:
            store = open_store(self.db, projector=project)
        except DomainError as e:
            raise click.UsageError(e.detail) from None
        if create:
            return store.setup(kept.rebuild)
        if not is_postgres(self.db) and not Path(sqlite_path(self.db)).exists():
            raise click.UsageError(f"there is no store at {self.db}; name one with {self.named_by}")
        try:
            with store.reading() as r:
                if r.is_store():
                    return store
        except sqlite3.DatabaseError:
            pass
        raise click.UsageError(f"{self.shown} is not a bitka store")


def shown(db: str) -> str:
    if is_postgres(db):
        return redacted(db)
    return db


def database_errors() -> tuple[type[Exception], ...]:
    """What a store that cannot be reached or used raises: SQLite's errors and psycopg's."""
    return sqlite3.DatabaseError, psycopg.Error, StoreUnavailable
