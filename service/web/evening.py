"""The evening to share, as text and as an image: what each member won or lost in the
group's last evening of play (evening_results.py: the hands played with no long break up
to the latest, whatever was paid since), each table's hands counted, and what is left to
settle up as the balances have it."""
from __future__ import annotations

import math
from functools import lru_cache
import unicodedata
from html import escape

from flask import Response, render_template, request
from flask_babel import format_date, format_time, gettext as _, ngettext

from events.money import format_amount
from ..i18n.languages import current
from ..i18n.money import amount as said_amount, money, unit
from ..views import settle_up_view
from .base import bp, page_of, table_title
from .evening_results import BREAK, Evening, last_evening


def _results(grow: dict, evening: Evening) -> list[tuple[str, int]]:
    """Each member's name and result (minor units), the biggest winner first (members who
    won or lost alike in the group's order)."""
    shown = [(m["name"], evening.results.get(m["id"], 0)) for m in grow["members"]]
    return sorted(shown, key=lambda nv: -nv[1])


def _signed(value: int, grow: dict) -> str:
    """A result as the text says it: "+12,50", "-3,00", "0,00" (in the reader's language)."""
    said = said_amount(format_amount(value, grow["digits"]), grow["currency"], current())
    return f"+{said}" if value > 0 else said


def _date(evening: Evening) -> str:
    return format_date(evening.first, "medium")


