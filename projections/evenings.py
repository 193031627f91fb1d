"""The hands a group played to a result, kept by when they ended: what the evening to share
(service/web/evening_results.py) reads instead of folding the group's log.

A hand's row (``NAME``, keyed by the hand, a pure fold of its deal or result, settlement,
void and the corrections that change it) says when it was opened, when it was first settled
(the hour it counts as played: a hand settled again by a correction keeps it), at which
table, what its settlement pays now (a correction laid over) and whether it counts as never
played; as the group's log gives them (projections/corrections.py ``history``).

From the hands' rows, each time one changes (``follow``, which the projector runs once a
batch of events is folded), four kinds of rows kept by the time a hand ended:

- ``AT``: one per hand played to a result (settled, not voided), keyed ``<ended>|<hand>``,
  the moment as ``2026-12-05T18:02:03.123456Z``: the log's index of when hands ended.
- ``SPAN``: one per stretch of ``SPAN_HOURS`` (UTC, from midnight) in which a hand ended,
  keyed by its first hour (``2026-12-05T16``): how many hands ended in it.
- ``MEMBER``: ``<span>|<member>``: what the hands that ended in the span paid the member
  (no row where that is 0 all told).
- ``TABLE``: ``<span>|<place>|<table>``: how many of them were played at the table (its place
  in the group's order, projections/group_tables.py, so that the keys sort as the tables do).

An evening is a run of hands with no break longer than ``BREAK`` between two; no two hands of
one span are that far apart, so a span lies in one evening whole, and the last evening is the
last spans read back while the break between one span's first hand and the span before's last
is at most ``BREAK``. A hand waiting for its payers' word is in these rows like any other; the
reader takes out those that wait (a few rows, which the balances keep apart).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Iterable, Mapping, Protocol

from events.money import parse_amount
from .corrections import settlement_after
from .group_tables import PLACE

NAME = "evening_hand"
AT, SPAN, MEMBER, TABLE = "evening_at", "evening_span", "evening_member", "evening_table"
BY_TIME = (AT, SPAN, MEMBER, TABLE)  # made from the hands' rows (``rebuilt``, ``follow``)
KEPT = (NAME, *BY_TIME)
EVENTS = frozenset({"deal", "result", "settlement", "hand_voided", "correction"})
BREAK = timedelta(hours=8)  # a longer break between two hands starts another evening
SPAN_HOURS = 8  # at most BREAK: no two hands of one span are further apart than an evening allows
_PAYOUTS = "/payouts"


def moment(stamp: str) -> datetime:
    """When an event was recorded, as a moment in UTC."""
    at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return at.replace(tzinfo=timezone.utc) if at.tzinfo is None else at.astimezone(timezone.utc)


def at_key(stamp: str, hand: str) -> str:
    """The ``AT`` key of ``hand`` ended at ``stamp``: keys sort as the moments do."""
    return f"{moment(stamp).strftime('%Y-%m-%dT%H:%M:%S.%fZ')}|{hand}"


def ended_at(key: str) -> datetime:
    """The moment an ``AT`` key names."""
    return moment(key.split("|", 1)[0])


def span_key(key: str) -> str:
    """The span an ``AT`` key falls in: its first hour."""
    hour = int(key[11:13])
    return f"{key[:11]}{hour - hour % SPAN_HOURS:02d}"


def span_end(span: str) -> str:
    """A key after every ``AT`` key of the span and before the next span's."""
    start = datetime.fromisoformat(span + ":00:00+00:00") + timedelta(hours=SPAN_HOURS)
    return start.strftime("%Y-%m-%dT%H")


# The hand's row, a pure fold ----------------------------------------------------------------

def keys(event) -> dict[str, Mapping | None]:
    """The hands ``event`` changes, each with what it says of that hand (a correction's entry
    for the hand, None where it says nothing of its settlement)."""
    if event.type != "correction":
        return {event.hand: None} if event.hand else {}
    d = event.data
    said = {s["hand"]: s for s in d["settlements"]}
    return {hand: said.get(hand) for hand in dict.fromkeys([d["hand"], *said])}


def apply(row: dict | None, event, said: Mapping | None) -> dict | None:
    """A hand's row once ``event`` changed it (``said``: see ``keys``)."""
    if event.type in ("deal", "result"):
        return {"table": event.table, "opened": event.recorded_at, "payouts": None, "voided": False}
    if row is None:  # a hand the group never dealt: the history leaves it out
        return None
    if event.type == "settlement":
        return {**row, "payouts": list(event.data.get("payouts", [])), "ended": row.get("ended", event.recorded_at)}
    if event.type == "hand_voided":
        return {**row, "payouts": None, "voided": True}
    if event.type != "correction":
        return row
    row = dict(row)
    if said is None or said["hand"] == event.data["hand"]:  # the hand it corrects (``keys``)
        row["voided"] = bool(event.data.get("void"))
    if said is not None:
        row["payouts"] = payouts_after(said, row["payouts"])
    return row


