"""Paying up in one tap: for each settle-up transfer whose receiver said how they take money,
what the group page shows the payer, by the group's currency as pay_methods.BY_CURRENCY
says: a SEPA code (EPC069-12) for euros to an IBAN; the Polish banks' code (ZBP 2D) for
zloty to a Polish account, and the receiver's BLIK phone to copy; a PIX "copia e cola" with
its QR code for reais to a PIX key; an IBAN to copy where the currency takes one. Each code's
title is in its payer's bank's language (pay_methods.title). The payloads are
service/pay_codes.py's; a code that cannot say a transfer (an amount past what it holds) is
left out, never a 500.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

import segno
from babel.lists import format_list
from flask_babel import gettext as _

from events.money import MoneyError, parse_amount
from events.pay_details import FIELDS, grouped, pix_kind
from projections import balances
from projections.groups import member_name, pay_to
from .. import pay_codes
from ..i18n.languages import current
from . import pay_methods

PIX_CITY = "BRASIL"  # the BR Code needs a city (field 60): the receiver's is not asked, the country stands for it


@dataclass(frozen=True)
class Code:
    """A payment code: what it says (``payload``) and its QR code as inline SVG."""
    kind: str  # epc, zbp, pix
    payload: str
    svg: str


@dataclass(frozen=True)
class PayWays:
    """How the payer of one transfer can pay its receiver."""
    name: str  # the account holder's name, else the member's
    iban: str | None  # grouped by four, to copy
    codes: tuple[Code, ...]
    blik: str | None  # as stored (+48 and nine digits), to copy

    @property
    def blik_shown(self) -> str | None:
        """The BLIK phone as people read one: "+48 600 100 200"."""
        if not self.blik:
            return None
        digits = self.blik[3:]
        return " ".join([self.blik[:3], *(digits[i:i + 3] for i in range(0, len(digits), 3))])


def evening_of(reader, group: str) -> str:
    """The evening the balances stand at: the date (YYYY-MM-DD, UTC) of the group's last event."""
    version = reader.version(group)
    last = reader.events(group, version - 1, 1) if version else []
    return last[0].recorded_at[:10] if last else ""


def _evening_day(evening: str) -> date:
    """The evening's date (YYYY-MM-DD) as a date; today's for a group with no event yet."""
    try:
        return date.fromisoformat(evening)
    except ValueError:
        return date.today()


def ways(grow: dict, transfer: dict, evening: str) -> PayWays | None:
    """How the payer of ``transfer`` (a settle-up transfer of the view) can pay its receiver,
    by the ways the group's currency takes (pay_methods.methods), or None when the receiver
    said nothing of how they take money."""
    details = pay_to(grow, transfer["to"])
    if not details:
        return None
    try:
        amount = parse_amount(transfer["amount"], grow["digits"])
    except MoneyError:
        return None
    name = details.get("name") or member_name(grow, transfer["to"])
    day, offered = _evening_day(evening), pay_methods.methods(grow["currency"])
    made = [_code(m.code, _payload(m.code, details[m.field], amount, name, grow["name"], day, evening))
            for m in offered if details.get(m.field) and m.codes(details[m.field])]
    shown = {m.field for m in offered}
    iban, blik = (details.get(f) if f in shown else None for f in ("iban", "blik"))
    return PayWays(name, grouped(iban) if iban else None, tuple(c for c in made if c is not None), blik)


def _payload(code: str, value: str, amount: int, name: str, group: str, day: date, evening: str):
    """What makes the payload of ``code`` to ``value`` (an IBAN, a PIX key), titled by the
    group's name and the evening in its payer's bank's language."""
    if code == "epc":
        return lambda: pay_codes.epc(name=name, iban=value, amount=amount,
                                     text=pay_methods.title(code, group, day, pay_codes.EPC_TEXT, iban=value))
    if code == "zbp":
        return lambda: pay_codes.zbp(iban=value, amount=amount, name=name,
                                     title=pay_methods.title(code, group, day, pay_codes.ZBP_TITLE))
    return lambda: pay_codes.brcode(key=value, amount=amount, name=name, city=PIX_CITY,
                                    txid=pay_codes.txid_of(evening),
                                    info=pay_methods.title(code, group, day, pay_codes.brcode_info_room(value)))


