"""Rebuilding every projection from the log alone, and re-deriving every settlement.

The rebuild runs the live projector over rows held in memory, one group at a time, then
compares them with the stored rows. Each ``settlement`` event is recomputed from the
hand's own events (deal, calls, tricks) with the table's stake and seats as they stood,
and any difference is reported: a stored result that the cards do not give is found.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from events.canonical import canonical_bytes
from events.money import parse_amount
from games.base import TableTerms
from . import hands, projector
from .settlements import settlement_data

NAMES = (*projector.FOLDS, projector.HAND)


class MemoryRows:
    """The Rows protocol over dicts: what replay projects into."""

    def __init__(self):
        self.data: dict[tuple[str, str, str], dict] = {}
        self.by_hand: dict[tuple[str, str], list] = {}

    def row(self, name, group, key):
        return self.data.get((name, group, key))

    def put_row(self, name, group, key, data):
        self.data[(name, group, key)] = data

    def hand_events(self, group, hand):
        return self.by_hand.get((group, hand), [])

    def mark_position(self, name, position):
        pass

    def add(self, env) -> None:
        if env.hand:
            self.by_hand.setdefault((env.group, env.hand), []).append(env)


@dataclass
class Report:
    groups: int = 0
    events: int = 0
    settlements: int = 0
    differences: list[str] = field(default_factory=list)
    balances: dict[str, dict[str, int]] = field(default_factory=dict)


def rederive(mem: MemoryRows, env) -> dict:
    """The settlement the hand's own events give, with the table's terms as they stood."""
    before = [e for e in mem.hand_events(env.group, env.hand) if e.seq < env.seq and e.type != "settlement"]
    model = hands.fold(before)
    table = mem.row("table", env.group, env.table)
    digits = mem.row("group", env.group, "")["digits"]
    stake = parse_amount(table["stake"], digits)
    settled = model.module.settle(model.state, TableTerms(stake, tuple(table["seats"])))
    return settlement_data(settled, stake, digits)


def _compare_settlement(report: Report, mem: MemoryRows, env) -> None:
    report.settlements += 1
    try:
        again = rederive(mem, env)
    except Exception as e:  # a log whose hand cannot even be re-played is a finding, not a crash
        report.differences.append(f"group {env.group} seq {env.seq}: hand {env.hand} cannot be re-derived ({e})")
        return
    if canonical_bytes(again) != canonical_bytes(env.data):
        changed = sorted(k for k in set(again) | set(env.data) if again.get(k) != env.data.get(k))
        report.differences.append(
            f"group {env.group} seq {env.seq}: the settlement of hand {env.hand} differs from the one "
            f"its cards give (in {', '.join(changed)})")


def _compare_rows(report: Report, mem: MemoryRows, group: str, stored: Callable[[str, str], dict]) -> None:
    for name in NAMES:
        live = stored(name, group)
        rebuilt = {(g, k): v for (n, g, k), v in mem.data.items() if n == name}
        for key in sorted(set(live) | set(rebuilt)):
            if live.get(key) != rebuilt.get(key):
                what = "missing from the store" if key not in live else (
                    "not in the log" if key not in rebuilt else "different")
                report.differences.append(f"group {group}: {name} row {key[1] or '-'} is {what}")


def replay(envelopes: Iterable, stored: Callable[[str, str], dict] | None) -> Report:
    """Fold ``envelopes`` (in group, seq order); compare with ``stored`` rows unless None."""
    report, mem, group = Report(), MemoryRows(), None

    def finish():
        if group is None:
            return
        report.groups += 1
        brow = mem.row("balances", group, "")
        report.balances[group] = dict(brow["members"]) if brow else {}
        if stored is not None:
            _compare_rows(report, mem, group, stored)

    for env in envelopes:
        if env.group != group:
            finish()
            mem, group = MemoryRows(), env.group
        report.events += 1
        mem.add(env)
        if env.type == "settlement":
            _compare_settlement(report, mem, env)
        try:
            projector.project(mem, [env])
        except Exception as e:
            report.differences.append(f"group {env.group} seq {env.seq}: cannot be folded ({e})")
    finish()
    return report
