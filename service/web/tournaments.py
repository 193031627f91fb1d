"""The organizer's tournament pages: the group's tournaments, a new one made from the group's
members (players added by name on the spot, each with an invitation link and its QR code),
the tournament's page (who has checked in for the next round, each round's tables as they
stand, "deal 17 of 32", the standings' top, live) with a player's "I am here" (their phone's
check-in: 32 random bytes made by static/check_in.js, signed by static/sign.js for a player
who holds keys), the draw button (with the players not checked in, to draw without) and its
watch links.

Each form goes through the same handlers as the API (service/handlers/tournaments.py),
carried out once (once.py): a double tap or Back and send again draws nothing twice. A
refusal is said on the page, in words, and nothing is appended.
"""
from __future__ import annotations

from urllib.parse import urlencode

import re

from flask import Response, g, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext
from marshmallow import ValidationError

from events.errors import DomainError, Invalid, Refused, Unprocessable
from games.registry import GAMES
from projections.groups import member_name
from projections import tournaments as fold
from projections.tournaments import table_sizes

from .. import handlers, invitations, live, tournament_schemas
from ..commands import CheckIn, CreateTournament, DrawRound, Watch
from ..handlers.tournaments import PLACES, still_playing, tournament_row
from ..problems import status_of
from ..routes.invitations import public_url
from ..routes.tournaments import draw_secrets, watch_digest
from . import once, qr, session, tournament_shown as shown
from .base import bp, page_of, together, whole, writer_of
from .signed_form import in_words, signed_of, signer

FIELDS = ("title", "preset", "entry", "rounds", "deals", "places", "stake")


def _admin_only(principal) -> None:
    if not principal.is_admin:
        raise Refused(_("only the group's admin may do this"))


def _with_status(page, status: int):
    return (page, status) if isinstance(page, str) else page


@bp.get("/g/<group>/tournaments")
def tournaments_page(group):
    """The group's tournaments: how far each is, and for the admin a new one."""
    def view(r, grow, principal, form_token):
        return render_template("tournaments.html", group=grow, admin=principal.is_admin,
                               tournaments=[shown.summary(card) for card in shown.listed(r, group)])
    return page_of(group, view)


@bp.route("/g/<group>/tournaments/new", methods=["GET", "POST"])
def new_tournament_page(group):
    """A tournament: its name, the way its tables play, its players ticked among the members
    (or added by name here, each handed an invitation link), rounds, deals, places and stake."""
    values, problem, status = _values(request.args), None, 200
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        _admin_only(principal)
        values = _values(request.form)
        try:
            if request.form.get("action") == "add":
                name = request.form.get("player", "").strip()
                return once.write(group, "tournament-player", {"name": name},
                                  lambda w: _player_added(w, group, principal, name, values))
            body = _body(values)
            return once.write(group, "tournament", body, lambda w: _created(w, group, principal, body))
        except DomainError as e:
            problem, status = e.detail, status_of(e)[0]

    def view(r, grow, principal, form_token):
        _admin_only(principal)
        presets = [{"key": f"{g.name}:{i}", "title": p.title, "players": p.players, "said": p.said}
                   for g in GAMES.values() for i, p in enumerate(g.words.presets)]
        who = session.signed_in(r, group)
        key = session.invitation_key(who) if who is not None else None
        added = set(values["added"])
        links = [_link_shown(grow, i) for i in (invitations.pending(r, group, key) if key and added else [])
                 if i.member in added]
        return render_template("tournament_new.html", group=grow, presets=presets, values=values, problem=problem,
                               links=links, once=once.key(), points=grow["currency"] == "points")
    return _with_status(page_of(group, view), status)


def _values(form) -> dict:
    """What the form was filled with so far (from a sending, or from the address a player
    added on the spot came back to)."""
    values = {k: form.get(k, "") for k in FIELDS}
    values["players"] = [p for p in form.getlist("players") if p]
    values["added"] = [p for p in form.getlist("added") if p]
    return values


