"""Card-by-card entry on one device: a deal typed seat by seat, then one tap per card, each
trick logged when its last card is tapped (and an auction's calls before the first trick).
A table whose phones each log their own cards (phone.py) types no deal here.
"""
from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from events.errors import DomainError, NotFound
from games.engine import table as table_decider, view_keys as keys
from projections.groups import member_name
from projections.hands import game_of
from .. import handlers
from ..handlers import lookups
from ..commands import NewHand, Play
from ..i18n.languages import current
from ..sealed import sealed_for
from ..seating import entry_of
from ..views import hand_view
from . import once
from .base import bp, field_errors, game_fields, page_of, whole, writer_of
from .signed_form import in_words, signed_of, signer, unsigned
from .words import about, said


@bp.route("/g/<group>/tables/<table>/deal", methods=["GET", "POST"])
def deal_page(group, table):
    """A hand's deal typed seat by seat (each seat's cards by their codes), logged once; the
    first trick is tapped next."""
    values, hands, problem = {}, [], None
    if request.method == "POST":
        principal = writer_of(group)
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
            problem = e.detail

    def view(r, grow, principal, form_token):
        trow = lookups.table_row(r, group, table)
        about(trow["game"])
        if entry_of(trow) == "seats":  # each phone logs its own cards there: no one types a deal
            return redirect(url_for("web.table_page", group=group, table=table))
        game = game_of(trow["game"])
        if not game.capabilities.deal_on_page:
            raise NotFound(_("a %(game)s deal (its stock and table or trump cards too) is logged through the API; "
                             "its tricks can then be tapped in here", game=trow["game"]))
        seats = [member_name(grow, m) for m in trow["seats"]]
        errors = {key: said(text, seats, language=current()) for key, text in _deal_errors(problem, hands).items()}
        return render_template("deal.html", group=grow, principal=principal, form_token=form_token, table=trow,
                               seats=seats, out=_sitting_out(game, trow), values=values, errors=errors,
                               problem=problem, once=once.key())
    page = page_of(group, view)
    return (page, 422) if problem and isinstance(page, str) else page


@bp.route("/g/<group>/hands/<hand>/play", methods=["GET", "POST"])
def play_page(group, hand):
    """One tap per card: the trick so far rides in the address; the last card logs the trick."""
    problem = None
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        signed = signed_of(request.form)  # a card played binds the one who logs it: signed on their phone

        def play(w):
            if "call" in request.form:  # a call of the auction, before the first trick
                bid = {"seat": whole("seat", request.form.get("seat", "")), "call": request.form["call"],
                       **game_fields(request.form, lookups.hand_model(w, group, hand).decider.forms.call_fields)}
                handlers.handle(Play(group, principal.subject, hand, "bid", bid), w)
                return url_for("web.play_page", group=group, hand=hand)
            if "card" in request.form:  # one card of a trick already being played a card at a time
                with in_words(signed is not None):
                    after = handlers.handle(Play(group, principal.subject, hand, "play",
                                                 {"card": request.form["card"]}, signed), w).hand
            else:
                cards = [c for c in request.form.get("cards", "").split(",") if c]
                after = handlers.handle(Play(group, principal.subject, hand, "trick", {"cards": cards}), w).hand
            done = after.phase not in keys.DEALT_OUT
            return url_for("web.hand_page" if done else "web.play_page", group=group, hand=hand)
        try:
            return once.write(group, f"play {hand}", unsigned(dict(request.form)), play)
        except DomainError as e:
            problem = e.detail

    def view(r, grow, principal, form_token):
        model = lookups.hand_model(r, group, hand)
        trow = lookups.table_row(r, group, model.table)
        about(trow["game"])
        game, state = model.decider, model.state
        if game.capabilities.logged_by != "tricks":
            raise NotFound(_("%(game)s hands are logged play by play through the API, not on this page",
                             game=trow["game"]))
        hidden = sealed_for(r, group, model, principal.subject)
        shown = hand_view(model, hidden)
        signer(r, group, principal)
        if keys.phase(shown) not in keys.DEALT_OUT:
            return redirect(url_for("web.hand_page", group=group, hand=hand))
        # The trick so far: the cards already logged a card at a time (each further tap logs
        # one more), or the taps carried in the address (the fourth logs the whole trick).
        # Who may not see every hand is not told which cards of the address a seat holds.
        on_table = list(keys.on_table(shown))
        partial = [] if on_table or hidden else [c for c in request.args.get("cards", "").split(",") if c]
        held, in_trick = game.moves.held(state), game.trick_seats(state)
        names = [member_name(grow, m) for m in trow["seats"]]
        wrong = _first_illegal(game, state, partial, names)
        if wrong:
            problem_now, partial = wrong, []
        else:
            problem_now = problem
        seat = in_trick[len(partial)]
        legal = set(game.moves.legal_cards(state, seat, tuple(on_table + partial)))
        return render_template("play.html", group=grow, principal=principal, form_token=form_token, hand=shown,
                               table=trow, seats=names, seat=seat, partial=partial, on_table=on_table,
                               held=[c for c in held[seat] if c not in partial and c not in hidden], legal=legal,
                               sealed=any(c in hidden for c in held[seat]),
                               last=len(partial) == len(in_trick) - 1, problem=problem_now,
                               calls=[] if on_table else game.moves.calls(state), call_fields=game.forms.call_fields,
                               once=once.key())
    page = page_of(group, view)
    return (page, 422) if problem and isinstance(page, str) else page


def _sitting_out(game, trow) -> frozenset[int]:
    """The seats that sit out the hand the table's next dealer deals (dealt no cards)."""
    rules = game.parse_rules(trow["rules"])
    dealt = {**game.parse_deal(rules, {"dealer": trow["next_dealer"]}).data,  # dealt seat by seat: no card yet
             **table_decider.deal_context(game, rules, trow["match"])}
    return game.moves.sitting_out(game.initial_state(rules, dealt))


def _first_illegal(game, state, partial: list[str], names: list[str]) -> str | None:
    """Why the trick in the address cannot stand (edited by hand, or stale), or None."""
    in_trick = game.trick_seats(state)
    if len(partial) >= len(in_trick):
        return ngettext("a trick has %(num)d card; start it again", "a trick has %(num)d cards; start it again",
                        len(in_trick))
    for i, (seat, card) in enumerate(zip(in_trick, partial, strict=False)):
        if card not in game.moves.legal_cards(state, seat, tuple(partial[:i])):
            # Translators: %(card)s is a card's code (AH, 10S); %(player)s the name of who would play it.
            return _("%(card)s cannot be %(player)s's card here; start the trick again", card=card, player=names[seat])
    return None


def _deal_errors(detail: str | None, hands: list[list[str]]) -> dict[str, str]:
    """The deal's 422 beside the seat it is about: the seat it names, the seat where what it
    quotes was typed ("'ZZ' is not a card"), or the last seat holding the card it names (a
    card dealt twice is wrong the second time)."""
    if not detail:
        return {}
    named = field_errors(detail, [f"seat {i}" for i in range(len(hands))])
    if named:
        return named
    typed = [i for i, cards in enumerate(hands) if any(repr(c) in detail for c in cards)]
    if typed:
        return {f"seat{typed[0]}": detail}
    words = {w.strip(".,:;'\"").upper() for w in detail.split()}
    holders = [i for i, cards in enumerate(hands) if words & {c.upper() for c in cards}]
    return {f"seat{holders[-1]}": detail} if holders else {}
