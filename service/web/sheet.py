"""The score sheet: a hand's result entered on a page, shown with its settlement before it
is logged, and logged once however often the form is sent.

Names are tapped, not seat numbers typed: the stare by ticking two names, the declarer
and the wesele partner by choosing a name, the doubles by tapping who gave each one in
order (each tap re-shows the form with that double added, so no script is needed).
"""
from __future__ import annotations

import hashlib

from flask import redirect, render_template, request, url_for

from events.canonical import canonical_bytes
from events.errors import Problem
from games.registry import GAMES
from projections.groups import member_name
from .. import ledger
from ..http import store
from . import once
from .pages import DEAL_GAMES, Preview, _page, _writer_of, bp, field_errors, whole as _whole

KOP_FIELDS = ("contract", "declarer", "partner", "stare", "doubles", "points", "tricks")
SCOPA_CATEGORIES = ("cards", "coins", "primiera", "settebello")
ERROR_FIELDS = (*KOP_FIELDS, *SCOPA_CATEGORIES, "scopas", "bonus", "trump_suit")
CONTRACT_WORDS = {"normal": "normal game (no call)", "cicha": "cicha (black queens, silent)"}
FORM_ONLY = ("form_token", "confirm", "previewed", "double", "undo", once.FIELD)


@bp.route("/g/<group>/tables/<table>/result", methods=["GET", "POST"])
def result_page(group, table):
    """The score sheet: a hand's result alone, shown with its settlement before it is logged."""
    values, errors, problem, preview, status = _values(), {}, None, None, 200
    if request.method == "POST":
        principal = _writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        if "double" in request.form or "undo" in request.form:
            _tap_double(values)
        else:
            try:
                with store().reading() as r:
                    trow = ledger.table_row(r, group, table)
                body = {"result": result_body(trow["game"], values)}
                seen = _fingerprint(body)
                if request.form.get("confirm") == "yes" and request.form.get("previewed") == seen:
                    return once.write(group, f"result {table}", body, lambda w: _log(w, group, principal, table, body))
                preview = _dry_run(group, principal.subject, table, body)  # shown again if edited since
                values["previewed"] = [seen]
            except Problem as e:
                problem, status = e.detail, e.status
                errors = _errors(e)

    def view(r, grow, principal, form_token):
        trow = ledger.table_row(r, group, table)
        module = GAMES[trow["game"]]
        rules = module.parse_rules(trow["rules"])
        seats = [member_name(grow, m) for m in trow["seats"]]
        sides = [" and ".join(seats[i] for i in side) for side in getattr(rules, "sides", ())]
        ladder = getattr(rules, "ladder", None)
        doubles = _doubles(values)
        contracts = ["normal", "cicha", *rules.ladder.contracts] if trow["game"] in DEAL_GAMES else []
        return render_template(
            "result.html", group=grow, principal=principal, form_token=form_token, table=trow, seats=seats,
            sides=sides, contracts=[(c, CONTRACT_WORDS.get(c, c)) for c in contracts], values=values, errors=errors,
            problem=problem, preview=preview, categories=SCOPA_CATEGORIES, once=once.key(),
            v=lambda name: first(values, name),
            capixaba=getattr(rules, "variant", None) == "capixaba", doubles=doubles,
            double_names=_double_names(ladder, len(doubles)) if ladder else [],
            more_doubles=ladder is not None and (rules.max_doubles is None or len(doubles) < rules.max_doubles))
    page = _page(group, view)
    return (page, status) if isinstance(page, str) else page


def _values() -> dict[str, list[str]]:
    """The form as sent: every field's values (the stare are two ticked names)."""
    return {k: [v.strip() for v in request.form.getlist(k)] for k in request.form if k not in FORM_ONLY}


def first(values: dict, name: str) -> str:
    return (values.get(name) or [""])[0]


def _tap_double(values: dict) -> None:
    doubles = _doubles(values)
    if "undo" in request.form:
        doubles = doubles[:-1]
    else:
        doubles.append(_whole("double", request.form["double"]))
    values["doubles"] = [" ".join(map(str, doubles))]
    values.pop("previewed", None)


def _doubles(values: dict) -> list[int]:
    return [_whole("doubles", s) for s in first(values, "doubles").split()]


def _double_names(ladder, given: int) -> list[str]:
    """The name of each double given so far and of the next one."""
    return [ladder.doubles[i] if i < len(ladder.doubles) else ladder.extra_double for i in range(given + 1)]


def _log(w, group: str, principal, table: str, body: dict) -> str:
    made = ledger.new_hand(w, group, principal.subject, table, body)
    return url_for("web.hand_page", group=group, hand=made["id"])


def _errors(e: Problem) -> dict[str, str]:
    """The problem beside the field it concerns: the fields a 400 names, else the first
    field the 422's sentence names."""
    missing = [name.removeprefix("result.") for name in (e.extra.get("errors") or {})]
    if missing:
        return {name: e.detail for name in missing}
    return field_errors(e.detail.removeprefix("result: "), ERROR_FIELDS)


def _number_or(values: dict, name: str, default: str) -> int:
    return _whole(name, first(values, name) or default)


def _sides(values: dict, prefix: str) -> list[int]:
    """The sides a form's fields name (``points0``, ``points1``...), in order."""
    named = {k[len(prefix):] for k in values if k.startswith(prefix)}
    return sorted(int(n) for n in named if n.isascii() and n.isdigit() and len(n) < 3)


def result_body(game: str, values: dict) -> dict:
    """The form's strings as the API's result object for the table's game, with every field
    that applies; a number that is not one is the API's 400, anything else the game's 422."""
    if game == "scopa":
        result: dict = {c: (None if first(values, c) in ("", "tie") else _whole(c, first(values, c)))
                        for c in SCOPA_CATEGORIES}
        result["scopas"] = [_number_or(values, f"scopas{i}", "0") for i in _sides(values, "scopas")]
        return result
    if game == "bisca":
        sides = _sides(values, "points")
        result = {name: [_number_or(values, f"{name}{i}", "0" if name == "bonus" else "") for i in sides]
                  for name in ("points", "tricks", "bonus")}
        if first(values, "trump_suit"):
            result["trump_suit"] = first(values, "trump_suit")
        return result
    return _kop_body(values)


def _kop_body(values: dict) -> dict:
    contract = first(values, "contract")
    result: dict = {"contract": contract}
    if contract == "normal":
        result["stare"] = [_whole("stare", s) for s in values.get("stare", []) if s]
    else:
        if first(values, "declarer"):
            result["declarer"] = _whole("declarer", first(values, "declarer"))
    if contract == "wesele" and first(values, "partner"):
        result["partner"] = _whole("partner", first(values, "partner"))
    if contract != "baska":
        result["doubles"] = _doubles(values)
        for name in ("points", "tricks"):
            if first(values, name):
                result[name] = _whole(name, first(values, name))
    return result


def _fingerprint(body: dict) -> str:
    """Which result a preview showed, so that only that very result is logged on confirming."""
    return hashlib.sha256(canonical_bytes(body)).hexdigest()[:24]


def _dry_run(group: str, actor: str, table: str, body: dict) -> dict:
    """The hand and settlement this result would record, computed in a write that is then
    rolled back: exactly what confirming would append, and nothing appended."""
    try:
        with store().writing(group) as w:
            raise Preview(ledger.new_hand(w, group, actor, table, body))
    except Preview as done:
        return done.outcome
