"""The admin's correction of a hand whose cards were logged: the page starts from its cards
as logged (or as its latest correction gave them), each in a field to edit: each seat's
cards and whatever else the game deals (the face-up table, the stock, the trump card), its
calls, and its tricks or plays in order. The admin fixes what was typed wrong and the page
sends the whole hand back as the API's ``cards`` correction, through the same preview and
the same once-only write as the result's correction (sheet.py); a refusal of the rules is
said beside the field it is about, the fields keeping what was typed.

What the form holds comes from the game (games/engine/again.py gives the hand again from its
events; its ``deal_fields`` and how it is logged lay the form out): no game is named here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _

from events.errors import DomainError, Invalid, NotFound, Refused, RuleBroken
from games.engine import again
from projections import corrections
from projections.groups import member_name
from projections.hands import game_of, parsed_rules
from ..handlers import lookups
from ..commands import Correct
from ..http import store
from ..i18n.languages import current
from ..problems import status_of
from . import once
from .correcting import corrected, fingerprint, what_it_would_do
from .base import page_of, together, whole, writer_of
from .words import about, said

MORE_CALLS = 2  # empty rows offered after the calls logged: a call that was forgotten
_WHERE = re.compile(r"^cards(?:\.(deal|bids|tricks|plays))?(?:\[(\d+)\])?(?:\.[a-z_]+)*$")


@dataclass(frozen=True)
class Logged:
    """The hand to correct, as its table and its events leave it."""
    game: object
    rules: object
    table: dict
    opened: dict  # its deal event's data
    cards: dict | None  # the whole hand as logged (None: its events do not give it again)


def carded(group: str, hand: str) -> bool:
    """Were the hand's cards logged (so it is corrected by its cards)? False for a hand
    there is not, which the result's page then answers as it does."""
    try:
        with store().reading() as r:
            return corrections.logged_by_cards(_past(r, group, hand))
    except NotFound:
        return False


def _past(r, group: str, hand: str) -> corrections.PastHand:
    """The hand as its own events give it (its deal or result, its plays, its corrections,
    which are logged under the hand they correct): not its table's every event."""
    lookups.hand_model(r, group, hand)  # NotFound for a hand there is not
    return next(h for h in corrections.history(r.hand_events(group, hand)) if h.id == hand)


def _logged(r, group: str, hand: str) -> Logged:
    past = _past(r, group, hand)
    trow = lookups.table_row(r, group, lookups.hand_model(r, group, hand).table)
    about(trow["game"])
    game, rules = game_of(trow["game"]), parsed_rules(trow["game"], trow["rules"])
    cards = past.cards or again.cards_of(game, rules, [(e.type, e.data) for e in past.events])
    return Logged(game, rules, trow, past.opened, dict(cards) if cards is not None else None)


def correct_page(group: str, hand: str):
    """The correction page of a hand whose cards were logged (sheet.correct_page sends it here)."""
    sent = request.method == "POST"
    values = {k: v.strip() for k, v in request.form.items()} if sent else {}
    errors, problem, preview, status = {}, None, None, 200
    reason, void = values.get("reason", ""), values.get("void") == "yes"
    if sent:
        principal = writer_of(group)
        if principal is None:
            return redirect(url_for("web.sign_in_page"))
        try:
            if not principal.is_admin:
                raise Refused(_("only the group's admin corrects a hand"))
            with store().reading() as r:
                logged = _logged(r, group, hand)
            cards = None if void else body_of(logged, values)
            if not reason:
                raise Invalid(_("say why, in words the group will read in the hand's audit trail"),
                              errors={"reason": [_("Give a reason.")]})
            outcome = {"void": True} if void else {"cards": cards}
            seen = fingerprint({**outcome, "reason": reason})
            command = Correct(group, principal.subject, hand, reason, None, cards)
            if values.get("confirm") == "yes" and values.get("previewed") == seen:
                return once.write(group, f"correct {hand}", {**outcome, "reason": reason},
                                  lambda w: corrected(w, group, hand, command))
            preview = what_it_would_do(group, command)
            values["previewed"] = seen
        except DomainError as e:
            status = status_of(e)[0]
            problem, errors = refusal(e, _names_of(group, hand), values)

    def view(r, grow, principal, form_token):
        if not principal.is_admin:
            raise Refused(_("only the group's admin corrects a hand"))
        logged = _logged(r, group, hand)
        seats = [member_name(grow, m) for m in logged.table["seats"]]
        sides = [together(seats[i] for i in side) for side in logged.game.table.sides(logged.rules)]
        shown = values if sent else {**values_of(logged), "reason": ""}
        return render_template(
            "correct.html", group=grow, form_token=form_token, table=logged.table, hand=hand, seats=seats,
            sides=sides, by_cards=layout(logged, seats), values=shown, errors=errors, problem=problem,
            preview=preview, reason=reason, once=once.key(), v=lambda name: shown.get(name, ""), void=void)
    page = page_of(group, view)
    return (page, status) if isinstance(page, str) else page


