"""The ``bitka`` command run in-process, for the integration tests of the command line."""
from __future__ import annotations

from click.testing import CliRunner, Result

from cli.main import bitka


def run(*args: str) -> Result:
    return CliRunner().invoke(bitka, list(args))


def demo_store(db: str) -> str:
    """``bitka demo`` into a new store at ``db``; the id of the group it made."""
    from events.database import open_store
    result = run("--db", db, "demo")
    assert result.exit_code == 0, result.output
    with open_store(db).reading() as r:
        return r.group_ids()[0]