def payouts_after(entry: Mapping, payouts: list | None) -> list | None:
    """A settlement's payouts once a correction's ``entry`` is laid over it (None: it settles
    nothing, as ``corrections.settlement_after`` would leave it)."""
    if "changed" not in entry:
        return None if entry["settlement"] is None else list(entry["settlement"].get("payouts", []))
    ours = {"changed": [c for c in entry["changed"] if _of_payouts(c[0])],
            "removed": [p for p in entry.get("removed", ()) if _of_payouts(p)]}
    now = settlement_after(ours, None if payouts is None else {"payouts": payouts})
    return list(now.get("payouts", []))


def _of_payouts(pointer: str) -> bool:
    return pointer == _PAYOUTS or pointer.startswith(_PAYOUTS + "/")


def played(hand: str, row: Mapping | None) -> tuple[str, str] | None:
    """The ``AT`` key and table of a hand played to a result, else None."""
    if row is None or row["payouts"] is None or row["voided"]:
        return None
    return at_key(row.get("ended") or row["opened"], hand), row["table"]


def paid(row: Mapping, digits: int) -> dict[str, int]:
    """What the hand's settlement pays each member (minor units)."""
    found: dict[str, int] = {}
    for p in row["payouts"]:
        found[p["member"]] = found.get(p["member"], 0) + parse_amount(p["amount"], digits, allow_negative=True)
    return found


# The rows kept by time, from the hands' rows --------------------------------------------------

class Rows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def drop_row(self, name: str, group: str, key: str) -> None: ...


class _Seen(Protocol):
    def __call__(self, name: str, group: str, key: str) -> dict | None: ...


def follow(rows: Rows, before: dict, after: dict, seen: _Seen) -> None:
    """Move the rows kept by time for each hand whose row a batch changed (``before`` and
    ``after``: the projector's rows, by (name, group, key), as the batch found and left
    them; ``seen`` reads a row into both). Rows left empty are dropped at once."""
    changed = [(group, hand, before[name, group, hand], row) for (name, group, hand), row in list(after.items())
               if name == NAME and row is not before[name, group, hand]]
    emptied: set[tuple[str, str, str]] = set()
    for group, hand, was, now in changed:
        old, new = played(hand, was), played(hand, now)
        if old == new and (old is None or was["payouts"] == now["payouts"]):
            continue
        digits = (seen("balances", group, "") or {}).get("digits", 2)
        if old is not None:
            _count(seen, after, emptied, group, old, paid(was, digits), -1)
        if new is not None:
            _count(seen, after, emptied, group, new, paid(now, digits), 1)
        if old is not None and (new is None or new[0] != old[0]):
            seen(AT, group, old[0])
            after[AT, group, old[0]] = None
            emptied.add((AT, group, old[0]))
        if new is not None:
            seen(AT, group, new[0])
            after[AT, group, new[0]] = {}
            emptied.discard((AT, group, new[0]))
    for at in emptied:
        if after[at] is None and before[at] is not None:
            rows.drop_row(*at)


def _count(seen: _Seen, after: dict, emptied: set, group: str, hand: tuple[str, str], money: dict[str, int],
           sign: int) -> None:
    """Add (``sign`` 1) or take out (-1) one hand's part in its span's rows."""
    key, table = hand
    span = span_key(key)
    place = (seen(PLACE, group, table) or {}).get("at", "")
    for name, at, field, by in ((SPAN, span, "hands", sign), (TABLE, f"{span}|{place}|{table}", "hands", sign),
                                *((MEMBER, f"{span}|{m}", "result", sign * v) for m, v in money.items())):
        row = seen(name, group, at) or {field: 0}
        count = row[field] + by
        if count:  # a member's hands that paid nothing all told leave no row, as rebuilt() makes none
            after[name, group, at] = {field: count}
            emptied.discard((name, group, at))
        else:
            after[name, group, at] = None
            emptied.add((name, group, at))


def rebuilt(hand_rows: Mapping[str, dict], places: Mapping[str, str], digits: int) -> dict[tuple[str, str], dict]:
    """The rows kept by time, (name, key) -> row, from every hand's row of a group (a store
    from before they were kept: events/migrations.py); ``places``: each table's place."""
    found: dict[tuple[str, str], dict] = {}
    for hand, row in hand_rows.items():
        its = played(hand, row)
        if its is None:
            continue
        key, table = its
        span = span_key(key)
        found[AT, key] = {}
        for name, at, field, by in ((SPAN, span, "hands", 1), (TABLE, f"{span}|{places.get(table, '')}|{table}",
                                                                  "hands", 1),
                                    *((MEMBER, f"{span}|{m}", "result", v) for m, v in paid(row, digits).items())):
            found[name, at] = {field: found.get((name, at), {field: 0})[field] + by}
    return {at: row for at, row in found.items() if at[0] != MEMBER or row["result"]}


def folded(events: Iterable) -> dict[str, dict]:
    """Every hand's row from a group's events, in log order."""
    rows: dict[str, dict] = {}
    for env in events:
        if env.type in EVENTS:
            for hand, said in keys(env).items():
                row = apply(rows.get(hand), env, said)
                if row is not None:
                    rows[hand] = row
    return rows
