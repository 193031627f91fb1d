"""The HTTP edge shared by every blueprint: auth, ETag/If-Match, Idempotency-Key, JSON out."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Callable

import flask_smorest
from flask import Response, current_app, request
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from events.canonical import canonical_bytes
from events.database import StoreBase
from events.errors import DomainError, Invalid, Unprocessable
from events.store import Reader, Writer, precondition
from . import auth, live, seating
from .handlers import planning
from .handlers.lookups import group_row
from .evidence import signed_head
from .schemas import Problem

MAX_KEY_LENGTH = 200


class _Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400  # API.md: a schema violation is a 400, not webargs' 422

    def _raw_load_json(self, req):
        if not is_json_request(req):
            return missing
        return body_json(req)


def body_json(req=None):
    """The request's JSON body, read strictly: RFC 8259 JSON (no NaN or Infinity), nested
    at most as deep as Python reads, text that is Unicode (no lone surrogates). A body that
    is not is a 400 before anything else looks at it; an empty one is None."""
    req = req or request
    raw = req.get_data(cache=True)
    if not raw:
        return None
    try:
        text = raw.decode("utf-8")
        value = json.loads(text, parse_constant=_not_a_number)
    except (UnicodeDecodeError, ValueError) as e:
        raise Invalid(f"the body is not valid JSON ({e})") from None
    except RecursionError:
        raise Invalid("the body is nested too deeply to be read") from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            canonical_bytes(value)
        except UnicodeEncodeError:
            raise Invalid("the body holds text that is not Unicode (a lone surrogate escape)") from None
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _not_a_number(name: str):
    raise ValueError(f"{name} is not a JSON number")


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = _Parser()

    def arguments(self, schema, *args, **kwargs):
        """As flask-smorest's, with the schema made once: given a class, webargs would make
        a new schema (and deep-copy each of its fields) on every request. A schema that
        loads keeps no state between loads, so one serves every thread."""
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def problems(self, *codes: int, why: dict[int, str] | None = None):
        """Document the problem+json answers an operation can give."""
        def decorate(fn):
            documented = fn
            for code in codes:
                text = (why or {}).get(code) or PROBLEM_WHY.get(code) or HTTPStatus(code).phrase
                if code == 304:  # not a problem: the client's copy is current
                    documented = self.alt_response(code, description=text)(documented)
                else:
                    documented = self.alt_response(code, schema=Problem, description=text,
                                                   content_type=PROBLEM)(documented)
            # alt_response wraps the view only to carry its doc: the view keeps the docs, not
            # the nine wrappers, each of which would be a call on every request.
            fn._apidoc = documented._apidoc
            return fn
        return decorate


PROBLEM = "application/problem+json"
PROBLEM_WHY = {
    304: "If-None-Match names the group's current version: nothing changed since",
    400: "Malformed JSON, or a body or query that does not match the schema (errors per field)",
    401: "No token, or a token this service does not know",
    403: "A token of another group, or a member's token where the admin's is needed",
    404: "No such group, table or hand",
    409: "Another append to the group won the race; read and retry",
    412: "If-Match names a version the group has moved past (the body carries the current version)",
    413: "The body is larger than the service accepts",
    415: "The body is not application/json",
    422: "Well-formed, but against the game's rules or the ledger's (detail says exactly why); or it would append "
         "more than 1 MiB of events, more than one request may (`limit` and `size` in bytes; detail says what to "
         "do instead), and nothing is appended",
    500: "urn:bitka:problem:damaged-store: the group's stored log does not hold at `seq` (an event no longer "
         "matches its hash chain), so nothing that needs it is served and the group takes no writes",
}
READ = (304, 401, 403, 404, 500)
WRITE = (400, 401, 403, 404, 409, 412, 413, 415, 422, 500)


SECURED = {"security": [{"bearer": []}]}


def store() -> StoreBase:
    return current_app.extensions["bitka.store"]


def json_response(body: Any, status: int = 200, version: int | None = None) -> Response:
    if status == 204:  # No Content: what was asked is done, and there is nothing to say
        response = Response(status=204)
    else:
        response = Response(json.dumps(body, ensure_ascii=False), status=status, mimetype="application/json")
    if version is not None:
        response.headers["ETag"] = f'"{version}"'
    return response


def if_match() -> int | None:
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if not (value.isascii() and value.isdigit()) or len(value) > 18:  # "²" is a digit to isdigit, not to int
        raise Invalid(f"If-Match must be a group version in quotes, like \"12\"; got {raw!r}")
    return int(value)


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isprintable():
        raise Invalid(f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable characters")
    return key


def fingerprint(principal: auth.Principal) -> str:
    """What an Idempotency-Key stands for: who asked, what and where, and the body as
    canonical JSON. Another member's request under the same key is another request."""
    seen = f"{principal.subject} {request.method} {request.path}\n".encode() + canonical_bytes(body_json())
    return hashlib.sha256(seen).hexdigest()


def authorize(r: Reader, group: str, admin: bool = False, known: bool = False) -> auth.Principal:
    """The request's principal, allowed into ``group``: 401, then 404 (no such group, which
    need not be looked up again when it is ``known`` to exist: groups are never deleted),
    then 403."""
    principal = auth.resolve(r, request.headers.get("Authorization"))
    if not known:
        group_row(r, group)
    auth.require(principal, group, admin)
    return principal


