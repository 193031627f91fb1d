"""The admin's pages: the members and their invitation links (and their devices reset after a
lost phone: keys_pages.py), opening a table, the group's settings, and the controls every hand
has for the admin (void, correct, abandon). Payments ("mark as paid") are recorded here too, by
the admin or by the member who received them.

A member who holds a key of their own gets no invitation link: a link would sign someone in as
them on a phone they never held (API.md, "Members hold their own keys"); the page says the two
ways instead: they approve a new phone on one of their own, or the admin resets their devices.

Each form goes through the same ledger functions as the API, carried out once (once.py).
"""
from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from events.errors import Conflict, DomainError, Invalid, Refused
from events.money import MoneyError
from games.registry import GAMES
from projections import devices
from projections.groups import member_name
from .. import auth, handlers, invitations
from ..handlers import lookups, money
from ..commands import Correct, OpenTable, Pay, UpdateGroup, VoidHand
from ..http import store
from ..i18n import phrases
from ..i18n.languages import current
from ..problems import status_of
from ..routes.invitations import public_url
from . import once, qr, session
from .base import bp, page_of, whole, writer_of
from .result_form import result_body, result_fields
from .signed_form import in_words, signed_of


def _admin_only(principal) -> None:
    if not principal.is_admin:
        raise Refused(_("only the group's admin may do this"))


@bp.route("/g/<group>/members", methods=["GET", "POST"])
def members_page(group):
    """The members, a new one invited by name, a new link for any member (a lost phone), and
    every link this browser made that nobody has used yet, each with its QR code."""
    problem, status, made = None, 200, None
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        _admin_only(principal)
        body = {"name": request.form.get("name", "").strip()} if "name" in request.form else \
            {"member": request.form.get("member", "")}
        try:
            with store().writing(group) as w:
                _keyless(w, group, body.get("member"))
                made = invitations.invite(w, group, principal.subject, body, _invitation_key(w, group))
        except DomainError as e:
            problem, status = e.detail, status_of(e)[0]

    def view(r, grow, principal, form_token):
        _admin_only(principal)
        key = _invitation_key(r, group)
        waiting = invitations.pending(r, group, key) if key else []
        reset = request.args.get("reset", "")
        return render_template("members.html", group=grow, problem=problem,
                               made=_link_shown(grow, made) if made else None, keyed=_keyed(r, grow),
                               reset=member_name(grow, reset) if reset else None, once=once.key(),
                               waiting=[_link_shown(grow, i) for i in waiting if made is None or i.code != made.code])
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page


def _keyed(r, grow: dict) -> set[str]:
    """The members who hold a key of their own now."""
    return {m["id"] for m in grow["members"] if devices.current(r.row(devices.NAME, grow["id"], m["id"]))}


def _keyless(r, group: str, member: str | None) -> None:
    """A new link is for a member who holds no key: refused, in words, for one who does."""
    if member and devices.current(r.row(devices.NAME, group, member)):
        name = member_name(lookups.group_row(r, group), member)
        raise Conflict(_("%(name)s holds a key on their own phone, so no link can sign anyone in as them: %(name)s "
                         "approves a new phone on one of their own phones, or, if they lost them all, you reset "
                         "%(name)s's devices first (below).", name=name))


def _invitation_key(reader, group: str) -> str | None:
    """What this browser's session keys the links it makes by, so that it alone can have
    them shown again (invitations.keyed_code); None when it is not signed in there any more."""
    who = session.signed_in(reader, group)
    return session.invitation_key(who) if who is not None else None


def _link_shown(grow: dict, made: invitations.Invitation) -> dict:
    """An invitation as the members page shows it: whose it is, its link and its QR code."""
    link = public_url(url_for("web.join_page", code=made.code))
    return {"name": member_name(grow, made.member), "link": link, "expires_at": made.expires_at,
            "qr": qr.svg(link, _("the invitation link as a QR code"))}


