"""One-time keys for the pages' forms: a form that writes is carried out once, however often
it is sent (a double tap, Back and send again, a reload that re-posts).

A key is made when a form is first shown and rides along in a hidden field through every
preview and correction of that form; the write keeps it as an Idempotency-Key in the store,
in the same transaction as the events it appends, as the API does. A form sent again with
a key already used answers with where the first sending went, and appends nothing; another
form of the same page sent after it (the page was out of date: Back, then a different tap)
is not carried out either, and the page as it is now says so.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from typing import Callable
from urllib.parse import urlencode, urlsplit, urlunsplit, parse_qsl

from flask import redirect, request
from flask_babel import gettext as _

from events.canonical import canonical_bytes
from events.errors import Invalid, Unprocessable
from events.store import Writer
from ..http import store
from .addresses import same_site

FIELD = "once"
_KEY = re.compile(r"web-[A-Za-z0-9_-]{22}")
ALREADY = "already"  # the query flag that makes the page say the form was sent before
STALE = "stale"  # ... and that another form of an out-of-date page was not carried out


def key() -> str:
    """The form's key: the one it was sent with, or a new one for a form shown afresh."""
    sent = request.values.get(FIELD, "")
    return sent if _KEY.fullmatch(sent) else "web-" + secrets.token_urlsafe(16)


def write(group: str, what: str, body, act: Callable[[Writer], str]):
    """Carry out a form's write once. ``act`` appends and returns the address to go to;
    a key seen before goes where its first sending went, marked as sent before."""
    sent = request.form.get(FIELD, "")
    if not _KEY.fullmatch(sent):
        raise Invalid(_("this form has lost its one-time key; open the page again and resend it"))
    fingerprint = hashlib.sha256(what.encode() + b"\n" + canonical_bytes(body)).hexdigest()
    with store().writing(group) as w:
        seen = w.remembered(group, sent)
        if seen is not None:  # the same form again: where it went; another form of that page: nothing
            return redirect(_flagged(_went(seen), ALREADY if seen[0] == fingerprint else STALE), 303)
        location = act(w)
        w.remember(group, sent, fingerprint, 303, {"location": location})
    return redirect(location, 303)


_FRAGMENT = re.compile(r"[A-Za-z0-9_-]*")


def _went(seen: tuple) -> str:
    """Where a form sent before with this key went (a path of this site, with the place on its
    page a hand's moves go to: ``#live``). A key the API used first (an Idempotency-Key written
    as a form's) was no form's: that is said, and nothing is done."""
    _fingerprint, status, body = seen
    location = body.get("location") if status == 303 and isinstance(body, dict) else None
    path, _hash, fragment = location.partition("#") if isinstance(location, str) else ("", "", "")
    if not isinstance(location, str) or same_site(path) != path or not _FRAGMENT.fullmatch(fragment):
        raise Unprocessable(_("this form's one-time key was used already by another request, so the form was not "
                              "carried out: open the page again and send the form anew"))
    return location


def _flagged(location: str, flag: str):
    parts = urlsplit(location)
    query = parse_qsl(parts.query) + [(flag, "1")]
    return urlunsplit(parts._replace(query=urlencode(query)))
