"""The evening a group would share: its last evening of play, and what each member won or
lost in it, whatever was paid since.

An evening is a run of hands played with no break longer than ``BREAK`` (eight hours)
between one hand's end and the next's: a night's play is one evening even across midnight,
and the next week's is another. The last evening is the run that holds the group's latest
hand played to a result. A member's result is the sum of what the evening's hands pay them
as those hands now stand (a correction or a void taken in); a hand that does not count yet
(it waits for a payer's word, or is disputed) is counted apart. Payments do not enter it:
settling up zeroes the balances, not what was played.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from events.money import parse_amount
from events.types import EVENT_TYPES
from projections import corrections

BREAK = timedelta(hours=8)


@dataclass(frozen=True)
class Played:
    """One hand played to a result: when it ended, at which table, what it pays each member
    (minor units), and whether it counts in the balances yet."""
    at: datetime
    table: str
    payouts: dict[str, int]
    counts: bool


@dataclass(frozen=True)
class Evening:
    """The last evening of play: when its first and last hands ended (None: no hand yet),
    each member's result in minor units (every member of the group, 0 for one who did not
    win or lose), the hands that count at each table (table id, count, in the group's order
    of tables, a table without one left out), and how many of its hands do not count yet."""
    first: datetime | None = None
    last: datetime | None = None
    results: dict[str, int] = field(default_factory=dict)
    tables: list[tuple[str, int]] = field(default_factory=list)
    waiting: int = 0

    @property
    def hands(self) -> int:
        """The evening's hands that count."""
        return sum(count for _table, count in self.tables)


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


# The events the evening is worked out from: each hand's opening, its settlement, its void and
# the corrections; the others are read without their data.
READ = frozenset({"deal", "result", "settlement", "hand_voided", "correction"})
# Of those, the ones whose data it reads: a deal's cards are not (its hour and table are the
# event's own), and they are most of what a group's log holds.
READ_DATA = READ - {"deal"}


def played(events, digits: int, waiting: set[str], opened_tables: dict[str, int] | None = None) -> list[Played]:
    """The hands played to a result (not voided, not abandoned) among ``events`` (a group's or
    a table's, in log order), each when it ended: its first settlement (a hand settled again
    by a correction keeps the hour it was played). ``opened_tables`` is given the seq each
    table was opened at (the group's order of tables)."""
    opened: dict[str, tuple[str, str]] = {}
    settled: dict[str, str] = {}
    kept = []
    for env in events:
        if env.type in ("deal", "result"):
            opened.setdefault(env.hand, (env.recorded_at, env.table))
        elif env.type == "settlement":
            settled.setdefault(env.hand, env.recorded_at)
        elif env.type == "table_opened" and opened_tables is not None:
            opened_tables[env.table] = env.seq
        if env.type in READ:
            kept.append(env)
    found = []
    for hand in corrections.history(kept):
        if hand.settlement is None or hand.voided:
            continue
        payouts: dict[str, int] = {}
        for p in hand.settlement.get("payouts", []):
            payouts[p["member"]] = payouts.get(p["member"], 0) + parse_amount(p["amount"], digits, allow_negative=True)
        at, table = opened[hand.id]
        found.append(Played(_moment(settled.get(hand.id) or at), table, payouts, hand.id not in waiting))
    return found


def last_evening(r, grow: dict) -> Evening:
    """The group's last evening of play (see the module's docstring); an empty one before any
    hand was played to a result. One pass over the group's log, reading the data of the events
    that settle, void or correct a hand only (and of a result logged whole)."""
    group, digits = grow["id"], grow["digits"]
    waiting = {hand for hand, _entry in r.pending_entries(group)}
    order: dict[str, int] = {}
    hands = sorted(played(r.scan(group, unread=EVENT_TYPES - READ_DATA), digits, waiting, order), key=lambda h: h.at)
    if not hands:
        return Evening(results={m["id"]: 0 for m in grow["members"]})
    start = len(hands) - 1
    while start and hands[start].at - hands[start - 1].at <= BREAK:
        start -= 1
    evening = hands[start:]
    results = {m["id"]: 0 for m in grow["members"]}
    counted: dict[str, int] = {}
    for hand in evening:
        if not hand.counts:
            continue
        counted[hand.table] = counted.get(hand.table, 0) + 1
        for member, amount in hand.payouts.items():
            results[member] = results.get(member, 0) + amount
    tables = sorted(counted.items(), key=lambda tc: order.get(tc[0], 0))
    return Evening(evening[0].at, evening[-1].at, results, tables, sum(1 for h in evening if not h.counts))