@bp.route("/g/<group>/admin-link", methods=["POST"])
def new_admin_link(group):
    """A new link for the admin (the old one stops working), shown on the welcome page."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    _admin_only(principal)
    shown = invitations.admin_link_name()
    with store().writing(group) as w:
        key = _invitation_key(w, group)
        if key is None:  # signed out meanwhile (from another device)
            return redirect(url_for("web.sign_in_page"))
        invitations.admin_link(w, group, key, shown)
    return redirect(url_for("web.welcome_page", group=group, link=shown), 303)


@bp.route("/g/<group>/tables/new", methods=["GET", "POST"])
def new_table_page(group):
    """A table: the game as it is played (each way said in a sentence), who sits where,
    who deals first, the stake, who logs the cards, and the rules a game asks beside its way
    of playing (a game's target, what its stake pays: ``RuleField.asked``)."""
    values, problem, status = {}, None, 200
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        _admin_only(principal)
        values = {k: request.form.get(k, "") for k in ("preset", "stake", "entry", "dealer")}
        values["seats"] = [request.form.get(f"seat{i}", "") for i in range(8)]
        values["rules"] = {k: v.strip() for k, v in request.form.items() if k.startswith(RULE)}
        try:
            body = _table_body(values)
            return once.write(group, "table", body, lambda w: _opened(w, group, principal, body))
        except DomainError as e:
            problem, status = e.detail, status_of(e)[0]

    def view(r, grow, principal, form_token):
        _admin_only(principal)
        presets = [{"key": f"{g.name}:{i}", "game": g.title, "title": p.title, "players": p.players, "said": p.said}
                   for g in GAMES.values() for i, p in enumerate(g.words.presets)]
        return render_template("new_table.html", group=grow, presets=presets, values=values, problem=problem,
                               once=once.key(), asked_rules=_asked_rules(values.get("rules", {})))
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page


RULE = "rule-"  # a rule a game asks, as the form names it: rule-<game>-<rule>


def _shown(value) -> str:
    """A rule's value as the form carries it."""
    return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _asked_rules(sent: dict) -> list[dict]:
    """Each game's rules that a page asks when it opens a table (its ``rule_fields`` with
    ``asked``), as the form draws them: the value sent, else the game's usual one."""
    games = []
    for game in GAMES.values():
        asked = [f for f in game.forms.rule_fields if f.asked]
        if not asked:
            continue
        usual = game.parse_rules(game.words.presets[0].rules).to_data()
        rules = [{"key": f"{RULE}{game.name}-{f.name}", "field": f,
                  "value": sent.get(f"{RULE}{game.name}-{f.name}", _shown(usual.get(f.name))),
                  "choices": [(_shown(option), said) for option, said in zip(f.options, f.said, strict=False)]}
                 for f in asked]
        games.append({"name": game.name, "title": game.title, "rules": rules})
    return games


def _asked_into(game, preset, sent: dict, rules: dict) -> None:
    """The rules the form asked of ``game`` into ``rules``, each one sent that differs from
    what the way of playing chosen says (the game's own rules judge them when the table opens)."""
    chosen = game.parse_rules(preset.rules).to_data()
    for f in (f for f in game.forms.rule_fields if f.asked):
        text = sent.get(f"{RULE}{game.name}-{f.name}", "")
        if not text or text == _shown(chosen.get(f.name)):
            continue
        if f.options:
            value = next((option for option in f.options if _shown(option) == text), None)
            if value is None:
                # Translators: %(question)s is a rule a table is opened with, as the page asks it.
                raise Invalid(_("choose one of the answers offered to: %(question)s",
                                question=phrases.say(f.asked, current(), game=game.name)),
                              errors={f.name: [_("Choose one.")]})
        else:
            value = whole(phrases.say(f.asked, current(), game=game.name), text)
        rules[f.name] = value


def _table_body(values: dict) -> dict:
    game_name, _colon, index = values["preset"].partition(":")
    game = GAMES.get(game_name)
    if game is None or not index.isdigit() or int(index) >= len(game.words.presets):
        raise Invalid(_("choose the game the table plays"), errors={"preset": [_("Choose a game.")]})
    preset = game.words.presets[int(index)]
    seats = values["seats"][:preset.players]
    if len(seats) < preset.players or not all(seats):
        # Translators: %(title)s is a way to play a game (its preset), %(num)d how many play it.
        raise Invalid(ngettext("%(title)s is played by %(num)d: choose who sits in each seat",
                               "%(title)s is played by %(num)d: choose who sits in each seat", preset.players,
                               title=preset.title),
                      errors={"seats": [_("Choose a member for every seat.")]})
    rules = dict(preset.rules)
    _asked_into(game, preset, values.get("rules", {}), rules)
    if values.get("entry") == "seats":
        rules["entry"] = "seats"
    dealer = 0
    if values.get("dealer"):
        if values["dealer"] not in seats:
            raise Invalid(_("the first dealer must be one of the players at the table"),
                          errors={"dealer": [_("Choose someone seated.")]})
        dealer = seats.index(values["dealer"])
    return {"game": game.name, "rules": rules, "seats": seats, "stake": values["stake"].strip().replace(",", "."),
            "dealer": dealer}


def _opened(w, group: str, principal, body: dict) -> str:
    try:
        trow = handlers.handle(OpenTable(group, principal.subject, body), w)
    except MoneyError as e:
        raise Invalid(str(e), errors={"stake": [str(e)]}) from None
    return url_for("web.table_page", group=group, table=trow["id"])


@bp.route("/g/<group>/settings", methods=["POST"])
def settings(group):
    """Whether results wait for a payer's confirmation."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    _admin_only(principal)
    body = {"confirmations": request.form.get("confirmations", "")}

    def update(w):
        handlers.handle(UpdateGroup(group, principal.subject, body), w)
        return url_for("web.group_page", group=group)
    return once.write(group, "settings", body, update)


@bp.route("/g/<group>/payments", methods=["POST"])
def mark_paid(group):
    """A settle-up transfer marked as paid: the payment, recorded by the admin or by the
    member who received the money."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    body = {"from": request.form.get("from", ""), "to": request.form.get("to", ""),
            "amount": request.form.get("amount", "")}
    principal = _payment_recorder(group, principal, body)
    money.may_record_payment(principal.subject, body)
    signed = signed_of(request.form)  # the receiver's "received", signed on their phone

    def pay(w):
        with in_words(signed is not None):
            handlers.handle(Pay(group, principal.subject, body, signed), w)
        return url_for("web.group_page", group=group)
    return once.write(group, "payment", body, pay)


