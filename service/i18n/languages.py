"""Which language a request is answered in, and the catalogs that say it.

Pages: the language the reader chose on a page (a cookie), else the best of the browser's
``Accept-Language``, else English. The API: ``Accept-Language`` only. The catalogs are the
``.po`` files under ``service/web/translations``, compiled in memory the first time a
language is asked for, so that no build output lives in the repository.
"""
from __future__ import annotations

import functools
import io
from pathlib import Path

from babel import Locale, UnknownLocaleError, support
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import has_request_context, request
from flask_babel import Domain, get_locale

CATALOGS = Path(__file__).resolve().parent.parent / "web" / "translations"
# Each language and who it is for; the first is the source language of every message.
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "it": "Italiano", "pt_BR": "Português (Brasil)"}
SOURCE = "en"
COOKIE = "bitka_lang"
COOKIE_AGE = 60 * 60 * 24 * 365


def chosen(code: str | None) -> str | None:
    """A language code as bitka knows it (``pl``, ``pt_BR``), or None: ``pt-PT`` and ``pt``
    read as Brazilian Portuguese, the one Portuguese bitka has; ``en-GB`` as English."""
    if not code:
        return None
    try:
        parsed = Locale.parse(code.strip().replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):  # anything a header or a cookie may hold
        return None
    if parsed.language == "pt":
        return "pt_BR"
    if parsed.language == "csb":  # Kashubian readers read Polish (CLDR has no Kashubian locale)
        return "pl"
    return parsed.language if parsed.language in LANGUAGES else None


def from_header(header: str | None) -> str | None:
    """The best language of an ``Accept-Language`` header that bitka speaks, or None."""
    if not header:
        return None
    ranked = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if tag.strip() == "*" or weight <= 0:
            continue
        ranked.append((-weight, position, tag.strip()))
    for _, _, tag in sorted(ranked):
        code = chosen(tag)
        if code:
            return code
    return None


def for_pages() -> str:
    """The language of a page: the reader's choice, else their browser's, else English."""
    return chosen(request.cookies.get(COOKIE)) or from_header(request.headers.get("Accept-Language")) or SOURCE


def for_api() -> str:
    """The language of an API answer: asked with ``Accept-Language``, else English."""
    return from_header(request.headers.get("Accept-Language")) or SOURCE


def select() -> str:
    """Flask-Babel's locale selector: the API answers by its header, pages by the reader."""
    if not has_request_context():
        return SOURCE
    return for_api() if request.path.startswith("/v1") else for_pages()


def current() -> str:
    """The language of this request, as bitka spells it."""
    locale = get_locale()
    return str(locale) if locale is not None else SOURCE


@functools.lru_cache(maxsize=None)
def catalog(code: str):
    """The message catalog of a language, read from its ``.po`` file (None for English,
    whose messages are their own source)."""
    if code == SOURCE or code not in LANGUAGES:
        return None
    with open(CATALOGS / code / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=code)


@functools.lru_cache(maxsize=None)
def translations(code: str) -> support.NullTranslations:
    """A language's gettext translations, compiled from its catalog in memory."""
    found = catalog(code)
    if found is None:
        return support.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, found)
    compiled.seek(0)
    return support.Translations(compiled)


class Catalogs(Domain):
    """Flask-Babel's domain, answered from the ``.po`` files (see ``translations``)."""

    def get_translations(self):
        return translations(current()) if has_request_context() else support.NullTranslations()
