"""Rebuilding every projection from the log alone, and re-deriving every settlement.

The log is folded one group at a time with the very folds the live projector uses, and
the rebuilt rows are compared with the stored ones. Each ``settlement`` event is
recomputed from its hand's own events (deal, calls, tricks) with the table's stake and
seats as they stood then: a stored result that the cards do not give is reported.

Memory stays bounded by one group's rows and the hands still open at its tables: a hand is
rendered, compared and dropped once the next hand at its table is dealt.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from events.canonical import canonical_bytes
from events.money import parse_amount
from events.types import HAND_EVENTS
from games.base import TableTerms
from . import hands, projector
from .settlements import settlement_data


class StoredRows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def rows(self, name: str, group: str) -> dict[tuple[str, str], dict]: ...
    def row_keys(self, name: str, group: str) -> set[str]: ...


@dataclass
class Report:
    groups: int = 0
    events: int = 0
    settlements: int = 0
    differences: list[str] = field(default_factory=list)
    balances: dict[str, dict[str, int]] = field(default_factory=dict)


def rederive(model: hands.HandModel, table: dict, digits: int) -> dict:
    """The settlement a hand's own events give, with the table's terms as they stood."""
    stake = parse_amount(table["stake"], digits)
    settled = model.module.settle(model.state, TableTerms(stake, tuple(table["seats"])))
    return settlement_data(settled, stake, digits)


class GroupRebuild:
    """One group's rows, rebuilt event by event and compared when they are complete."""

    def __init__(self, group: str, stored: StoredRows | None, report: Report):
        self.group, self.stored, self.report = group, stored, report
        self.rows: dict[tuple[str, str], dict] = {}
        self.open_hands: dict[str, hands.HandModel] = {}
        self.at_table: dict[str, str] = {}
        self.hand_ids: set[str] = set()

    def add(self, env) -> None:
        for name, fold in projector.FOLDS.items():
            key = projector.row_key(name, env)
            if key is not None:
                self.rows[(name, key)] = fold(self.rows.get((name, key)), env)
        if env.type in HAND_EVENTS and env.hand:
            self._hand(env)

    def _hand(self, env) -> None:
        if env.type == "deal":
            earlier = self.at_table.get(env.table)
            if earlier is not None:
                self._finish_hand(earlier)
            self.at_table[env.table] = env.hand
        model = self.open_hands.get(env.hand)
        if env.type == "settlement":
            self._check_settlement(model, env)
        self.open_hands[env.hand] = hands.apply(model, env)

    def _check_settlement(self, model, env) -> None:
        self.report.settlements += 1
        try:
            digits = self.rows[("group", "")]["digits"]
            again = rederive(model, self.rows[("table", env.table)], digits)
        except Exception as e:  # a hand that cannot even be re-played is a finding, not a crash
            self._differ(f"seq {env.seq}: hand {env.hand} cannot be re-derived from its events ({e})")
            return
        if canonical_bytes(again) != canonical_bytes(env.data):
            changed = sorted(k for k in set(again) | set(env.data) if again.get(k) != env.data.get(k))
            self._differ(f"seq {env.seq}: the settlement of hand {env.hand} differs from the one its cards give "
                         f"(in {', '.join(changed)})")

    def _finish_hand(self, hand: str) -> None:
        model = self.open_hands.pop(hand)
        self.hand_ids.add(hand)
        if self.stored is not None and self.stored.row(projector.HAND, self.group, hand) != hands.render(model):
            self._differ(f"hand row {hand} is different")

    def finish(self) -> None:
        for hand in list(self.open_hands):
            self._finish_hand(hand)
        brow = self.rows.get(("balances", ""))
        self.report.balances[self.group] = dict(brow["members"]) if brow else {}
        if self.stored is None:
            return
        for name in projector.FOLDS:
            live = {k: v for (_, k), v in self.stored.rows(name, self.group).items()}
            rebuilt = {k: v for (n, k), v in self.rows.items() if n == name}
            for key in sorted(set(live) | set(rebuilt)):
                if live.get(key) != rebuilt.get(key):
                    what = "missing from the store" if key not in live else (
                        "not in the log" if key not in rebuilt else "different")
                    self._differ(f"{name} row {key or '-'} is {what}")
        for hand in sorted(self.stored.row_keys(projector.HAND, self.group) - self.hand_ids):
            self._differ(f"hand row {hand} is not in the log")

    def _differ(self, what: str) -> None:
        self.report.differences.append(f"group {self.group}: {what}")


def replay(envelopes: Iterable, stored: StoredRows | None) -> Report:
    """Fold ``envelopes`` (in group, seq order); compare with ``stored`` rows unless None."""
    report, current = Report(), None
    for env in envelopes:
        if current is None or env.group != current.group:
            if current is not None:
                current.finish()
            report.groups += 1
            current = GroupRebuild(env.group, stored, report)
        report.events += 1
        try:
            current.add(env)
        except Exception as e:
            current._differ(f"seq {env.seq} cannot be folded ({e})")
    if current is not None:
        current.finish()
    return report