def _payment_recorder(group: str, principal, body: dict):
    """Who records a payment marked paid: the member signed in, when it is theirs (the receiver
    signs for it); else the admin, for a member who holds the admin's rights too."""
    with store().reading() as r:
        who = session.signed_in(r, group)
    if who is None or who.member is None or who.admin is None or who.member in (body["from"], body["to"]):
        return principal
    return auth.Principal(group, auth.ADMIN)


@bp.route("/g/<group>/hands/<hand>/admin", methods=["POST"])
def hand_admin(group, hand):
    """The admin's word on a hand: void the latest (or abandon one half played), or correct
    any past one (a void, or its result as it should have been)."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    _admin_only(principal)
    action, reason = request.form.get("action", ""), request.form.get("reason", "").strip()
    if not reason:
        raise Invalid(_("say why, in a few words the group will read in the hand's audit trail"),
                      errors={"reason": [_("Give a reason.")]})

    def act(w):
        if action == "void":
            handlers.handle(VoidHand(group, principal.subject, hand, reason), w)
        elif action == "correct":
            values = {k: [v.strip() for v in request.form.getlist(k)] for k in request.form}
            model = lookups.hand_model(w, group, hand)
            fields = result_fields(lookups.table_row(w, group, model.table))
            handlers.handle(Correct(group, principal.subject, hand, reason, result_body(fields, values)), w)
        elif action == "correct-void":
            handlers.handle(Correct(group, principal.subject, hand, reason, None), w)
        else:
            raise Invalid(_("choose what to do with the hand"),
                          # Translators: the values a form's field takes (its keys); they stay as they are.
                          errors={"action": [_("%(void)s, %(correct)s or %(correct_void)s", void="void",
                                               correct="correct", correct_void="correct-void")]})
        return url_for("web.hand_page", group=group, hand=hand)
    return once.write(group, f"admin {hand}", dict(request.form), act)
