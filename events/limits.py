"""How much one request may record: at most ``MAX_APPEND_BYTES`` of events.

A request is a few hundred bytes; what it makes the ledger append can be more (a hand's
events, a correction that settles later hands again). However it was asked, one unit of
work (one request's write transaction) appends at most 1 MiB of events, counted as their
canonical bytes (the bytes each event's hash is taken of), so that no small request can
grow the store by megabytes or make every later read of the group pay for it. What would
go past it is refused before anything is written: a 422 that says why and what to do
instead, and the log stays as it was.

An exported event is its canonical bytes with its hash added, one line each, so every line
``bitka export`` writes of events appended under this bound is at most ``MAX_EXPORTED_LINE``
bytes: what ``bitka import`` reads (cli/transfer.py), from the same number.
"""
from __future__ import annotations

from .errors import Unprocessable
from .sentences import say

MAX_APPEND_BYTES = 1 << 20  # 1 MiB of events per request
# A correction settles the later hands of its table again, each a game's settlement to work
# out and to record where it changed: at most this many in one request. Every later reader
# of those hands (their pages, their live parts, their audit) reads what the correction
# recorded of them, so a few hundred keep a correction's event under 100 KiB and a hand's
# page cheap however often its past is corrected; an evening's table is a few dozen hands.
MOST_SETTLED_AGAIN = 300
HASH_FIELD = len(',"hash":""') + 64  # what an exported line adds to the canonical bytes: its hash
MAX_EXPORTED_LINE = MAX_APPEND_BYTES + HASH_FIELD + 1  # and its newline


class TooMuchToRecord(Unprocessable):
    """What a request asks would append more than one request may (422, nothing appended)."""


def kib(size: int) -> str:
    """A size in KiB, rounded up, as a refusal names it."""
    return f"{-(-size // 1024):,} KiB"


def refuse_over(total: int) -> None:
    """Refuse a request whose events come to ``total`` bytes, past the bound."""
    if total > MAX_APPEND_BYTES:
        raise TooMuchToRecord(
            say("this request would record {size} of events, more than the {limit} one request may append; "
                "nothing was recorded: send what it asks in smaller requests",
                size=kib(total), limit=kib(MAX_APPEND_BYTES)),
            size=total, limit=MAX_APPEND_BYTES)


def refuse_correction_over(total: int, hands: int) -> None:
    """Refuse a correction whose event would come to ``total`` bytes, past the bound, saying
    how many hands it would settle again and what to do instead."""
    if total > MAX_APPEND_BYTES:
        raise TooMuchToRecord(
            say("this correction would settle {hands} hands of the table again and record {size}, more than the "
                "{limit} one request may append; nothing was recorded. Correct a later hand of the table instead "
                "(fewer hands follow it), or record the difference as payments between the members",
                hands=hands, size=kib(total), limit=kib(MAX_APPEND_BYTES)),
            size=total, limit=MAX_APPEND_BYTES)
