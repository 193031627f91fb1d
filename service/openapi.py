"""What the OpenAPI document says beyond the schemas of bodies: the headers each operation
takes and gives, every operation's id, the servers, the license, and each game's own
forms of rules, deals and results (service/game_schemas.py).

The routes say which operations read or write a group (``reads()``, ``writes()``); the
rules that hold for every operation (a 422 may answer in the reader's language, a 429 says
when to try again, each operation's id is its view's name) are applied here, once.
"""
from __future__ import annotations

from importlib import metadata

from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_cls

from . import game_schemas

BEARER = {"bearer": []}
NO_TOKEN = []  # an operation anyone may call
OPTIONAL_BEARER = [{}, BEARER]  # no token, or the setup token where the server has one

PARAMETERS = {
    "IfMatch": {"in": "header", "name": "If-Match", "required": False, "description": (
        "The group version this write was decided on, in quotes (the ETag of a read): a group that has moved on "
        "answers 412 with its current version, and nothing is appended. Absent or *: no check."),
        "schema": {"type": "string", "pattern": r'^(W/)?"[0-9]{1,18}"$|^\*$', "example": '"12"'}},
    "IdempotencyKey": {"in": "header", "name": "Idempotency-Key", "required": False, "description": (
        "Makes the request safe to send again: the same key and body from the same token returns the first "
        "answer (status and body) and appends nothing; the same key with another body or token is a 422. Kept "
        "durably, per group. A replayed answer that held a token says \"token_withheld\": true instead."),
        "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[ -~]+$",
                   "example": "7d1c0c1e-hand-3"}},
    "IfNoneMatch": {"in": "header", "name": "If-None-Match", "required": False, "description": (
        "The ETag of the copy the client holds: while it is the group's current version the answer is 304 Not "
        "Modified with no body (a polling client sends nothing new until something was appended)."),
        "schema": {"type": "string", "example": '"12"'}},
    "Prefer": {"in": "header", "name": "Prefer", "required": False, "description": (
        "`wait=N` (RFC 7240), with If-None-Match: while the group is still at that version, the answer waits up "
        "to N seconds (25 at most) and comes as soon as something is appended: 200 with the new state, or 304 "
        "once the time is up (Preference-Applied: wait=N says it waited). A client asks again at once after "
        "each answer, and learns of every move without polling. A server whose threads are all waiting "
        "already answers at once, without Preference-Applied: then ask again after a couple of seconds."),
        "schema": {"type": "string", "example": "wait=25"}},
}
HEADERS = {
    "ETag": {"description": "The group's version (its last seq) in quotes; send it back as If-Match or "
                            "If-None-Match", "schema": {"type": "string", "pattern": '^"[0-9]+"$', "example": '"12"'}},
    "Location": {"description": "The address of what the request created",
                 "schema": {"type": "string", "format": "uri-reference", "example": "/v1/groups/g1/hands/h1"}},
    "Link": {"description": "While more events remain: the next page, relative to this request's address",
             "schema": {"type": "string", "example": '</v1/groups/g1/events?after=100&limit=100>; rel="next"'}},
    "BitkaCheckpoint": {"description": (
        "The group's signed checkpoint after the write, as compact JSON (group, size, root, timestamp, key_id, "
        "signature: see GET .../checkpoint); absent on an Idempotency-Key replay"), "schema": {"type": "string"}},
    "ContentLanguage": {"description": "The language of the detail (of a 422) or of the audit trail, when it is "
                                       "not English (Accept-Language)", "schema": {"type": "string", "example": "pl"}},
    "RetryAfter": {"description": "Seconds to wait before sending the request again",
                   "schema": {"type": "integer", "minimum": 0, "example": 5}},
    "PreferenceApplied": {"description": "wait=N: the answer waited for news as Prefer asked",
                          "schema": {"type": "string", "example": "wait=25"}},
}


# The header parameters an operation takes, added to those flask-smorest documents from its
# arguments (a manual "parameters" would replace them) by the Operations plugin below.
HEADER_PARAMETERS = "x-bitka-header-parameters"


