"""A table's page: its running score (a row per hand with what each player won or paid and
the running totals, doubled rounds marked, game and match scores), the hand in play, the
next deal, and one tap that confirms every result there waiting for the reader."""
from __future__ import annotations

from dataclasses import dataclass

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from events.money import format_amount, parse_amount
from projections import corrections
from projections.balances import listed
from projections.groups import member_name
from projections.hands import game_of
from .. import handlers
from ..handlers import lookups
from ..commands import ConfirmTable, NewHand
from ..i18n.languages import current
from . import live_parts, once, tournament_shown
from .base import bp, hand_names, page_of, table_title, together, writer_of
from .hand_shown import settlement_hash
from .signed_form import in_words, signatures_of, signer
from .words import about, said


@dataclass(frozen=True)
class Row:
    number: int
    hand: str
    dealer: str
    state: str  # playing, settled, pending, disputed, voided
    amounts: list[str]  # per seat, as decimal strings ("" when it paid nothing)
    totals: list[str]  # running, per seat
    notes: list[str]  # doubled rounds, game and match scores, corrections


def score_rows(hands, seats: list[str], waiting: dict[str, str], digits: int, game) -> list[Row]:
    """The running score of a table's hands (as corrections left them); ``waiting`` maps a
    hand to "pending" or "disputed" while its settlement does not count yet: its row says
    what it would pay, and the running totals leave it out until it counts."""
    totals, rows = [0] * len(seats), []
    for number, hand in enumerate(hands, 1):
        s = hand.settlement
        if hand.voided:
            state = "voided"
        elif s is None:
            state = "playing"
        else:
            state = waiting.get(hand.id, "settled")
        paid = {p["seat"]: parse_amount(p["amount"], digits, allow_negative=True) for p in (s or {}).get("payouts", [])}
        if state == "settled":  # the running totals are the balances' own: what counts
            for seat, amount in paid.items():
                totals[seat] += amount
        rows.append(Row(number, hand.id, seats[hand.opened["dealer"]], state,
                        [format_amount(paid[seat], digits) if seat in paid else "" for seat in range(len(seats))],
                        [format_amount(t, digits) for t in totals], _notes(game, hand, s, seats)))
    return rows


def _notes(game, hand, s: dict | None, seats: list[str]) -> list[str]:
    """The notes beside a hand: the game's own (``Game.forms.notes``: a doubled round, in its
    words), then its match score and whether an admin corrected it."""
    notes = [said(note, seats, language=current()) for note in game.forms.notes(s)] if s else []
    match = (s or {}).get("match")
    if match:
        score = "–".join(str(n) for n in match["after"])
        if match.get("game_over"):
            sides = [side["seats"] for side in s.get("sides", [])]  # a match's winners are sides: a pair is two
            winners = [seats[seat] for won in match.get("winners") or []
                       for seat in (sides[won] if won < len(sides) else [won])]
            if winners:
                # Translators: a note beside a hand in the score table; %(score)s is the match score, "11–7".
                notes.append(ngettext("game over at %(score)s: %(winners)s wins", "game over at %(score)s: "
                                      "%(winners)s win", len(winners), score=score, winners=together(winners)))
            else:
                # Translators: a note beside a hand in the score table; %(score)s is the match score, "11–7".
                notes.append(_("game over at %(score)s", score=score))
        else:
            # Translators: a note beside a hand in the score table: the match score after it, "4–7".
            notes.append(_("score %(score)s", score=score))
    if hand.corrections:
        # Translators: a note beside a hand in the score table: an admin corrected its result since.
        notes.append(_("corrected"))
    return notes


@bp.get("/g/<group>/tables/<table>")
def table_page(group, table):
    def view(r, grow, principal, form_token):
        return render_template("table.html", version=r.version(group), **_table(r, group, table, grow, principal))
    return page_of(group, view)


