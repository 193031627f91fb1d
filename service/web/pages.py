"""The pages a table looks at: sign in, the group, a hand, the score sheet, card-by-card entry.

Server-rendered (Jinja), no build step. Each page reads the same projections the API
serves; each form goes through the same ledger functions as the API's POSTs, so a page
can do nothing the API would refuse, and its errors are the API's 422 sentences.
"""
from __future__ import annotations

from typing import Callable, Iterable

from babel.lists import format_list
from flask import Blueprint, Response, g, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from events.errors import DomainError, Invalid, NotFound, Refused
from events.types import EVENT_TYPES
from projections import audit as audit_trail, corrections
from projections.balances import pending_entry, pending_view, waiting as balances_waiting
from projections.groups import member_name
from projections.ledger_views import MONEY_EVENTS, balance_steps
from projections.hands import game_of
from .. import auth, handlers
from ..handlers import lookups
from ..commands import NewHand, Play
from ..problems import status_of
from ..evidence import checkpoint, inclusions, public_key
from ..http import store
from ..i18n import phrases
from ..i18n.languages import current
from ..sealed import events_as_seen, sealed_for, trail_as_seen
from ..seating import entry_of
from ..views import balances_view, hand_view, settle_up_view
from . import once, session
from .cards import face
from .chart import aligned, balance_chart, legend
from .words import said

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


class Preview(Exception):
    """Raised inside a write to roll it back after computing what it would record."""

    def __init__(self, outcome):
        super().__init__("preview")
        self.outcome = outcome


@bp.app_template_filter("card")
def _card(code: str) -> dict:
    return face(code)


@bp.app_template_filter("said")
def _said(text: str, seats, sides=(), hands=None) -> str:
    """The log's words as people read them: names for seats and sides, hands by their
    number at the table, agreed plurals, in the reader's language."""
    return said(str(text), seats or (), sides or (), current(), hands)


@bp.app_template_filter("game_title")
def _game_title(name: str) -> str:
    """A game as people write it (with its diacritics), from its name in a table's row."""
    return game_of(name).title


@bp.errorhandler(DomainError)
def _problem_page(e: DomainError):
    status, title, slug = status_of(e)
    detail = phrases.say(e.detail, current())  # a refusal of the rules or the ledger, in the reader's words
    return render_template("error.html", status=status, title=_title(slug, title), detail=detail), status


def _page(group: str, view: Callable) -> Response | str:
    """A page of a group this browser is signed in to; the sign-in page for a browser
    signed in nowhere, and a 403 page for one signed in to other groups only."""
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
    name = _("the admin") if principal.is_admin else member_name(grow, principal.subject)
    return {"group": grow["id"], "group_name": grow["name"], "name": name, "admin": principal.is_admin,
            "member": None if principal.is_admin else principal.subject, "others": others,
            "form_token": session.form_token(who)}


def _writer_of(group: str):
    """The signed-in principal of this group for a POST, after the form's token is checked."""
    with store().reading() as r:
        who = session.signed_in(r, group)
    if who is None:
        return None
    session.check_form(who)
    return who.principal


@bp.get("/")
def sign_in_page():
    """Where a browser starts: its groups to choose from, or how to get into one."""
    with store().reading() as r:
        mine = session.sessions(r)
        # Translators: a group this browser is signed in to as its admin ("Thursday cards, as admin").
        admin = _("admin")
        groups = [{"id": p.group, "name": (r.row("group", p.group, "") or {}).get("name", p.group),
                   "as": admin if p.is_admin else member_name(r.row("group", p.group, ""), p.subject)}
                  for p in (s.principal for s in mine)]
    if len(groups) == 1 and not request.args.get("choose"):
        return redirect(url_for("web.group_page", group=groups[0]["id"]))
    return _sign_in_form(None, request.args.get("next", ""), 200, groups)


def _sign_in_form(error: str | None, after: str, status: int, groups=()):
    token = session.sign_in_token()
    page = render_template("signin.html", error=error, next=after, signin_token=token, groups=groups)
    return session.keep_sign_in_token(Response(page, status, mimetype="text/html"), token)


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


@bp.post("/signin")
def sign_in():
    session.check_sign_in()
    token = request.form.get("token", "").strip()
    with store().reading() as r:
        try:
            principal = auth.resolve(r, f"Bearer {token}")
        except DomainError:
            return _sign_in_form(_("That token is not known here: paste the whole token the group's admin gave "
                                   "you."), "", 401)
    target = request.form.get("next", "")
    if not target.startswith(f"/g/{principal.group}"):
        target = url_for("web.group_page", group=principal.group)
    return session.start(redirect(target, 303), token)  # a session of its own: the cookie never holds the token