def _player_added(w, group: str, principal, name: str, values: dict) -> str:
    """A member added by name, ticked, and invited by a link keyed to this browser (as the
    members page's are: only it can show the link again); back to the form as it was filled."""
    if not name:
        raise Invalid(_("write the new player's name, as the group calls them"),
                      errors={"player": [_("Give a name.")]})
    who = session.signed_in(w, group)
    made = invitations.invite(w, group, principal.subject, {"name": name},
                              session.invitation_key(who) if who is not None else None)
    kept = {k: v for k, v in values.items() if k in FIELDS and v}
    query = urlencode([*kept.items(), *[("players", p) for p in [*values["players"], made.member]],
                       *[("added", a) for a in [*values["added"], made.member]]])
    return url_for("web.new_tournament_page", group=group) + "?" + query + "#players"


def _link_shown(grow: dict, made: invitations.Invitation) -> dict:
    link = public_url(url_for("web.join_page", code=made.code))
    return {"name": member_name(grow, made.member), "link": link,
            "qr": qr.svg(link, _("the invitation link as a QR code"))}


def _number(values: dict, key: str, name: str, missing: str, most: int) -> int:
    """A whole number from 1 to ``most`` typed in the field ``key``; ``name`` says what it counts
    ("the number of rounds"), ``missing`` what to do when it was left empty."""
    if not values[key].strip():
        raise Invalid(missing, errors={key: [_("Not a whole number.")]})
    value = whole(name, values[key])
    if not 1 <= value <= most:
        # Translators: %(name)s says what the number counts ("the number of rounds"); from %(least)d to %(most)d.
        raise Invalid(_("%(name)s must be from %(least)d to %(most)d", name=name, least=1, most=most),
                      errors={key: [_("Out of range.")]})
    return value


def _body(values: dict) -> dict:
    """The API's body of the tournament the form describes, or a refusal in words."""
    title = values["title"].strip()
    if not title:
        raise Invalid(_("give the tournament a name the players will read"), errors={"title": [_("Give a name.")]})
    game_name, _colon, index = values["preset"].partition(":")
    game = GAMES.get(game_name)
    if game is None or not index.isdigit() or int(index) >= len(game.words.presets):
        raise Invalid(_("choose the game the tables play"), errors={"preset": [_("Choose a game.")]})
    rules = dict(game.words.presets[int(index)].rules)
    if values["entry"] == "seats":
        rules[shown.ENTRY] = "seats"
    players = values["players"]
    _fits(game, game.words.presets[int(index)].rules, len(players))
    # Translators: what a number of the new-tournament form counts, in "... must be from 1 to 100".
    rounds = _number(values, "rounds", _("the number of rounds"), _("write how many rounds the tournament has"),
                     tournament_schemas.MAX_ROUNDS)
    # Translators: what a number of the new-tournament form counts, in "... must be from 1 to 1000".
    deals = _number(values, "deals", _("the number of deals at each table"),
                    _("write how many deals each table plays in a round"), tournament_schemas.MAX_DEALS)
    places = _places(values["places"])
    body = {"name": title, "game": game.name, "rules": rules, "players": players, "rounds": rounds, "deals": deals,
            "places": places, "stake": values["stake"].strip().replace(",", ".") or None}
    body = {k: v for k, v in body.items() if v is not None}
    try:
        return tournament_schemas.TournamentCreate().load(body)
    except ValidationError as e:
        raise Invalid(_("the form does not make a tournament: check its fields and send it again"),
                      errors=e.messages) from None


def _fits(game, said, count: int) -> None:
    """Enough players, and as many as the game's tables seat under the rules ``said``; else
    which counts would do."""
    if count < 2:
        raise Invalid(_("tick the players of the tournament (at least two)"), errors={"players": [_("Tick players.")]})
    if table_sizes(game, said, count):
        return
    below, above = shown.players_fit(game, said, count)
    size = game.seat_count(game.parse_rules(said))
    counts = [str(n) for n in (below, above) if n]
    # Translators: %(count)d players ticked do not fill tables of %(size)d; %(counts)s are counts that would
    # ("12 or 16").
    raise Unprocessable(ngettext("%(num)d player cannot sit at tables of %(size)d: tick %(counts)s players",
                                 "%(num)d players cannot sit at tables of %(size)d: tick %(counts)s players",
                                 count, size=size, counts=_("%(one)s or %(other)s", one=counts[0], other=counts[1])
                                 if len(counts) == 2 else counts[0]), errors={"players": [_("Tick other players.")]})


