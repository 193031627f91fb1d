"""A member's keys as the handlers and the invitations register them: a public key read and its
kid, who in a group holds a key already, and a member's first key appended (``device_added``)."""
from __future__ import annotations

from events import acts
from events.errors import Invalid, NotFound, Unprocessable
from events.sentences import say
from events.store import NewEvent, Reader, Writer
from projections import devices

from .handlers.lookups import group_row


def member_of(r: Reader, group: str, member: str) -> str:
    """The member's name; a 404 when the group has no such member."""
    row = group_row(r, group)
    name = next((m["name"] for m in row["members"] if m["id"] == member), None)
    if name is None:
        raise NotFound(say("there is no member {member} in this group", member=repr(member)))
    return name


def read_key(key: str) -> tuple[str, str]:
    """A public key as bitka writes it, and its kid; a 400 when it is no Ed25519 public key."""
    try:
        return acts.canonical_key(key), acts.kid_of(key)
    except acts.BadSignature as e:
        raise Invalid(say("key: {why}", why=str(e)), errors={"key": [str(e)]}) from None


def taken(r: Reader, group: str, kid: str) -> str | None:
    """The member of the group who already has the key ``kid``, if any (one read of the
    group's device rows: only members who registered a key have one)."""
    for row in r.rows(devices.NAME, group).values():
        if any(k["kid"] == kid for k in row.get("keys", [])):
            return row["member"]
    return None


def first_key(w: Writer, group: str, member: str, key: str, via: str, actor: str | None = None) -> str:
    """Register ``member``'s first key (they have no current one): ``device_added``; its kid."""
    key, kid = read_key(key)
    if taken(w, group, kid) is not None:
        raise Unprocessable(say("this key is registered in this group already: make a new key on this device"))
    row = w.row(devices.NAME, group, member)
    if devices.current(row):
        raise Unprocessable(say("{name} has a device key already: a further device is approved on one of their "
                                "devices", name=member_of(w, group, member)))
    via = devices.first_via(row) or via
    w.append(group, [NewEvent("device_added", {"member": member, "key": key, "kid": kid, "via": via})],
             actor or member, expected_version=w.version(group))
    return kid
