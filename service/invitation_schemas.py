"""The invitations' request and response schemas: service/routes/invitations.py's bodies,
in the OpenAPI document."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from .schemas import SHOWN_TEXT, Id, printable


class InvitationCreate(Schema):
    member = Id(metadata={"description": "a member already in the group"})
    name = fields.String(validate=[validate.Length(min=1, max=100), validate.Regexp(SHOWN_TEXT), printable],
                         metadata={"description": "a new member, added to the group with this name"})


class InvitationCreated(Schema):
    member = fields.String()
    code = fields.String(metadata={"description": "the one-time code (only its hash is kept)"})
    url = fields.String(metadata={"description": "the page /join/{code}, under BITKA_PUBLIC_URL when set, else "
                                                 "under the address the request came to"})
    expires_at = fields.String()
    token_withheld = fields.Boolean(metadata={
        "description": "true on an Idempotency-Key replay: the code and url (kept only as a hash) are not shown again"})


class Redeemed(Schema):
    group = fields.String()
    member = fields.String()
    token = fields.String()
    kid = fields.String(metadata={"description": "the key registered with it, when the request gave one"})
    confirmations = fields.String(metadata={"description": "the group's setting, which joining agrees to: payers "
                                                           "(every payer must agree to a result) or off"})
