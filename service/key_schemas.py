"""The schemas of members' keys and signed acts (API.md, "Members hold their own keys")."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from .schemas import Reason

HEX32 = r"^[0-9a-f]{32}$"
KEY = fields.String(required=True, validate=[validate.Length(min=43, max=44), validate.Regexp(r"^[A-Za-z0-9_-]+=?$")],
                    metadata={"description": "an Ed25519 public key: base64url (no padding) of its 32 raw bytes",
                              "example": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"})

SIGNATURE_HEADER = {
    "in": "header", "name": "Bitka-Signature", "required": False,
    "description": "`kid=<kid>, nonce=<32 lowercase hex digits>, sig=<base64url of the 64-byte Ed25519 signature>` "
                   "over `bitka statement v1\\n` followed by the canonical JSON of the act's statement. Needed for "
                   "a member who has a device key (see the document's description, \"Members hold their own keys\")",
    "schema": {"type": "string",
               "example": "kid=8b1a9953c4611296a827abf8c47804d7, nonce=0f1e2d3c4b5a69788796a5b4c3d2e1f0, sig=…"},
}


class KeyIn(Schema):
    key = KEY


class DeviceAdded(Schema):
    member = fields.String()
    kid = fields.String()


class DevicePending(Schema):
    kid = fields.String()
    pending = fields.Boolean(metadata={"example": True})


class Device(Schema):
    kid = fields.String()
    key = fields.String()
    via = fields.String(metadata={"description": "invitation, token, approval or reset"})
    added_at = fields.String()
    stopped_at = fields.String(allow_none=True, metadata={"description": "when a reset stopped it; null: current"})


class Waiting(Schema):
    kid = fields.String()
    key = fields.String()
    asked_at = fields.String()


class Reset(Schema):
    seq = fields.Integer()
    at = fields.String()
    reason = fields.String()


class Devices(Schema):
    member = fields.String()
    devices = fields.List(fields.Nested(Device))
    waiting = fields.List(fields.Nested(Waiting), metadata={"description": "further devices asking to be approved"})
    resets = fields.List(fields.Nested(Reset))


class ResetIn(Schema):
    reason = Reason(metadata={"description": "why, in words every member will see for 30 days",
                              "example": "Bożena's phone was stolen"})


class OneSignature(Schema):
    hand = fields.String(required=True, validate=validate.Length(min=1, max=64))
    kid = fields.String(required=True, validate=validate.Regexp(HEX32))
    nonce = fields.String(required=True, validate=validate.Regexp(HEX32))
    sig = fields.String(required=True, validate=validate.Length(min=86, max=88))


class TableConfirmIn(Schema):
    signatures = fields.List(fields.Nested(OneSignature), validate=validate.Length(max=1000),
                             metadata={"description": "one signed `confirm` statement per hand it confirms, "
                                                      "from a member who has a device key"})
