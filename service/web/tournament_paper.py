"""A tournament's pages to print and post: a round's seat plan (who sits where at which table,
large enough to read on a wall, who was drawn without their check-in, with the draw said in
words and run again on the page) and
the standings (place, name, table points, small points, first places, each round), live on a
screen and on A4 on paper (bitka.css, ``@media print``).
"""
from __future__ import annotations

from flask import Response, render_template
from flask_babel import gettext as _

from events.errors import NotFound
from ..handlers.tournaments import tournament_row
from .. import live
from . import session, tournament_shown as shown
from .base import bp, page_of


@bp.get("/g/<group>/tournaments/<tournament>/rounds/<int:number>")
def seat_plan_page(group, tournament, number):
    """Round ``number``'s seat plan, and its draw in words."""
    def view(r, grow, principal, form_token):
        row = tournament_row(r, group, tournament)
        drawn = shown.round_of(row, number)
        if drawn is None:
            raise NotFound(_("round %(number)d of this tournament is not drawn yet", number=number))
        card = shown.card_of(r, group, row)
        mine = [m for m in shown.where_i_sit(r, group, [card], principal.subject) if m["round"] == number]
        return render_template("seat_plan.html", group=grow, t=shown.summary(card, row),
                               number=number,
                               plan=shown.seat_plan(grow, drawn),
                               proof=shown.draw_checked(r, group, grow, row, drawn),
                               mine=mine, players=len(row["players"]))
    return page_of(group, view)


@bp.get("/g/<group>/tournaments/<tournament>/standings")
def standings_page(group, tournament):
    """The standings, live, and on A4 when printed."""
    def view(r, grow, principal, form_token):
        row = tournament_row(r, group, tournament)
        _this, summary, standings = shown.with_standings(r, group, grow, row)
        return render_template("standings.html", group=grow, t=summary, standings=standings, version=r.version(group),
                               live=f"/g/{group}/tournaments/{tournament}/standings/live")
    return page_of(group, view)


@bp.get("/g/<group>/tournaments/<tournament>/standings/live")
def standings_live(group, tournament):
    """The standings again, as soon as the group's log has moved (service/live.py)."""
    def render(r, version):
        grow = r.row("group", group, "")
        row = tournament_row(r, group, tournament)
        _this, summary, standings = shown.with_standings(r, group, grow, row)
        return live.part(render_template("_standings.html", group=grow, t=summary, standings=standings), version)
    return live.answer(group, None, lambda r: None if session.signed_in(r, group) else Response(status=403), render)
