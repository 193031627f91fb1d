"""Domain errors: what went wrong, in a sentence, and nothing about HTTP.

Everything below the service raises these; only ``service/problems.py`` turns them into
statuses and RFC 9457 problem+json. ``extra`` carries what a client may need besides the
sentence (the group's current version, the balance the log gives, fields' messages).
"""
from __future__ import annotations

from typing import Any, Mapping

from events.sentences import say


class DomainError(Exception):
    def __init__(self, detail: str, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.extra: Mapping[str, Any] = extra


class Invalid(DomainError):
    """The request is malformed: a field missing or of the wrong kind (``errors`` says which)."""


class Refused(DomainError):
    """Whoever asked may not do this."""


class NotFound(DomainError):
    """No such group, member, table or hand."""


class Contention(DomainError):
    """Other writes held the store (or the group) too long: nothing was done; send it again."""


class VersionConflict(DomainError):
    """The group moved on from the version a write was decided on, between deciding and appending."""


class StaleVersion(DomainError):
    """The version the client named (If-Match) is no longer the group's (``version`` says which is)."""


class Conflict(DomainError):
    """What is asked clashes with what stands (an invitation for a member who holds a device key)."""


class Gone(DomainError):
    """What was there is no more: an invitation used or expired."""


class Unprocessable(DomainError):
    """Well-formed, but against the ledger's rules (a closed table, a member twice)."""


class RuleBroken(Unprocessable):
    """Against the game's rules; ``field`` (when known) is where in the request it struck,
    a path such as ``tricks[2]`` or ``result.points``."""

    def __init__(self, detail: str, field: str | None = None, **extra: Any):
        super().__init__(detail, **extra)
        self.field = field


class Damaged(DomainError):
    """The stored log of a group does not hold at ``seq``: the event there no longer hashes to
    its stored hash, or does not link to the event before it. Nothing that needs it is served
    as if true, and the group takes no writes."""

    def __init__(self, group: str, seq: int):
        super().__init__(say("the log of group {group} is damaged at seq {seq}: the event stored there no longer "
                             "matches its hash chain, so nothing that needs it is shown, and the group takes no "
                             "writes until its store is restored from a backup",
                             group=group, seq=seq), seq=seq)
        self.group = group
        self.seq = seq
