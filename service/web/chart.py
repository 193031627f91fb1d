"""Every member's balance over the hands, as an inline SVG chart drawn on the server.

Pure: series in, markup out. The chart needs no JavaScript; it names itself for screen
readers, and the page shows the same figures as a table beside it.
"""
from __future__ import annotations

from html import escape
from typing import Sequence

WIDTH, HEIGHT, PAD = 640, 280, 44  # the legend is HTML below, so no names sit in the drawing
# Colours that keep 4.5:1 against the white page (WCAG AA), each also drawn with its own dash.
LINES = (("#1f5fa8", ""), ("#a3331f", "6 3"), ("#2e6b2e", "2 3"), ("#6b3fa0", "8 3 2 3"),
         ("#8a5a00", "4 4"), ("#00667a", "1 2"), ("#9c1f63", "10 4"), ("#4a4a4a", "3 6"))


def balance_chart(names: Sequence[str], series: Sequence[Sequence[int]], digits: int, currency: str) -> str:
    """``series[i][k]`` is member ``names[i]``'s balance in minor units after the k-th
    settled hand or payment (every series as long as the longest, starting from 0)."""
    steps = max((len(s) for s in series), default=0)
    values = [v for s in series for v in s] + [0]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    span_x = max(steps - 1, 1)

    def x(k: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * k / span_x

    def y(v: int) -> float:
        return PAD / 2 + (HEIGHT - PAD) * (high - v) / (high - low)

    unit = 10 ** digits
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" '
             f'xmlns="http://www.w3.org/2000/svg">',
             '<title id="chart-title">Balances over the evening</title>',
             f'<desc id="chart-desc">Each member\'s balance in {escape(currency)} after each of the {steps} '
             f'settled hands and payments; the table below lists the same figures.</desc>',
             f'<line x1="{PAD}" y1="{y(0):.1f}" x2="{WIDTH - PAD}" y2="{y(0):.1f}" class="zero"/>',
             f'<text x="{PAD - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{high / unit:.{digits}f}</text>',
             f'<text x="{PAD - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{low / unit:.{digits}f}</text>',
             f'<text x="{PAD - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>']
    for i, (name, points) in enumerate(zip(names, series, strict=True)):
        colour, dash = LINES[i % len(LINES)]
        path = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(points))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        if points:
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dashed} points="{path}">'
                         f'<title>{escape(name)}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def legend(names: Sequence[str]) -> list[dict]:
    """Each member's line as the legend below the chart draws it."""
    return [{"name": name, "colour": LINES[i % len(LINES)][0], "dash": LINES[i % len(LINES)][1]}
            for i, name in enumerate(names)]


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
