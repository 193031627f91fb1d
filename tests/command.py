"""The ``bitka`` command run in-process, for the integration tests of the command line."""
from __future__ import annotations

from click.testing import CliRunner, Result

from cli.main import bitka


def run(*args: str) -> Result:
    return CliRunner().invoke(bitka, list(args))