@bp.post("/signout")
def sign_out():
    """Only bitka's own sign-out button signs out, of the group whose page it is on: it
    carries that group's session form token."""
    group = request.form.get("group", "")
    with store().reading() as r:
        who = session.signed_in(r, group)
        if who is None:
            raise Refused(_("this sign-out is not from a page of a group this browser is signed in to"))
        session.check_form(who)
        return session.forget(redirect(url_for("web.sign_in_page", choose=1), 303), r, group)


@bp.get("/g/<group>")
def group_page(group):
    def view(r, grow, principal, form_token):
        from .admin import admin_context
        brow = r.row("balances", group, "") or {"members": {}}
        tables = []
        for t in grow["tables"]:
            trow = r.row("table", group, t["id"])
            seats = [member_name(grow, m) for m in trow["seats"]]
            tables.append({"row": trow, "seats": seats, "title": table_title(trow)})
        names = [m["name"] for m in grow["members"]]
        series, hands = _balance_series(r, group, [m["id"] for m in grow["members"]])
        chart = balance_chart(names, series, grow["digits"], grow["currency"], hands)
        settle = settle_up_view(grow, brow)
        for t in settle["transfers"]:  # who may mark it paid: the admin, or whoever receives it
            t["may_mark"] = principal.is_admin or principal.subject == t["to"]
        return render_template("group.html", group=grow, principal=principal, form_token=form_token,
                               balances=balances_view(grow, brow), settle=settle, waiting=_waiting(r, grow, brow,
                                                                                                   principal),
                               tables=tables, chart=chart, series=list(zip(names, series, strict=True)),
                               legend=legend(names), digits=grow["digits"], admin=principal.is_admin,
                               once=once.key(), **admin_context(grow))
    return _page(group, view)


def _waiting(r, grow: dict, brow: dict, principal) -> list[dict]:
    """The results that do not count yet, named as people name them, each with what the
    viewer may say of it (confirm, dispute)."""
    shown = []
    for entry in pending_view(brow):
        trow = r.row("table", grow["id"], entry["table"])
        seats = [member_name(grow, m) for m in trow["seats"]]
        order = r.table_hands(grow["id"], entry["table"])
        number = order.index(entry["hand"]) + 1 if entry["hand"] in order else "?"
        waiting = balances_pending(r, grow["id"], entry["hand"])
        shown.append({"hand": entry["hand"], "state": entry["state"],
                      # Translators: a hand named by its number at its table, e.g. "Hand 3 at the Kop table".
                      "title": _("Hand %(number)s at the %(game)s table", number=number,
                                 game=game_of(trow["game"]).title),
                      "payouts": [(seats[p["seat"]], p["amount"]) for p in entry["payouts"]],
                      "waiting_for": [member_name(grow, m) for m in entry["waiting_for"]],
                      "verdict": verdict_choices(waiting, principal, trow)})
    return shown


def _balance_series(r, group: str, members: list[str]) -> tuple[list[list[int]], list[bool]]:
    """Each member's balance after every step that moved one (a hand that counted, a void,
    a correction, a payment), and whether each step was a hand's (the chart counts them)."""
    points, hands, last = {m: [] for m in members}, [], None
    for env, row in balance_steps(r.scan(group, unread=EVENT_TYPES - MONEY_EVENTS)):
        if row is None or row["members"] == last:
            continue
        last = dict(row["members"])
        hands.append(env.type != "payment")
        for member in members:
            points[member].append((env.seq, row["members"].get(member, 0)))
    return aligned(points, members), hands


@bp.get("/g/<group>/hands/<hand>")
def hand_page(group, hand, problem: str | None = None):
    """A hand: on a seated player's phone, what it may do now (phone.py) and the table as
    it stands, live; for everyone, the deal as far as they may see it, the tricks, the
    settlement in words, whether it counts yet, and the log with its verify button."""

    def view(r, grow, principal, form_token):
        return render_template("hand.html", **hand_context(r, group, hand, grow, principal, form_token, problem))
    page = _page(group, view)
    return (page, 422) if problem and isinstance(page, str) else page


def table_title(trow: dict) -> str:
    """A table as people name it: the way of playing it was opened with ("Bisca de tres",
    "Scopa for three"), in the reader's language; else its game's name."""
    game = game_of(trow["game"])
    rules = game.parse_rules(trow["rules"])  # a table's rules were checked when it was opened
    for preset in game.presets:
        if preset.players == len(trow["seats"]) and game.parse_rules(preset.rules) == rules:
            return phrases.say(preset.title, current())
    return game.title


