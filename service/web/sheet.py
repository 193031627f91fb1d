"""The score sheet: a hand's result entered on a page, shown with its settlement before it
is logged, and logged once however often the form is sent.

The fields are the game's own (``Game.forms.result_fields``): the page draws each kind the same
way for every game and reads it back into the API's result object. Names are tapped, not
seat numbers typed: players are chosen by name (ticked, or one of a set), the doubles by
tapping who gave each one in order (without a script each tap shows the form again with that
double added). The preview is the game's own decision, appended nowhere. A refused number
comes back with the values near it that the game says can happen, each one tap (``take``),
the other answers kept. With its script (static/sheet.js) the sheet asks only what the chosen
contract needs and shows the settlement as soon as every answer is in, without a reload;
without it the whole sheet is one form, as here.

Whoever may log the table's hands may log one here: a member seated at a table where each
seat logs its own cards too (API.md, "Who may log"), signed as every result a member logs.
"""
from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from events.errors import DomainError, Invalid, Refused
from projections.groups import member_name
from projections.hands import game_of, parsed_rules
from .. import handlers
from ..handlers import lookups, planning
from ..commands import Correct, NewHand
from ..http import store
from ..problems import status_of
from . import by_cards, once
from .correcting import corrected, fingerprint, what_it_would_do
from .base import bp, field_errors, page_of, result_as_it_stands, table_title, together, whole, writer_of
from .result_form import (doubles_of, first, offers_of, result_body, result_fields, result_values, sheet_of,
                          take)
from .signed_form import in_words, signed_of, signer
from .words import about

FORM_ONLY = ("form_token", "confirm", "previewed", "double", "undo", "take", once.FIELD)


@bp.route("/g/<group>/tables/<table>/result", methods=["GET", "POST"])
def result_page(group, table):
    """The score sheet: a hand's result alone, shown with its settlement before it is logged."""
    values, errors, problem, preview, status, offers = _values(), {}, None, None, 200, {}
    result = None  # the result the preview shows: what "Log this result" signs
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        with store().reading() as r:
            trow = lookups.table_row(r, group, table)
        fields = result_fields(trow)
        try:
            if "double" in request.form or "undo" in request.form:
                _tap_double(values, len(trow["seats"]))
            else:
                _taken(fields, values)
                body = {"result": result_body(fields, values)}
                seen = fingerprint(body)
                if request.form.get("confirm") == "yes" and request.form.get("previewed") == seen:
                    signed = signed_of(request.form)  # a member's result binds them: signed on their phone
                    return once.write(group, f"result {table}", body,
                                      lambda w: _log(w, group, principal, table, body, signed))
                with store().reading() as r:  # shown again if edited since
                    _made, preview = planning.plan_hand(r, group, table, body, "preview")
                values["previewed"] = [seen]
                result = body["result"]
        except DomainError as e:
            problem, status = e.detail, status_of(e)[0]
            errors, offers = _errors(e, fields), offers_of(fields, values)

    def view(r, grow, principal, form_token):
        trow = lookups.table_row(r, group, table)
        about(trow["game"])
        game, rules = game_of(trow["game"]), parsed_rules(trow["game"], trow["rules"])
        seats = [member_name(grow, m) for m in trow["seats"]]
        sides = [together(seats[i] for i in side) for side in game.table.sides(rules)]
        signer(r, group, principal)
        fields = result_fields(trow)
        return render_template(
            "result.html", group=grow, principal=principal, form_token=form_token, table=trow, seats=seats,
            sides=sides, sides_seats=[list(side) for side in game.table.sides(rules)],
            sheet=sheet_of(fields, values, offers), values=values, errors=errors, problem=problem,
            preview=preview, result=result, title=table_title(trow, grow),
            once=once.key(), v=lambda name: first(values, name), doubles=_shown_doubles(values, len(seats)), ask=True)
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page


def _values() -> dict[str, list[str]]:
    """The form as sent: every field's values (a field of seats is as many ticked names)."""
    return {k: [v.strip() for v in request.form.getlist(k)] for k in request.form if k not in FORM_ONLY}


def _taken(fields, values: dict) -> None:
    """A value offered after a refusal, tapped: it stands for the one typed (``take``)."""
    if "take" in request.form:
        take(fields, values, request.form["take"])