def covers(evening: Evening) -> str:
    """What the evening to share covers, in a sentence."""
    if evening.first is None:
        return _("No hand has been played to a result yet: the evening to share starts with the first.")
    hours = int(BREAK.total_seconds() // 3600)
    # Translators: what the evening to share covers: %(num)d hands that ended between two hours of the day
    # (%(start)s and %(end)s, "18:02" and "23:40", in UTC); %(hours)d is how long a break may be (8).
    return ngettext("It covers the last evening of play: %(num)d hand, which ended between %(start)s and %(end)s "
                    "UTC (a break of more than %(hours)d hours starts another evening). Payments do not change it: "
                    "it says what was played.",
                    "It covers the last evening of play: %(num)d hands, which ended between %(start)s and %(end)s "
                    "UTC (a break of more than %(hours)d hours starts another evening). Payments do not change it: "
                    "it says what was played.",
                    evening.hands + evening.waiting, start=format_time(evening.first, "short"),
                    end=format_time(evening.last, "short"), hours=hours) + _still_waiting(evening)


def _still_waiting(evening: Evening) -> str:
    """The evening's results that do not count yet, said after its hands (the page said 70
    hands above what each player won in 40, and did not say that 30 waited for a payer)."""
    if not evening.waiting:
        return ""
    return " " + ngettext("%(num)d result still waits for a payer's confirmation.",
                          "%(num)d results still wait for a payer's confirmation.", evening.waiting)


def summary_text(grow: dict, evening: Evening, tables: list[tuple[str, int]], transfers: list[dict]) -> str:
    """The evening in a few lines, to paste into a chat."""
    currency = unit(grow["currency"], current())
    if evening.first is None:
        # Translators: the first line of the evening's summary: the group's name, then its currency ("PLN").
        lines = [_("%(group)s (%(currency)s)", group=grow["name"], currency=currency),
                 _("No hand has been played to a result yet.")]
    else:
        # Translators: the first line of the evening's summary: the group's name, the evening's date
        # ("5 Dec 2026"), then the group's currency ("PLN").
        lines = [_("%(group)s, the evening of %(date)s (%(currency)s)", group=grow["name"], date=_date(evening),
                   currency=currency),
                 # Translators: over the list of what each player won (+) or lost (-) in the evening's hands.
                 ngettext("What each player won or lost in its %(num)d hand:",
                          "What each player won or lost in its %(num)d hands:", evening.hands)]
        lines += [f"  {name}: {_signed(value, grow)}" for name, value in _results(grow, evening)]
    if tables:
        # Translators: one table played in the evening, in the summary's list: "<game>, 7 hands".
        played = "; ".join(ngettext("%(game)s, %(num)d hand", "%(game)s, %(num)d hands", count, game=title)
                           for title, count in tables[:SHOWN_TABLES])
        if len(tables) > SHOWN_TABLES:
            # Translators: after the list of the evening's tables that played most, when there were more.
            played += "; " + ngettext("%(num)d more table", "%(num)d more tables", len(tables) - SHOWN_TABLES)
        # Translators: %(tables)s is the list of tables played, "<game>, 7 hands; <game>, 1 hand".
        lines.append(_("Played: %(tables)s", tables=played))
    if transfers:
        lines.append(_("To settle up:"))
        # Translators: a line of the summary's settle-up: who pays whom how much (a plain amount, "3.00").
        lines += ["  " + _("%(payer)s pays %(payee)s %(amount)s", payer=t["from_name"], payee=t["to_name"],
                           amount=said_amount(t["amount"], grow["currency"], current())) for t in transfers]
    else:
        lines.append(_("Everyone is square."))
    if evening.waiting:
        lines.append(_still_waiting(evening).strip())
    return "\n".join(lines)


# A generous guess at a character's width in a sans-serif, in ems, its bold a tenth wider:
# DejaVu Sans's (the widest of the common ones, and what Debian's Chromium draws) rounded up.
# Its digits are 0.636 em (0.696 bold), its Latin lower case at most 0.635 (0.716) but for m
# and w, its capitals at most 0.79 (0.85) but for M and W, its + and = 0.838; a letter of
# another script counts as 1.25 em, a wide one (Chinese, an emoji) as 1.35.
_SPACES, _NARROW, _WIDE = set(" \u00a0\u202f"), set(".,:;'|!ilIjf()[]-/"), set("mwMWæœÆŒ")


@lru_cache(maxsize=4096)  # a picture of a big group measures a few hundred distinct characters thousands of times
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


def summary_svg(grow: dict, evening: Evening) -> str:
    """The evening's results as a picture to share, 480 px wide: the group's name, the
    evening's date and hands under it, then a line per member, the name on the left and what
    they won or lost on the right (with its currency, a gain with its +), a bar under them
    from the zero line in the middle, right in green for a gain, left in red for a loss.
    Every text is laid out from a generous guess at its width (``_text_width``): an amount up
    to 9 999 999,99 in any language keeps its size, a long name gets smaller letters and then
    an ellipsis, and nothing is cut at the edge."""
    results = _results(grow, evening)
    values = [value for _name, value in results]
    top = max([abs(v) for v in values] + [1])
    width, pad, row, first = 480, 16, 48, 76
    inside = width - 2 * pad
    height = first + row * len(results) + 8
    middle = width / 2
    if evening.first is None:
        # Translators: the shared picture's name for screen readers, before any hand was played: the group's name.
        label = _("%(group)s: no hand played yet", group=grow["name"])
        line = _("No hand has been played to a result yet.")
    else:
        # Translators: the shared picture's name for screen readers: the group's name and the evening's date.
        label = _("%(group)s: what each player won or lost in the evening of %(date)s", group=grow["name"],
                  date=_date(evening))
        # Translators: under the group's name in the shared picture: the evening's date ("5 Dec 2026") and
        # how many hands it counts.
        line = ngettext("The evening of %(date)s: %(num)d hand", "The evening of %(date)s: %(num)d hands",
                        evening.hands, date=_date(evening))
    title, size = _fitted(grow["name"], 20, inside, 13, bold=True)
    line, line_size = _fitted(line, 14, inside, 10)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">',
             '<rect width="100%" height="100%" fill="#fff"/>', _text(pad, 30, title, size, bold=True),
             _text(pad, 54, line, line_size, fill="#4a4a4a")]
    amounts = [money(format_amount(value, grow["digits"]), grow["currency"], current(), signed=True)
               for value in values]
    # One size for every amount, as large as 17 px lets the widest keep a third of the line for its name.
    amount_size = 17.0
    for amount in amounts:
        amount_size = _fitted(amount, amount_size, inside * 2 / 3, 9, bold=True)[1]
    for i, ((name, value), amount) in enumerate(zip(results, amounts, strict=True)):
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
        if value:  # a member who won and lost nothing has the zero line alone
            parts.append(f'<rect x="{x:g}" y="{y + 25}" width="{length}" height="14" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


SHOWN_TABLES = 12  # the tables the evening's summary names: those that played most hands, then how many more


def _tables(r, grow: dict, evening: Evening) -> list[tuple[str, int]]:
    """The evening's tables as people name them, each with its hands that count: the
    ``SHOWN_TABLES`` that played most by name (in the group's order), the others unnamed
    (their titles are not asked for)."""
    most = sorted(evening.tables, key=lambda tc: -tc[1])[:SHOWN_TABLES]
    named = {table for table, _count in most}
    rows = r.rows_of("table", grow["id"], list(named))
    return [(table_title(rows[table], grow) if table in named else "", count) for table, count in evening.tables
            if table in named] + [("", count) for table, count in evening.tables if table not in named]


@bp.get("/g/<group>/summary")
def summary_page(group):
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        evening = last_evening(r, grow)
        text = summary_text(grow, evening, _tables(r, grow, evening), settle_up_view(grow, brow)["transfers"])
        return render_template("summary.html", group=grow, text=text, covers=covers(evening),
                               image=summary_svg(grow, evening))
    return page_of(group, view)


@bp.get("/g/<group>/summary.svg")
def summary_image(group):
    def view(r, grow, principal, form_token):
        download = request.args.get("download")
        response = Response(summary_svg(grow, last_evening(r, grow, tables=False)), mimetype="image/svg+xml")
        if download:
            response.headers.set("Content-Disposition", "attachment", filename="evening.svg")
        return response
    return page_of(group, view)
