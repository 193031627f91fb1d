"""The evening a group would share: its last evening of play, and what each member won or
lost in it, whatever was paid since.

An evening is a run of hands played with no break longer than ``BREAK`` (eight hours)
between one hand's end and the next's: a night's play is one evening even across midnight,
and the next week's is another. The last evening is the run that holds the group's latest
hand played to a result. A member's result is the sum of what the evening's hands pay them
as those hands now stand (a correction or a void taken in); a hand that does not count yet
(it waits for a payer's word, or is disputed) is counted apart. Payments do not enter it:
settling up zeroes the balances, not what was played.

It is read from the rows the projector keeps by when hands ended (projections/evenings.py):
the spans of the last evening, what their hands paid each member and how many each table
played, less the hands among them that wait.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from projections import evenings
from projections.evenings import BREAK

__all__ = ["BREAK", "Evening", "last_evening"]
_PAGE = 500  # rows read at a time


@dataclass(frozen=True)
class Evening:
    """The last evening of play: when its first and last hands ended (None: no hand yet),
    each member's result in minor units (every member of the group, 0 for one who did not
    win or lose), how many of its hands count, the hands that count at each table (table id,
    count, in the group's order of tables, a table without one left out; empty when not
    asked for), and how many of its hands do not count yet."""
    first: datetime | None = None
    last: datetime | None = None
    results: dict[str, int] = field(default_factory=dict)
    tables: list[tuple[str, int]] = field(default_factory=list)
    waiting: int = 0
    hands: int = 0


@dataclass(frozen=True)
class _Span:
    key: str
    first: str  # the AT keys of its first and last hands
    last: str
    hands: int


def last_evening(r, grow: dict, tables: bool = True) -> Evening:
    """The group's last evening of play (see the module's docstring); an empty one before any
    hand was played to a result. ``tables``: count each table's hands too (the picture does
    not name them)."""
    group = grow["id"]
    results = {m["id"]: 0 for m in grow["members"]}
    spans = _last_spans(r, group)
    if not spans:
        return Evening(results=results)
    for span in spans:
        for member, row in _under(r, evenings.MEMBER, group, span.key):
            results[member] = results.get(member, 0) + row["result"]
    counted: dict[str, list] = {}  # table -> [its place in the group's order, hands]
    for span in spans if tables else ():
        for key, row in _under(r, evenings.TABLE, group, span.key):
            place, table = key.split("|", 1)
            counted.setdefault(table, [place, 0])[1] += row["hands"]
    first, last = spans[-1].first, spans[0].last
    waiting = 0
    for hand, row in _waiting(r, group):
        its = evenings.played(hand, row)
        if its is None or not first <= its[0] <= last:
            continue
        waiting += 1
        for member, amount in evenings.paid(row, grow["digits"]).items():
            results[member] = results.get(member, 0) - amount
        if its[1] in counted:
            counted[its[1]][1] -= 1
    shown = sorted(((place, table, count) for table, (place, count) in counted.items() if count),
                   key=lambda ptc: ptc[0])
    return Evening(evenings.ended_at(first), evenings.ended_at(last), results,
                   [(table, count) for _place, table, count in shown], waiting,
                   sum(span.hands for span in spans) - waiting)


def _last_spans(r, group: str) -> list[_Span]:
    """The spans of the last evening, the latest first: read back while the break from a
    span's last hand to the next span's first is at most ``BREAK``."""
    found: list[_Span] = []
    after = ""
    while True:
        page = r.rows_in_order(evenings.SPAN, group, after=after, limit=20, newest_first=True)
        for key, row in page:
            last = _edge(r, group, key, latest=True)
            first = _edge(r, group, key, latest=False)
            if last is None or first is None:
                continue
            if found and evenings.ended_at(found[-1].first) - evenings.ended_at(last) > BREAK:
                return found
            found.append(_Span(key, first, last, row["hands"]))
        if len(page) < 20:
            return found
        after = page[-1][0]


def _edge(r, group: str, span: str, latest: bool) -> str | None:
    """The AT key of the span's last hand (``latest``) or its first."""
    if latest:
        found = r.rows_in_order(evenings.AT, group, after=evenings.span_end(span), limit=1, newest_first=True)
    else:
        found = r.rows_in_order(evenings.AT, group, after=span, limit=1)
    return found[0][0] if found and evenings.span_key(found[0][0]) == span else None


def _under(r, name: str, group: str, span: str):
    """(the rest of the key, row) of the rows ``name`` of the span, in key order."""
    prefix, after = f"{span}|", f"{span}|"
    while True:
        page = r.rows_in_order(name, group, after=after, limit=_PAGE)
        for key, row in page:
            if not key.startswith(prefix):
                return
            yield key[len(prefix):], row
        if len(page) < _PAGE:
            return
        after = page[-1][0]


def _waiting(r, group: str):
    """(hand, its evening row) of each settlement that waits for its payers' word."""
    hands = [hand for hand, _entry in r.pending_entries(group)]
    for at in range(0, len(hands), _PAGE):
        rows = r.rows_of(evenings.NAME, group, hands[at:at + _PAGE])
        yield from ((hand, rows[hand]) for hand in hands[at:at + _PAGE] if hand in rows)
