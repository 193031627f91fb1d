"""Choosing the pages' language: a link on every page, remembered in a cookie."""
from __future__ import annotations

from flask import abort, redirect, request

from ..i18n import languages
from .addresses import same_site
from .base import bp


@bp.get("/language/<code>")
def choose_language(code: str):
    """Read the pages in ``code`` from now on (a year, on this browser), back where the reader was."""
    chosen = languages.chosen(code)
    if chosen is None:
        abort(404)
    response = redirect(same_site(request.args.get("next")))
    response.set_cookie(languages.COOKIE, chosen, max_age=languages.COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response
