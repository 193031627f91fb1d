"""Where sign-ins and keys are seen: each member's (and the admin's) signed-in devices, each
one signed out with a tap; the member's keys (this phone's marked by its script), the phones
of theirs that wait for approval, each approved with a tap, and the admin's resets of them;
and the admin's tokens replaced, which signs the admin out everywhere.

A device is a session (session.py): when it was made, when it was last used, and which
browser on which system its user agent says it is. Replacing the admin's tokens is the
API's rotation of ``admin`` (every admin token and the admin's link stop working, and every
admin session ends); this browser's session is made again from the new token (the same id
in its cookie, so a double tap that sends the form twice finds it signed in), and the new
admin link is shown once, in the answer to the form (never in an address).
"""
from __future__ import annotations

from flask import g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import Refused
from .. import auth, handlers, invitations
from ..commands import RotateToken
from ..handlers import devices as member_devices
from ..http import store
from ..routes.invitations import public_url
from . import once, qr, session
from .base import bp, page_of

# (what a user agent says, the name people know), the first found naming it; the order matters:
# Edge and Opera say Chrome too, and Chrome says Safari.
BROWSERS = (("Edg", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
            ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
           ("CrOS", "ChromeOS"), ("Macintosh", "macOS"), ("Linux", "Linux"))


def device(agent: str) -> str:
    """A user agent as people name a device: "Firefox on Android"."""
    browser = next((name for marker, name in BROWSERS if marker in agent), None)
    system = next((name for marker, name in SYSTEMS if marker in agent), None)
    if browser and system:
        # Translators: a signed-in device, e.g. "Firefox on Android"; both names stay as they are.
        return _("%(browser)s on %(system)s", browser=browser, system=system)
    if browser or system:
        return browser or system
    # Translators: a signed-in device whose browser sent no user agent.
    return agent[:60] or _("a browser that does not say which")


def _mine(r, group: str) -> session.Session:
    """This browser's session in the group, for a form sent from its pages (checked)."""
    who = session.signed_in(r, group)
    if who is None:
        raise Refused(_("this browser is not signed in to that group: open the invitation link its admin "
                        "gave you, or choose one of your groups"))
    session.check_form(who)
    return who


@bp.get("/g/<group>/devices")
def devices_page(group):
    """The browsers signed in to the group as the reader, this one marked, each with a
    button that signs it out."""
    def view(r, grow, principal, form_token):
        this = session.signed_in(r, group)
        mine = {this.id, *([this.admin.id] if this.admin else [])}
        rows = [{"id": row.id, "device": device(row.user_agent), "created_at": row.created_at,
                 "last_used_at": row.last_used_at, "this": row.id in mine}
                for row in session.devices(r, this)]
        keys = member_devices.listed(r, group, principal.subject) if not principal.is_admin else None
        return render_template("devices.html", group=grow, devices=rows, idle_days=session.IDLE.days,
                               ended=bool(request.args.get("ended")), keys=keys, said=_said_after(),
                               form_token=form_token, once=once.key())
    return page_of(group, view)


def _said_after() -> str | None:
    """What the page says after one of its key forms: a phone added, or waiting, or approved."""
    if request.args.get("asked"):
        return _("This phone waits for approval: approve it on one of your other phones, on their page of devices. "
                 "It signs nothing until then.")
    if request.args.get("added"):
        return _("This phone's key is yours now: it signs what you agree to.")
    if request.args.get("approved"):
        return _("Approved: that phone's key is yours now.")
    return None


@bp.post("/g/<group>/devices")
def end_device(group):
    """Sign out one of the reader's devices; this one signs out as the sign-out button does."""
    with store().reading() as r:
        who = _mine(r, group)
        chosen = request.form.get("session", "")
        if chosen == who.id:
            return session.forget(redirect(url_for("web.sign_in_page", choose=1), 303), r, group)
    session.end(who, chosen)  # one signed out already (or never this member's) is no more signed in than that
    return redirect(url_for("web.devices_page", group=group, ended=1), 303)


@bp.get("/g/<group>/admin-token")
def admin_token_page(group):
    """What replacing the admin's tokens does, and the button that does it."""
    def view(r, grow, principal, form_token):
        if not principal.is_admin:
            raise Refused(_("only the group's admin may do this"))
        return render_template("admin_token.html", group=grow, link=None)
    return page_of(group, view)


@bp.post("/g/<group>/admin-token")
def replace_admin_token(group):
    """Every admin token, the admin's link and every admin session end; this browser's session
    is made again from the new token, and the new admin link is shown, once."""
    with store().reading() as r:
        who = _mine(r, group)
    if not who.principal.is_admin:
        raise Refused(_("only the group's admin may do this"))
    with store().writing(group) as w:
        if not session.live(w, who):  # signed out meanwhile (from another device)
            raise Refused(_("this browser is not signed in to that group: open the invitation link its admin "
                            "gave you, or choose one of your groups"))
        made = handlers.handle(RotateToken(group, auth.ADMIN), w)
        session.rebound(w, who, made.token)
        link = invitations.admin_link(w, group)
    address = public_url(url_for("web.join_page", code=link.code))
    g.sealed = True  # the new link is shown once: no cache, not even this browser's, keeps the page

    def view(r, grow, principal, form_token):
        return render_template("admin_token.html", group=grow, link=address,
                               qr=qr.svg(address, _("the admin's link as a QR code")))
    return page_of(group, view)