def read(group: str, view: Callable[[Reader, auth.Principal], Any],
         table: Callable[[Reader], str | None] | None = None) -> Response:
    """Authorize, then answer from the same snapshot, with the group's version as ETag; a
    client that shows the current version gets a 304, at once or, with ``Prefer: wait=N``,
    once the group has moved (what ``table(r)`` names of it, when given) or N seconds have
    passed (service/live.py)."""
    asked = []

    def allowed(r: Reader) -> None:
        asked.append(authorize(r, group))

    def render(r: Reader, version: int) -> Response:
        body = view(r, asked[-1] if asked else authorize(r, group))
        if isinstance(body, Response):
            body.headers.setdefault("ETag", f'"{version}"')
            return body
        return json_response(body, 200, version)
    return live.answer(group, table, allowed, render, strict=True)


@dataclass(frozen=True)
class Answer:
    """A write's answer with a status of its own (a device that waits for approval: 202)."""
    body: Any
    status: int


@dataclass(frozen=True)
class Later:
    """An answer made once its write is committed, outside the write lock."""
    make: Callable[[], Any]


@dataclass(frozen=True)
class Ahead:
    """A write decided before the write lock, on a snapshot of its group at ``version``, for
    ``subject``. ``carry_out(w)`` appends it under the lock; its answer comes Later."""
    version: int
    subject: str
    carry_out: Callable[[Writer], Later]


def hand_ahead(command: Callable[[auth.Principal], Any], answer: Callable[[Any, frozenset], Any]):
    """The ``ahead`` of a write that deals or moves a hand: the game decides on the snapshot
    (planning.decide), and the answer is ``answer(moved, hidden)`` as its writer may see it."""
    def ahead(r: Reader, principal: auth.Principal) -> Ahead:
        decided = planning.decide(command(principal), r)

        def carry_out(w: Writer):
            moved = planning.carry_out(decided, w)
            return Later(lambda: answer(moved, seating.hidden(moved.hand, decided.table, principal.subject)))
        return Ahead(decided.version, principal.subject, carry_out)
    return ahead


def write(group: str, action: Callable[[Writer, auth.Principal], Any] | None = None, admin: bool = False,
          status: int = 201, location: Callable[[dict], str] | None = None,
          permit: Callable[[auth.Principal], None] | None = None,
          ahead: Callable[[Reader, auth.Principal], Ahead] | None = None) -> Response:
    """One write: authorize, replay a known Idempotency-Key, check If-Match, act, remember.

    ``location`` gives the address of what the write created, sent as ``Location``;
    ``permit`` raises Refused when the principal may not make this very request (a
    payment only its receiver may record), before any key is replayed.

    ``ahead``, when given, decides the write on a snapshot before the write lock is taken,
    so that the store's one writer holds the lock only to append: if the group is still at
    the snapshot's version under the lock (nothing of it changed), what was decided is
    appended; if not, or if the snapshot's decision was a refusal, it is decided again under
    the lock (``action`` is not needed then). Either way the answer is what deciding under
    the lock would give."""
    key, expected = idempotency_key(), if_match()
    # A stranger's request (a 401, 403 or 404) is turned away before the write lock is
    # taken, so that it never holds up the store's writer...
    with store().reading() as r:
        seen_as = authorize(r, group, admin)
        decided = None
        # A stale If-Match is answered without deciding anything: how long a refusal takes
        # must not depend on the cards the request names.
        stale = expected is not None and expected != r.version(group)
        if ahead is not None and not stale and (permit is None or _permitted(permit, seen_as)):
            try:
                decided = ahead(r, seen_as)
            except DomainError:  # said again under the lock, where a replayed key or If-Match come first
                pass
    with store().writing(group) as w:
        # ...and the token is resolved again under the lock: a token rotated away by a write
        # that committed meanwhile appends nothing.
        principal = authorize(w, group, admin, known=True)
        if permit is not None:
            permit(principal)
        if key is not None:
            seen = w.remembered(group, key)
            if seen is not None:
                if seen[0] != fingerprint(principal):
                    raise Unprocessable(f"Idempotency-Key {key!r} was already used in this group with another request")
                return _located(json_response(seen[2], seen[1], w.version(group)), location, seen[2])
        precondition(expected, w.version(group))
        if decided is not None and decided.subject == principal.subject and decided.version == w.version(group):
            body = decided.carry_out(w)
        elif ahead is not None:
            body = ahead(w, principal).carry_out(w)  # decided again, on what the lock holds
        else:
            body = action(w, principal)
        if isinstance(body, Answer):
            status, body = body.status, body.body
        if key is not None:
            body = _made(body)
            w.remember(group, key, fingerprint(principal), status, _without_secrets(body))
        version = w.version(group)
        root = w.merkle_root(group, version)  # its few nodes are at hand now
    body = _made(body)  # an answer decided ahead is made here, outside the lock
    # The tree head at ``version`` is fixed once committed, so it is signed after the write
    # lock is let go: other writers need not wait for the signature.
    evidence = signed_head(group, version, root)
    response = _located(json_response(body, status, version), location, body)
    response.headers["Bitka-Checkpoint"] = json.dumps(evidence, separators=(",", ":"))
    return response


def _made(body):
    return body.make() if isinstance(body, Later) else body


def _permitted(permit: Callable[[auth.Principal], None], principal: auth.Principal) -> bool:
    try:
        permit(principal)
    except DomainError:
        return False
    return True


SECRETS = ("token", "admin_token", "code", "url")  # an invitation's code is a token's worth


def _without_secrets(body):
    """What an Idempotency-Key keeps of a response: tokens are stored only as hashes, so a
    replayed member creation or token rotation answers without the token (rotate it again)."""
    if isinstance(body, dict) and any(k in body for k in SECRETS):
        return {**{k: v for k, v in body.items() if k not in SECRETS}, "token_withheld": True}
    return body


def _located(response: Response, location: Callable[[dict], str] | None, body) -> Response:
    if location is not None and response.status_code == 201:
        response.headers["Location"] = location(body)
    return response
