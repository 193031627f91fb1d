"""What every page shares: the blueprint the pages' routes are on, a group's page for the
browser signed in to it (and the principal behind a form), error pages, the filters the
templates use, tables and hands named as people name them, and the form helpers.

Server-rendered (Jinja), no build step. Each page reads the same projections the API
serves; each form goes through the same ledger functions as the API's POSTs, so a page
can do nothing the API would refuse, and its errors are the API's 422 sentences.

The pages themselves are in modules of their own, one per group of pages (signin.py,
group.py, hands.py, card_by_card.py, evening.py, sheet.py, phone.py, admin.py...): each
imports this one, and this one imports none of them.
"""
from __future__ import annotations

from typing import Callable, Iterable

from babel.lists import format_list
from flask import Blueprint, Response, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Invalid, Refused
from projections import table_kinds
from projections.groups import member_name
from projections.hands import game_of
from ..handlers import lookups
from ..http import store
from ..i18n import money, phrases
from ..i18n.languages import current
from ..problems import status_of
from . import key_state, session
from .cards import face, faces, suit_words
from .words import page_game, said

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/static")
bp.after_request(session.after_request)  # sessions used are written down as used; ended ones leave the cookie


def _title(slug: str, title: str) -> str:
    """A title of problems.STATUSES (by its type slug) as an error page says it; the API's
    problem+json keeps its English titles."""
    return {
        "rule-violation": _("Against the rules"),
        "unprocessable": _("Unprocessable"),
        "bad-request": _("Bad request"),
        "unauthorized": _("Unauthorized"),
        "forbidden": _("Forbidden"),
        "not-found": _("Not found"),
        "gone": _("Gone"),
        "conflict": _("Conflict"),
        "precondition-failed": _("Precondition failed"),
        "too-many-requests": _("Too many requests"),
        "internal": _("Internal error"),
        # Translators: the title of the page shown when the group's stored log no longer matches its hashes.
        "damaged-store": _("Damaged store"),
    }.get(slug, title)


def together(names: Iterable[str]) -> str:
    """Names said together as the reader's language lists them: "Ala and Cyd"."""
    return format_list(list(names), locale=current())


@bp.app_template_filter("card")
def _card(code: str) -> dict:
    return face(code)


@bp.app_template_filter("said")
def _said(text: str, seats, sides=(), hands=None) -> str:
    """The log's words as people read them: names for seats and sides, hands by their
    number at the table, agreed plurals, in the reader's language."""
    return said(str(text), seats or (), sides or (), current(), hands)


@bp.app_template_filter("suit")
def _suit(code: str) -> str:
    """A suit by its code ("H"), in the reader's words."""
    return suit_words().get(code, code)


@bp.app_template_filter("currency_name")
def _currency_name(code: str) -> str:
    """A currency by its ISO code, named as the reader's language names it ("złoty polski"),
    or points."""
    return money.currency_name(code, current())


@bp.app_template_filter("unit")
def _unit(code: str) -> str:
    """What heads a column of amounts: the currency's code, or the reader's word for points."""
    return money.unit(code, current())


@bp.app_template_filter("log")
def _log(text: str) -> str:
    """The rules' own words on a page (a variant's title and sentence, a score sheet's
    question), in the reader's language, cards as their faces."""
    return phrases.say(str(text), current(), drawn=faces, game=page_game())


@bp.app_template_filter("game_title")
def _game_title(name: str) -> str:
    """A game as people write it (with its diacritics), from its name in a table's row."""
    return game_of(name).title


@bp.errorhandler(DomainError)
def _problem_page(e: DomainError):
    status, title, slug = status_of(e)
    # a refusal of the rules or the ledger, the reader's way
    detail = phrases.say(e.detail, current(), drawn=faces, game=page_game())
    return render_template("error.html", status=status, title=_title(slug, title), detail=detail), status


def page_of(group: str, view: Callable) -> Response | str:
    """A page of a group this browser is signed in to: ``view(reader, group row, principal,
    form token)`` draws it; the sign-in page for a browser signed in nowhere, and a 403 page
    for one signed in to other groups only."""
    with store().reading() as r:
        who = session.signed_in(r, group)
        if who is None:
            if session.sessions(r):
                raise Refused(_("this browser is not signed in to that group: open the invitation link its admin "
                                "gave you, or choose one of your groups"))
            return redirect(url_for("web.sign_in_page", next=request.path))
        grow = lookups.group_row(r, group)
        g.viewer = viewer(r, grow, who)
        return view(r, grow, who.principal, session.form_token(who))


def viewer(reader, grow: dict, who: session.Session) -> dict:
    """Who is looking, for every page's header: their name in the group, whether they are
    its admin, their other groups on this browser, and the form token of this session."""
    principal, others = who.principal, []
    for other in (s.principal for s in session.sessions(reader)):
        if other.group != grow["id"]:
            orow = reader.row("group", other.group, "")
            if orow is not None:
                others.append({"id": other.group, "name": orow["name"]})
    # Translators: who is signed in, when it is the group's admin ("Signed in as the admin").
    name = _("the admin") if who.member is None else member_name(grow, who.member)
    if who.member is not None and who.admin is not None:
        # Translators: who is signed in, a member who is the group's admin too ("Signed in as Ola, the admin").
        name = _("%(name)s, the admin", name=name)
    return {"group": grow["id"], "group_name": grow["name"], "name": name, "admin": principal.is_admin,
            "member": who.member, "others": others, "form_token": session.form_token(who),
            # The organizer's two rights (session.py), and the keys and resets every page shows (key_state.py).
            "admin_too": who.member is not None and who.admin is not None,
            "key_state": key_state.seen(reader, grow, who)}


