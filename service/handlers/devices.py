"""A member's devices: the first key registered (by invitation or by the member's own token),
a further one asked for and approved by a key the member already has, and the admin's reset
after a lost phone, which stops them all and is announced to everyone.

A further device's request is not a ledger fact (it appends nothing, API.md answers 202): it
waits in a row of its own (``WAITING``) until one of the member's devices approves it, and
``replay --rebuild``, which writes every row anew from the log, lets it go (the device asks
again)."""
from __future__ import annotations

from datetime import datetime, timezone

from events import acts
from events.errors import NotFound, Refused, Unprocessable
from events.sentences import say
from events.store import NewEvent, Reader, Writer
from projections import devices

from .. import auth, signing
from ..commands import AddDevice, ApproveDevice, DeviceAdded, ResetMember
from ..keyring import first_key, member_of, read_key, taken

WAITING = "device_waiting"


def add_device(c: AddDevice, w: Writer) -> DeviceAdded:
    """A device of the member asking (its token or session): the first key at once, a further
    one waits for approval."""
    if c.actor != c.member:
        raise Refused(say("a device is added by the member it belongs to (their token or sign-in); the admin cannot "
                          "add a key for anyone"))
    member_of(w, c.group, c.member)
    key, kid = read_key(c.key)
    row = w.row(devices.NAME, c.group, c.member)
    if not devices.current(row):
        return DeviceAdded(c.member, first_key(w, c.group, c.member, key, c.via), pending=False)
    if any(k["kid"] == kid for k in devices.current(row)):
        return DeviceAdded(c.member, kid, pending=False)  # this very device: nothing to add
    if taken(w, c.group, kid) is not None:
        raise Unprocessable(say("this key is registered in this group already: make a new key on this device"))
    w.put_row(WAITING, c.group, f"{c.member}:{kid}", {"member": c.member, "kid": kid, "key": key,
                                                       "asked_at": _now()})
    return DeviceAdded(c.member, kid, pending=True)


def approve_device(c: ApproveDevice, w: Writer) -> DeviceAdded:
    """One of the member's current devices approves a waiting one: ``device_added`` (approval)."""
    if c.actor != c.member:
        raise Refused(say("only the member's own devices approve a device of theirs"))
    member_of(w, c.group, c.member)
    waiting = w.row(WAITING, c.group, f"{c.member}:{c.kid}")
    if waiting is None:
        raise NotFound(say("no device {kid} waits for approval", kid=c.kid))
    if taken(w, c.group, c.kid) is not None:
        raise Unprocessable(say("this key is registered in this group already"))
    fields = {"member": c.member, "key": waiting["key"]}
    if not devices.current(w.row(devices.NAME, c.group, c.member)):
        raise Refused(say("{name} has no current device to approve with: ask the admin for a reset",
                          name=member_of(w, c.group, c.member)))
    if c.signed is None:
        raise Refused(say("approving a device needs your signature: send the header Bitka-Signature (kid, nonce, "
                          "sig) made by one of your devices over the statement"),
                      statement=acts.statement("approve_device", c.group, None, fields))
    sealed = signing.sealed_by(w, c.group, c.actor, "approve_device", fields, c.signed)
    data = {"member": c.member, "key": waiting["key"], "kid": c.kid, "via": "approval", **sealed}
    w.append(c.group, [NewEvent("device_added", data)], c.actor, expected_version=w.version(c.group))
    w.drop_row(WAITING, c.group, f"{c.member}:{c.kid}")
    return DeviceAdded(c.member, c.kid, pending=False)


def reset_member(c: ResetMember, w: Writer) -> dict:
    """The admin stops every key of a member who lost their phone: ``member_reset``, announced on
    every page for 30 days. Their tokens and sign-ins end too; they join again by a new invitation."""
    if c.actor != auth.ADMIN:
        raise Refused(say("only the group's admin may reset a member's devices"))
    name = member_of(w, c.group, c.member)
    row = w.row(devices.NAME, c.group, c.member)
    stopped = [k["kid"] for k in devices.current(row)]
    w.append(c.group, [NewEvent("member_reset", {"member": c.member, "reason": c.reason, "stopped": stopped})],
             c.actor, expected_version=w.version(c.group))
    w.drop_credentials(c.group, c.member)
    for key in [k for k in w.row_keys(WAITING, c.group) if k.startswith(f"{c.member}:")]:
        w.drop_row(WAITING, c.group, key)
    return {"member": c.member, "name": name, "stopped": stopped}


def listed(r: Reader, group: str, member: str) -> dict:
    """A member's devices, those that wait for approval, and the resets of them."""
    member_of(r, group, member)
    row = r.row(devices.NAME, group, member) or {"keys": [], "resets": []}
    at = {reset["seq"]: reset["at"] for reset in row["resets"]}
    shown = [{"kid": k["kid"], "key": k["key"], "via": k["via"], "added_at": k["at"],
              "stopped_at": at.get(k["stopped"]) if k["stopped"] is not None else None} for k in row["keys"]]
    keys = sorted(k for k in r.row_keys(WAITING, group) if k.startswith(f"{member}:"))
    waiting = [{"kid": v["kid"], "key": v["key"], "asked_at": v["asked_at"]}
               for v in (r.rows_of(WAITING, group, keys) if keys else {}).values()]
    return {"member": member, "devices": shown, "waiting": waiting, "resets": row["resets"]}


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
