"""A page's live part (``<div id="live">``, kept up to date by static/live.js): the block
``live`` of the page's own template, drawn again with the page's own view as soon as what it
shows has moved (service/live.py), for the browser's session in the group."""
from __future__ import annotations

from typing import Callable

from flask import Response, current_app, g, request

from .. import live
from ..handlers import lookups
from . import session
from .base import bp, viewer


def block(name: str, **context) -> str:
    """Only the block ``live`` of template ``name``, drawn with ``context`` and the app's
    context processors, as the whole page would draw it."""
    app = current_app._get_current_object()
    template = app.jinja_env.get_template(name)
    app.update_template_context(context)
    return "".join(template.blocks["live"](template.new_context(context)))


@bp.app_template_global("folded_out")
def folded_out(fold: str) -> bool:
    """Is the inside of fold ``fold`` (a ``details`` with that id) left out of this answer? Only
    a live part leaves it out, and only while the phone shows it folded (live.js names the
    folds it shows open: ``?open=``): the phone keeps the copy it has, and asks anew once the
    reader opens it. A whole page always draws it."""
    return bool(g.get("live_part")) and fold not in request.args.getlist("open")


def answer(group: str, table: str | None, view: Callable, quiet: frozenset[str] = frozenset()) -> Response:
    """The live part of a page of ``group``: ``view(r, grow, principal, form_token)`` draws
    it (as ``block``); 403 for a browser not signed in to the group."""
    def allowed(r):
        return None if session.signed_in(r, group) is not None else Response(status=403)

    def render(r, version):
        who = session.signed_in(r, group)
        grow = lookups.group_row(r, group)
        g.viewer = viewer(r, grow, who)
        return live.part(view(r, grow, who.principal, session.form_token(who)), version)
    return live.answer(group, table, allowed, render, quiet)
