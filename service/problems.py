"""One error shape for every failure: RFC 9457 problem+json, never a bare 500.

The layers below raise domain errors (events/errors.py); this is the one place that says
which HTTP status, title and type each one is.
"""
from __future__ import annotations

import json
import logging

import psycopg
from flask import Response, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from events.errors import (Conflict, Contention, Damaged, DomainError, Gone, Invalid, NotFound, Refused, RuleBroken,
                           StaleVersion, Unprocessable, VersionConflict)
from events.pgstore import StoreUnavailable
from games.engine.errors import RuleViolation
from .auth import Unauthenticated
from .i18n import languages, phrases
from .limits import TooMany

log = logging.getLogger("bitka")
MEDIA_TYPE = "application/problem+json"
_DETAILS = {
    400: "the request is not well-formed",
    404: "there is nothing at this address",
    405: "this address does not take that method",
    413: "the request body is larger than this service accepts",
    415: "send the body as application/json",
}


def problem(status: int, title: str, detail: str, slug: str, **extra) -> Response:
    body = {"type": f"urn:bitka:problem:{slug}", "title": title, "status": status, "detail": detail, **extra}
    # ASCII escapes: a problem may quote the client's own bad input, lone surrogates and all.
    return Response(json.dumps(body), status=status, mimetype=MEDIA_TYPE)


STATUSES: dict[type, tuple[int, str, str]] = {  # most specific first: the first class an error is wins
    RuleBroken: (422, "Against the rules", "rule-violation"),
    Unprocessable: (422, "Unprocessable", "unprocessable"),
    Invalid: (400, "Bad request", "bad-request"),
    Unauthenticated: (401, "Unauthorized", "unauthorized"),
    Refused: (403, "Forbidden", "forbidden"),
    NotFound: (404, "Not found", "not-found"),
    Gone: (410, "Gone", "gone"),
    VersionConflict: (409, "Conflict", "conflict"),
    Conflict: (409, "Conflict", "conflict"),
    Contention: (409, "Conflict", "conflict"),
    StaleVersion: (412, "Precondition failed", "precondition-failed"),
    TooMany: (429, "Too many requests", "too-many-requests"),
    Damaged: (500, "Damaged store", "damaged-store"),  # the stored log does not hold: nothing of it is served
}


def status_of(e: DomainError) -> tuple[int, str, str]:
    """The status, title and type slug of a domain error."""
    return next((said for kind, said in STATUSES.items() if isinstance(e, kind)), (500, "Internal error", "internal"))


def _in_readers_language(status: int, detail: str, response_headers: dict) -> str:
    """A refusal's detail (422) in the language the client asked for with
    ``Accept-Language`` (English otherwise): the rules' sentence said again, seats and all."""
    if status != 422:
        return detail
    language = languages.for_api()
    response_headers["Vary"] = "Accept-Language"
    if language == languages.SOURCE:
        return detail
    response_headers["Content-Language"] = language.replace("_", "-")
    return phrases.say(detail, language)


def game_data(e: DomainError) -> dict:
    """What a game's refusal carries as data beside its sentence (the legal captures of a play): the
    ledger says the game's RuleViolation again as a RuleBroken, which keeps it as its cause or
    context. The data goes only where that sentence goes whole: a refusal said otherwise to a
    reader who may not see some cards (masked, or in words that tell nothing) carries none."""
    if not isinstance(e, RuleBroken):
        return {}
    seen = e.__cause__ or e.__context__
    while seen is not None and not isinstance(seen, RuleViolation):
        seen = seen.__cause__ or seen.__context__
    if seen is None or not seen.extra or not e.detail.endswith(seen.detail):
        return {}
    return dict(seen.extra)


def from_domain_error(e: DomainError) -> Response:
    status, title, slug = status_of(e)
    extra = {**game_data(e), **e.extra}
    retry_after = extra.pop("retry_after", None)
    headers: dict = {}
    response = problem(status, title, _in_readers_language(status, e.detail, headers), slug, **extra)
    response.headers.update(headers)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="bitka"'
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def from_rule_violation(e: RuleViolation) -> Response:
    headers: dict = {}
    response = problem(422, "Against the rules", _in_readers_language(422, e.detail, headers), "rule-violation",
                       **e.extra)
    response.headers.update(headers)
    return response


def for_people() -> bool:
    """Whether the request is a person's browser on a page's address (not the API's, not a
    client asking for JSON): its errors are then an HTML page."""
    if request.path.startswith("/v1/") or request.path == "/v1":
        return False
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "text/html"


def as_page(status: int, title: str, detail: str) -> Response:
    page = render_template("error.html", status=status, title=title, detail=detail)
    return Response(page, status=status, mimetype="text/html")


def from_http(e: HTTPException) -> Response:
    status = e.code or 500
    if for_people() and status in (404, 405):
        # The page's words: 404 and 405 are both an address with no page to show.
        return as_page(status, _("Nothing here") if status == 404 else _("Method Not Allowed"),
                       _("There is no page at this address. Check the link, or start from your group's page."))
    data = getattr(e, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if messages:
        raw = messages.get("json") if isinstance(messages, dict) else None
        if isinstance(raw, list) and any("Invalid JSON" in str(m) for m in raw):
            return problem(400, "Bad request", "the body is not valid JSON", "malformed-json")
        errors = _flatten(messages)
        first = next(iter(errors.items()))
        detail = f"{first[0]}: {first[1][0]}" if first[0] else first[1][0]
        return problem(400, "Bad request", f"the request does not match the schema ({detail})",
                       "validation", errors=errors)
    detail = data.get("message") or _DETAILS.get(status) or e.description or e.name
    response = problem(status, e.name, detail, e.name.lower().replace(" ", "-"))
    for name, value in e.get_headers():
        if name.lower() == "allow":  # a 405 names the methods the address does take
            response.headers[name] = value
    return response


def from_crash(e: Exception) -> Response:
    log.exception("unexpected error")
    return problem(500, "Internal error", "bitka failed on this request; nothing was appended", "internal")


def _flatten(messages, prefix: str = "") -> dict[str, list[str]]:
    """webargs nests messages by location and field; clients want ``field -> [messages]``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            name = str(key) if key not in ("json", "query", "headers") or prefix else ""
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            for k, v in _flatten(value, path).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out[prefix] = list(messages)
    elif isinstance(messages, list):
        for i, m in enumerate(messages):
            out.update(_flatten(m, f"{prefix}[{i}]"))
    else:
        out[prefix] = [str(messages)]
    return out


def from_unreachable_store(e: Exception) -> Response:
    log.warning("the store cannot be reached: %s", e)
    response = problem(503, "Service unavailable", "the database cannot be reached right now; nothing was "
                       "appended, so the request may be sent again shortly", "store-unavailable")
    response.headers["Retry-After"] = "5"
    return response


def register(app) -> None:
    app.register_error_handler(DomainError, from_domain_error)
    app.register_error_handler(RuleViolation, from_rule_violation)
    app.register_error_handler(HTTPException, from_http)
    app.register_error_handler(Exception, from_crash)
    app.register_error_handler(StoreUnavailable, from_unreachable_store)
    app.register_error_handler(psycopg.OperationalError, from_unreachable_store)
