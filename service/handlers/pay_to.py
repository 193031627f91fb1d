"""How a member takes money: set whole by that member or by the group's admin, kept in the
group's log as a ``pay_details`` event (events/pay_details.py reads and checks it)."""
from __future__ import annotations

from events import pay_details
from events.errors import NotFound, Refused
from events.sentences import say
from events.store import NewEvent, Writer
from projections.groups import pay_to

from .. import auth, signing
from ..commands import SetPayDetails
from .lookups import group_row


def may_change(actor: str, member: str, before_keys: bool = False) -> None:
    """Only the member themself says how they take money: not the admin, who could otherwise
    send a winner's money to another account under the winner's name (``before_keys``: a log
    from before members held keys, when the admin could, is imported as it was)."""
    if actor != member and not (before_keys and actor == auth.ADMIN):
        raise Refused(say("only the member themself may change how they take money (signed by one of their "
                          "devices); not another member, nor the group's admin"))


def details_of(row: dict, member: str) -> dict:
    """How ``member`` of the group row takes money, as kept (404 for no such member)."""
    if member not in {m["id"] for m in row["members"]}:
        raise NotFound(say("there is no member {member} in this group", member=repr(member)))
    return pay_to(row, member)


def set_pay_details(c: SetPayDetails, w: Writer) -> dict:
    """The member's details as kept now. The same details again append nothing; none at all
    clear them (the event then names the member alone)."""
    row = group_row(w, c.group)
    kept = details_of(row, c.member)
    may_change(c.actor, c.member, c.before_keys)
    details = pay_details.checked(c.body)
    if details != kept:
        asked = {"member": c.member, **{f: c.body.get(f) or None for f in pay_details.FIELDS}}
        logged = {"member": c.member, **{f: details.get(f) for f in pay_details.FIELDS}}
        sealed = signing.sealed_by(w, c.group, c.actor, "pay_to", asked, c.signed, logged)
        w.append(c.group, [NewEvent("pay_details", {"member": c.member, **details, **sealed})], c.actor,
                 expected_version=w.version(c.group))
    return details
