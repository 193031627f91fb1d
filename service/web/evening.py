"""The evening in the group: a summary to share as text and as an image, each table's hands
counted, the standings as the balances have them."""
from __future__ import annotations

import math
import unicodedata
from html import escape

from flask import Response, render_template, request
from flask_babel import gettext as _, ngettext

from events.money import parse_amount
from ..i18n.languages import current
from ..i18n.money import amount as said_amount, money, unit
from ..views import balances_view, settle_up_view
from .base import bp, corrections_history, page_of, table_title


def _standings(grow: dict, brow: dict) -> list[tuple[str, str]]:
    shown = balances_view(grow, brow)["balances"]
    return sorted(((b["name"], b["balance"]) for b in shown),
                  key=lambda nb: -parse_amount(nb[1], grow["digits"], allow_negative=True))


def summary_text(grow: dict, brow: dict, tables: list[tuple[str, int]], waiting: int) -> str:
    """The evening in a few lines, to paste into a chat."""
    # Translators: the first line of the evening's summary: the group's name, then its currency ("PLN").
    lines = [_("%(group)s: where everyone stands (%(currency)s)", group=grow["name"],
               currency=unit(grow["currency"], current()))]
    lines += [f"  {name}: {said_amount(balance, grow['currency'], current())}"
              for name, balance in _standings(grow, brow)]
    if tables:
        # Translators: one table played in the evening, in the summary's list: "<game>, 7 hands".
        played = "; ".join(ngettext("%(game)s, %(num)d hand", "%(game)s, %(num)d hands", count, game=title)
                           for title, count in tables)
        # Translators: %(tables)s is the list of tables played, "<game>, 7 hands; <game>, 1 hand".
        lines.append(_("Played: %(tables)s", tables=played))
    transfers = settle_up_view(grow, brow)["transfers"]
    if transfers:
        lines.append(_("To settle up:"))
        # Translators: a line of the summary's settle-up: who pays whom how much (a plain amount, "3.00").
        lines += ["  " + _("%(payer)s pays %(payee)s %(amount)s", payer=t["from_name"], payee=t["to_name"],
                           amount=said_amount(t["amount"], grow["currency"], current())) for t in transfers]
    else:
        lines.append(_("Everyone is square."))
    if waiting:
        lines.append(ngettext("%(num)d result still waits for a payer's confirmation.",
                              "%(num)d results still wait for a payer's confirmation.", waiting))
    return "\n".join(lines)


# A generous guess at a character's width in a sans-serif, in ems, its bold a tenth wider:
# DejaVu Sans's (the widest of the common ones, and what Debian's Chromium draws) rounded up.
# Its digits are 0.636 em (0.696 bold), its Latin lower case at most 0.635 (0.716) but for m
# and w, its capitals at most 0.79 (0.85) but for M and W, its + and = 0.838; a letter of
# another script counts as 1.25 em, a wide one (Chinese, an emoji) as 1.35.
_SPACES, _NARROW, _WIDE = set(" \u00a0\u202f"), set(".,:;'|!ilIjf()[]-/"), set("mwMWæœÆŒ")


