"""The evening to share as it was worked out before it was kept (service/web/evening_results.py
until issue 44): one pass over the group's log, every hand played to a result folded as the
corrections leave it. The tests compare the kept rows' evening with this one."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.money import parse_amount
from events.types import EVENT_TYPES
from projections import corrections
from service.web.evening_results import BREAK, Evening

READ = frozenset({"deal", "result", "settlement", "hand_voided", "correction"})
READ_DATA = READ - {"deal"}


@dataclass(frozen=True)
class Played:
    at: datetime
    table: str
    payouts: dict[str, int]
    counts: bool


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def played(events, digits: int, waiting: set[str], opened_tables: dict[str, int]) -> list[Played]:
    opened: dict[str, tuple[str, str]] = {}
    settled: dict[str, str] = {}
    kept = []
    for env in events:
        if env.type in ("deal", "result"):
            opened.setdefault(env.hand, (env.recorded_at, env.table))
        elif env.type == "settlement":
            settled.setdefault(env.hand, env.recorded_at)
        elif env.type == "table_opened":
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
    return Evening(evening[0].at, evening[-1].at, results, tables, sum(1 for h in evening if not h.counts),
                   sum(count for _table, count in tables))