def hand_context(r, group: str, hand: str, grow: dict, principal, form_token: str, problem: str | None) -> dict:
    """What a hand's page shows a reader, for the whole page and for its live part alike."""
    from . import phone
    from .evening import hand_names

    events = audit_trail.events_of(r, group, hand)
    if not events:
        raise NotFound(_("there is no hand %(hand)s in this group", hand=repr(hand)))
    trow = r.row("table", group, events[0].table)
    model = lookups.hand_model(r, group, hand)
    hidden = sealed_for(r, group, model, principal.subject)
    g.sealed = bool(hidden) or not model.ended  # what one player sees of a hand in play is theirs alone
    trail = trail_as_seen(audit_trail.trail(events, trow, grow, marked=True), events, hidden)  # words: said
    live = phone.context(r, group, grow, model, principal)
    past = corrections_history(r, group, model.table)
    title = hand_names(past, live["seats"]).get(hand) or _("A hand")
    numbers = {h.id: number for number, h in enumerate(past, 1)}
    sides = [list(s) for s in model.rules.table.sides(model.rules.parse_rules(trow["rules"]))]
    waiting = balances_pending(r, group, hand)
    return dict(
        group=grow, principal=principal, form_token=form_token, trail=trail, title=title,
        game=model.rules.title, once=once.key(), problem=problem, latest=trow["latest_hand"]["id"] == hand,
        verdict=verdict_choices(waiting, principal, trow),
        waiting_for=[member_name(grow, m) for m in balances_waiting(waiting)] if waiting else [],
        admin=principal.is_admin, sides=sides, numbers=numbers,
        can_play=live["hand"]["phase"] in ("auction", "play") and model.rules.capabilities.logged_by == "tricks"
        and not hidden, **live)


def corrections_history(r, group: str, table: str):
    return corrections.history(r.table_events(group, table))


def balances_pending(r, group: str, hand: str) -> dict | None:
    return pending_entry(r.row("balances", group, ""), hand)


def verdict_choices(waiting: dict | None, principal, trow: dict) -> dict:
    """What the viewer may say of a hand that does not count yet: confirm it (a member who
    pays in it and has not agreed yet), dispute it (a member seated at its table)."""
    if waiting is None or principal.is_admin:
        return {"confirm": False, "dispute": False}
    return {"confirm": principal.subject in balances_waiting(waiting),
            "dispute": principal.subject in trow["seats"], "state": waiting["state"]}


@bp.get("/g/<group>/hands/<hand>/evidence.json")
def hand_evidence(group, hand):
    """What the hand page's verify button checks, as the API would serve it: the hand's
    envelopes, an inclusion proof of each in the group's tree, the signed checkpoint of
    that tree and the server's public key. The browser recomputes everything from these."""
    def view(r, grow, principal, form_token):
        events = audit_trail.events_of(r, group, hand)
        if not events:
            raise NotFound(_("there is no hand %(hand)s in this group", hand=repr(hand)))
        size = r.version(group)
        proofs = inclusions(r, group, [e.seq for e in events], size)
        shown = events_as_seen(r, group, principal.subject, events)
        return {"group": group, "size": size, "checkpoint": checkpoint(r, group, size), "key": public_key(),
                "events": [{**e, "proof": proofs[e["seq"]]["path"]} for e in shown]}
    return _page(group, view)


@bp.route("/g/<group>/tables/<table>/deal", methods=["GET", "POST"])
def deal_page(group, table):
    values, errors, problem = {}, {}, None
    if request.method == "POST":
        principal = _writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        values = {f"seat{i}": request.form.get(f"seat{i}", "") for i in range(8)}
        hands = [v.replace(",", " ").split() for k, v in sorted(values.items()) if k in request.form]
        def deal(w):
            dealer = lookups.table_row(w, group, table)["next_dealer"]
            made = handlers.handle(NewHand(group, principal.subject, table,
                                           {"deal": {"dealer": dealer, "hands": hands}}), w)
            return url_for("web.play_page", group=group, hand=made.hand.id)
        try:
            return once.write(group, f"deal {table}", hands, deal)
        except DomainError as e:
            problem, errors = e.detail, _deal_errors(e.detail, hands)

    def view(r, grow, principal, form_token):
        trow = lookups.table_row(r, group, table)
        if entry_of(trow) == "seats":  # each phone logs its own cards there: no one types a deal
            return redirect(url_for("web.table_page", group=group, table=table))
        if not game_of(trow["game"]).capabilities.deal_on_page:
            raise NotFound(_("a %(game)s deal (its stock and table or trump cards too) is logged through the API; "
                             "its tricks can then be tapped in here", game=trow["game"]))
        seats = [member_name(grow, m) for m in trow["seats"]]
        return render_template("deal.html", group=grow, principal=principal, form_token=form_token, table=trow,
                               seats=seats, values=values, errors=errors, problem=problem, once=once.key())
    page = _page(group, view)
    return (page, 422) if problem and isinstance(page, str) else page


