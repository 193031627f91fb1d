"""The Flask application factory: ``create_app(config=None)`` does all the setting up."""
from __future__ import annotations

import os
from http import HTTPStatus
from typing import Any, Mapping

import flask_smorest
from flask_smorest.utils import prepare_response
from flask import Flask, Response, request

from events.bell import Bell, Heard
from events.checkpoint import default_key_path, load_or_create_key
from events.database import open_store
from projections import kept
from projections.projector import project
from . import docs, headers, health, openapi, problems, schemas, signing_doc
from .draws import Keyed
from .i18n.setup import speak
from .limits import Limit
from .routes import devices, events, groups, hands, invitations, money, pay_to, proofs, tables, tournaments
from .web import blueprint as pages

DEFAULTS = {
    "BITKA_DB": "bitka.db",
    "BITKA_BUSY_TIMEOUT_MS": 10_000,  # how long a write waits for another to finish before a 409
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "BITKA_GROUPS_PER_HOUR": 20,  # from one address, without a setup token (service/limits.py)
    "BITKA_LIVE_HOLDS": 32,  # readers a process lets wait for news at once (service/live.py); bitka serve sets it
    "API_TITLE": "bitka",
    "API_VERSION": "v1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/v1",
    "OPENAPI_JSON_PATH": "openapi.json",
    "JSON_SORT_KEYS": False,
}


class Api(flask_smorest.Api):
    ERROR_SCHEMA = schemas.Problem

    def _register_error_handlers(self):
        problems.register(self._app)

    def _register_responses(self):
        """flask-smorest's shared error responses, as the problem+json they are here."""
        for name, description in [*((s.name, s.phrase) for s in HTTPStatus if s >= 400),
                                  ("DEFAULT_ERROR", "Default error response")]:
            response = {"description": description, "schema": self.ERROR_SCHEMA}
            if name == "DEFAULT_ERROR":  # a 503 when the database cannot be reached
                response["headers"] = {"Retry-After": openapi.HEADERS["RetryAfter"]}
            prepare_response(response, self.spec, problems.MEDIA_TYPE)
            self.spec.components.response(name, response, lazy=True)

    def _register_pagination_header(self):
        """bitka pages with ``after`` and a Link header, not flask-smorest's pagination."""


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask("bitka", static_folder=None)  # the pages serve their own files (service/web/static)
    app.config.update(DEFAULTS)
    if os.environ.get("BITKA_DB"):
        app.config["BITKA_DB"] = os.environ["BITKA_DB"]
    if os.environ.get("BITKA_SETUP_TOKEN"):
        app.config["BITKA_SETUP_TOKEN"] = os.environ["BITKA_SETUP_TOKEN"]
    if os.environ.get("BITKA_PUBLIC_URL"):  # behind a proxy: the address invitation links use
        app.config["BITKA_PUBLIC_URL"] = os.environ["BITKA_PUBLIC_URL"]
    for name in ("BITKA_BUSY_TIMEOUT_MS", "BITKA_GROUPS_PER_HOUR"):
        value = os.environ.get(name, "")
        if value.isascii() and value.isdigit():
            app.config[name] = int(value)
    app.config.update(config or {})
    app.extensions["bitka.store"] = open_store(app.config["BITKA_DB"], projector=project,
                                          busy_timeout_ms=app.config["BITKA_BUSY_TIMEOUT_MS"]).setup(kept.rebuild).checking(
        app.config.get("BITKA_DAMAGED", ()), app.config.get("BITKA_DAMAGE_NOTES"))  # every event served is
    # checked; bitka serve's findings first, and what any of its workers finds (events/damage.py)
    key_path = (app.config.get("BITKA_KEY") or os.environ.get("BITKA_KEY")
                or default_key_path(app.config["BITKA_DB"]))
    app.extensions["bitka.key"] = load_or_create_key(key_path)
    app.extensions["bitka.draws"] = Keyed.of(app.extensions["bitka.key"])  # each draw's secret (service/draws.py)
    app.extensions["bitka.group_limit"] = Limit(app.config["BITKA_GROUPS_PER_HOUR"])
    app.extensions["bitka.bell"] = _bell(app.extensions["bitka.store"], app.config["BITKA_LIVE_HOLDS"])
    api = Api(app, spec_kwargs={"info": {"description": _DESCRIPTION + signing_doc.description(),
                                         "license": openapi.license_()},
                                "servers": openapi.servers(app.config.get("BITKA_PUBLIC_URL")),
                                "marshmallow_plugin": openapi.Plugin(), "extra_plugins": [openapi.Operations()]})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    openapi.setup(api.spec)
    for module in (groups, tables, hands, money, events, proofs, invitations, pay_to, devices, tournaments):
        api.register_blueprint(module.blp)
    speak(app)
    app.register_blueprint(pages())  # the pages for people at the table, beside the API
    app.register_blueprint(docs.blueprint())  # the API reference for people: GET /docs
    health.setup(app)  # /healthz, /readyz, /metrics (outside /v1), and every request counted: first in, so timed whole
    app.before_request(_json_bodies_only)
    app.after_request(_ends_with_newline)
    app.after_request(headers.guarded)  # CSP, framing, sniffing and Referer, on every answer
    return app


def _bell(store, holds: int) -> Bell:
    """The process's bell (events/bell.py), told of every write this process commits and
    listening for the others' (service/live.py waits on it)."""
    def heads(groups):
        with store.reading() as r:
            return r.heads(list(groups))

    def since(group, after):
        with store.reading() as r:
            return [Heard(group, *event) for event in r.heard_since(group, after)]
    store.bell = Bell(heads, since, holds)
    return store.bell


JSON_TYPES = frozenset({"application/json", problems.MEDIA_TYPE})


def _ends_with_newline(response: Response) -> Response:
    """Every JSON body ends with a newline, as a text file does (curl's output then ends its
    line), whichever code built it. A streamed or passed-through body is left as it is;
    set_data keeps Content-Length right, and no ETag here is a hash of the body."""
    if response.mimetype not in JSON_TYPES or response.is_streamed or response.direct_passthrough:
        return response
    body = response.get_data()
    if body and not body.endswith(b"\n"):
        response.set_data(body + b"\n")
    return response


def _json_bodies_only():
    """A body that is not JSON is refused as such, not read as an empty object."""
    if request.blueprint == "web":  # the pages post HTML forms
        return None
    if request.method in ("POST", "PUT", "PATCH") and request.content_length and not request.is_json:
        return problems.problem(415, "Unsupported media type", "send the body as application/json",
                                "unsupported-media-type")
    return None


_DESCRIPTION = (
    "bitka: an append-only, hash-chained scoring ledger for card tables that play for money. "
    "Errors are application/problem+json. Writes accept If-Match (a group version; 412 when stale) "
    "and Idempotency-Key (on group-scoped POSTs: the same key and body returns the original response). "
    "Group-scoped responses carry ETag: \"<version>\". "
    "Any operation may answer 409 when the store stayed locked by other writes past the busy timeout, "
    "and 503 (with Retry-After) when its database cannot be reached; in both cases nothing was appended "
    "and the request may be sent again. "
    "Every event is checked against its hash chain as it is read: a group whose stored log no longer holds "
    "answers 500 urn:bitka:problem:damaged-store naming the `seq`, shows nothing that needs it and takes no writes. "
    "Accept-Language (en, pl, it, pt-BR; pt reads as pt-BR) chooses the language of a 422's detail and of a "
    "hand's audit trail (its explanation and each event's summary), answered with Content-Language; every "
    "field name, code, type and stored event stays as it is whatever the language."
)
