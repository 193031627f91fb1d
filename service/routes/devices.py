"""Members' devices: a key registered, a further device approved, a lost phone reset (API.md,
"Members hold their own keys")."""
from __future__ import annotations

from .. import handlers, key_schemas as k, signing
from ..commands import AddDevice, ApproveDevice, ResetMember
from ..handlers import devices
from ..http import READ, WRITE, Answer, Blueprint, read, write
from ..openapi import reads, writes

blp = Blueprint("devices", __name__, url_prefix="/v1/groups/<group>/members/<member>",
                description="Members' devices: each holds its own Ed25519 key")
PARAMETERS = [{"in": "path", "name": "group", "description": "The group's id"},
              {"in": "path", "name": "member", "description": "A member's id"}]


@blp.route("/devices", methods=["GET"], parameters=PARAMETERS)
@blp.response(200, k.Devices)
@blp.problems(*READ, why={404: "No such group, or no such member in it"})
@blp.doc(**reads())
def list_devices(group, member):
    """A member's device keys (current and stopped), the devices that wait for one of theirs to
    approve them, and the admin's resets of them. Any member of the group may read it: the keys
    are public, and the log holds them anyway."""
    return read(group, lambda r, _: devices.listed(r, group, member))


@blp.route("/devices", methods=["POST"], parameters=PARAMETERS)
@blp.arguments(k.KeyIn)
@blp.response(201, k.DeviceAdded, description="The member's first key, registered (`device_added`, via token)")
@blp.alt_response(202, schema=k.DevicePending, description="A further device: it waits until one of the member's "
                                                            "devices approves it; nothing is appended yet")
@blp.problems(*WRITE, why={400: "key is no Ed25519 public key (base64url of 32 bytes)",
                           403: "Not the member's own token or sign-in (the admin cannot add a member's key)",
                           422: "The key is registered in this group already"})
@blp.doc(**{**writes(), "responses": {**writes()["responses"], 202: writes()["responses"][201]}})
def add_device(body, group, member):
    """Register this device's public key `{"key"}` for the member whose token this is. A member
    with no key gets it at once (201); a member who has one gets 202 `{"kid", "pending": true}`,
    and the key is added when one of their devices approves it."""
    def act(w, p):
        added = handlers.handle(AddDevice(group, p.subject, member, body["key"]), w)
        if added.pending:
            return Answer({"kid": added.kid, "pending": True}, 202)
        return {"member": added.member, "kid": added.kid}
    return write(group, act)


@blp.route("/devices/<kid>/approve", methods=["POST"], parameters=[
    *PARAMETERS, {"in": "path", "name": "kid", "description": "The waiting device's kid"},
    {**k.SIGNATURE_HEADER, "required": True}])
@blp.response(201, k.DeviceAdded)
@blp.problems(*WRITE, why={403: "No signature of a current key of the member over `approve_device` (the answer "
                                "carries the statement to sign), or not the member's own token",
                           404: "No such device waits"})
@blp.doc(**writes())
def approve_device(group, member, kid):
    """Approve a waiting device of yours: signed `approve_device` `{"member", "key"}` (the
    waiting key) by one of your current devices. Appends `device_added` with `"via": "approval"`."""
    signed = signing.presented()

    def act(w, p):
        added = handlers.handle(ApproveDevice(group, p.subject, member, kid, signed), w)
        return {"member": added.member, "kid": added.kid}
    return write(group, act)


@blp.route("/reset", methods=["POST"], parameters=PARAMETERS)
@blp.arguments(k.ResetIn)
@blp.response(201, description="`{\"member\", \"name\", \"stopped\": [kids]}`")
@blp.problems(*WRITE, why={403: "Not the admin"})
@blp.doc(**writes())
def reset_member(body, group, member):
    """A lost phone (admin only): every key of the member stops, their tokens and sign-ins end,
    and they join again by a new invitation (their next key comes `"via": "reset"`). Never
    quiet: for 30 days every page of every member says who was reset, when and why."""
    return write(group, lambda w, p: handlers.handle(ResetMember(group, p.subject, member, body["reason"]), w),
                 admin=True)