@bp.route("/g/<group>/hands/<hand>/play", methods=["GET", "POST"])
def play_page(group, hand):
    """One tap per card: the trick so far rides in the address; the last card logs the trick."""
    problem = None
    if request.method == "POST":
        principal = _writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        def play(w):
            if "call" in request.form:  # a call of the auction, before the first trick
                bid = {"seat": whole("seat", request.form.get("seat", "")), "call": request.form["call"]}
                if request.form.get("jack"):
                    bid["jack"] = request.form["jack"]
                handlers.handle(Play(group, principal.subject, hand, "bid", bid), w)
                return url_for("web.play_page", group=group, hand=hand)
            if "card" in request.form:  # one card of a trick already being played a card at a time
                after = handlers.handle(Play(group, principal.subject, hand, "play", {"card": request.form["card"]}),
                                        w).hand
            else:
                cards = [c for c in request.form.get("cards", "").split(",") if c]
                after = handlers.handle(Play(group, principal.subject, hand, "trick", {"cards": cards}), w).hand
            done = after.phase not in ("auction", "play")
            return url_for("web.hand_page" if done else "web.play_page", group=group, hand=hand)
        try:
            return once.write(group, f"play {hand}", dict(request.form), play)
        except DomainError as e:
            problem = e.detail

    def view(r, grow, principal, form_token):
        model = lookups.hand_model(r, group, hand)
        trow = lookups.table_row(r, group, model.table)
        game, state = model.rules, model.state
        if game.capabilities.logged_by != "tricks":
            raise NotFound(_("%(game)s hands are logged play by play through the API, not on this page",
                             game=trow["game"]))
        hidden = sealed_for(r, group, model, principal.subject)
        shown = hand_view(model, hidden)
        if shown["phase"] not in ("auction", "play"):
            return redirect(url_for("web.hand_page", group=group, hand=hand))
        # The trick so far: the cards already logged a card at a time (each further tap logs
        # one more), or the taps carried in the address (the fourth logs the whole trick).
        # Who may not see every hand is not told which cards of the address a seat holds.
        on_table = [c["card"] for c in shown.get("current") or []]
        partial = [] if on_table or hidden else [c for c in request.args.get("cards", "").split(",") if c]
        held, leader = game.held(state), game.turn(state)
        seats = len(held)
        names = [member_name(grow, m) for m in trow["seats"]]
        wrong = _first_illegal(game, state, partial, names)
        if wrong:
            problem_now, partial = wrong, []
        else:
            problem_now = problem
        seat = (leader + len(partial)) % seats
        legal = set(game.legal_cards(state, seat, tuple(on_table + partial)))
        return render_template("play.html", group=grow, principal=principal, form_token=form_token, hand=shown,
                               table=trow, seats=names, seat=seat, partial=partial, on_table=on_table,
                               held=[c for c in held[seat] if c not in partial and c not in hidden], legal=legal,
                               sealed=any(c in hidden for c in held[seat]),
                               last=len(partial) == seats - 1, problem=problem_now,
                               calls=[] if on_table else game.calls(state), once=once.key())
    page = _page(group, view)
    return (page, 422) if problem and isinstance(page, str) else page


def _first_illegal(game, state, partial: list[str], names: list[str]) -> str | None:
    """Why the trick in the address cannot stand (edited by hand, or stale), or None."""
    seats, leader = len(game.held(state)), game.turn(state)
    if len(partial) >= seats:
        return ngettext("a trick has %(num)d card; start it again", "a trick has %(num)d cards; start it again", seats)
    for i, card in enumerate(partial):
        seat = (leader + i) % seats
        if card not in game.legal_cards(state, seat, tuple(partial[:i])):
            # Translators: %(card)s is a card's code (AH, 10S); %(player)s the name of who would play it.
            return _("%(card)s cannot be %(player)s's card here; start the trick again", card=card, player=names[seat])
    return None


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


def _deal_errors(detail: str, hands: list[list[str]]) -> dict[str, str]:
    """The deal's 422 beside the seat it is about: the seat it names, or the last seat
    holding the card it names (a card dealt twice is wrong the second time)."""
    named = field_errors(detail, [f"seat {i}" for i in range(len(hands))])
    if named:
        return named
    words = {w.strip(".,:;'\"").upper() for w in detail.split()}
    holders = [i for i, cards in enumerate(hands) if words & {c.upper() for c in cards}]
    return {f"seat{holders[-1]}": detail} if holders else {}


def field_errors(detail: str, fields) -> dict[str, str]:
    """The 422's sentence beside the field it names (the first one it names), if any; the
    field "seat 2" is the form's input ``seat2``."""
    lowered = detail.lower()
    for name in fields:
        if name.lower() in lowered:
            return {name.replace(" ", ""): detail}
    return {}
