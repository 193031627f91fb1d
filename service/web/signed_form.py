"""A member's signature on a page's form (API.md, "Members hold their own keys").

A form that binds its member carries what the phone's script (static/sign.js) needs to sign
it: the act, the group, the member, whether that member holds keys (and which are current),
and the act's fields the page already knows (``signs``); the fields a form's own inputs give
(cards picked, a reason typed, pay-to details) are read by the script as it is sent. The
script sends the signature in hidden fields ``kid``, ``nonce`` and ``sig`` (a table's
"confirm all": ``signatures``, one ``{"hand", "kid", "nonce", "sig"}`` per hand), which the
page's handler reads here and hands to the command, as the API's routes read the
``Bitka-Signature`` header. What the signature must hold is decided where the act is
(service/signing.py); a form whose signature cannot even be read is a 400 said in words.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

from flask import g
from flask_babel import gettext as _
from markupsafe import Markup, escape

from events import acts
from events.errors import Invalid, Refused
from projections import devices
from .. import auth
from ..i18n import phrases
from ..i18n.languages import current
from .base import bp
from .cards import faces
from .words import page_game

PARTS = ("kid", "nonce", "sig")
FIELDS = (*PARTS, "signatures")  # the form's fields that carry a signature, never part of what a form asks


def signed_of(form: Mapping[str, str]) -> acts.Signed | None:
    """The signature a form carries (None: it carries none, as before keys)."""
    given = {name: form.get(name, "") for name in PARTS}
    if not any(given.values()):
        return None
    try:
        return acts.checked(given)
    except acts.BadSignature as e:
        raise Invalid(_("This form's signature cannot be read (%(why)s): nothing was logged. Open the page again "
                        "and send it anew.", why=str(e)), errors={"sig": [str(e)]}) from None


def signatures_of(form: Mapping[str, str], key: Callable[[dict], object] = lambda item: str(item.get("hand"))
                  ) -> dict:
    """The signatures a form carries as JSON in its field ``signatures``, each checked and
    filed under ``key(item)``: a table's "confirm all" files them by hand (the default);
    none: an empty dict."""
    text = form.get("signatures", "")
    if not text:
        return {}
    try:
        listed = json.loads(text)
        if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
            # Translators: why a form's signatures cannot be read (a list of {hand, kid, nonce, sig} was expected).
            raise ValueError(_("not a list of signatures"))
        return {key(item): acts.checked(item) for item in listed}
    except (ValueError, acts.BadSignature) as e:
        raise Invalid(_("This form's signatures cannot be read (%(why)s): nothing was logged. Open the page again "
                        "and send it anew.", why=str(e)), errors={"signatures": [str(e)]}) from None


@contextmanager
def in_words(sent: bool) -> Iterator[None]:
    """A refusal for a missing or wrong signature (service/signing.py), said to the person at
    the page rather than to a client's author: what to do about it (``sent``: whether the form
    came with a signature)."""
    try:
        yield
    except Refused as e:
        if "statement" not in e.extra and "statements" not in e.extra:
            raise
        if not sent:
            raise Refused(_("Nothing was logged: this binds you, so it needs your signature, which your own phone "
                            "makes as the form is sent, and it came without one. Send it from the phone you joined "
                            "with, or add this phone on the page of your devices.")) from None
        why = phrases.say(e.detail, current(), drawn=faces, game=page_game())
        raise Refused(_("Nothing was logged: the signature sent with it does not hold (%(why)s). Open the page "
                        "again and send it anew from your own phone.", why=why)) from None


def unsigned(fields: Mapping[str, Any]) -> dict:
    """A form's fields without its signature: what a form asks, for its one-time key (the same
    tap signed again, with another nonce, is the same form)."""
    return {k: v for k, v in fields.items() if k not in FIELDS}


def signer(reader, group: str, principal) -> None:
    """Who this page's forms sign for: the signed-in member, whether they hold keys and which
    of their keys are current (``signs`` writes it on each form that binds them). The admin
    token signs nothing."""
    member = None if principal.subject == auth.ADMIN else principal.subject
    row = reader.row(devices.NAME, group, member) if member else None
    g.signer = {"group": group, "member": member, "keyed": devices.ever_keyed(row),
                "kids": [k["kid"] for k in devices.current(row)]}


@bp.app_template_global("signs")
def signs(act: str, pick: str | None = None, **fields) -> Markup:
    """The data attributes of a form (or of its button) that binds the signed-in member by
    ``act``: its known ``fields``, and ``pick``, what static/sign.js reads from the form
    itself as it is sent; ``inert`` until that script is ready, for a member who holds keys.
    Nothing for the admin token, or on a page that set no signer."""
    who = g.get("signer")
    if not who or who["member"] is None:
        return Markup("")
    shown = {"act": act, "group": who["group"], "member": who["member"], "keyed": "1" if who["keyed"] else "0",
             "kids": " ".join(who["kids"]), "fields": json.dumps(fields, ensure_ascii=False, sort_keys=True)}
    if pick:
        shown["pick"] = pick
    said = " ".join(f'data-{name}="{escape(value)}"' for name, value in shown.items())
    # A member who holds keys cannot act here before the phone's script that signs is ready
    # (static/sign.js lifts it): a tap before it would only be refused for its missing signature.
    return Markup(said + (" inert" if who["keyed"] else ""))


@bp.app_template_filter("sent_cards")
def sent_cards(body: Mapping[str, Any]) -> list | None:
    """The cards a seat's-cards body names, as its ``cards`` act signs them (events/acts.py)."""
    return acts.cards_sent(body)


@bp.app_template_global("signs_each")
def signs_each(act: str, items: list[dict]) -> Markup:
    """The data attributes of a form that signs ``act`` once for each of ``items`` (a table's
    "confirm all": each hand and its settlement), into its ``signatures`` field."""
    who = g.get("signer")
    if not who or who["member"] is None:
        return Markup("")
    listed = json.dumps(items, ensure_ascii=False, sort_keys=True)
    return Markup(f'{signs(act)} data-each="{escape(listed)}"')
