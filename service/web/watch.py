"""A tournament's watch page, ``/t/{code}``: the standings and each table's running score,
live, for anyone who has the link, without signing in. The code says where it leads
(``{group}.{tournament}.{random}``); only its SHA-256 is in the tournament's row. A link the
admin ended answers 410 with a page that says so; an unknown one, 404.

It shows no card at all, played or not: only what the tables' settlements paid, which a
member not seated at a table reads too.
"""
from __future__ import annotations

from flask import Response, render_template
from flask_babel import gettext as _

from events.errors import NotFound
from projections import tournaments as fold
from .. import live
from ..http import store
from ..routes.tournaments import watch_digest
from . import tournament_shown as shown
from .base import bp

LONGEST = 200  # characters of a code: a group's and a tournament's ids and 32 of base64url


def _watched(r, code: str) -> tuple[dict, dict, bool]:
    """(group row, tournament row, whether the link was ended) of a watch code; NotFound for
    a code that is no link of a tournament."""
    group, _dot, rest = code.partition(".")
    tournament, _dot, _random = rest.partition(".")
    grow = r.row("group", group, "") if group and tournament and len(code) <= LONGEST else None
    row = r.row(fold.NAME, group, tournament) if grow else None
    digest = watch_digest(code)
    if row is None or (digest not in row["watches"] and digest not in row.get("ended", ())):
        raise NotFound(_("there is no such watch link: check that it was copied whole"))
    return grow, row, digest not in row["watches"]


def _context(r, grow: dict, row: dict) -> dict:
    group = grow["id"]
    rounds = [{"number": d["round"], "tables": shown.running(r, group, grow, row, d)}
              for d in reversed(row["drawn_rounds"])]
    return {"group": grow, "t": shown.summary(shown.card_of(r, group, row), row), "rounds": rounds,
            "standings": shown.standings(r, group, grow, row)}


@bp.get("/t/<code>")
def watch_page(code):
    """The tournament for a spectator: standings and tables, live."""
    with store().reading() as r:
        grow, row, ended = _watched(r, code)
        if ended:
            return render_template("watch_ended.html", name=row["name"]), 410
        return render_template("watch.html", code=code, version=r.version(grow["id"]), **_context(r, grow, row))


@bp.get("/t/<code>/live")
def watch_live(code):
    """The watch page's live part again, as soon as the group's log has moved (410 once
    ended: the page then loads again and says so)."""
    with store().reading() as r:
        grow, _row, ended = _watched(r, code)
    if ended:
        return "", 410

    def render(r, version):
        grow, row, ended = _watched(r, code)
        if ended:
            return Response(status=410)
        return live.part(render_template("_watch_live.html", **_context(r, grow, row)), version)
    return live.answer(grow["id"], None, lambda r: None, render)
