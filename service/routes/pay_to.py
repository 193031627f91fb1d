"""How each member takes money (an IBAN and its holder's name, a PIX key, a BLIK phone):
read by the group, set by that member or the admin. The pages make payment codes of it."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.pay_details import FIELDS, TYPED_LONGEST, pix_kind
from .. import handlers, signing
from ..commands import SetPayDetails
from ..handlers import lookups
from ..handlers.pay_to import details_of, may_change
from ..http import READ, WRITE, Blueprint, read, write
from ..openapi import reads, writes

blp = Blueprint("pay_to", __name__, url_prefix="/v1/groups/<group>/members/<member>",
                description="How each member takes money")
_TYPED = {"allow_none": True, "validate": validate.Length(max=TYPED_LONGEST)}
PARAMETERS = [{"in": "path", "name": "group", "description": "The group's id"},
              {"in": "path", "name": "member", "description": "A member's id"}]


class PayToIn(Schema):
    """Every field at once (PUT): one left out, null or empty is cleared."""
    iban = fields.String(**_TYPED, metadata={"description": "An IBAN (ISO 13616), spaces allowed: its country's "
                                                            "length and its mod-97 check digits must hold",
                                             "example": "PL61 1090 1014 0000 0712 1981 2874"})
    name = fields.String(**_TYPED, metadata={"description": "The account holder's name, as the bank knows it (at "
                                                            "most 70 characters); the codes use the member's name "
                                                            "without it", "example": "Ala Nowak"})
    pix = fields.String(**_TYPED, metadata={"description": "A PIX key: a CPF or CNPJ (check digits checked), an "
                                                           "e-mail, a mobile as +55 with its DDD, or a random key "
                                                           "(UUID)", "example": "+5561912345678"})
    blik = fields.String(**_TYPED, metadata={"description": "A Polish phone number for BLIK: +48 and nine digits",
                                             "example": "+48600700800"})


class PayTo(Schema):
    member = fields.String()
    iban = fields.String(allow_none=True, metadata={"description": "without spaces, in capitals"})
    name = fields.String(allow_none=True)
    pix = fields.String(allow_none=True, metadata={"description": "as the Banco Central's directory writes it"})
    pix_kind = fields.String(allow_none=True, validate=validate.OneOf(["cpf", "cnpj", "email", "phone", "random"]))
    blik = fields.String(allow_none=True, metadata={"description": "+48 and nine digits"})


def pay_to_view(member: str, details: dict) -> dict:
    shown = {"member": member, **{f: details.get(f) for f in FIELDS}}
    return {**shown, "pix_kind": pix_kind(details["pix"]) if "pix" in details else None}


@blp.route("/pay-to", methods=["GET"], parameters=PARAMETERS)
@blp.response(200, PayTo)
@blp.problems(*READ, why={404: "No such group, or no such member in it"})
@blp.doc(**reads())
def get_pay_to(group, member):
    """How a member takes money; any member of the group (and the admin) may read it. A field
    the member did not give is null."""
    return read(group, lambda r, _: pay_to_view(member, details_of(lookups.group_row(r, group), member)))


@blp.route("/pay-to", methods=["PUT"], parameters=PARAMETERS)
@blp.arguments(PayToIn)
@blp.response(200, PayTo)
@blp.problems(*WRITE, why={
    403: "A token of another group, another member's or the admin's (only the member changes it); a member with a "
         "device key without a valid signed `pay_to`",
    404: "No such group, or no such member in it",
    422: "An IBAN whose length or check digits do not hold, a PIX key of none of the Banco Central's forms, a "
         "phone that is not Polish for BLIK (detail says which and why)"})
@blp.doc(**writes(200))
def put_pay_to(body, group, member):
    """Say how you take money (the member only: the admin's PUT is a 403): `{"iban", "name", "pix",
    "blik"}`, each optional; what is left out, null or empty is cleared. A member with a device
    key signs `pay_to` `{"member", "iban", "name", "pix", "blik"}` as sent (`null` where empty). Appends a
    `pay_details` event, unless the details are already these (then nothing is appended)."""
    def act(w, p):
        return pay_to_view(member, handlers.handle(SetPayDetails(group, p.subject, member, body, signed), w))
    signed = signing.presented()
    # The admin gets as far as the handler, which answers a 404 for no such member before its 403.
    return write(group, act, status=200, permit=lambda p: p.is_admin or may_change(p.subject, member))
