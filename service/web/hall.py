"""The hall's address as a QR code: what a phone on the hall's network scans to open bitka
(``bitka serve --lan``, README: In a hall), from the admin's pages.

The address is the one every link bitka makes carries (``BITKA_PUBLIC_URL``, else the one
``bitka serve`` listens on), never the Host a request names. Served over plain HTTP to a
private network, the page also says what that means for the phones.
"""
from __future__ import annotations

from flask import current_app, render_template
from flask_babel import gettext as _

from ..routes.invitations import public_url
from . import qr
from .base import bp, page_of


@bp.get("/g/<group>/hall")
def hall_page(group):
    """The address phones open bitka at, as a link and a QR code, for a member of the group
    to show the others (the admin's pages link to it)."""
    def view(r, grow, principal, form_token):
        address = public_url("/")
        return render_template("hall.html", group=grow, address=address, lan=bool(current_app.config.get("BITKA_LAN")),
                               qr=qr.svg(address, _("bitka's address as a QR code")))
    return page_of(group, view)
