"""Signing in and out: where a browser starts (its groups to choose from, or the form that
takes a token), the token turned into a session of the browser's own, and the sign-out
button of a group's page.
"""
from __future__ import annotations

from flask import Response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Refused
from projections.groups import member_name
from .. import auth
from ..http import store
from . import session
from .base import bp


@bp.get("/")
def sign_in_page():
    """Where a browser starts: its groups to choose from, or how to get into one."""
    with store().reading() as r:
        mine = session.sessions(r)
        groups = [{"id": s.own.group, "name": (r.row("group", s.own.group, "") or {}).get("name", s.own.group),
                   "as": _as(r.row("group", s.own.group, "") or {"members": []}, s)} for s in mine]
    if len(groups) == 1 and not request.args.get("choose"):
        return redirect(url_for("web.group_page", group=groups[0]["id"]))
    return _sign_in_form(None, request.args.get("next", ""), 200, groups)


def _as(grow: dict, found: session.Session) -> str:
    """Who this browser is in a group, as its list of groups says it."""
    if found.member is None:
        # Translators: a group this browser is signed in to as its admin ("Thursday cards, as admin").
        return _("admin")
    name = member_name(grow, found.member)
    # Translators: who this browser is in a group, a member who is its admin too ("Thursday cards, as Ola, the admin").
    return _("%(name)s, the admin", name=name) if found.admin is not None else name


def _sign_in_form(error: str | None, after: str, status: int, groups=()):
    token = session.sign_in_token()
    page = render_template("signin.html", error=error, next=after, signin_token=token, groups=groups)
    return session.keep_sign_in_token(Response(page, status, mimetype="text/html"), token)


@bp.post("/signin")
def sign_in():
    session.check_sign_in()
    token = request.form.get("token", "").strip()
    with store().reading() as r:
        try:
            principal = auth.resolve(r, f"Bearer {token}")
        except DomainError:
            return _sign_in_form(_("That token is not known here: paste the whole token the group's admin gave "
                                   "you."), "", 401)
    target = request.form.get("next", "")
    if not target.startswith(f"/g/{principal.group}"):
        target = url_for("web.group_page", group=principal.group)
    return session.start(redirect(target, 303), token)  # a session of its own: the cookie never holds the token


@bp.post("/signout")
def sign_out():
    """Only bitka's own sign-out button signs out, of the group whose page it is on: it
    carries that group's session form token."""
    group = request.form.get("group", "")
    with store().reading() as r:
        who = session.signed_in(r, group)
        if who is None:
            raise Refused(_("this sign-out is not from a page of a group this browser is signed in to"))
        session.check_form(who)
        return session.forget(redirect(url_for("web.sign_in_page", choose=1), 303), r, group)