def _tap_double(values: dict, seats: int) -> None:
    """One more double (by the seat of the name tapped), or the last one taken back."""
    doubles = doubles_of(values)
    if "undo" in request.form:
        doubles = doubles[:-1]
    else:
        seat = whole("double", request.form["double"])
        if not 0 <= seat < seats:
            # Translators: seats are numbered from 0; %(seat)d is the seat number sent.
            raise Invalid(ngettext("a double is given by one of the %(num)d seats, not seat %(seat)d",
                                   "a double is given by one of the %(num)d seats, not seat %(seat)d", seats,
                                   seat=seat),
                          errors={"doubles": [_("Not a seat at this table.")]})
        doubles.append(seat)
    values["doubles"] = [" ".join(map(str, doubles))]
    values.pop("previewed", None)


def _shown_doubles(values: dict, seats: int) -> list[int]:
    """The doubles the form carries, for the page: nothing when tampered with (the preview
    says what is wrong with them)."""
    try:
        doubles = doubles_of(values)
    except DomainError:
        return []
    return doubles if all(0 <= seat < seats for seat in doubles) else []


def _log(w, group: str, principal, table: str, body: dict, signed) -> str:
    with in_words(signed is not None):
        made = handlers.handle(NewHand(group, principal.subject, table, body, signed), w)
    return url_for("web.hand_page", group=group, hand=made.hand.id)


def _errors(e: DomainError, fields) -> dict[str, str]:
    """The problem beside the field it concerns: the fields a 400 names, else the first
    field the 422's sentence names."""
    missing = [name.removeprefix("result.") for name in (e.extra.get("errors") or {})]
    if missing:
        return {name: e.detail for name in missing}
    return field_errors(e.detail.removeprefix("result: "), [f.name for f in fields])


@bp.route("/g/<group>/hands/<hand>/correct", methods=["GET", "POST"])
def correct_page(group, hand):
    """The admin's correction of a past hand: its result as it should have been (the score
    sheet's fields, which start from its result as it stands), or a void; what every hand of
    the table would then pay more or less is shown before anything is logged. A hand whose
    cards were logged is corrected by its cards, on the page by_cards.py draws."""
    if by_cards.carded(group, hand):
        return by_cards.correct_page(group, hand)
    values, errors, problem, preview, status, offers = _values(), {}, None, None, 200, {}
    values.pop("reason", None)
    reason = request.form.get("reason", "").strip()
    if request.method == "POST":
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        with store().reading() as r:
            trow = lookups.table_row(r, group, lookups.hand_model(r, group, hand).table)
        fields = result_fields(trow)
        try:
            if not principal.is_admin:
                raise Refused(_("only the group's admin corrects a hand"))
            if "double" in request.form or "undo" in request.form:
                _tap_double(values, len(trow["seats"]))
            else:
                _taken(fields, values)
                result = None if request.form.get("void") == "yes" else result_body(fields, values)
                if not reason:
                    raise Invalid(_("say why, in words the group will read in the hand's audit trail"),
                                  errors={"reason": [_("Give a reason.")]})
                seen = fingerprint({"result": result, "reason": reason})
                command = Correct(group, principal.subject, hand, reason, result)
                if request.form.get("confirm") == "yes" and request.form.get("previewed") == seen:
                    return once.write(group, f"correct {hand}", {"result": result, "reason": reason},
                                      lambda w: corrected(w, group, hand, command))
                preview = what_it_would_do(group, command)
                values["previewed"] = [seen]
        except DomainError as e:
            problem, status = e.detail, status_of(e)[0]
            errors, offers = _errors(e, fields), offers_of(fields, values)

    def view(r, grow, principal, form_token):
        if not principal.is_admin:
            raise Refused(_("only the group's admin corrects a hand"))
        model = lookups.hand_model(r, group, hand)
        trow = lookups.table_row(r, group, model.table)
        about(trow["game"])
        game, rules = game_of(trow["game"]), parsed_rules(trow["game"], trow["rules"])
        seats = [member_name(grow, m) for m in trow["seats"]]
        sides = [together(seats[i] for i in side) for side in game.table.sides(rules)]
        fields = result_fields(trow)
        shown = values if request.method == "POST" else _as_it_stands(r, group, model, fields)
        return render_template(
            "correct.html", group=grow, form_token=form_token, table=trow, hand=model.id, seats=seats,
            sides=sides, sides_seats=[list(side) for side in game.table.sides(rules)],
            sheet=sheet_of(fields, shown, offers), values=shown, errors=errors, problem=problem,
            preview=preview, reason=reason, once=once.key(), v=lambda name: first(shown, name),
            doubles=_shown_doubles(shown, len(seats)), void=request.form.get("void") == "yes", ask=False)
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page


def _as_it_stands(r, group: str, model, fields) -> dict[str, list[str]]:
    """The correction form's fields as the hand's result now stands (as logged, or as its
    latest correction gave it); empty for a hand that counts as never played."""
    return result_values(fields, result_as_it_stands(r, group, model.id))
