"""Invitations: the admin asks for a one-time link for a member (a new one, or one already
in the group); whoever opens it gets a token of that member, once, within seven days. The
admin's own link signs in as the admin, as often as needed, until it is replaced.

A code is 24 random bytes (base64url); only its SHA-256 is kept. Redeeming takes the
group's write lock, so two phones opening one link at once get one token between them.

A link made on the members page is keyed instead (``keyed_code``): its 24 bytes are an
HMAC of the invited member and the link's expiry under a key derived from the admin's page
session, whose id only that browser's cookie holds (the store keeps its hash). The store
still keeps only the code's hash, so neither it nor anyone reading it can give a link back;
the admin's browser can, by deriving the code again and finding its hash among the
group's unused invitations (``pending``): the members page shows every link it made that
nobody has used yet, not only the latest.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from events.errors import Conflict, Gone, Invalid, NotFound, Unprocessable
from events.sentences import say
from events.store import Writer

from . import auth, handlers
from projections.devices import NAME as DEVICES, current

from .handlers import lookups
from .keyring import first_key, read_key
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
    kid: str | None = None


def _keyless(r, group: str, member: str) -> None:
    """An invitation is for a member who holds no key: one who does adds a device by approving
    it on their own, or asks the admin for a reset (API.md, "Members hold their own keys")."""
    if member != auth.ADMIN and current(r.row(DEVICES, group, member)):
        name = next((m["name"] for m in lookups.group_row(r, group)["members"] if m["id"] == member), member)
        raise Conflict(say("{name} holds a device key already, so no invitation can sign in as them: a new device "
                           "of theirs is approved on one of their own devices, or, if they lost it, the admin "
                           "resets their devices first", name=name))


def code_hash(code: str) -> str:
    return hashlib.sha256(b"bitka invitation\n" + code.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def keyed_code(key: str, group: str, member: str, expires_at: str) -> str:
    """The code of a link made under ``key`` (a secret only its maker holds) for ``member``,
    expiring at ``expires_at``: 24 bytes of HMAC-SHA256, base64url, as long as a random code."""
    message = "\n".join(("bitka invitation code", group, member, expires_at)).encode("utf-8")
    return base64.urlsafe_b64encode(hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()[:24]).decode()


def _code(w: Writer, group: str, member: str, key: str | None) -> tuple[str, str]:
    """A new code and its expiry: random, or keyed by ``key`` (its expiry a microsecond
    later when that code is taken already, so no two invitations share a code)."""
    moment = _now() + VALID_FOR
    if key is None:
        return secrets.token_urlsafe(24), _stamp(moment)
    while w.invitation(code_hash(code := keyed_code(key, group, member, _stamp(moment)))) is not None:
        moment += timedelta(microseconds=1)
    return code, _stamp(moment)


def invite(w: Writer, group: str, actor: str, body: dict, key: str | None = None) -> Invitation:
    """A one-time link for ``{"member": id}`` (in the group) or ``{"name": ...}`` (added to
    the group first, as POST .../members would); with ``key``, its code is keyed by it
    (``keyed_code``), so that whoever holds ``key`` can have it shown again (``pending``)."""
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
        _keyless(w, group, member)
    code, expires = _code(w, group, member, key)
    w.add_invitation(code_hash(code), group, member, expires)
    return Invitation(group, member, code, expires)


def pending(reader, group: str, key: str) -> list[Invitation]:
    """The group's invitations made under ``key`` that can still be used (not used, not
    expired), the latest made first: each code derived again and found by its hash."""
    now, found = _stamp(_now()), []
    for digest, member, expires_at in reader.unused_invitations(group):
        if expires_at < now:
            continue
        code = keyed_code(key, group, member, expires_at)
        if hmac.compare_digest(code_hash(code), digest):
            found.append(Invitation(group, member, code, expires_at))
    return sorted(found, key=lambda i: i.expires_at, reverse=True)


def admin_link(w: Writer, group: str, key: str | None = None, made: str | None = None) -> Invitation:
    """The admin's own link, replacing any earlier one: it signs in as the admin each time it
    is opened (on a new phone, or when a browser forgot), and does not expire. With ``key``
    (a page session's) and ``made`` (a random word naming this link), its code is keyed by
    them, so that the welcome page can show it again to that browser alone (``admin_code``)
    without the code ever being in an address."""
    lookups.group_row(w, group)
    w.drop_invitations(group, auth.ADMIN)
    code = secrets.token_urlsafe(24) if key is None or made is None else keyed_code(key, group, auth.ADMIN, made)
    w.add_invitation(code_hash(code), group, auth.ADMIN, None)
    return Invitation(group, auth.ADMIN, code, None)


def admin_link_name() -> str:
    """What names a new admin link in the welcome page's address (``?link=``): not its code,
    which is keyed by it and by the session making it (``admin_code``), so the
    name alone, in a history, a log or a Referer, shows nobody the link."""
    return secrets.token_urlsafe(12)


def admin_code(reader, group: str, key: str, made: str) -> str | None:
    """The code of ``group``'s admin link when it is the one made under ``key`` and ``made``
    and still the current one; None otherwise (made elsewhere, replaced, or never made)."""
    code = keyed_code(key, group, auth.ADMIN, made)
    entry = reader.invitation(code_hash(code))
    return code if entry is not None and entry[:3] == (group, auth.ADMIN, None) else None


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


def redeem(w: Writer, code: str, key: str | None = None) -> Redeemed:
    """A token of the invited member, once (the admin's link: each time); with ``key``, this
    device's public key registered as the member's first (``device_added``, via invitation)."""
    group, member = found(w, code)
    if member != auth.ADMIN:
        _keyless(w, group, member)
        if key is not None:
            read_key(key)  # a 400 before the code is used up
    if member != auth.ADMIN and not w.use_invitation(code_hash(code), _stamp(_now())):
        raise Gone(say("this invitation was used already: ask the group's admin for a new one"))
    kid = first_key(w, group, member, key, "invitation") if key is not None and member != auth.ADMIN else None
    token, digest = auth.mint_token()
    w.add_credential(digest, group, member)
    return Redeemed(group, member, token, kid)
