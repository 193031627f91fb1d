"""The evening at a table and in the group: each table's running score (a row per hand with
what each player won or paid and the running totals, bok-rundy marked, game and match
scores), the hands named as people name them ("Hand 7, Celina dealt"), and a summary to
share as text and as an image.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from flask import Response, redirect, render_template, request, url_for

from events.money import format_amount, parse_amount
from projections import corrections
from projections.balances import pending_view
from projections.groups import member_name
from projections.hands import game_of
from .. import ledger
from ..commands import NewHand
from ..views import balances_view, settle_up_view
from . import once
from .pages import _page, _writer_of, bp


@dataclass(frozen=True)
class Row:
    number: int
    hand: str
    dealer: str
    state: str  # playing, settled, pending, disputed, voided
    amounts: list[str]  # per seat, as decimal strings ("" when it paid nothing)
    totals: list[str]  # running, per seat
    notes: list[str]  # bok-runda, game and match scores, corrections


def hand_names(hands, seats: list[str]) -> dict[str, str]:
    """Each hand of a table as people name it: "Hand 7, Celina dealt"."""
    return {h.id: f"Hand {i}, {seats[h.opened['dealer']]} dealt" for i, h in enumerate(hands, 1)}


def score_rows(hands, seats: list[str], waiting: dict[str, str], digits: int) -> list[Row]:
    """The running score of a table's hands (as corrections left them); ``waiting`` maps a
    hand to "pending" or "disputed" while its settlement does not count yet."""
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
        for seat, amount in paid.items():
            totals[seat] += amount
        rows.append(Row(number, hand.id, seats[hand.opened["dealer"]], state,
                        [format_amount(paid[seat], digits) if seat in paid else "" for seat in range(len(seats))],
                        [format_amount(t, digits) for t in totals], _notes(hand, s, seats)))
    return rows


def _notes(hand, s: dict | None, seats: list[str]) -> list[str]:
    notes = []
    if s and s.get("bok_runda"):
        notes.append("in a bok-runda (doubled)")
    if s and s.get("bok_due"):
        notes.append("makes a bok-runda due")
    match = (s or {}).get("match")
    if match:
        score = "–".join(str(n) for n in match["after"])
        if match.get("game_over"):
            winners = " and ".join(seats[seat] for seat in match.get("winners") or [])
            notes.append(f"game over at {score}" + (f": {winners} win" if winners else ""))
        else:
            notes.append(f"score {score}")
    if hand.corrections:
        notes.append("corrected")
    return notes


@bp.get("/g/<group>/tables/<table>")
def table_page(group, table):
    def view(r, grow, principal, form_token):
        trow = ledger.table_row(r, group, table)
        game = game_of(trow["game"])
        seats = [member_name(grow, m) for m in trow["seats"]]
        hands = corrections.history(r.table_events(group, table))
        waiting = {p["hand"]: p["state"] for p in pending_view(r.row("balances", group, ""))}
        rows = score_rows(hands, seats, waiting, grow["digits"])
        playing = corrections.in_play(hands)
        mine = principal.subject in trow["seats"]
        return render_template(
            "table.html", group=grow, table=trow, title=game.title, seats=seats, rows=rows,
            names=hand_names(hands, seats), playing=playing, next_dealer=seats[trow["next_dealer"]],
            can_open=not trow["closed"] and playing is None and (mine or principal.is_admin),
            by_seats=trow.get("entry") == "seats", trick_game=game.capabilities.logged_by == "tricks",
            deal_game=game.capabilities.deal_on_page, admin=principal.is_admin, once=once.key())
    return _page(group, view)


@bp.route("/g/<group>/tables/<table>/play", methods=["POST"])
def start_hand(group, table):
    """A hand dealt seat by seat: the dealer is the table's next; each phone then logs its
    own cards and plays them."""
    principal = _writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))

    def deal(w):
        dealer = ledger.table_row(w, group, table)["next_dealer"]
        made = ledger.handle(NewHand(group, principal.subject, table, {"deal": {"dealer": dealer}}), w)
        return url_for("web.hand_page", group=group, hand=made.hand.id)
    return once.write(group, f"start {table}", {"table": table}, deal)


def _standings(grow: dict, brow: dict) -> list[tuple[str, str]]:
    shown = balances_view(grow, brow)["balances"]
    return sorted(((b["name"], b["balance"]) for b in shown), key=lambda nb: -parse_amount(nb[1], grow["digits"],
                                                                                         allow_negative=True))


def summary_text(grow: dict, brow: dict, tables: list[tuple[str, int]]) -> str:
    """The evening in a few lines, to paste into a chat."""
    lines = [f"{grow['name']}: where everyone stands ({grow['currency']})"]
    lines += [f"  {name}: {balance}" for name, balance in _standings(grow, brow)]
    if tables:
        lines.append("Played: " + "; ".join(f"{title}, {count} hand{'s' if count != 1 else ''}"
                                             for title, count in tables))
    transfers = settle_up_view(grow, brow)["transfers"]
    if transfers:
        lines.append("To settle up:")
        lines += [f"  {t['from_name']} pays {t['to_name']} {t['amount']}" for t in transfers]
    else:
        lines.append("Everyone is square.")
    waiting = pending_view(brow)
    if waiting:
        lines.append(f"{len(waiting)} result(s) still wait for a payer's confirmation." if len(waiting) > 1
                     else "1 result still waits for a payer's confirmation.")
    return "\n".join(lines)


def summary_svg(grow: dict, brow: dict) -> str:
    """The standings as a picture to share: one bar per member, up in green, down in red."""
    standings = _standings(grow, brow)
    digits = grow["digits"]
    values = [parse_amount(b, digits, allow_negative=True) for _, b in standings]
    top = max([abs(v) for v in values] + [1])
    width, row, left = 480, 34, 150
    height = 70 + row * len(standings)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(grow["name"])}: where everyone stands">',
             '<rect width="100%" height="100%" fill="#fff"/>',
             f'<text x="16" y="32" font-family="sans-serif" font-size="20" font-weight="bold">'
             f'{escape(grow["name"])}</text>']
    middle = left + (width - left - 20) // 2
    for i, ((name, balance), value) in enumerate(zip(standings, values, strict=True)):
        y = 56 + i * row
        length = round(abs(value) / top * (width - left - 40) / 2)
        x = middle if value >= 0 else middle - length
        colour = "#1b7f3b" if value >= 0 else "#b3261e"
        parts.append(f'<text x="16" y="{y + 18}" font-family="sans-serif" font-size="15">{escape(name)}</text>')
        parts.append(f'<rect x="{x}" y="{y + 4}" width="{max(length, 1)}" height="18" fill="{colour}"/>')
        anchor, tx = ("start", middle + length + 4) if value >= 0 else ("end", middle - length - 4)
        parts.append(f'<text x="{tx}" y="{y + 18}" text-anchor="{anchor}" font-family="sans-serif" '
                     f'font-size="14">{escape(balance)}</text>')
    parts.append("</svg>")
    return "".join(parts)


@bp.get("/g/<group>/summary")
def summary_page(group):
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        tables = [(game_of(t["game"]).title, (r.row("table", group, t["id"]) or {}).get("hand_count", 0))
                  for t in grow["tables"]]
        return render_template("summary.html", group=grow, text=summary_text(grow, brow, tables),
                               image=summary_svg(grow, brow))
    return _page(group, view)


@bp.get("/g/<group>/summary.svg")
def summary_image(group):
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        download = request.args.get("download")
        response = Response(summary_svg(grow, brow), mimetype="image/svg+xml")
        if download:
            response.headers["Content-Disposition"] = 'attachment; filename="evening.svg"'
        return response
    return _page(group, view)
