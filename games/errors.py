"""The errors the rules raise: a move or fact the game does not allow, and a result that
leaves out what it must say."""
from __future__ import annotations

from typing import Iterable


class RuleViolation(Exception):
    """Raised by a game's ``decide`` with a sentence a player understands."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class Incomplete(Exception):
    """A result (or command) without fields it must have: a malformed request, not a rule.
    ``fields`` names them, in the order the form lists them."""

    def __init__(self, fields: Iterable[str], what: str = "the result"):
        self.fields = tuple(fields)
        self.detail = (f"{what} is missing {_listed(self.fields)}: every field that applies to the hand is "
                       "required (null is how a tie is said)")
        super().__init__(self.detail)


def require(raw, fields: Iterable[str], what: str = "the result") -> None:
    """Raise Incomplete naming each of ``fields`` that ``raw`` leaves out."""
    missing = [f for f in fields if f not in raw]
    if missing:
        raise Incomplete(missing, what)


def _listed(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