@bp.get("/g/<group>/tables/<table>/live")
def table_live(group, table):
    """The table page's live part again, as soon as the table (or the group) moved."""
    def view(r, grow, principal, form_token):
        return live_parts.block("table.html", **_table(r, group, table, grow, principal))
    return live_parts.answer(group, table, view)


SHOWN_ROWS = 50  # the hands a table's score lists, the last ones (``?every=1``: all of them)


def _table(r, group: str, table: str, grow: dict, principal) -> dict:
    """What a table's page shows its reader: the score of its last ``SHOWN_ROWS`` hands, the
    totals running over every one."""
    trow = lookups.table_row(r, group, table)
    game = game_of(trow["game"])
    about(trow["game"])
    seats = [member_name(grow, m) for m in trow["seats"]]
    hands = corrections.history(r.table_events(group, table, without=corrections.CARDS))  # outcomes, not cards
    pending = listed(r.pending_entries(group, table=table), grow["digits"])
    waiting = {p["hand"]: p["state"] for p in pending}
    mine_waiting = _mine_waiting(r, group, table, pending, principal.subject)
    signer(r, group, principal)
    rows = score_rows(hands, seats, waiting, grow["digits"], game)
    every = request.args.get("every") == "1"
    shown = rows if every else rows[-SHOWN_ROWS:]
    playing = corrections.in_play(hands)
    seated = principal.subject in trow["seats"]
    return dict(group=grow, table=trow, title=table_title(trow, grow), seats=seats, rows=shown,
                rows_before=len(rows) - len(shown), every=every,
                names=hand_names(hands, seats), playing=playing, next_dealer=seats[trow["next_dealer"]],
                can_open=not trow["closed"] and playing is None and (seated or principal.is_admin),
                by_seats=trow.get("entry") == "seats", trick_game=game.capabilities.logged_by == "tricks",
                deal_game=game.capabilities.deal_on_page, admin=principal.is_admin, once=once.key(),
                mine_waiting=mine_waiting, seated=seated, place=tournament_shown.table_place(r, group, trow))


def _mine_waiting(r, group: str, table: str, pending: list[dict], member: str) -> list[dict]:
    """The results at this table that wait for ``member``'s word, each with the settlement its
    confirmation signs: what the table's "confirm all" signs, one by one."""
    return [{"hand": p["hand"], "settlement": settlement_hash(r, group, lookups.hand_model(r, group, p["hand"]))}
            for p in pending if p["table"] == table and member in p["waiting_for"]]


@bp.route("/g/<group>/tables/<table>/confirm", methods=["POST"])
def table_confirm(group, table):
    """One tap at the end of the evening: every result at this table that waits for this
    player's word, confirmed."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))

    signatures = signatures_of(request.form)  # one per hand it confirms, signed on the member's phone

    def confirm(w):
        with in_words(bool(signatures)):
            handlers.handle(ConfirmTable(group, principal.subject, table, signatures), w)
        return url_for("web.table_page", group=group, table=table)
    return once.write(group, f"confirm {table}", {"table": table}, confirm)


@bp.route("/g/<group>/tables/<table>/play", methods=["POST"])
def start_hand(group, table):
    """A hand dealt seat by seat: the dealer is the table's next; each phone then logs its
    own cards and plays them."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))

    def deal(w):
        playing = _in_play(w, group, table)
        if playing is not None:  # another phone dealt first: this one joins that hand
            return url_for("web.hand_page", group=group, hand=playing)
        dealer = lookups.table_row(w, group, table)["next_dealer"]
        made = handlers.handle(NewHand(group, principal.subject, table, {"deal": {"dealer": dealer}}), w)
        return url_for("web.hand_page", group=group, hand=made.hand.id)
    return once.write(group, f"start {table}", {"table": table}, deal)


def _in_play(r, group: str, table: str) -> str | None:
    """The id of the hand being played at the table, if one is (the table's row says)."""
    latest = lookups.table_row(r, group, table)["latest_hand"]
    return latest["id"] if latest and latest["status"] == "playing" else None
