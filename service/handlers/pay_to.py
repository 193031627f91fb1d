"""How a member takes money: set whole by that member or by the group's admin, kept in the
group's log as a ``pay_details`` event (events/pay_details.py reads and checks it)."""
from __future__ import annotations

from events import pay_details
from events.errors import NotFound, Refused
from events.sentences import say
from events.store import NewEvent, Writer
from projections.groups import pay_to

from .. import auth
from ..commands import SetPayDetails
from .lookups import group_row


def may_change(actor: str, member: str) -> None:
    """Only the member themself, or the admin, says how a member takes money."""
    if actor != auth.ADMIN and actor != member:
        raise Refused(say("only the member themself or the group's admin may change how a member takes money"))


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
    may_change(c.actor, c.member)
    details = pay_details.checked(c.body)
    if details != kept:
        w.append(c.group, [NewEvent("pay_details", {"member": c.member, **details})], c.actor,
                 expected_version=w.version(c.group))
    return details
