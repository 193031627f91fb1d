"""The errors the rules raise: a move or fact the game does not allow, a result that leaves
out what it must say, and a field of the wrong kind."""
from __future__ import annotations

from typing import Iterable

from events.sentences import say


class RuleViolation(Exception):
    """Raised by a game's ``decide`` with a sentence a player understands; ``extra`` carries
    what the sentence lists as data a client can use (the legal captures of a play, ``legal``)."""

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class Revealing(RuleViolation):
    """A refusal that tells what a seat holds (``seat``), or where a card is (``seat`` None:
    it may tell of any hand), and the same refusal in words that tell nothing of it
    (``public``): what a reader who may not see those cards is told instead (without the
    ``extra`` data, which goes only with ``detail``)."""

    def __init__(self, detail: str, seat: int | None, public: str, **extra):
        super().__init__(detail, **extra)
        self.seat = seat
        self.public = public


def may_not_play(card: str, seat: int) -> str:
    """The one refusal of a card a reader may not see the holder of: the same whether the
    seat lacks it or holds it against the follow rules."""
    return say("seat {seat} may not play {card} here", seat=seat, card=card)


class Incomplete(Exception):
    """A result (or command) without fields it must have: a malformed request, not a rule.
    ``fields`` names them, in the order the form lists them."""

    def __init__(self, fields: Iterable[str], what: str = say("the result"), ties: bool = False):
        self.fields = tuple(fields)
        self.detail = (say("{what} is missing {fields}: every field that applies to the hand is "
                           "required{ties}",
                           what=what, fields=_listed(self.fields),
                           ties=say(" (null is how a tie is said)") if ties else ""))
        super().__init__(self.detail)


class Malformed(Exception):
    """A field of the wrong kind (text where a number belongs, null where nothing can tie):
    a malformed request, the API's 400, not a rule. ``field`` names it."""

    def __init__(self, field: str, detail: str):
        super().__init__(detail)
        self.field = field
        self.fields = (field,)
        self.detail = detail


def require(raw, fields: Iterable[str], what: str = say("the result"), ties: bool = False) -> None:
    """Raise Incomplete naming each of ``fields`` that ``raw`` leaves out; ``ties`` when
    some of them say a tie with null."""
    missing = [f for f in fields if f not in raw]
    if missing:
        raise Incomplete(missing, what, ties)


def whole_number(value, field: str, what: str = say("a whole number")) -> int:
    """``value`` when it is a JSON integer (not a boolean); else Malformed."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(field, say("{field} must be {what}, not {shown_value}",
                                   field=field, what=what, shown_value=_shown(value)))
    return value


def _shown(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {str: "text", list: "a list", dict: say("an object"), float: "a fraction"}.get(type(value), "that")


def _listed(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else say("{all_but_last} and {last}",
                                                all_but_last=", ".join(names[:-1]), last=names[-1])
