"""Every member's balance over the evening, as an inline SVG chart drawn on the server.

Series in, markup out (in the request's language). The x-axis counts the hands (a payment is a step between
them, unnumbered); labels stay 12 px or more on a 360 px phone (the drawing is 360 units
wide, shown at most 480 px wide); each member's line has its colour, its dash and its
marker, so lines that run together stay apart. The chart needs no JavaScript; it names
itself for screen readers, and the page shows the same figures as a table beside it.
"""
from __future__ import annotations

from decimal import Decimal
from html import escape
from typing import Sequence

from flask_babel import gettext as _

from ..i18n.languages import current
from ..i18n.money import amount, unit

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 360, 240, 58, 12, 14, 40
FONT = 14  # drawing units: 12.8 px when the chart is 330 px wide, on a 360 px phone
# Colours that keep 4.5:1 against the white page (WCAG AA), each with its own dash and marker.
LINES = (("#1f5fa8", "", "circle"), ("#a3331f", "6 3", "square"), ("#2e6b2e", "2 3", "diamond"),
         ("#6b3fa0", "8 3 2 3", "triangle"), ("#8a5a00", "4 4", "circle"), ("#00667a", "1 2", "square"),
         ("#9c1f63", "10 4", "diamond"), ("#4a4a4a", "3 6", "triangle"))
MARKED_UP_TO = 40  # steps: beyond, markers would crowd the lines


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2" fill="{colour}"/>'
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{colour}"/>'
    if kind == "diamond":
        return f'<path d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y:.1f}L{x:.1f} {y + 4:.1f}L{x - 4:.1f} {y:.1f}Z" ' \
               f'fill="{colour}"/>'
    return f'<path d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y + 3:.1f}L{x - 4:.1f} {y + 3:.1f}Z" fill="{colour}"/>'


def balance_chart(names: Sequence[str], series: Sequence[Sequence[int]], digits: int, currency: str,
                  hands: Sequence[bool] = ()) -> str:
    """``series[i][k]`` is member ``names[i]``'s balance in minor units after step k (a
    hand that counted, or a payment; every series as long as the longest, starting from 0
    before the first); ``hands[k]`` says whether step k was a hand (the x-axis counts them).
    While no balance has moved from 0 (no hand or payment yet, or only results that do not
    count yet) there is nothing to draw: "" (the page says so in words, and draws no axis
    of made-up amounts)."""
    steps = max((len(s) for s in series), default=0)
    values = [v for s in series for v in s] + [0]
    if steps <= 1 or not any(values):
        return ""
    low, high = min(values), max(values)
    span_x = max(steps - 1, 1)

    def x(k: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * k / span_x

    def y(v: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / (high - low)

    title = escape(_("Balances over the evening"), quote=False)
    desc = escape(_("Each member's balance in %(currency)s after each hand and payment; the table below lists "
                    "the same figures.", currency=unit(currency, current())), quote=False)
    parts = ['<svg class="chart" role="img" aria-labelledby="chart-title chart-desc" '
             f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" font-size="{FONT}">',
             f'<title id="chart-title">{title}</title>',
             f'<desc id="chart-desc">{desc}</desc>',
             f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" class="zero"/>',
             f'<text x="{LEFT - 6}" y="{y(high) + 5:.1f}" text-anchor="end">{_figure(high, digits, currency)}</text>',
             f'<text x="{LEFT - 6}" y="{y(low) + 5:.1f}" text-anchor="end">{_figure(low, digits, currency)}</text>',
             f'<text x="{LEFT - 6}" y="{y(0) + 5:.1f}" text-anchor="end">0</text>']
    numbered = [k for k in range(1, steps) if (hands[k - 1] if k - 1 < len(hands) else True)]
    every = max(1, -(-len(numbered) // 8))  # at most eight numbers under the axis
    for count, k in enumerate(numbered, 1):
        if count % every == 0 or count == 1:
            parts.append(f'<text x="{x(k):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{count}</text>')
    # Translators: the label under the balance chart's x-axis, which counts the hands played.
    axis = escape(_("hands"), quote=False)
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" '
                 f'class="label">{axis}</text>')
    for i, (name, points) in enumerate(zip(names, series, strict=True)):
        colour, dash, marker = LINES[i % len(LINES)]
        path = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(points))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        if not points:
            continue
        parts.append(f'<g><title>{escape(name)}</title><polyline fill="none" stroke="{colour}" stroke-width="2.5"'
                     f'{dashed} points="{path}"/>')
        if steps <= MARKED_UP_TO:
            parts += [_marker(marker, x(k), y(v), colour) for k, v in enumerate(points) if k]
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _figure(minor: int, digits: int, currency: str) -> str:
    """An axis's amount, as the reader's language writes a number ("7,50")."""
    return escape(amount(str(Decimal(minor).scaleb(-digits)), currency, current()), quote=False)


def legend(names: Sequence[str]) -> list[dict]:
    """Each member's line as the legend below the chart draws it."""
    return [{"name": name, "colour": LINES[i % len(LINES)][0], "dash": LINES[i % len(LINES)][1],
             "marker": LINES[i % len(LINES)][2]} for i, name in enumerate(names)]


def aligned(per_member: dict[str, list[tuple[int, int]]], order: Sequence[str]) -> list[list[int]]:
    """Series of (seq, balance) per member, made one value per money event of the group:
    a member not yet seated stays at 0, and a balance holds until it changes."""
    seqs = sorted({seq for points in per_member.values() for seq, _ in points})
    out = []
    for member in order:
        known = dict(per_member.get(member, []))
        value, line = 0, [0]
        for seq in seqs:
            value = known.get(seq, value)
            line.append(value)
        out.append(line)
    return out
