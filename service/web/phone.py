"""A hand on a player's own phone: the cards it owes (its hand as it picks it up, the face-up
cards or the trump card it turns as dealer, the card it draws), its legal cards to tap when
it is its turn (captures chosen on the page), its calls and claims, and the table
as everyone sees it, kept live by a small script that asks for the table again only when
the group's log has moved (If-None-Match). A tap that came too late is told who played what.

What a seat may do now is worked out with the rest of the hand's page (hand_shown.py); here
are the phone's answers: the live part again, a move, a payer's or a player's verdict.
"""
from __future__ import annotations

from flask import Response, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Invalid, Refused
from .. import handlers, live, steady
from ..handlers import lookups
from ..commands import Agree, Confirm, Dispute, Play
from . import once, session
from .base import bp, game_fields, writer_of
from .hand_shown import hand_context, hand_page_of
from .signed_form import in_words, signed_of, unsigned


@bp.get("/g/<group>/hands/<hand>/live")
def hand_live(group, hand):
    """The live part of a hand's page, again: as soon as the hand's table (or the group as a
    whole) moved since the phone's copy (service/live.py), else 304."""
    def render(r, version):
        who = session.signed_in(r, group)
        grow = lookups.group_row(r, group)
        shown = hand_context(r, group, hand, grow, who.principal, session.form_token(who), None)
        g.sealed = True  # a hand's live part is one player's view of it
        return live.part(render_template("_hand_body.html", **shown), version)

    def allowed(r):
        return None if session.signed_in(r, group) is not None else Response(status=403)
    # No such hand: no table, so any change answers, and the part says so in words.
    return live.answer(group, lambda r: r.table_of(group, hand), allowed, render)


@bp.route("/g/<group>/hands/<hand>/move", methods=["POST"])
def hand_move(group, hand):
    """One thing a phone does in a hand: its cards, the face-up ones, a card played, a call,
    a claim. Refused: the hand's page again, with the refusal in names."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    action = request.form.get("action", "")
    signed = signed_of(request.form)  # a card picked or played binds its member: signed on their phone

    def move(w):
        model = lookups.hand_model(w, group, hand)
        trow = lookups.table_row(w, group, model.table)
        seat = trow["seats"].index(principal.subject) if principal.subject in trow["seats"] else None
        kind, body = _command(action, seat, model)
        with in_words(signed is not None):
            handlers.handle(Play(group, principal.subject, hand, kind, body, signed if kind in SIGNED else None), w)
        return url_for("web.hand_page", group=group, hand=hand) + "#live"
    try:
        with steady.no_sooner_than(steady.CLAIM if action == "claim" else 0):
            return once.write(group, f"move {hand}", unsigned(dict(request.form.lists())), move)
    except DomainError as e:  # the page says it in names, in the reader's language (a missing signature: 403),
        picked = request.form.getlist("card") if action not in NOT_PICKED else []  # the cards ticked stay ticked
        return hand_page_of(group, hand, problem=e.detail, status=403 if isinstance(e, Refused) else 422,
                            picked=picked)


SIGNED = ("cards", "play")  # the moves that bind the member who makes them (API.md's acts cards and play)
NOT_PICKED = ("play", "bid", "claim", "instead")  # the moves that send no cards ticked in a picker


def _command(action: str, seat: int | None, model) -> tuple[str, dict]:
    form = request.form
    if seat is None and action in ("cards", "play", "bid", "claim"):
        raise Invalid(_("only a player seated at this table plays from this page"))
    match action:
        case "cards":
            return "cards", {"seat": seat, "cards": form.getlist("card")}
        case seen if seen in {f.name for f in model.decider.forms.seen_fields}:  # cards every reader sees, dealt
            kind = next(f.kind for f in model.decider.forms.seen_fields if f.name == seen)
            return "cards", {seen: form.getlist("card") if kind == "cards" else form.get("card", "")}
        case "instead":  # what the game lets the dealer log instead of turning a card, by its place
            offered = list(model.decider.moves.instead_of_turning(model.state, seat)) if seat is not None else []
            chosen = form.get("offer", "")
            if not (chosen.isascii() and chosen.isdigit() and int(chosen) < len(offered)):
                raise Invalid(_("that is not something a hand's page does"), errors={"offer": [_("Unknown action.")]})
            return "cards", dict(offered[int(chosen)].body)
        case "play":
            return "play", {"seat": seat, "card": form.get("card", ""),
                            **game_fields(form, model.decider.forms.play_fields)}
        case "bid":
            return "bid", {"seat": seat, "call": form.get("call", ""),
                           **game_fields(form, model.decider.forms.call_fields)}
        case "claim":
            return "claim", {"seat": seat}
    raise Invalid(_("that is not something a hand's page does"), errors={"action": [_("Unknown action.")]})


@bp.route("/g/<group>/hands/<hand>/verdict", methods=["POST"])
def hand_verdict(group, hand):
    """A payer confirms the hand, or a seated player disputes it, with one tap; a member a
    correction lowers agrees to it."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    action, reason = request.form.get("action"), request.form.get("reason", "").strip()
    signed = signed_of(request.form)  # a confirmation or a dispute binds its member: signed on their phone

    def act(w):
        if action == "confirm":
            with in_words(signed is not None):
                handlers.handle(Confirm(group, principal.subject, hand, signed), w)
        elif action == "dispute":
            if not reason:
                raise Invalid(_("say what is wrong with the hand"), errors={"reason": [_("Give a reason.")]})
            with in_words(signed is not None):
                handlers.handle(Dispute(group, principal.subject, hand, reason, signed), w)
        elif action == "agree":
            with in_words(signed is not None):
                handlers.handle(Agree(group, principal.subject, hand, signed), w)
        else:
            # Translators: what a member may do with a result that waits: confirm it, or dispute it.
            raise Invalid(_("confirm or dispute"),
                          # Translators: the values a form's field takes (its keys); they stay as they are.
                          errors={"action": [_("%(one)s or %(other)s", one="confirm", other="dispute")]})
        return request.form.get("back") or url_for("web.hand_page", group=group, hand=hand)
    back = request.form.get("back", "")
    if back and not back.startswith(f"/g/{group}"):
        raise Invalid(_("that page is not this group's"))
    return once.write(group, f"verdict {hand}", {"action": action, "reason": reason}, act)