def _names_of(group: str, hand: str) -> list[str]:
    with store().reading() as r:
        grow = lookups.group_row(r, group)
        trow = lookups.table_row(r, group, lookups.hand_model(r, group, hand).table)
    return [member_name(grow, m) for m in trow["seats"]]


# The form: what it holds as logged, how it is laid out, and what it sends back.

def _kind(logged: Logged) -> str:
    return "play" if logged.game.capabilities.logged_by == "plays" else "trick"


def _deal_fields(logged: Logged):
    """The deal's fields the form shows: each seat's cards, and every other field of the
    game's deal that its deal has (the dealer is the hand's, not the form's)."""
    deal = (logged.cards or {}).get("deal", {})
    return [f for f in logged.game.forms.deal_fields
            if f.kind in ("hands", "cards", "card", "suit") and (f.kind == "hands" or f.name in deal)]


def _calls_of(logged: Logged) -> list[str] | None:
    """The calls of the game open when the hand was dealt (for the form to suggest), or None
    when the hand takes no calls."""
    try:
        words = list(logged.game.moves.calls(logged.game.initial_state(logged.rules, {**logged.opened,
                                                                                **logged.cards["deal"]})))
    except Exception:  # noqa: BLE001 - a deal the game no longer starts: the rules say why when it is sent
        words = []
    return words if words or (logged.cards or {}).get("bids") else None


def values_of(logged: Logged) -> dict[str, str]:
    """The form's fields filled with the hand's cards as logged: card codes apart by spaces."""
    if logged.cards is None:
        return {}
    deal, values = logged.cards["deal"], {}
    for f in _deal_fields(logged):
        if f.kind == "hands":
            for seat, cards in enumerate(deal.get(f.name) or []):
                values[f"deal-{f.name}-{seat}"] = " ".join(cards)
        elif f.kind == "cards":
            values[f"deal-{f.name}"] = " ".join(deal.get(f.name) or [])
        else:
            values[f"deal-{f.name}"] = deal.get(f.name) or ""
    for i, bid in enumerate(logged.cards.get("bids") or []):
        values.update({f"call-seat-{i}": str(bid.get("seat", "")), f"call-{i}": str(bid.get("call", "")),
                       f"jack-{i}": str(bid.get("jack", ""))})
    for i, item in enumerate(logged.cards.get(f"{_kind(logged)}s") or []):
        if _kind(logged) == "trick":
            values[f"trick-{i}"] = " ".join(item["cards"])
        else:
            values[f"play-{i}"] = item.get("card", "")
            values[f"capture-{i}"] = " ".join(item.get("capture") or [])
    return values


def layout(logged: Logged, seats: list[str]) -> dict:
    """What the template draws: the deal's fields with their labels, the rows of calls, and
    the tricks (each with who led it as logged) or the plays (each with who made it)."""
    if logged.cards is None:
        return {"whole": False}
    deal = []
    for f in _deal_fields(logged):
        if f.kind == "hands":
            deal += [{"key": f"deal-{f.name}-{seat}", "label": _("Seat %(seat)d: %(name)s's cards", seat=seat,
                                                                  name=name)} for seat, name in enumerate(seats)]
        else:
            deal.append({"key": f"deal-{f.name}", "label": _deal_label(f.name)})
    kind = _kind(logged)
    who = again.turns(logged.game, logged.rules, logged.opened, logged.cards)
    rows = [{"key": f"{kind}-{i}", "number": i + 1,
             "who": seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None}
            for i, seat in enumerate(who)]
    words = _calls_of(logged)
    calls = len(logged.cards.get("bids") or []) + MORE_CALLS if words is not None else 0
    dealer = logged.opened.get("dealer")
    return {"whole": True, "deal": deal, "calls": range(calls), "call_words": words or [], "kind": kind,
            "rows": rows, "dealer": seats[dealer] if isinstance(dealer, int) and 0 <= dealer < len(seats) else None}


def _deal_label(name: str) -> str:
    """A field of a deal besides the seats' cards, as the page names it."""
    return {
        # Translators: a field of a deal on the correction page: the cards put face up on the table.
        "table": _("The cards dealt face up on the table"),
        # Translators: a field of a deal on the correction page: the undealt cards, in the order they are drawn.
        "stock": _("The stock, its top card first"),
        # Translators: a field of a deal on the correction page: the card turned up to show trumps.
        "trump": _("The trump card turned face up (left empty: none was turned)"),
        # Translators: a field of a deal on the correction page: the suit knocked for instead of turning a card (H).
        "trump_suit": _("The trump suit knocked for, when no trump card was turned"),
    }.get(name, name)


def _split(text: str) -> list[str]:
    return text.replace(",", " ").split()


