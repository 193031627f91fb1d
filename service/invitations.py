"""Invitations: the admin asks for a one-time link for a member (a new one, or one already
in the group); whoever opens it gets a token of that member, once, within seven days. The
admin's own link signs in as the admin, as often as needed, until it is replaced.

A code is 24 random bytes (base64url); only its SHA-256 is kept. Redeeming takes the
group's write lock, so two phones opening one link at once get one token between them.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from events.errors import Gone, Invalid, NotFound, Unprocessable
from events.sentences import say
from events.store import Writer

from . import auth, handlers
from .handlers import lookups
from .commands import AddMember

VALID_FOR = timedelta(days=7)


@dataclass(frozen=True)
class Invitation:
    group: str
    member: str  # a member id, or "admin" for the admin's own link
    code: str
    expires_at: str | None  # None: the admin's link, which does not expire


@dataclass(frozen=True)
class Redeemed:
    group: str
    member: str
    token: str


def code_hash(code: str) -> str:
    return hashlib.sha256(b"bitka invitation\n" + code.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def invite(w: Writer, group: str, actor: str, body: dict) -> Invitation:
    """A one-time link for ``{"member": id}`` (in the group) or ``{"name": ...}`` (added to
    the group first, as POST .../members would)."""
    row = lookups.group_row(w, group)
    if ("member" in body) == ("name" in body):
        raise Invalid(say("an invitation names an existing member (\"member\") or a new one (\"name\"), one of them"),
                      errors={"member": [say("Give member or name.")]})
    if "name" in body:
        member = handlers.handle(AddMember(group, actor, body["name"]), w).id
    else:
        member = body["member"]
        if member not in {m["id"] for m in row["members"]}:
            raise Unprocessable(say("{member} is not a member of this group", member=repr(member)))
    code, expires = secrets.token_urlsafe(24), _stamp(_now() + VALID_FOR)
    w.add_invitation(code_hash(code), group, member, expires)
    return Invitation(group, member, code, expires)


def admin_link(w: Writer, group: str) -> Invitation:
    """The admin's own link, replacing any earlier one: it signs in as the admin each time it
    is opened (on a new phone, or when a browser forgot), and does not expire."""
    lookups.group_row(w, group)
    w.drop_invitations(group, auth.ADMIN)
    code = secrets.token_urlsafe(24)
    w.add_invitation(code_hash(code), group, auth.ADMIN, None)
    return Invitation(group, auth.ADMIN, code, None)


def found(reader, code: str) -> tuple[str, str]:
    """(group, member) of a code that may still be used; NotFound or Gone otherwise."""
    if not 16 <= len(code) <= 64:
        raise NotFound(say("there is no such invitation"))
    entry = reader.invitation(code_hash(code))
    if entry is None:
        raise NotFound(say("there is no such invitation"))
    group, member, expires_at, used_at = entry
    if used_at is not None:
        raise Gone(say("this invitation was used already: ask the group's admin for a new one"))
    if expires_at is not None and expires_at < _stamp(_now()):
        raise Gone(say("this invitation has expired (invitations last seven days): ask the group's admin for a new "
                       "one"))
    return group, member


def redeem(w: Writer, code: str) -> Redeemed:
    """A token of the invited member, once (the admin's link: each time)."""
    group, member = found(w, code)
    if member != auth.ADMIN and not w.use_invitation(code_hash(code), _stamp(_now())):
        raise Gone(say("this invitation was used already: ask the group's admin for a new one"))
    token, digest = auth.mint_token()
    w.add_credential(digest, group, member)
    return Redeemed(group, member, token)
