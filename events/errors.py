"""Problems: errors as values with a status and a sentence, shown as RFC 9457 problem+json.

Only the service turns them into responses; everything below raises them.
"""
from __future__ import annotations

from typing import Any, Mapping


class Problem(Exception):
    status = 500
    title = "Internal error"
    slug = "internal"

    def __init__(self, detail: str, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.extra: Mapping[str, Any] = extra


class BadRequest(Problem):
    status, title, slug = 400, "Bad request", "bad-request"


class Unauthorized(Problem):
    status, title, slug = 401, "Unauthorized", "unauthorized"


class Forbidden(Problem):
    status, title, slug = 403, "Forbidden", "forbidden"


class NotFound(Problem):
    status, title, slug = 404, "Not found", "not-found"


class Conflict(Problem):
    status, title, slug = 409, "Conflict", "conflict"


class PreconditionFailed(Problem):
    status, title, slug = 412, "Precondition failed", "precondition-failed"


class Unprocessable(Problem):
    status, title, slug = 422, "Unprocessable", "unprocessable"


class RuleBroken(Unprocessable):
    """A move or fact that the game's rules refuse (wraps games.errors.RuleViolation)."""
    title, slug = "Against the rules", "rule-violation"
