"""The group's handlers: a group made, a member added, a token minted again, the settings
changed."""
from __future__ import annotations

from events import names
from events.errors import Invalid, NotFound, Unprocessable
from events.money import MoneyError, minor_digits
from events.sentences import say
from events.store import NewEvent, Writer
from projections.devices import NAME as DEVICES
from projections.groups import CONFIRMATIONS, confirmations

from .. import auth
from ..commands import AddMember, CreateGroup, Credential, GroupCreated, RotateToken, UpdateGroup
from ..keyring import first_key, read_key
from .lookups import group_row, new_id


def create_group(c: CreateGroup, w: Writer) -> GroupCreated:
    try:
        minor_digits(c.currency)
    except MoneyError as e:
        raise Invalid(str(e), errors={"currency": [str(e)]}) from None
    group, name = new_id("g"), names.stored(c.name)
    data = {"name": name, "currency": c.currency}
    if c.confirmations != "payers":
        data["confirmations"] = c.confirmations
    if c.organizer is not None:
        read_key(c.organizer["key"])  # a key that is none is a 400 before anything is written
    w.append(group, [NewEvent("group_created", data)], auth.ADMIN, expected_version=0)
    token, digest = auth.mint_token()
    w.add_credential(digest, group, auth.ADMIN)
    organizer = None
    if c.organizer is not None:
        organizer = add_member(AddMember(group, auth.ADMIN, c.organizer["name"]), w)
        first_key(w, group, organizer.id, c.organizer["key"], "token")
    return GroupCreated(group, name, c.currency, token, organizer)


def add_member(c: AddMember, w: Writer) -> Credential:
    """A new member, named as given (NFC): not a name that reads as another member's once
    invisible characters and compatibility forms are set aside ("Ala" and "Al\\u200ba"), nor
    one drawn like it ("Аla" with a Cyrillic А), nor one that mixes Latin letters with
    Cyrillic or Greek ones."""
    row = group_row(w, c.group)
    name = names.stored(c.name)
    if not names.visible(name):
        raise Invalid(say("name: must show something"), errors={"name": [say("must show something")]})
    if names.mixed_scripts(name):
        raise Unprocessable(say("{name} mixes Latin letters with Cyrillic or Greek ones, which look alike: write the "
                                "name in one alphabet",
                                name=repr(name)))
    clash = next((m["name"] for m in row["members"] if names.skeleton(m["name"]) == names.skeleton(name)), None)
    if clash is not None:
        raise Unprocessable(say("the group already has a member named {clash}, which {name} reads as",
                                clash=repr(clash), name=repr(name)))
    member = new_id("m")
    w.append(c.group, [NewEvent("member_added", {"member": member, "name": name})], c.actor,
             expected_version=w.version(c.group))
    token, digest = auth.mint_token()
    w.add_credential(digest, c.group, member)
    return Credential(member, name, token)


def rotate_token(c: RotateToken, w: Writer) -> Credential:
    """A new token for a member, or for the admin (``admin``); every older one stops working
    at once, and the sessions made from them end. Its open invitations go too (the admin's:
    the admin's link), since each would mint a token again. Tokens are not ledger facts, so
    nothing is appended to the log (the group's version does not move)."""
    row = group_row(w, c.group)
    name = auth.ADMIN if c.member == auth.ADMIN else next((m["name"] for m in row["members"] if m["id"] == c.member),
                                                          None)
    if name is None:
        raise NotFound(say("there is no member {member} in this group", member=repr(c.member)))
    w.drop_invitations(c.group, c.member)
    w.drop_credentials(c.group, c.member)
    token, digest = auth.mint_token()
    w.add_credential(digest, c.group, c.member)
    return Credential(c.member, name, token)


def update_group(c: UpdateGroup, w: Writer) -> dict:
    """The group's settings (the admin's): ``confirmations``. A setting it already has
    appends nothing."""
    row = group_row(w, c.group)
    value = c.body["confirmations"]
    if value not in CONFIRMATIONS:
        raise Invalid(say("confirmations is \"payers\" or \"off\", not {value}", value=repr(value)),
                      errors={"confirmations": [say("Must be one of: payers, off.")]})
    if value == "off" and value != confirmations(row) and w.rows(DEVICES, c.group):
        raise Unprocessable(say("confirmations can no longer be turned off: members hold their own keys now, and "
                                "\"off\" is chosen only when the group is created, before anyone joins"))
    if value != confirmations(row):
        w.append(c.group, [NewEvent("group_updated", {"confirmations": value})], c.actor,
                 expected_version=w.version(c.group))
    return group_row(w, c.group)