def _places(text: str) -> list[int] | None:
    """Table points by place, best first, as typed ("5 3 1 0" or "5, 3, 1, 0"); None (the usual
    places, which the tournament takes as far as its tables have places: 5 3 at a table of two)
    when left empty or as the form first shows it."""
    parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
    # Translators: what a number of the new-tournament form is, in "... must be a whole number, not '5.5'".
    places = [whole(_("the table points of a place"), p) for p in parts]
    return None if places in ([], list(PLACES)) else places


def _created(w, group: str, principal, body: dict) -> str:
    row = handlers.handle(CreateTournament(group, principal.subject, body, draw_secrets()), w)
    return url_for("web.tournament_page", group=group, tournament=row["id"])


@bp.get("/g/<group>/tournaments/<tournament>")
def tournament_page(group, tournament):
    """The tournament: how it is played, the commitment to its next draw and the draw button,
    each round's tables as they stand, the standings' top, and its watch links."""
    return _tournament_page(group, tournament)


def _tournament_page(group: str, tournament: str, problem: str | None = None, status: int = 200):
    def view(r, grow, principal, form_token):
        row = tournament_row(r, group, tournament)
        who = session.signed_in(r, group)
        # the organizer who plays: a member on this page (who checks in), the admin for its draw and watch links
        admin = principal.is_admin or g.viewer["admin_too"]
        key = session.invitation_key(who) if who is not None and admin else None
        watches = [{**w, "qr": qr.svg(w["link"], _("the watch link as a QR code")) if w["link"] else None}
                   for w in shown.watches_shown(key, group, row)] if admin else []
        signer(r, group, principal)  # a player's check-in is signed on their phone
        return render_template("tournament.html", group=grow, admin=admin, problem=problem,
                               once=once.key(), watches=watches, version=r.version(group),
                               ticked=set(request.form.getlist("absent")) if request.method == "POST" else set(),
                               **_live_context(r, group, grow, row, principal.subject))
    return _with_status(page_of(group, view), status)


def _live_context(r, group: str, grow: dict, row: dict, member: str | None) -> dict:
    rounds = [{"number": d["round"], "tables": shown.running(r, group, grow, row, d)}
              for d in reversed(row["drawn_rounds"])]
    card, summary, standings = shown.with_standings(r, group, grow, row)
    return {"t": summary, "rounds": rounds, "mine": shown.where_i_sit(r, group, [card], member),
            "standings": standings, "checks": shown.check_ins(grow, row, member)}


@bp.get("/g/<group>/tournaments/<tournament>/live")
def tournament_live(group, tournament):
    """The tournament page's live part again, as soon as the group's log has moved (service/live.py)."""
    def render(r, version):
        who = session.signed_in(r, group)
        grow = r.row("group", group, "")
        row = tournament_row(r, group, tournament)
        return live.part(render_template("_tournament_live.html", group=grow,
                                         **_live_context(r, group, grow, row, who.principal.subject)), version)
    return live.answer(group, None, lambda r: None if session.signed_in(r, group) else Response(status=403), render)