def _em(char: str) -> float:
    if char.isdigit() and char.isascii():
        return 0.64
    if char in _SPACES:
        return 0.34
    if char in _NARROW:
        return 0.42
    if char in _WIDE:
        return 1.03
    if ord(char) < 0x250 and char.islower():  # Latin: ASCII, Latin-1 and the Extended-A and B letters
        return 0.66
    if ord(char) < 0x250 and char.isupper():
        return 0.8
    if char in "+=<>~":
        return 0.84
    return 1.35 if unicodedata.east_asian_width(char) in "WF" else 1.25


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` draws at ``size`` px, never less than it does: the picture is laid
    out from this, as a server cannot measure a font it does not draw."""
    return sum(_em(c) for c in text) * size * (1.1 if bold else 1.0)


def _fitted(text: str, size: float, room: float, least: float, bold: bool = False) -> tuple[str, float]:
    """``text`` and the font size it fits ``room`` px in: ``size`` if it fits, else smaller down
    to ``least``, and at ``least`` cut short with an ellipsis."""
    wide = _text_width(text, size, bold)
    if wide > room:
        size = max(least, math.floor(size * room / wide * 2) / 2)
    while len(text) > 1 and _text_width(text, size, bold) > room:
        text = text[:-2].rstrip() + "…"
    return text, size


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start", bold: bool = False,
          fill: str = "#1b1b1b") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" font-family="sans-serif" font-size="{size:g}"'
            f'{weight} fill="{fill}">{escape(text)}</text>')


def summary_svg(grow: dict, brow: dict) -> str:
    """The standings as a picture to share, 480 px wide: a line per member, the name on the
    left and the amount on the right (with its currency, a gain with its +), a bar under them
    from the zero line in the middle, right in green for what they won, left in red for what
    they lost. Every text is laid out from a generous guess at its width (``_text_width``): an
    amount up to 9 999 999,99 in any language keeps its size, a long name gets smaller letters
    and then an ellipsis, and nothing is cut at the edge."""
    standings = _standings(grow, brow)
    digits = grow["digits"]
    values = [parse_amount(b, digits, allow_negative=True) for _, b in standings]
    top = max([abs(v) for v in values] + [1])
    width, pad, row, first = 480, 16, 48, 58
    inside = width - 2 * pad
    height = first + row * len(standings) + 8
    middle = width / 2
    # Translators: the shared picture's name for screen readers: the group's name, then these words.
    label = escape(_("%(group)s: where everyone stands", group=grow["name"]))
    title, size = _fitted(grow["name"], 20, inside, 13, bold=True)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{label}">',
             '<rect width="100%" height="100%" fill="#fff"/>', _text(pad, 32, title, size, bold=True)]
    amounts = [money(balance, grow["currency"], current(), signed=True) for _, balance in standings]
    # One size for every amount, as large as 17 px lets the widest keep a third of the line for its name.
    amount_size = 17.0
    for amount in amounts:
        amount_size = _fitted(amount, amount_size, inside * 2 / 3, 9, bold=True)[1]
    for i, ((name, _balance), value, amount) in enumerate(zip(standings, values, amounts, strict=True)):
        y = first + i * row
        room = inside - _text_width(amount, amount_size, bold=True) - 12
        shown, size = _fitted(name, 17, room, 12)
        parts.append(_text(pad, y + 17, shown, size))
        parts.append(_text(width - pad, y + 17, amount, amount_size, anchor="end", bold=True))
        length = max(round(abs(value) / top * inside / 2), 1)
        x = middle if value >= 0 else middle - length
        colour = "#1b7f3b" if value >= 0 else "#b3261e"
        parts.append(f'<line x1="{middle:g}" y1="{y + 22}" x2="{middle:g}" y2="{y + 42}" stroke="#767676" '
                     'stroke-dasharray="2 2"/>')
        if value:  # a member who is square has the zero line alone
            parts.append(f'<rect x="{x:g}" y="{y + 25}" width="{length}" height="14" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def played_hands(r, group: str, table: str) -> int:
    """The hands of a table that were played to a result: not voided nor abandoned."""
    return sum(1 for hand in corrections_history(r, group, table) if hand.settlement and not hand.voided)


@bp.get("/g/<group>/summary")
def summary_page(group):
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        tables = [(table_title(r.row("table", group, t["id"])), played_hands(r, group, t["id"]))
                  for t in grow["tables"]]
        tables = [(title, count) for title, count in tables if count]  # a table nobody played at is no news
        text = summary_text(grow, brow, tables, r.pending_count(group))
        return render_template("summary.html", group=grow, text=text, image=summary_svg(grow, brow))
    return page_of(group, view)


@bp.get("/g/<group>/summary.svg")
def summary_image(group):
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        download = request.args.get("download")
        response = Response(summary_svg(grow, brow), mimetype="image/svg+xml")
        if download:
            response.headers.set("Content-Disposition", "attachment", filename="evening.svg")
        return response
    return page_of(group, view)
