"""Options that the commands share: ``--db`` after the command's name as well as before it."""
from __future__ import annotations

import click

DB_AFTER_HELP = ("The store, as in bitka --db STORE (else $BITKA_DB, else ./bitka.db). Given before and after "
                 "the command, the one after it wins.")


def _db_after(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """A ``--db`` after the command's name names the store instead of the one before it."""
    if value is not None:
        ctx.obj.db, ctx.obj.named_by = value, "--db"


def store_option(command):
    """``--db STORE`` on a command that reads or writes the store (``bitka verify --db club.db``)."""
    return click.option("--db", metavar="STORE", callback=_db_after, expose_value=False,
                        help=DB_AFTER_HELP)(command)