def qr_code(kind: str, payload: str) -> segno.QRCode:
    """The QR code of a payload as each format asks: the EPC's at level M and at most version
    13; the ZBP's at level L (its recommendation's); PIX's at level M; bytes in UTF-8."""
    code = segno.make(payload.encode("utf-8"), error="l" if kind == "zbp" else "m", boost_error=False)
    if kind == "epc":
        pay_codes.check_epc_version(code.version)
    return code


def svg(code: segno.QRCode, label: str) -> str:
    """The inline SVG of a QR code, titled for screen readers (as service/web/qr.py draws them),
    with a viewBox and no fixed size, so that the page scales it whole (quiet zone included)
    to the width it gives it."""
    out = io.BytesIO()
    code.save(out, kind="svg", scale=5, border=4, xmldecl=False, svgns=True, title=label, svgclass="qr",
              lineclass=None, omitsize=True)
    return out.getvalue().decode("utf-8")


def _code(kind: str, payload) -> Code | None:
    try:
        text = payload()
        return Code(kind, text, svg(qr_code(kind, text), LABELS[kind]()))
    except (pay_codes.CodeError, ValueError):  # what the code cannot say is not shown
        return None


LABELS = {
    # Translators: read aloud to a screen reader's user, for a QR code on the settle-up list.
    "epc": lambda: _("A SEPA transfer as a QR code, for a banking app to scan"),
    # Translators: read aloud to a screen reader's user, for a QR code on the settle-up list.
    "zbp": lambda: _("A transfer as a QR code, for a Polish banking app to scan"),
    # Translators: read aloud to a screen reader's user, for a QR code on the settle-up list.
    "pix": lambda: _("A PIX payment as a QR code, for a bank's app to scan"),
}


def form_values(grow: dict, member: str) -> dict | None:
    """What the form of a member's details shows: the fields the group's currency takes
    (``offered``, pay_methods.fields), each as kept ("" when not given, or not taken in this
    currency: saving the form clears it), the IBAN grouped by four, and which of the Banco
    Central's forms the PIX key is; None for a group whose currency takes no money (points)."""
    offered = pay_methods.fields(grow["currency"])
    if not offered:
        return None
    details = pay_to(grow, member)
    values = {f: details.get(f, "") if f in offered else "" for f in FIELDS}
    if values["iban"]:
        values["iban"] = grouped(values["iban"])
    values["pix_kind"] = pix_kind(values["pix"]) if values["pix"] else ""
    ways_said = format_list([WAYS[f]() for f in offered if f in WAYS], style="or", locale=current())
    # Translators: what opens the form where a member says how they take money; %(ways)s lists the ways
    # the group's currency takes, joined by "or" ("IBAN or BLIK phone").
    return {**values, "offered": offered, "summary": _("%(ways)s, for the others to pay you in one tap",
                                                       ways=ways_said)}


WAYS = {
    # Translators: IBAN is the international bank account number.
    "iban": lambda: _("IBAN"),
    # Translators: PIX is Brazil's instant payment system; a key is how a PIX payment finds its receiver.
    "pix": lambda: _("PIX key"),
    # Translators: BLIK is a Polish mobile payment system that sends money to a phone number.
    "blik": lambda: _("BLIK phone"),
}


def payments_waiting(reader, grow: dict, brow: dict, principal) -> list[dict]:
    """The payments that do not count yet (each waits for its receiver to sign for it), named,
    with what the viewer may do: its receiver says they got it, signing the payment's hash."""
    shown = []
    for p in balances.payments_waiting(brow):
        mine = p["to"] == principal.subject
        shown.append({**p, "from_name": member_name(grow, p["from"]), "to_name": member_name(grow, p["to"]),
                      "mine": mine, "hash": reader.hash_at(grow["id"], p["payment"]) if mine else None})
    return shown