def reads(*, link: bool = False, language: bool = False) -> dict:
    """The doc of a read inside a group (http.read): a token, If-None-Match, ETag on the
    answer and on its 304; ``link`` for a paged answer, ``language`` for one in words."""
    headers = {"ETag": "ETag"}
    if link:
        headers["Link"] = "Link"
    if language:
        headers["Content-Language"] = "ContentLanguage"
    return {"security": [BEARER], HEADER_PARAMETERS: ["IfNoneMatch", "Prefer"],
            "responses": {200: {"headers": headers},
                          304: {"headers": {"ETag": "ETag", "Preference-Applied": "PreferenceApplied"}}}}


def writes(status: int = 201, *, located: bool = False) -> dict:
    """The doc of a write inside a group (http.write): a token, If-Match, Idempotency-Key,
    and the answer's ETag and signed checkpoint; ``located`` when it creates something
    with an address of its own (Location)."""
    headers = {"ETag": "ETag", "Bitka-Checkpoint": "BitkaCheckpoint"}
    if located:
        headers["Location"] = "Location"
    return {"security": [BEARER], HEADER_PARAMETERS: ["IfMatch", "IdempotencyKey"],
            "responses": {status: {"headers": headers}}}


def media(status: int, content_type: str, description: str) -> dict:
    """A response body that is text (a CSV file, a trail in words), beside or instead of JSON."""
    return {"responses": {status: {"content": {content_type: {"schema": {"type": "string",
                                                                         "description": description}}}}}}


def setup(spec) -> None:
    """What the document names once: the header parameters and headers, each game's forms."""
    for name, parameter in PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], parameter, lazy=True)
    for name, header in HEADERS.items():
        spec.components.header(name, header, lazy=True)
    for name, schema in game_schemas.components().items():
        spec.components.schema(name, schema)


def servers(public_url: str | None) -> list[dict]:
    """Where the API is: under BITKA_PUBLIC_URL when the operator set it, else the server that
    serves this document (a relative URL)."""
    if public_url:
        return [{"url": public_url.rstrip("/"), "description": "this deployment (BITKA_PUBLIC_URL)"}]
    return [{"url": "/", "description": "the server that serves this document"}]


def license_() -> dict:
    """The package's license as its metadata names it (pyproject.toml's ``license``). The
    repository names none yet: until it does, the document says so (GET /docs/license)
    rather than invent one."""
    try:
        meta = metadata.metadata("bitka")
        named = meta.get("License-Expression") or meta.get("License")
    except metadata.PackageNotFoundError:
        named = None
    if named:
        return {"name": named, "url": f"https://spdx.org/licenses/{named}.html"}
    return {"name": "UNLICENSED (no license has been chosen yet)", "url": "/docs/license"}


class Converter(OpenAPIConverter):
    """Marshmallow to OpenAPI, where a field or schema is one of each game's forms: a field
    with ``metadata={"games": kind}`` and a schema class with ``per_game = kind`` become
    game_schemas.either(kind) (their marshmallow loading is unchanged: the game checks)."""

    def init_attribute_functions(self):
        super().init_attribute_functions()
        self.attribute_functions.append(self.per_game)

    def per_game(self, field, ret, **kwargs) -> dict:
        kind = field.metadata.get("games")
        if kind is None:
            return {}
        for key in ("type", "additionalProperties", "games"):
            ret.pop(key, None)
        either = game_schemas.either(kind)
        return {**either, "description": ret.get("description") or either["description"]}

    def schema2jsonschema(self, schema):
        kind = getattr(resolve_schema_cls(schema), "per_game", None)
        return game_schemas.either(kind) if kind else super().schema2jsonschema(schema)


class Plugin(MarshmallowPlugin):
    Converter = Converter


class Operations(BasePlugin):
    """Rules that hold for every operation, applied as each is added to the document."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        rule = kwargs.get("rule")
        for operation in (operations or {}).values():
            operation.setdefault("parameters", []).extend(operation.pop(HEADER_PARAMETERS, []))
            if not operation["parameters"]:
                del operation["parameters"]
            if rule is not None:  # stable: the view's name (the operation ids are pinned by a test)
                operation.setdefault("operationId", rule.endpoint.rsplit(".", 1)[-1])
            responses = operation.get("responses", {})
            for code, header, name in ((422, "Content-Language", "ContentLanguage"),
                                       (429, "Retry-After", "RetryAfter")):
                response = responses.get(code, responses.get(str(code)))
                if isinstance(response, dict):
                    response.setdefault("headers", {})[header] = name
