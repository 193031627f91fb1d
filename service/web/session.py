"""Signing in to the pages: sessions of their own, one per group this browser is in.

Signing in (a token pasted into the sign-in form, an invitation link taken, a new group
made) makes a session: a random id (256 bits, ``secrets.token_urlsafe(32)``) that the
browser's cookie holds, and a row in the store that keeps only the id's SHA-256, the group,
the member (or the admin), the credential it came from, when it was made and last used,
and the browser's user agent. The cookie never holds a token.

A session ends when its browser signs out, when its owner signs it out from the page of
signed-in devices, when the token it came from is rotated away (the row goes with the
credential), and by itself after ``IDLE`` (30 days) unused.

One browser may sit in several groups (a Thursday group and a family one): the cookie keeps
one session id per group, the page's group picks which one speaks. The cookie is
``HttpOnly``, ``Secure`` (browsers accept it over plain HTTP only from localhost: anywhere
else serve the pages over HTTPS) and ``SameSite=Strict``, so another site cannot send a form
with it. Every form also carries a token derived from its session's id, checked on each
POST. Served to a hall's private network over plain HTTP (``bitka serve --lan``,
``BITKA_LAN``), where no browser would keep a ``Secure`` cookie, the cookies go without it,
still ``HttpOnly`` and ``SameSite=Strict``, and every page says that only the hall's Wi-Fi
protects the sign-in (README: In a hall).

An organizer who plays is a member and the admin on one phone, with one sign-in (API.md, "The
organizer is a member"): the session's row is the member's, and the admin's rights are a second
row linked to it, whose id's hash is derived from the same cookie id (``_linked``), made from
an admin credential and ended with it (a rotation of the admin's tokens, a sign-out). The
cookie still holds one id per group. Who acts is decided by the page, never by the form:
the admin's pages (``ADMIN_PAGES``: members, tables, settings, corrections, tournaments'
draws) act as the admin; every other page acts as the member (confirm, play, pay-to), unless
the page is asked for in the admin's view (``?as=admin``), whose forms act as the admin too.
A session never turns into another member: an invitation for someone else is refused on a
phone signed in to that group (start.py), and an admin's sign-in taken on a member's phone
adds the admin's rights to it, the member staying signed in.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

from flask import Response, current_app, g, has_request_context, request
from flask_babel import gettext as _

from events.errors import Refused
from events.sessions import SessionRow
from .. import auth
from ..http import store

COOKIE = "bitka_session"
EARLIER_COOKIE = "bitka_token"  # where an earlier bitka kept tokens: deleted on sight, never read
SIGN_IN_COOKIE = "bitka_signin"  # the sign-in form's own token: no session exists yet to derive one from
IDLE = timedelta(days=30)  # a session unused this long has ended: a group plays weekly
TOUCHED_EVERY = timedelta(minutes=10)  # how often a session in use writes down that it was used
MAX_AGE = int(IDLE.total_seconds())  # the cookie's, renewed as the session is used
MOST_GROUPS = 8  # sessions kept in the cookie (43 characters each): the oldest goes beyond
SEPARATOR = "."  # never in a session id (base64url)
AGENT_KEPT = 300  # characters of the user agent kept, to name the device on the page
LINKED = ".admin"  # the admin's rights linked to a member's session: its row's id is the member row's and this
AS_ADMIN = "as"  # the query of a page asked for in the admin's view: ?as=admin
# The pages that act as the admin for a session that is a member and holds the admin's rights too.
# A page of the admin's not named here acts as the member, and refuses as it refuses a member.
ADMIN_PAGES = frozenset({
    "web.members_page", "web.new_admin_link", "web.new_table_page", "web.settings", "web.hand_admin",
    "web.correct_page", "web.admin_token_page", "web.replace_admin_token", "web.welcome_page",
    "web.new_tournament_page", "web.draw_page", "web.watch_form", "web.reset_devices"})


@dataclass(frozen=True)
class Session:
    own: auth.Principal  # whom the sign-in is: a member, or the admin (an admin's link, a token)
    secret: str  # the id this browser's cookie holds (only its hash is stored)
    row: SessionRow
    admin: SessionRow | None = None  # the admin's rights linked to a member's session (an organizer's)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def member(self) -> str | None:
        return None if self.own.is_admin else self.own.subject

    @property
    def principal(self) -> auth.Principal:
        """Who acts on this request: the member, or the admin on the admin's pages (and in the
        admin's view of a page) for a member who holds the admin's rights too."""
        if self.admin is not None and as_admin_here():
            return auth.Principal(self.own.group, auth.ADMIN)
        return self.own


def as_admin_here() -> bool:
    """Does this request act as the admin, for a session that may act as either? On the
    admin's pages; on a page asked for in the admin's view (``?as=admin``); and for a form
    sent from such a page (its address, in the Referer this site's pages send to it)."""
    if not has_request_context():
        return False
    if request.endpoint in ADMIN_PAGES or request.args.get(AS_ADMIN) == auth.ADMIN:
        return True
    if request.method == "GET":
        return False
    came_from = urlsplit(request.headers.get("Referer", ""))
    return came_from.netloc == request.host and parse_qs(came_from.query).get(AS_ADMIN) == [auth.ADMIN]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def session_hash(secret: str) -> str:
    return hashlib.sha256(b"bitka session\n" + secret.encode("utf-8")).hexdigest()


def _linked(secret: str) -> str:
    """The hash of the admin's rights linked to the session whose cookie id is ``secret``."""
    return hashlib.sha256(b"bitka admin rights\n" + secret.encode("utf-8")).hexdigest()


def _kept() -> list[str]:
    return [s for s in request.cookies.get(COOKIE, "").split(SEPARATOR) if 16 <= len(s) <= 64][:MOST_GROUPS]


def sessions(reader) -> list[Session]:
    """This browser's live sessions, newest sign-in first; an ended one (signed out, rotated
    away, idle too long) is left out, and the cookie is rewritten without it after the page.
    A session in use is marked to be written down as used (``after_request``)."""
    now = _now()
    idle_since, touch_before = _stamp(now - IDLE), _stamp(now - TOUCHED_EVERY)
    found, ended = [], False
    for secret in _kept():
        row, linked = reader.session(session_hash(secret)), reader.session(_linked(secret))
        row, linked = (r if r is not None and r.last_used_at >= idle_since else None for r in (row, linked))
        if row is None and linked is not None:  # the member's sign-in ended (a reset): the admin's rights remain
            row, linked = linked, None
        if row is None:
            ended = True
            continue
        found.append(Session(auth.Principal(row.group, row.subject), secret, row, linked))
        if min(row.last_used_at, linked.last_used_at if linked else row.last_used_at) < touch_before:
            g.setdefault("bitka_used", set()).add(secret)
    if ended:
        g.bitka_live = [s.secret for s in found]
    return found


def devices(reader, owner: Session) -> list[SessionRow]:
    """The live sessions of ``owner``'s member (or admin) in its group, the latest used first."""
    idle_since = _stamp(_now() - IDLE)
    return [row for row in reader.sessions_of(owner.principal.group, owner.principal.subject)
            if row.last_used_at >= idle_since]


def signed_in(reader, group: str | None = None) -> Session | None:
    """This browser's session in ``group`` (its newest, when None); None when it is not
    signed in there."""
    for found in sessions(reader):
        if group is None or found.principal.group == group:
            return found
    return None


def new_id() -> str:
    """A new session's id, for ``start`` to make the session with (256 bits)."""
    return secrets.token_urlsafe(32)


def start(response: Response, token: str, admin_hash: str | None = None, secret: str | None = None) -> Response:
    """Sign this browser in with ``token``: a new session of the token's member (or admin), in
    place of any session this browser had in that group (which ends). ``Unauthenticated``
    when the token is not known.

    The admin's rights this browser held in that group stay with the new member session (and
    ``admin_hash``, an admin credential's hash, gives them: a new group's organizer). The
    admin's token taken on a member's session adds the admin's rights to it: the member stays.
    ``secret``: the new session's id (``new_id``), when the caller keys something by it first."""
    digest = auth.token_hash(token)
    secret, now = secret or new_id(), _now()
    agent = request.headers.get("User-Agent", "")[:AGENT_KEPT]
    with store().writing() as w:
        found = w.credential(digest)
        if found is None or not hmac.compare_digest(found[2], digest):
            raise auth.Unauthenticated(_("That token is not known here: paste the whole token the group's admin "
                                         "gave you."))
        group, subject = found[0], found[1]
        w.drop_idle_sessions(_stamp(now - IDLE))
        mine = next((s for s in sessions(w) if s.own.group == group), None)
        if subject == auth.ADMIN and mine is not None and not mine.own.is_admin:
            _link_admin(w, mine, digest)
            return response
        if mine is not None and subject != auth.ADMIN:
            admin_hash = admin_hash or (mine.row.token_hash if mine.own.is_admin else
                                        mine.admin.token_hash if mine.admin else None)
        others = []
        for kept in _kept():
            row = w.session(session_hash(kept)) or w.session(_linked(kept))
            if row is not None and row.group != group and len(others) < MOST_GROUPS - 1:
                others.append(kept)
            else:  # this group's earlier session, or one the cookie has no room for: it ends
                w.drop_session(session_hash(kept))
                w.drop_session(_linked(kept))
        made = SessionRow("s_" + secrets.token_hex(8), group, subject, digest, _stamp(now), _stamp(now), agent)
        w.add_session(session_hash(secret), made)
        if admin_hash is not None and subject != auth.ADMIN:
            w.add_session(_linked(secret), made._replace(id=made.id + LINKED, subject=auth.ADMIN,
                                                         token_hash=admin_hash))
    return _keep(response, [secret, *others])


def _link_admin(w, mine: Session, digest: str) -> None:
    """The admin's rights (the admin credential ``digest``) linked to this browser's member
    session ``mine``, in place of any it had."""
    now = _stamp(_now())
    w.drop_session(_linked(mine.secret))
    w.add_session(_linked(mine.secret), mine.row._replace(id=mine.row.id + LINKED, subject=auth.ADMIN,
                                                          token_hash=digest, created_at=now, last_used_at=now))


def live(w, found: Session) -> bool:
    """Is this browser's session still there, in the write ``w`` (not ended meanwhile)?"""
    return w.session(session_hash(found.secret)) is not None or w.session(_linked(found.secret)) is not None


def rebound(w, found: Session, token: str) -> None:
    """In the write that rotated ``found``'s tokens away (which ended its sessions), this
    browser's session again, the same id in its cookie, made from the new ``token``: the
    browser that rotated stays signed in, even when a double tap sends the form twice. A
    member's session that held the admin's rights holds them again, from the new token."""
    if found.own.is_admin:
        w.add_session(session_hash(found.secret), found.row._replace(token_hash=auth.token_hash(token)))
    elif found.admin is not None:
        w.drop_session(_linked(found.secret))
        w.add_session(_linked(found.secret), found.admin._replace(token_hash=auth.token_hash(token)))


def forget(response: Response, reader, group: str) -> Response:
    """Sign this browser out of ``group``: its session there ends, in the store."""
    mine = signed_in(reader, group)
    left = [s.secret for s in sessions(reader) if s.principal.group != group]
    if mine is not None:
        with store().writing() as w:
            w.drop_session(session_hash(mine.secret))
            w.drop_session(_linked(mine.secret))
    return _keep(response, left)


def end(owner: Session, session_id: str) -> bool:
    """End one of ``owner``'s sessions (its own member's or admin's, in its group) by its
    name on the page of signed-in devices; False when it has none by that name. A member's
    session ends with the admin's rights linked to it."""
    group, subject = owner.principal.group, owner.principal.subject
    with store().writing() as w:
        ended = w.drop_session_named(group, subject, session_id)
        if ended and subject != auth.ADMIN:
            w.drop_session_named(group, auth.ADMIN, session_id + LINKED)
        return ended


def secure() -> bool:
    """Do the sign-in cookies go ``Secure``? Everywhere but a hall's network served over plain
    HTTP by explicit choice (``bitka serve --lan``), where a browser would drop them."""
    return not current_app.config.get("BITKA_LAN")


def _keep(response: Response, secrets_kept: list[str]) -> Response:
    """The cookie, keeping these session ids (deleted when there are none)."""
    g.bitka_cookie_set = True
    if not secrets_kept:
        response.delete_cookie(COOKIE, path="/", httponly=True, secure=secure(), samesite="Strict")
        return response
    response.set_cookie(COOKIE, SEPARATOR.join(secrets_kept), max_age=MAX_AGE, httponly=True, secure=secure(),
                        samesite="Strict", path="/")
    return response


def after_request(response: Response) -> Response:
    """After a page: write down that its sessions were used (at most every ``TOUCHED_EVERY``)
    and renew the cookie's age with them; drop ended sessions from the cookie; delete the
    token cookie an earlier bitka kept."""
    used = g.pop("bitka_used", set())
    if used:
        with store().writing() as w:
            now = _stamp(_now())
            for secret in used:
                w.touch_session(session_hash(secret), now)
                w.touch_session(_linked(secret), now)
    if not g.get("bitka_cookie_set") and (used or "bitka_live" in g):
        _keep(response, g.get("bitka_live", _kept()))
    if EARLIER_COOKIE in request.cookies:
        response.delete_cookie(EARLIER_COOKIE, path="/", httponly=True, secure=secure(), samesite="Strict")
    return response


def form_token(found: Session) -> str:
    """What each form of a session sends back: tied to the session, useless without it."""
    return hashlib.sha256(b"bitka form\n" + found.secret.encode("utf-8")).hexdigest()[:32]


def invitation_key(found: Session) -> str:
    """What the links this session makes on the members page are keyed by
    (``invitations.keyed_code``): derived from the session's id, which only this browser's
    cookie holds, so only this browser can have them shown again."""
    return invitation_key_of(found.secret)


def invitation_key_of(secret: str) -> str:
    """``invitation_key`` of the session whose id is ``secret`` (one being made: ``new_id``)."""
    return hmac.new(secret.encode("utf-8"), b"bitka invitation key", hashlib.sha256).hexdigest()


def check_form(found: Session) -> None:
    if not hmac.compare_digest(request.form.get("form_token", ""), form_token(found)):
        raise Refused(_("this form is not from your session; open the page again and resend it"))


def sign_in_token() -> str:
    """The token the sign-in form carries: the browser's sign-in cookie, or a new one."""
    kept = request.cookies.get(SIGN_IN_COOKIE, "")
    return kept if len(kept) == 43 else secrets.token_urlsafe(32)


def keep_sign_in_token(response: Response, token: str) -> Response:
    response.set_cookie(SIGN_IN_COOKIE, token, max_age=MAX_AGE, httponly=True, secure=secure(), samesite="Strict",
                        path="/")
    return response


def check_sign_in() -> None:
    """A sign-in (or a new group, or an invitation taken) must come from bitka's own form:
    its hidden token equals the cookie, which another site's page can neither read nor make
    this browser send (SameSite=Strict). Otherwise a stranger's site could sign this
    browser in to the stranger's group."""
    cookie = request.cookies.get(SIGN_IN_COOKIE, "")
    if not cookie or not hmac.compare_digest(request.form.get("signin_token", ""), cookie):
        raise Refused(_("this form is not from this browser's visit to bitka; open the page again and send it "
                        "there"))
