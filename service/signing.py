"""A member's signature on an act, checked where the act is decided (API.md, "Members hold
their own keys").

A route reads the ``Bitka-Signature`` header (``presented``); the handler that decides the act
builds its statement from the request, as the member's device must have (``events/acts.py``),
and ``sealed_by`` checks it against the actor's current keys and the group's used nonces. What
it returns goes into the act's event: ``{"signed": {"kid", "nonce", "sig"}}``, plus any field of
the statement whose signed value is not what the event itself records (a capture the
service chose, say), so that anyone holding the log can rebuild the statement.

The admin token is no member and signs nothing. A member who has never had a key acts as
before keys (their events read "not signed (before keys)"); from a member's first key on,
every act needs a signature by a current key.
"""
from __future__ import annotations

from typing import Any, Mapping

from flask import has_request_context, request
from marshmallow import ValidationError

from events import acts
from events.errors import Invalid, Refused
from events.sentences import say
from events.store import Reader
from projections import devices

from . import auth
from .key_schemas import TableConfirmIn

ACT_WORDS = {  # what each act is, in the sentence that refuses it
    "confirm": "confirming a hand", "dispute": "disputing a hand", "result": "logging a result",
    "cards": "logging cards", "play": "playing a card", "agree": "agreeing to a correction",
    "pay_to": "setting pay-to details", "received": "recording a payment received",
    "confirm_payment": "confirming a payment received", "approve_device": "approving a device",
    "check_in": "checking in",
}


def presented() -> acts.Signed | None:
    """The request's ``Bitka-Signature``, read (None when it has none); a header that cannot
    be read is a 400."""
    if not has_request_context():
        return None
    text = request.headers.get(acts.HEADER)
    if text is None:
        return None
    try:
        return acts.parse_header(text)
    except acts.BadSignature as e:
        raise Invalid(say("Bitka-Signature: {why}", why=str(e)), errors={acts.HEADER: [str(e)]}) from None


def listed(body: Any, act: str) -> dict[str, acts.Signed]:
    """``{"signatures": [{"hand", "kid", "nonce", "sig"}, ...]}`` (or no body): each hand's
    signature; a body of another shape is a 400."""
    if body is None:
        return {}
    try:
        loaded = TableConfirmIn().load(body)
    except ValidationError as e:
        raise Invalid(say("the body is {{\"signatures\": [{{\"hand\", \"kid\", \"nonce\", \"sig\"}}, ...]}}"),
                      errors=e.normalized_messages()) from None
    found: dict[str, acts.Signed] = {}
    for item in loaded.get("signatures", []):
        try:
            found[item["hand"]] = acts.checked(item)
        except acts.BadSignature as e:
            raise Invalid(say("signatures: {why}", why=str(e)), errors={"signatures": [str(e)]}) from None
    return found


def keys_of(r: Reader, group: str, member: str) -> dict | None:
    return r.row(devices.NAME, group, member)


def needed(r: Reader, group: str, actor: str) -> bool:
    """Whether ``actor``'s acts must be signed: a member who has had a key."""
    return actor != auth.ADMIN and devices.ever_keyed(keys_of(r, group, actor))


def sealed_by(r: Reader, group: str, actor: str, act: str, fields: Mapping[str, Any],
              signed: acts.Signed | None, logged: Mapping[str, Any] | None = None) -> dict:
    """The data an act's event carries for its signature (``{}`` when none is needed); a
    refusal (403) names the act and what is missing, with the statement the service built.

    ``fields`` are the act's fields as the request gives them (what the device signed);
    ``logged`` the same fields as the event records them, where they may differ."""
    if actor == auth.ADMIN:
        return {}
    row = keys_of(r, group, actor)
    what = say(ACT_WORDS[act])
    if signed is None:
        if not devices.ever_keyed(row):
            return {}  # before keys
        raise Refused(say("{what} needs your signature: send the header Bitka-Signature (kid, nonce, sig) made "
                          "by one of your devices over the statement",
                          what=what),
                      statement=acts.statement(act, group, None, fields))
    said = acts.statement(act, group, signed.nonce, fields)
    key = next((k for k in devices.current(row) if k["kid"] == signed.kid), None)
    if key is None:
        stopped = any(k["kid"] == signed.kid for k in (row or {}).get("keys", []))
        why = (say("the key {kid} was stopped by a reset", kid=signed.kid) if stopped
               else say("{kid} is not a current key of yours", kid=signed.kid))
        raise Refused(say("{what} is refused: {why}", what=what, why=why), statement=said)
    if r.row(devices.NONCES, group, signed.nonce) is not None:
        raise Refused(say("{what} is refused: the nonce {nonce} was used before in this group; sign again with a "
                          "fresh one", what=what, nonce=signed.nonce), statement=said)
    if not acts.holds(key["key"], said, signed.sig):
        raise Refused(say("{what} is refused: the signature is not {kid}'s over this statement (check each field "
                          "against the statement given here)", what=what, kid=signed.kid), statement=said)
    data: dict[str, Any] = signed.as_data()
    for name, value in fields.items():
        if logged is not None and name in logged and logged[name] != value:
            data[name] = value
    return {"signed": data}