def writer_of(group: str):
    """The signed-in principal of this group for a POST, after the form's token is checked."""
    with store().reading() as r:
        who = session.signed_in(r, group)
    if who is None:
        return None
    session.check_form(who)
    return who.principal


@bp.after_request
def _kept_by_nobody(response: Response) -> Response:
    """A page shows one member's view of the group (cards sealed from others, a session's
    form tokens): no shared cache may keep it, and the browser asks again before showing it
    anew (Back still shows the page as it was). The stylesheet and the verify script are
    the same for everyone."""
    if request.endpoint != "web.static":
        # A page that seals cards from its reader is kept by no cache at all, not even this
        # browser's (Back then asks to load it again): a phone may change hands.
        # ("private, no-store" or "private, no-cache", set by directive: header values are not words for people.)
        response.cache_control.private = True
        if g.get("sealed"):
            response.cache_control.no_store = True
        else:
            response.cache_control.no_cache = True
        response.headers.add("Vary", "Cookie")
    return response


def table_title(trow: dict, grow: dict | None = None, players: bool = True) -> str:
    """A table as people name it: the way of playing it was opened with (its preset's title,
    e.g. "for three"), in the reader's language; else its game's name. Where its group has
    another table of that game, played the same way at the same stake, the title names its
    players too ("... (Ala, Bob, Cyd and Dan)"), so that every page tells the two apart
    (``players=False``: the caller names them beside it). ``grow`` is the table's group, else
    the group of the page being drawn. Whether another table is of its kind is one kept row
    (projections/table_kinds.py), read once a request, however many tables the group has."""
    game = game_of(trow["game"])
    rules = game.parse_rules(trow["rules"])  # a table's rules were checked when it was opened
    title = next((phrases.say(preset.title, current(), game=game.name) for preset in game.words.presets
                  if preset.players == len(trow["seats"]) and game.parse_rules(preset.rules) == rules), game.title)
    group = grow["id"] if grow else (g.get("viewer") or {}).get("group")
    if group is None or not players:
        return title
    kind = table_kinds.of_table(trow)
    known = g.setdefault("table_kinds", {})  # per group: its row, and how many tables of each kind asked for
    if group not in known or kind not in known[group][1]:
        with store().reading() as r:
            grow = grow or known.get(group, (None,))[0] or lookups.group_row(r, group)
            alike = (r.row(table_kinds.NAME, group, kind) or {}).get("tables", 0)  # one row, however many tables
        known.setdefault(group, (grow, {}))[1][kind] = alike
    grow, counted = known[group]
    if counted[kind] < 2:
        return title
    # Translators: a table named by its way of playing and, to tell it from another like it,
    # by its players ("Ala, Bob and Cyd").
    return _("%(title)s (%(players)s)", title=title, players=together(member_name(grow, m) for m in trow["seats"]))


def result_as_it_stands(r, group: str, hand: str) -> dict | None:
    """The result a hand now stands by: as it was logged whole, or as its latest correction
    gave it (None: played card by card, corrected by its cards, voided, or no such hand). From
    the hand's own events: a correction is logged under the hand it corrects."""
    result = None
    for env in r.hand_events(group, hand):
        if env.type == "result":
            result = env.data["result"]
        elif env.type == "correction" and env.data["hand"] == hand:
            result = None if env.data.get("void") or "cards" in env.data else env.data["result"]
    return result


def hand_numbers(r, group: str, table: str) -> dict[str, int]:
    """Each hand of a table by its number there (1: the first dealt), from the log's index of
    deals: no event of the table is read."""
    return {hand: number for number, hand in enumerate(r.table_hands(group, table), 1)}


def hand_name(number: int, dealer: str) -> str:
    """A hand as people name it: "Hand 7, Celina dealt"."""
    # Translators: a hand named by its number at the table and who dealt it: "Hand 7, Celina dealt".
    return _("Hand %(number)d, %(dealer)s dealt", number=number, dealer=dealer)


def hand_names(hands, seats: list[str]) -> dict[str, str]:
    """Each hand of a table as people name it: "Hand 7, Celina dealt"."""
    # Translators: a hand named by its number at the table and who dealt it: "Hand 7, Celina dealt".
    return {h.id: _("Hand %(number)d, %(dealer)s dealt", number=i, dealer=seats[h.opened["dealer"]])
            for i, h in enumerate(hands, 1)}


def whole(name: str, text: str) -> int:
    """A whole number sent in a form: ASCII digits only (``²`` is a digit to Python, not
    to ``int``), an optional minus, and not absurdly long."""
    text = text.strip()
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        # Translators: %(name)s is a form field's name (points, seat), %(text)s what was typed, quoted.
        raise Invalid(_("%(name)s must be a whole number, not %(text)s", name=name, text=repr(text)),
                      errors={name: [_("Not a whole number.")]})
    return int(text)


def field_errors(detail: str, fields) -> dict[str, str]:
    """The 422's sentence beside the field it names (the first one it names), if any; the
    field "seat 2" is the form's input ``seat2``."""
    lowered = detail.lower()
    for name in fields:
        if name.lower() in lowered:
            return {name.replace(" ", ""): detail}
    return {}


def game_fields(form, declared) -> dict:
    """The fields a game adds to a request (``Game.forms.seen_fields``, ``play_fields``,
    ``call_fields``), as a form sent them: a list of cards comma-separated or repeated, any
    other field as typed; a field left empty is left out."""
    body = {}
    for f in declared:
        if f.kind == "cards":
            values = [c for v in form.getlist(f.name) for c in v.split(",") if c]
            if f.name in form:
                body[f.name] = values
        elif form.get(f.name):
            body[f.name] = form[f.name]
    return body
