"""Invitations: a one-time link that signs a member in on a phone (API.md "Invitations")."""
from __future__ import annotations

from flask import current_app

from .. import invitations, invitation_schemas as s
from events.errors import Invalid
from projections.groups import confirmations
from ..handlers import lookups
from ..http import WRITE, Blueprint, body_json, json_response, store, write
from ..openapi import NO_TOKEN, writes

blp = Blueprint("invitations", __name__, url_prefix="/v1", description="Invitations: one-time sign-in links")


UNSERVED = "http://localhost"  # where an app not started by bitka serve is, for its links


def public_url(path: str) -> str:
    """An address of this service for people to open: under ``BITKA_PUBLIC_URL`` when the
    operator set it (behind a proxy), else under the address ``bitka serve`` was started on
    (``BITKA_SERVED_AT``), else ``UNSERVED``. Never under the Host a request names: any
    client sends any Host, and a link made from it would take the invited phone, and its
    code, to another site."""
    config = current_app.config
    base = config.get("BITKA_PUBLIC_URL") or config.get("BITKA_SERVED_AT") or UNSERVED
    return base.rstrip("/") + path


def shown(invitation: invitations.Invitation) -> dict:
    return {"member": invitation.member, "code": invitation.code, "url": public_url(f"/join/{invitation.code}"),
            "expires_at": invitation.expires_at}


@blp.route("/groups/<group>/invitations", methods=["POST"])
@blp.arguments(s.InvitationCreate)
@blp.response(201, s.InvitationCreated, description="The link, once: only a hash of its code is kept")
@blp.problems(*WRITE, why={422: "member is not a member of the group, or the name reads as a member's"})
@blp.doc(**writes())
def invite(body, group):
    """A one-time link for a member (admin only): `{"member": id}` for a member already in the
    group, or `{"name": "..."}` to add one. Opening `url` (the page `/join/{code}`) within seven
    days signs that member in on that browser; apps redeem `code` at `POST /v1/invitations/{code}`.
    The member's earlier tokens keep working."""
    return write(group, lambda w, p: shown(invitations.invite(w, group, p.subject, body)), admin=True)


@blp.route("/invitations/<code>", methods=["POST"])
@blp.response(201, s.Redeemed, description="The member's token, once")
@blp.problems(400, 404, 409, 410, why={
    400: "key is no Ed25519 public key", 404: "No such invitation",
    409: "The member holds a device key already: a new device is approved on one of theirs, or the admin resets "
         "them first", 410: "The invitation was used already or has expired"})
@blp.doc(security=NO_TOKEN, responses={201: {"headers": {"ETag": "ETag"}}}, requestBody={
    "required": False, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"key": {"type": "string", "description": "this device's Ed25519 public "
                                                 "key, base64url (no padding) of its 32 raw bytes"}}}}}})
def redeem(code):
    """Redeem an invitation (no token needed): the group, the member and a new token of that
    member. With `{"key": "<public key>"}` this device's key becomes the member's first device
    (`device_added`, `"via": "invitation"`) and the answer adds its `kid`. The answer also says
    the group's `confirmations` setting, which joining agrees to. A code works once; a used or
    expired one is a 410."""
    body = body_json() or {}
    if not isinstance(body, dict) or set(body) - {"key"} or not isinstance(body.get("key", ""), str):
        raise Invalid("the body is {} or {\"key\": \"<public key>\"}", errors={"key": ["Not a valid string."]})
    with store().reading() as r:
        group, _ = invitations.found(r, code)
    with store().writing(group) as w:
        done = invitations.redeem(w, code, body.get("key"))
        version = w.version(group)
        setting = confirmations(lookups.group_row(w, group))
    shown = {"group": done.group, "member": done.member, "token": done.token, "confirmations": setting}
    return json_response({**shown, "kid": done.kid} if done.kid else shown, 201, version)
