"""Signing in to the pages: the group token kept in a cookie that scripts cannot read.

The cookie is ``HttpOnly``, ``Secure`` (browsers accept it over plain HTTP only from
localhost: anywhere else serve the pages over HTTPS) and ``SameSite=Strict``, so another
site cannot send a form with it. Every form also carries a token derived from the
session's, checked on each POST.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Response, request

from events.errors import DomainError, Refused
from .. import auth

COOKIE = "bitka_token"
SIGN_IN_COOKIE = "bitka_signin"  # the sign-in form's own token: no session exists yet to derive one from
MAX_AGE = 60 * 60 * 24 * 30  # a month: a group plays weekly, and signs in again after that


def signed_in(reader) -> tuple[auth.Principal, str] | None:
    """Who the cookie's token stands for, and the token; None when there is none or it is unknown."""
    token = request.cookies.get(COOKIE, "")
    if not token:
        return None
    try:
        return auth.resolve(reader, f"Bearer {token}"), token
    except DomainError:
        return None


def keep(response: Response, token: str) -> Response:
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, httponly=True, secure=True, samesite="Strict", path="/")
    return response


def forget(response: Response) -> Response:
    response.delete_cookie(COOKIE, path="/", httponly=True, secure=True, samesite="Strict")
    return response


def form_token(token: str) -> str:
    """What each form of a session sends back: tied to the session, useless without it."""
    return hashlib.sha256(b"bitka form\n" + token.encode("utf-8")).hexdigest()[:32]


def check_form(token: str) -> None:
    if not hmac.compare_digest(request.form.get("form_token", ""), form_token(token)):
        raise Refused("this form is not from your session; open the page again and resend it")


def sign_in_token() -> str:
    """The token the sign-in form carries: the browser's sign-in cookie, or a new one."""
    kept = request.cookies.get(SIGN_IN_COOKIE, "")
    return kept if len(kept) == 43 else secrets.token_urlsafe(32)


def keep_sign_in_token(response: Response, token: str) -> Response:
    response.set_cookie(SIGN_IN_COOKIE, token, max_age=MAX_AGE, httponly=True, secure=True, samesite="Strict",
                        path="/")
    return response


def check_sign_in() -> None:
    """A sign-in must come from bitka's own form: its hidden token equals the cookie, which
    another site's page can neither read nor make this browser send (SameSite=Strict).
    Otherwise a stranger's site could sign this browser in to the stranger's group."""
    cookie = request.cookies.get(SIGN_IN_COOKIE, "")
    if not cookie or not hmac.compare_digest(request.form.get("signin_token", ""), cookie):
        raise Refused("this sign-in form is not from this browser's visit to bitka; open the sign-in page "
                        "again and sign in there")
