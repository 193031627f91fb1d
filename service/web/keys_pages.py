"""A member's keys on the pages (API.md, "Members hold their own keys"): a phone that holds no
key of its member's adds itself (it then waits), one of the member's phones approves it
(signed ``approve_device``), the admin resets a member who lost their phone, and a phone asks
whether a key it keeps was stopped (when it is signed out of that group, a reset having ended
its sign-in, it can ask in no other way).

Who a device is added for, or approved by, is always the signed-in member of this browser,
never a form's field: the admin adds no key to anyone. The key itself is made, kept and used
on the phone (static/phone_key.js); only its public half comes here.
"""
from __future__ import annotations

from flask import jsonify, redirect, request, url_for
from flask_babel import gettext as _

from events import acts
from events.errors import Invalid, Refused
from projections import devices
from projections.groups import member_name
from .. import handlers
from ..commands import AddDevice, ApproveDevice, ResetMember
from ..handlers import lookups
from ..http import store
from . import key_state, once, session
from .base import bp, writer_of
from .signed_form import signed_of

STATE_ACT = "key_state"  # what a phone signs to ask after its own key: binds nobody, is never logged
REASON_LONGEST = 300


@bp.app_template_filter("day")
def _day(stamp: str) -> str:
    """A time of the log as the reader's language writes its date."""
    return key_state.day(str(stamp))


def _mine(group: str) -> session.Session:
    """This browser's session in the group, for a form sent from its pages (checked), when it
    is a member's: a key is a member's own."""
    with store().reading() as r:
        who = session.signed_in(r, group)
    if who is None:
        raise Refused(_("this browser is not signed in to that group: open the invitation link its admin "
                        "gave you, or choose one of your groups"))
    session.check_form(who)
    if who.member is None:
        raise Refused(_("the admin holds no key: a key is a member's own, made on their own phone"))
    return who


@bp.post("/g/<group>/devices/add")
def add_phone(group):
    """This phone's public key for the signed-in member: their first key at once, or a further
    one that waits until one of their phones approves it."""
    who = _mine(group)
    key = request.form.get("key", "").strip()
    if not key:
        raise Invalid(_("this phone sent no key: its browser makes one only with scripts on"),
                      errors={"key": [_("No key was sent.")]})
    with store().writing(group) as w:
        added = handlers.handle(AddDevice(group, who.member, who.member, key), w)
    return redirect(url_for("web.devices_page", group=group, asked=added.kid if added.pending else None,
                            added=None if added.pending else added.kid), 303)


@bp.post("/g/<group>/devices/<kid>/approve")
def approve_phone(group, kid):
    """A phone of the member's that waits, approved by this one: the signature of one of the
    member's current keys over ``approve_device`` ``{member, key}`` rides in the form."""
    who = _mine(group)
    signed = signed_of(request.form)

    def approve(w):
        handlers.handle(ApproveDevice(group, who.member, who.member, kid, signed), w)
        return url_for("web.devices_page", group=group, approved=kid)
    return once.write(group, f"approve {kid}", {"kid": kid}, approve)


@bp.post("/g/<group>/members/<member>/reset")
def reset_devices(group, member):
    """The admin stops every key of a member who lost their phone (and ends their sign-ins);
    every page of every member says so for 30 days."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    if not principal.is_admin:
        raise Refused(_("only the group's admin may do this"))
    reason = " ".join(request.form.get("reason", "").split())
    if not reason or len(reason) > REASON_LONGEST:
        raise Invalid(_("say why, in a few words every member will read on every page for 30 days"),
                      errors={"reason": [_("Give a reason.")]})

    def reset(w):
        handlers.handle(ResetMember(group, principal.subject, member, reason), w)
        return url_for("web.members_page", group=group, reset=member)
    return once.write(group, f"reset {member}", {"member": member, "reason": reason}, reset)


@bp.post("/keys/state")
def key_state_asked():
    """Whether a key this phone keeps is still its member's, or was stopped by the admin's reset
    (and when, and why): asked by the phone itself, which proves that it holds the key by
    signing ``{"act": "key_state", "group", "nonce", "member"}`` with it. Answers nothing about
    a key the asker does not hold. JSON in and out; nothing is written."""
    body = request.get_json(silent=True) or {}
    group, member = body.get("group"), body.get("member")
    try:
        signed = acts.checked(body)
    except acts.BadSignature:
        return jsonify({"state": "unknown"}), 400
    if not isinstance(group, str) or not isinstance(member, str) or len(group) > 64 or len(member) > 64:
        return jsonify({"state": "unknown"}), 400
    with store().reading() as r:
        row = r.row(devices.NAME, group, member)
        key = next((k for k in (row or {}).get("keys", []) if k["kid"] == signed.kid), None)
        said = {"act": STATE_ACT, "group": group, "nonce": signed.nonce, "member": member}
        if key is None or not acts.holds(key["key"], said, signed.sig):
            return jsonify({"state": "unknown"})
        grow = lookups.group_row(r, group)
        if key["stopped"] is None:
            return jsonify({"state": "current"})
        reset = next((x for x in row["resets"] if x["seq"] == key["stopped"]), {"at": "", "reason": ""})
        words = _("The admin of %(group)s stopped this phone's key of %(name)s on %(day)s: %(reason)s. Ask the "
                  "admin for a new invitation to take on this phone.", group=grow["name"],
                  name=member_name(grow, member), day=key_state.day(reset["at"]), reason=reset["reason"])
    return jsonify({"state": "stopped", "said": words})

