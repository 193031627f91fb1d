"""The page of how a member takes money (an IBAN and its holder's name, a PIX key, a BLIK
phone: those the group's currency takes, pay_methods.fields), for that member; the
member's own form is on the group page too.
The form goes through the same handler as the API's PUT .../pay-to, carried out once."""
from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, NotFound
from events.pay_details import FIELDS
from projections.groups import member_name
from .. import handlers
from ..commands import SetPayDetails
from ..handlers.pay_to import details_of, may_change
from ..problems import status_of
from . import once, pay_methods, pay_shown
from .base import bp, page_of, writer_of
from .signed_form import in_words, signed_of, signer


@bp.route("/g/<group>/members/<member>/pay-to", methods=["GET", "POST"])
def pay_to_page(group, member):
    """A member's details, and the form that changes them (the member's, or the admin's)."""
    typed, problem, status = None, None, 200
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        may_change(principal.subject, member)
        body = {f: request.form.get(f, "") for f in FIELDS}
        back = "group" if request.form.get("back") == "group" else ""

        def save(w):
            signed = signed_of(request.form)  # how a member takes money is theirs alone: signed on their phone
            with in_words(signed is not None):
                handlers.handle(SetPayDetails(group, principal.subject, member, body, signed), w)
            return url_for("web.group_page", group=group) if back else url_for("web.pay_to_page", group=group,
                                                                               member=member)
        try:
            return once.write(group, f"pay-to {member}", body, save)
        except DomainError as e:
            problem, status, typed = e.detail, status_of(e)[0], {**body, "pix_kind": "", "back": back}

    def view(r, grow, principal, form_token):
        details_of(grow, member)  # no such member: 404
        may_change(principal.subject, member)
        signer(r, group, principal)
        offered = pay_methods.fields(grow["currency"])
        if not offered:
            # Translators: the page of how a member takes money, in a group that keeps points instead of money.
            raise NotFound(_("this group keeps points, not money: nobody pays anybody, so there is nothing to take"))
        values = {**typed, "offered": offered} if typed else pay_shown.form_values(grow, member)
        return render_template("pay_to.html", group=grow, whose=member, name=member_name(grow, member),
                               values=values, problem=problem, back=(typed or {}).get("back", ""), once=once.key())
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page
