"""Flask-Babel on the app: the language of each request, the catalogs, and what the
templates use to say things in it (``_``, ``ngettext``, ``money``, ``when``; the log's
sentences are said by the pages' own filters, service/web/base.py)."""
from __future__ import annotations

from datetime import datetime

from flask import Flask
from flask_babel import Babel, format_datetime

from . import languages
from .money import amount, money


def speak(app: Flask) -> None:
    """Make ``app`` answer in each reader's language."""
    babel = Babel(app, locale_selector=languages.select)
    babel.domain_instance = languages.Catalogs()
    app.jinja_env.globals["LANGUAGES"] = languages.LANGUAGES
    app.jinja_env.globals["language"] = languages.current
    app.jinja_env.filters["money"] = lambda amount, currency, signed=False: money(
        amount, currency, languages.current(), signed)
    app.jinja_env.filters["amount"] = lambda text, currency: amount(text, currency, languages.current())
    app.jinja_env.filters["when"] = _when
    # A refusal as a page says it: a sentence starts with a capital.
    app.jinja_env.filters["sentence"] = lambda text: str(text)[:1].upper() + str(text)[1:]


def _when(stamp: str) -> str:
    """An RFC 3339 time from the log, as the reader's language writes a date and time (UTC)."""
    try:
        moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError:
        return str(stamp)
    return format_datetime(moment, "medium") + " UTC"
