"""Starting out in a browser: a new group (its organizer signed in at once as its first member
and its admin, and handed the link that signs the admin in again anywhere), and an invitation
opened on a phone. No token is typed or shown: links carry one-time codes, and the cookie keeps
a session made from the token.

Each phone makes its own key as it joins (static/phone_key.js puts the public key in the form's
``key``; the private key never leaves the phone): the organizer's with the new group, a
member's with their invitation. A browser without scripts joins without a key, as before keys.
A phone signed in to a group never turns into another of its members: an invitation for
someone else is refused on it, in words (session.py).
"""
from __future__ import annotations


from flask import current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Invalid
from events.money import MINOR_DIGITS, POINTS
from projections import devices
from projections.groups import confirmations, member_name
from .. import auth, handlers, invitations
from ..handlers import lookups
from ..commands import AddMember, CreateGroup
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
        values = {k: request.form.get(k, "").strip() for k in ("name", "currency", "confirmations", "setup",
                                                                "organizer")}
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
    organizer, key = values.get("organizer", ""), request.form.get("key", "").strip() or None
    with store().writing() as w:
        made = handlers.handle(CreateGroup(values["name"], values["currency"], values["confirmations"],
                                           {"name": organizer, "key": key} if organizer and key else None), w)
        member = made.organizer
        if organizer and member is None:  # a browser without scripts: the organizer joins without a key
            member = handlers.handle(AddMember(made.id, auth.ADMIN, organizer), w)
    secret, shown = session.new_id(), invitations.admin_link_name()
    with store().writing(made.id) as w:
        invitations.admin_link(w, made.id, session.invitation_key_of(secret), shown)
    welcome = redirect(url_for("web.welcome_page", group=made.id, link=shown), 303)
    if member is None:  # a form of an earlier page, without the organizer's name: the admin alone, as before
        return session.start(welcome, made.admin_token, secret=secret)
    return session.start(welcome, member.token, admin_hash=auth.token_hash(made.admin_token), secret=secret)


def shown_admin_link(reader, group: str, who: session.Session | None) -> str | None:
    """The admin's link as the welcome page shows it: only when the page's ``?link=`` names
    the group's current admin link and this browser's session made it; None otherwise."""
    name = request.args.get("link", "")
    if who is None or not 8 <= len(name) <= 64:
        return None
    code = invitations.admin_code(reader, group, session.invitation_key(who), name)
    return public_url(url_for("web.join_page", code=code)) if code else None


@bp.get("/g/<group>/welcome")
def welcome_page(group):
    """The admin's first page: the link to keep, and what to do next. The link is shown to the
    browser that made it, while it is the group's current one (``shown_admin_link``); its
    code is never in an address. No cache keeps the page (the pages' "no-store")."""
    g.sealed = True

    def view(r, grow, principal, form_token):
        if not principal.is_admin:
            return redirect(url_for("web.group_page", group=group))
        who = session.signed_in(r, group)
        link = shown_admin_link(r, group, who)
        return render_template("welcome.html", group=grow, link=link,
                               organizer=member_name(grow, who.member) if who and who.member else None,
                               qr=qr.svg(link, _("the admin's link as a QR code")) if link else None)
    return page_of(group, view)


@bp.route("/join/<code>", methods=["GET", "POST"])
def join_page(code):
    """An invitation: it names the group, the member and whether results wait for their payers
    (joining agrees to it); sending its form makes this phone's key, signs that member in on
    this browser (beside any other groups it is in) and opens the group. Its code is in its
    address: no cache keeps the page."""
    g.sealed = True
    with store().reading() as r:
        group, member = invitations.found(r, code)  # a 404 or 410 page otherwise
        grow = lookups.group_row(r, group)
        mine = session.signed_in(r, group)
        keyed = member != auth.ADMIN and bool(devices.current(r.row(devices.NAME, group, member)))
    # Translators: whom an invitation is for, when it is the admin's link ("This invitation is for the
    # admin.", "I am the admin: sign me in on this phone").
    name = _("the admin") if member == auth.ADMIN else member_name(grow, member)
    refusal, both = _refusal(grow, member, name, mine, keyed)
    if request.method == "POST":
        session.check_sign_in()
        if refusal is None and not (both and request.form.get("both") != "1"):
            key = request.form.get("key", "").strip() or None
            with store().writing(group) as w:
                done = invitations.redeem(w, code, key if member != auth.ADMIN else None)
            return session.start(redirect(url_for("web.group_page", group=done.group), 303), done.token)
    token = session.sign_in_token()
    page = render_template("join.html", group=grow, name=name, signin_token=token, admin=member == auth.ADMIN,
                           member=member, refusal=refusal, both=both, confirmations=confirmations(grow))
    status = 409 if refusal or (both and request.method == "POST") else 200
    return session.keep_sign_in_token(current_app.response_class(page, status, mimetype="text/html"), token)


def _refusal(grow: dict, member: str, name: str, mine, keyed: bool) -> tuple[str | None, bool]:
    """Why this invitation may not be taken on this browser (None: it may), and whether it
    asks first whether the admin signed in here is the invited member too."""
    if keyed:
        return _("%(name)s holds a key on their own phone already, so no invitation can sign anyone in as them. A "
                 "new phone of theirs is approved on one of their own phones; if they lost it, the admin resets "
                 "their devices first.", name=name), False
    if mine is None or member == auth.ADMIN or mine.member == member:
        return None, False
    if mine.member is None:  # the admin's sign-in: this phone keeps the admin's rights, if its owner is the invited
        return None, True
    return _("This phone is signed in to %(group)s as %(signed)s, and this invitation is for %(name)s: open it on "
             "%(name)s's own phone. To sign this phone in as %(name)s instead, sign out of %(group)s first.",
             group=grow["name"], signed=member_name(grow, mine.member), name=name), False