def body_of(logged: Logged, values: dict[str, str]) -> dict:
    """The form's fields as the API's ``cards`` body: the deal (its dealer the hand's), the
    calls typed, and every trick or play in its row's order (an emptied row left out)."""
    if logged.cards is None:
        raise Invalid(_("This hand's cards cannot be given again on this page: its events do not hold its whole "
                        "deal. It can still be voided."))
    deal: dict = {"dealer": logged.opened["dealer"]}
    for f in _deal_fields(logged):
        if f.kind == "hands":
            deal[f.name] = [_split(values.get(f"deal-{f.name}-{seat}", ""))
                            for seat in range(len(logged.cards["deal"].get(f.name) or []))]
        elif f.kind == "cards":
            deal[f.name] = _split(values.get(f"deal-{f.name}", ""))
        elif f.kind == "card":
            deal[f.name] = values.get(f"deal-{f.name}", "") or None
        elif values.get(f"deal-{f.name}"):
            deal[f.name] = values[f"deal-{f.name}"]
    body: dict = {"deal": deal}
    bids = [_call(values, i) for i in _rows(values, "call")]
    if any(bids):
        body["bids"] = [b for b in bids if b]
    kind = _kind(logged)
    if kind == "trick":
        tricks = [{"cards": _split(values[f"trick-{i}"])} for i in _rows(values, "trick")]
        body["tricks"] = [t for t in tricks if t["cards"]]
    else:
        body["plays"] = [_play(values, i) for i in _rows(values, "play") if values[f"play-{i}"]]
    return body


def _rows(values: dict[str, str], name: str) -> list[int]:
    """The rows of a kind the form sent, in order."""
    rows = [int(k[len(name) + 1:]) for k in values if re.fullmatch(rf"{name}-\d{{1,3}}", k)]
    return sorted(rows)


def _call(values: dict[str, str], i: int) -> dict | None:
    call = values.get(f"call-{i}", "")
    if not call:
        return None
    seat = values.get(f"call-seat-{i}", "")
    if not seat:
        # Translators: %(num)d is the call's number in the hand's auction.
        raise Invalid(_("Call %(num)d: choose who made it", num=i + 1),
                      # Translators: beside the empty "who calls" field of a call typed in on the correction page.
                      errors={f"call-seat-{i}": [_("Choose who.")]})
    bid = {"seat": whole("seat", seat), "call": call}
    if values.get(f"jack-{i}"):
        bid["jack"] = values[f"jack-{i}"]
    return bid


def _play(values: dict[str, str], i: int) -> dict:
    play: dict = {"card": values[f"play-{i}"]}
    taken = _split(values.get(f"capture-{i}", ""))
    if taken:  # left empty: the only capture the card may make (none, or one), as the API reads it
        play["capture"] = taken
    return play


def refusal(e: DomainError, seats: list[str], values: dict[str, str]) -> tuple[str, dict[str, str]]:
    """What the page says of a refusal, in words, and beside which field: a trick, a play or
    a call by its number, the deal by the card it names."""
    field = getattr(e, "field", None) if isinstance(e, RuleBroken) else None
    where = _WHERE.match(field or "")
    if where is None:
        named = {k: (v[0] if isinstance(v, list) and v else str(v)) for k, v in (e.extra.get("errors") or {}).items()}
        return said(e.detail, seats, (), current()), named
    rest = said(re.sub(r"^cards(?:\.[a-z_]+)*(?:\[\d+\])?(?:\.[a-z_]+)*: ", "", e.detail), seats, (), current())
    part, index = where.group(1), where.group(2)
    if part is None:
        return rest, {}
    if part == "deal":
        # Translators: %(problem)s says what is wrong with the deal typed in.
        text = _("The deal: %(problem)s", problem=rest)
        return text, _deal_error(e.detail, text, values)
    number = int(index) + 1 if index is not None else 1
    key = {"bids": "call", "tricks": "trick", "plays": "play"}[part]
    text = {
        # Translators: %(num)d is the call's number in the hand's auction; %(problem)s says what is wrong with it.
        "bids": _("Call %(num)d: %(problem)s", num=number, problem=rest),
        # Translators: %(num)d is the trick's number in the hand; %(problem)s says what is wrong with it.
        "tricks": _("Trick %(num)d: %(problem)s", num=number, problem=rest),
        # Translators: %(num)d is the play's number in the hand; %(problem)s says what is wrong with it.
        "plays": _("Play %(num)d: %(problem)s", num=number, problem=rest),
    }[part]
    return text, {f"{key}-{number - 1}": text}


def _deal_error(detail: str, text: str, values: dict[str, str]) -> dict[str, str]:
    """The deal's refusal beside the last field holding a card it names (a card typed twice
    is wrong the second time); what it quotes first (what was typed, not its examples)."""
    quoted = re.findall(r"'([^']+)'", detail)
    words = {w.strip(".,:;'\"()").upper() for w in (quoted or detail.split())}
    held = [k for k, v in values.items() if k.startswith("deal-") and words & set(_split(v.upper()))]
    return {held[-1]: text} if held else {}
