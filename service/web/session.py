"""Signing in to the pages: the tokens of this browser's groups, kept in a cookie that
scripts cannot read.

One browser may sit in several groups (a Thursday group and a family one): the cookie
keeps one token per group, the page's group picks which one speaks. The cookie is
``HttpOnly``, ``Secure`` (browsers accept it over plain HTTP only from localhost: anywhere
else serve the pages over HTTPS) and ``SameSite=Strict``, so another site cannot send a form
with it. Every form also carries a token derived from its group's session, checked on each
POST.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Response, request
from flask_babel import gettext as _

from events.errors import DomainError, Refused
from .. import auth

COOKIE = "bitka_token"
SIGN_IN_COOKIE = "bitka_signin"  # the sign-in form's own token: no session exists yet to derive one from
MAX_AGE = 60 * 60 * 24 * 30  # a month: a group plays weekly, and signs in again after that
MOST_GROUPS = 8  # tokens kept in the cookie (43 characters each): the oldest goes beyond
SEPARATOR = "."  # never in a token (base64url)


def _kept() -> list[str]:
    return [t for t in request.cookies.get(COOKIE, "").split(SEPARATOR) if t][:MOST_GROUPS]


def sessions(reader) -> list[tuple[auth.Principal, str]]:
    """Each group this browser is signed in to: (principal, token), newest sign-in first;
    tokens no longer known (rotated away) are left out."""
    found = []
    for token in _kept():
        try:
            found.append((auth.resolve(reader, f"Bearer {token}"), token))
        except DomainError:
            continue
    return found


def signed_in(reader, group: str | None = None) -> tuple[auth.Principal, str] | None:
    """Who this browser is in ``group`` (its newest sign-in, when None), and the token;
    None when it is not signed in there."""
    for principal, token in sessions(reader):
        if group is None or principal.group == group:
            return principal, token
    return None


def keep(response: Response, token: str, reader) -> Response:
    """Sign this browser in with ``token``, in place of any token it had for that group."""
    group = auth.resolve(reader, f"Bearer {token}").group
    others = [t for principal, t in sessions(reader) if principal.group != group]
    return _store(response, [token, *others][:MOST_GROUPS])


def forget(response: Response, reader, group: str | None = None) -> Response:
    """Sign this browser out of ``group`` (of every group, when None)."""
    left = [] if group is None else [t for principal, t in sessions(reader) if principal.group != group]
    if not left:
        response.delete_cookie(COOKIE, path="/", httponly=True, secure=True, samesite="Strict")
        return response
    return _store(response, left)


def _store(response: Response, tokens: list[str]) -> Response:
    response.set_cookie(COOKIE, SEPARATOR.join(tokens), max_age=MAX_AGE, httponly=True, secure=True,
                        samesite="Strict", path="/")
    return response


def form_token(token: str) -> str:
    """What each form of a session sends back: tied to the session, useless without it."""
    return hashlib.sha256(b"bitka form\n" + token.encode("utf-8")).hexdigest()[:32]


def check_form(token: str) -> None:
    if not hmac.compare_digest(request.form.get("form_token", ""), form_token(token)):
        raise Refused(_("this form is not from your session; open the page again and resend it"))


def sign_in_token() -> str:
    """The token the sign-in form carries: the browser's sign-in cookie, or a new one."""
    kept = request.cookies.get(SIGN_IN_COOKIE, "")
    return kept if len(kept) == 43 else secrets.token_urlsafe(32)


def keep_sign_in_token(response: Response, token: str) -> Response:
    response.set_cookie(SIGN_IN_COOKIE, token, max_age=MAX_AGE, httponly=True, secure=True, samesite="Strict",
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