@bp.route("/g/<group>/tournaments/<tournament>/draw", methods=["POST"])
def draw_page(group, tournament):
    """The next round drawn: the secret committed to revealed, the seed from it and the
    players' check-ins (without those the organizer ticked; in a tournament from before
    check-ins, the log's last event), the players shuffled and cut into tables; then its seat
    plan."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    _admin_only(principal)
    number = request.form.get("round", "")
    ticked = list(dict.fromkeys(a for a in request.form.getlist("absent") if a))

    def drawn(w):
        row = tournament_row(w, group, tournament)
        if number != str(len(row["drawn_rounds"]) + 1):  # the page showed another round's button
            raise Unprocessable(_("round %(number)s is drawn already: this page was out of date", number=number))
        if row["drawn_rounds"]:
            _all_played(w, group, row)  # said with the tables' numbers, not their ids
        absent = _without(w, group, row, ticked) if fold.by_check_ins(row) else ()
        made = handlers.handle(DrawRound(group, principal.subject, tournament, draw_secrets(), absent=absent), w)
        return url_for("web.seat_plan_page", group=group, tournament=tournament, number=made["round"])
    try:
        return once.write(group, f"draw {tournament}", {"round": number, "absent": sorted(ticked)}, drawn)
    except DomainError as e:
        return _tournament_page(group, tournament, problem=e.detail, status=status_of(e)[0])


def _without(w, group: str, row: dict, ticked: list[str]) -> tuple[str, ...]:
    """The players the organizer ticked to draw without, among those not checked in (one who
    checked in since the page was shown is drawn with their check-in); the others not checked
    in, named in words, hold the draw back."""
    checked = row["check_ins"]
    absent = tuple(p for p in row["players"] if p in ticked and p not in checked)
    missing = [p for p in row["players"] if p not in checked and p not in absent]
    if missing:
        grow = w.row("group", group, "")
        names = together(member_name(grow, p) for p in missing)
        # Translators: a draw refused; %(names)s are the players who have not checked in ("Bożena and Irek").
        raise Unprocessable(ngettext("%(names)s has not checked in for round %(round)d: wait for them, or tick them "
                                     "to draw without them",
                                     "%(names)s have not checked in for round %(round)d: wait for them, or tick them "
                                     "to draw without them", len(missing), names=names,
                                     round=len(row["drawn_rounds"]) + 1), errors={"absent": [names]})
    return absent


HEX32 = re.compile(r"[0-9a-f]{64}")


@bp.route("/g/<group>/tournaments/<tournament>/rounds/<int:number>/check-in", methods=["POST"])
def check_in_form(group, tournament, number):
    """A player is here for round ``number``: their phone's 32 random bytes (made by
    static/check_in.js as the page opened, signed by static/sign.js for a player who holds
    keys) go into that round's seed. Once per player and round."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    signed = signed_of(request.form)  # a check-in binds its player: signed on their phone
    entropy = request.form.get("entropy", "").strip()

    def checked_in(w):
        if not HEX32.fullmatch(entropy):
            raise Invalid(_("Checking in needs this phone's browser to make 32 random bytes for the draw, and none "
                            "came with the form: open the page again with JavaScript on and tap “I am here” anew."),
                          errors={"entropy": [_("No random bytes.")]})
        with in_words(signed is not None):
            handlers.handle(CheckIn(group, principal.subject, tournament, number, entropy, signed), w)
        return url_for("web.tournament_page", group=group, tournament=tournament) + "#draw-h"
    try:
        return once.write(group, f"check-in {tournament}", {"round": number}, checked_in)
    except DomainError as e:
        return _tournament_page(group, tournament, problem=e.detail, status=status_of(e)[0])


def _all_played(w, group: str, row: dict) -> None:
    """The last round's tables have all played their deals; else which have not, by number."""
    last = row["drawn_rounds"][-1]
    if len(row["drawn_rounds"]) >= row["rounds"]:
        return  # every round is drawn: the handler says so
    playing = set(still_playing(w, group, row, last))
    if not playing:
        return
    numbers = [str(i) for i, t in enumerate(last["tables"], 1) if t["id"] in playing]
    # Translators: a draw refused; %(tables)s are the tables' numbers in the round ("2 and 3").
    raise Unprocessable(ngettext("round %(round)d is still being played at table %(tables)s: every table plays its "
                                 "%(deals)d deals before the next round is drawn",
                                 "round %(round)d is still being played at tables %(tables)s: every table plays its "
                                 "%(deals)d deals before the next round is drawn", len(numbers),
                                 round=last["round"], tables=together(numbers), deals=row["deals"]))


@bp.route("/g/<group>/tournaments/<tournament>/watch", methods=["POST"])
def watch_form(group, tournament):
    """A watch link made (shown on the tournament's page to this browser, with its QR code),
    or one ended (its page then says it was ended)."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    _admin_only(principal)
    action, ended = request.form.get("action", ""), request.form.get("watch", "")

    def act(w):
        row = tournament_row(w, group, tournament)
        if action == "open":
            who = session.signed_in(w, group)
            code = shown.next_watch_code(session.invitation_key(who), group, row)
            handlers.handle(Watch(group, principal.subject, tournament, watch_digest(code), True), w)
        elif action == "end":
            handlers.handle(Watch(group, principal.subject, tournament, ended, False), w)
        else:
            raise Invalid(_("that is not something a tournament's page does"),
                          errors={"action": [_("Unknown action.")]})
        return url_for("web.tournament_page", group=group, tournament=tournament) + "#watch-h"
    try:
        return once.write(group, f"watch {tournament}", {"action": action, "watch": ended}, act)
    except DomainError as e:
        return _tournament_page(group, tournament, problem=e.detail, status=status_of(e)[0])
