"""Starting out in a browser: a new group (its admin signed in at once and handed the link
that signs them in again anywhere), and an invitation opened on a phone. No token is typed
or shown: links carry one-time codes, and the cookie keeps a session made from the token.
"""
from __future__ import annotations

from flask import current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Invalid
from events.money import MINOR_DIGITS, POINTS
from .. import auth, handlers, invitations
from ..handlers import lookups
from ..commands import CreateGroup
from ..http import store
from ..routes.invitations import public_url
from . import qr, session
from .base import bp, page_of

CURRENCIES = ("PLN", "EUR", "BRL", "CHF", "GBP", "USD", "CZK", "HUF", "JPY", POINTS)


@bp.route("/new", methods=["GET", "POST"])
def new_group_page():
    """A new group: its name, its currency, and whether results wait for a payer."""
    values, problem, status = {"currency": "PLN", "confirmations": "payers"}, None, 200
    if request.method == "POST":
        session.check_sign_in()
        values = {k: request.form.get(k, "").strip() for k in ("name", "currency", "confirmations", "setup")}
        try:
            return _created(values)
        except DomainError as e:
            problem, status = e.detail, 400 if isinstance(e, Invalid) else 422
    token = session.sign_in_token()
    page = render_template("new_group.html", values=values, problem=problem, signin_token=token,
                           currencies=[c for c in CURRENCIES if c in MINOR_DIGITS],
                           needs_setup=bool(current_app.config.get("BITKA_SETUP_TOKEN")))
    return session.keep_sign_in_token(current_app.response_class(page, status, mimetype="text/html"), token)


def _created(values: dict):
    setup = current_app.config.get("BITKA_SETUP_TOKEN")
    if setup:
        auth.check_setup_token(f"Bearer {values['setup']}", setup)
    else:
        current_app.extensions["bitka.group_limit"].take(request.remote_addr or "")
    if not values["name"]:
        # Translators: "Thursday cards" is an example of a group's name; say one your players would choose.
        raise Invalid(_("a group needs a name, such as \"Thursday cards\""),
                      errors={"name": [_("Give the group a name.")]})
    if values["confirmations"] not in ("payers", "off"):
        raise Invalid(_("choose whether results wait for a payer"),
                      # Translators: the values a form's field takes (its keys); they stay as they are.
                      errors={"confirmations": [_("%(one)s or %(other)s", one="payers", other="off")]})
    with store().writing() as w:
        made = handlers.handle(CreateGroup(values["name"], values["currency"], values["confirmations"]), w)
    with store().writing(made.id) as w:
        link = invitations.admin_link(w, made.id)
    welcome = redirect(url_for("web.welcome_page", group=made.id, code=link.code), 303)
    return session.start(welcome, made.admin_token)


@bp.get("/g/<group>/welcome")
def welcome_page(group):
    """The admin's first page: the link to keep, and what to do next. The link's code is in
    this page's address and on it: no cache keeps either (the pages' "no-store")."""
    code = request.args.get("code", "")
    g.sealed = True

    def view(r, grow, principal, form_token):
        if not principal.is_admin:
            return redirect(url_for("web.group_page", group=group))
        link = public_url(url_for("web.join_page", code=code)) if code else None
        return render_template("welcome.html", group=grow, link=link,
                               qr=qr.svg(link, _("the admin's link as a QR code")) if link else None)
    return page_of(group, view)


@bp.route("/join/<code>", methods=["GET", "POST"])
def join_page(code):
    """An invitation: it names the group and the member; sending its form signs that member
    in on this browser (beside any other groups it is in) and opens the group. Its code is in
    its address: no cache keeps the page."""
    g.sealed = True
    with store().reading() as r:
        group, member = invitations.found(r, code)  # a 404 or 410 page otherwise
        grow = lookups.group_row(r, group)
    # Translators: whom an invitation is for, when it is the admin's link ("This invitation is for the
    # admin.", "I am the admin: sign me in on this phone").
    name = _("the admin") if member == auth.ADMIN else next(m["name"] for m in grow["members"] if m["id"] == member)
    if request.method == "POST":
        session.check_sign_in()
        with store().writing(group) as w:
            done = invitations.redeem(w, code)
        return session.start(redirect(url_for("web.group_page", group=done.group), 303), done.token)
    token = session.sign_in_token()
    page = render_template("join.html", group=grow, name=name, signin_token=token, admin=member == auth.ADMIN)
    return session.keep_sign_in_token(current_app.response_class(page, 200, mimetype="text/html"), token)
