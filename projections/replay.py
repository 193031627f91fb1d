"""Rebuilding every projection from the log alone, and re-deriving every settlement.

The log is folded one group at a time with the very folds the live projector uses, and
the rebuilt rows are compared with the stored ones. Each ``settlement`` event is
recomputed from its hand's own events (deal, calls, tricks) with the table's stake and
seats as they stood then: a stored result that the cards do not give is reported.

Memory stays bounded by one group's rows and the hands still open at its tables: a hand's
row is compared and dropped once the next hand at its table is dealt.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, NamedTuple, Protocol

from events.money import format_amount, minor_digits
from events.types import HAND_EVENTS
from games.engine.base import TableTerms
from games.registry import GAMES
from . import (agreement, balances, corrections, evenings, group_tables, groups, hands, integrity, projector,
               redecide, signatures, standings_row, tables, tournament_cards, tournaments)
from .groups import confirmations
from .settlements import of_the_game, settled


BATCH = 500
# What settling needs beside the hands: the tables as they stood, and the group (whether
# it confirms results, which a settlement that counted at once may give as its reason).
_SETTLING_ROUTES = {kind: tuple((name, fold) for name, fold, events in (
    (tables.NAME, tables.apply, tables.EVENTS), (groups.NAME, groups.apply, groups.EVENTS)) if kind in events)
    for kind in tables.EVENTS | groups.EVENTS}
PARTS = ("rows", "settlements")
EVERY_HAND = (frozenset({0}), 1)


def in_share(hand: str, share: tuple[frozenset[int], int]) -> bool:
    """Whether a hand falls in ``share`` = (slots, of how many): a fixed split of the hands
    by a checksum of their ids, so that processes can each re-derive some of them."""
    slots, of = share
    return of == 1 or zlib.crc32(hand.encode("utf-8")) % of in slots


class _Unsettled(NamedTuple):
    """Where a hand left open at the end of the log is reported."""
    hand: str


class StoredRows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def rows(self, name: str, group: str) -> dict[tuple[str, str], dict]: ...
    def row_keys(self, name: str, group: str) -> set[str]: ...
    def rows_of(self, name: str, group: str, keys: list[str]) -> dict[str, dict]: ...
    def pending_entries(self, group: str) -> list[tuple[str, dict]]: ...


_SEQ = re.compile(r": seq (\d+)")
History = Callable[[str, str, int], list]  # (group, table, until seq) -> the table's events


@dataclass
class Report:
    groups: int = 0
    events: int = 0
    settlements: int = 0
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # settled under older rules: reported, not faults

    def first_difference(self) -> str:
        """The difference at the lowest seq (one naming none comes after every seq)."""
        def at(text: str) -> int:
            found = _SEQ.search(text)
            return int(found.group(1)) if found else 2 ** 62
        return min(self.differences, key=at)
    balances: dict[str, dict[str, int]] = field(default_factory=dict)


def rederive(game, state, terms: TableTerms, digits: int) -> dict:
    """The settlement a hand's own events give, with its table's stake and seats."""
    return settled(game, state, terms, digits)


class GroupRebuild:
    """One group's rows, rebuilt event by event and compared when they are complete."""

    def __init__(self, group: str, stored: StoredRows | None, report: Report, parts=PARTS, share=EVERY_HAND,
                 strict: bool = False, history: History | None = None):
        self.group, self.stored, self.report, self.share, self.strict = group, stored, report, share, strict
        self.history = history
        self.rows: dict[tuple[str, str], dict] = {}
        self.check_rows, self.check_settlements = "rows" in parts, "settlements" in parts
        # Settling needs the table as it stood (stake, seats, a running doubled round) and the
        # group's setting for confirmations, so their rows are folded whatever the part.
        self.routes = projector.ROUTES if self.check_rows else _SETTLING_ROUTES
        self.digits = 0
        self.open: dict[str, tuple] = {}  # (Game, state, events owed) of the hands open at their tables
        self.at_table: dict[str, str] = {}
        self.done_hands: set[str] = set()
        self.dealt: set[str] = set()  # every hand id the group used (the rows part)
        self.to_compare: dict[str, dict | None] = {}  # finished hands' rows, compared in batches
        self.refused: dict[str, list[str]] = {}  # hand -> its events the game refuses today
        self.own: dict[str, agreement.OwnPlay] = {}  # hand in play -> whether its seats log and play their own
        self.signed = signatures.Signatures(group, hashes=False)  # every member's act against their keys

    def add(self, env) -> None:
        if self.check_rows:
            problem = integrity.fault(self.rows, env, self.dealt)
            if problem:  # not folded: what follows is judged without it
                self._differ(f"seq {env.seq}: {problem}")
                return
            if env.type in ("deal", "result"):
                self.dealt.add(env.hand)
            found = self.signed.add(env)
            if found is not None:
                self._differ(found)
        if env.type in ("deal", "result"):  # whichever the part: it is what keeps memory bounded
            if env.table in self.at_table:
                self._finish_hand(self.at_table[env.table])
            self.at_table[env.table] = env.hand
        if self.check_settlements:  # first: a settlement is re-derived on the table as it stood
            if env.hand and env.type in HAND_EVENTS:
                self._hand(env)
            elif env.type == "group_created":
                self.digits = minor_digits(env.data["currency"])
        if env.type == "assertion" and self.check_rows:
            self._check_assertion(env)
        if env.type == "correction" and self.check_settlements and in_share(env.hand, self.share):
            self._check_correction(env)
        rows = self.rows
        for name, fold in self.routes.get(env.type, ()):
            key = projector.row_key(name, env)
            if key is not None:
                was = rows.get((name, key))
                rows[name, key] = fold(was, env)
                for follower, wanted, follow in projector.FOLLOWING.get(name, ()) if self.check_rows else ():
                    if env.type in wanted:
                        rows[follower, key] = follow(rows.get((follower, key)), env, was, rows[name, key])
                for wanted, spread in projector.SPREAD.get(name, ()) if self.check_rows else ():
                    if env.type in wanted:
                        now = rows[name, key]
                        rows.update(spread(lambda n, k: rows.get((n, k)), env, was, now,
                                           lambda hand, now=now: balances.pending_entry(now, hand) is not None))
        for name, (wanted, keys_of, fold_into) in projector.FANNED.items():
            for key, part in (keys_of(env) if self.check_rows and env.type in wanted else {}).items():
                rows[name, key] = fold_into(rows.get((name, key)), env, part)

    def _hand(self, env) -> None:
        """Re-play a hand of the share: each event decided again, the settlement re-derived."""
        if env.type in ("deal", "result"):
            if not in_share(env.hand, self.share):
                return
            game, state = hands.opened(env)
            self.open[env.hand] = (game, state, ())
            table = self.rows.get((tables.NAME, env.table)) or {}
            self.own[env.hand] = agreement.OwnPlay(table.get("seats", []), table.get("entry") == "seats",
                                                   game.moves.sitting_out(state))
            self.own[env.hand].add(env.type, env.data, env.actor)
            self._refuse(env, redecide.start_refused(game, env, self.rows.get((tables.NAME, env.table))))
            return
        if env.hand not in self.open:
            if env.type == "settlement" and in_share(env.hand, self.share):
                self._check_settlement(None, None, env)  # a settlement of a hand never dealt
            return
        game, state, owed = self.open[env.hand]
        if owed and env.type in ("settlement", "hand_voided"):
            self._refuse(env, f"the {owed[0].type} that the event before it makes is missing")
        if env.type == "settlement":
            self._check_settlement(game, state, env, self.refused.pop(env.hand, []))
        elif env.type == "hand_voided":
            self._judge_refused(game, state, env, None)
        else:
            why, owed = redecide.refused(game, state, env, owed)
            self._refuse(env, why)
            self.open[env.hand] = (game, game.evolve(state, env), owed)
            if env.hand in self.own:  # who logged and played each seat's cards
                self.own[env.hand].add(env.type, env.data, env.actor)

    def _refuse(self, env, why: str | None) -> None:
        if why:
            self.refused.setdefault(env.hand, []).append(f"seq {env.seq}: {why}")

    def _judge_refused(self, game, state, env, recorded: int | None) -> None:
        """A hand voided or never settled, with events today's rules refuse: a note, as it
        moved no money; in an import (strict), a fault unless the game says its rules changed."""
        found = self.refused.pop(env.hand, None)
        if not found:
            return
        if self.strict and not game.superseded(state, 1):
            self._refused_faults(env.hand, found)
        else:
            self.report.notes.append(f"group {self.group}: hand {env.hand}: today's rules refuse " + "; ".join(found))

    def _check_assertion(self, env) -> None:
        """A balance the group agreed must still be the one the log gives at that point."""
        actual = balances.disagreement(self.rows.get(("balances", "")), env.data)
        if actual is not None:
            self._differ(f"seq {env.seq}: the agreed balance of {env.data['member']}, {env.data['balance']}, "
                         f"no longer holds: the log gives {actual}")

    def _check_settlement(self, game, state, env, refused=()) -> None:
        """Re-derive a settlement under the rules it records (1 when it records none): any
        difference is a finding. One derived under older rules is also derived under today's,
        and a hand they would settle otherwise is noted, not faulted; so is one whose events
        today's rules refuse (``refused``), which under today's rules is a finding."""
        self.report.settlements += 1
        recorded = env.data.get("rules_version", 1)
        try:
            today = tables.terms(self.rows[(tables.NAME, env.table)], self.digits)
            then = replace(today, rules_version=recorded)
            again = rederive(game, state, then, self.digits)
        except Exception as e:  # a hand that cannot even be re-played is a finding, not a crash
            self._differ(f"seq {env.seq}: hand {env.hand} cannot be re-derived from its events ({e})")
            return
        recorded_data = of_the_game(env.data)
        self._check_confirmed(env, self.own.pop(env.hand, None))
        if again != recorded_data:  # the bytes themselves are verify's business
            changed = sorted(k for k in set(again) | set(recorded_data) if again.get(k) != recorded_data.get(k))
            self._differ(f"seq {env.seq}: the settlement of hand {env.hand} differs from the one its cards give "
                         f"(in {', '.join(changed)})")
        elif recorded < today.rules_version:
            self._note_newer_rules(game, state, today, env, recorded, refused)
            return
        self._refused_faults(env.hand, refused)

    def _check_correction(self, env) -> None:
        """Decide the correction again from the table's events before it: the same result,
        the same settlements for the same hands, the same differences, the same table."""
        if self.history is None:
            self.report.notes.append(f"group {self.group}: seq {env.seq}: a correction, not re-derived here (no store "
                                     "to read its table's hands from)")
            return
        d, table = env.data, self.rows.get((tables.NAME, env.table))
        try:
            game = GAMES[table["game"]]
            rules = game.parse_rules(table["rules"])
            past = corrections.history(self.history(self.group, env.table, env.seq - 1))
            target = next(h for h in past if h.id == d["hand"])
            result = None
            if "result" in d and corrections.logged_by_cards(target):
                raise ValueError("its cards were logged, so a result cannot correct it")
            if "result" in d:
                result = game.parse_result(rules, target.opened["dealer"], d["result"]).data["result"]
            again = corrections.corrected(game, rules, tables.stake_of(table, self.digits), table["seats"],
                                          self.digits, past, d["hand"], result, d.get("cards"))
            said = corrections.as_made_today(d, past)["settlements"]  # one logged before: each hand whole
        except Exception as e:  # a correction that cannot be decided again is a finding, not a crash
            self._differ(f"seq {env.seq}: the correction of hand {d.get('hand')} cannot be decided again ({e})")
            return
        recorded = {"result": d.get("result"), "adjustments": d["adjustments"], "table": d["table"],
                    "settlements": said}
        derived = {"result": result, "adjustments": again.adjustments, "table": again.table,
                   "settlements": corrections.recorded(again, past, d["hand"])}
        changed = sorted(k for k in recorded if recorded[k] != derived[k])
        if changed:
            self._differ(f"seq {env.seq}: the correction of hand {d['hand']} no longer holds: its table's hands give "
                         f"other {', '.join(changed)}")

    def _check_confirmed(self, env, own: agreement.OwnPlay | None) -> None:
        """A settlement that counted at once must say why, and the why must hold: the same
        rules the ledger decided it by (projections/agreement.py)."""
        d = env.data
        if "confirmed" not in d:
            return  # settled before confirmations: it counted at once
        payers = agreement.payers(d["payouts"])
        group = self.rows.get(("group", ""), {})
        why = agreement.at_once(payers, env.actor, confirmations(group) != "off", own is not None and own.whole)
        said = d.get("confirmed_because") if d["confirmed"] else None
        if said != why or d["confirmed"] is not (said is not None):
            self._differ(f"seq {env.seq}: the settlement of hand {env.hand} counted at once ({said}), which does "
                         "not hold" if d["confirmed"] else f"seq {env.seq}: the settlement of hand {env.hand} waits "
                         f"for a confirmation though it counts at once ({why})")

    def _refused_faults(self, hand: str, refused) -> None:
        for found in refused:  # each "seq N: why"
            self._differ(f"{found} (hand {hand})")

    def _note_newer_rules(self, game, state, today: TableTerms, env, recorded: int, refused) -> None:
        now = rederive(game, state, today, self.digits)
        said = [f"{p['member']} {p['amount']}" for p in now["payouts"]]
        changes = []
        if now["payouts"] != env.data["payouts"]:
            paid = [f"{p['member']} {p['amount']}" for p in env.data["payouts"]]
            changes.append(f"today's rules pay {', '.join(said)} (it paid {', '.join(paid)})")
        if now.get("bok_due") != env.data.get("bok_due"):
            changes.append("today's rules " + ("make a" if now.get("bok_due") else "make no") + " doubled round due")
        explained = game.superseded(state, recorded)
        changes += explained
        if refused and not explained:
            if self.strict:  # an import: only what the game says its rules changed may stand
                self._refused_faults(env.hand, refused)
                return
            changes.append("today's rules refuse " + "; ".join(refused))
        if changes:
            self.report.notes.append(f"group {self.group}: hand {env.hand} (seq {env.seq}) was settled under rules "
                                     f"{recorded}; " + "; ".join(changes))

    def _finish_hand(self, hand: str) -> None:
        """Set a hand's row aside once the next hand at its table is dealt; compare in batches."""
        self.open.pop(hand, None)
        self.own.pop(hand, None)
        self.done_hands.add(hand)
        self.to_compare[hand] = self.rows.pop((hands.NAME, hand), None)
        if len(self.to_compare) >= BATCH:
            self._compare_hands()

    def _compare_hands(self) -> None:
        if self.stored is not None and self.check_rows and self.to_compare:
            live = self.stored.rows_of(hands.NAME, self.group, list(self.to_compare))
            for hand, rebuilt in self.to_compare.items():
                if live.get(hand) != rebuilt:
                    self._differ(f"hand row {hand} is different")
        self.to_compare = {}

    def finish(self) -> None:
        self._compare_hands()
        for hand, (game, state, _) in list(self.open.items()):  # hands never settled nor voided
            if hand in self.refused:
                self._judge_refused(game, state, _Unsettled(hand), None)
        if not self.check_rows:
            return
        brow = self.rows.get(("balances", ""))
        self.report.balances[self.group] = dict(brow["members"]) if brow else {}
        if brow and sum(brow["members"].values()) != 0:
            self._differ(f"the balances sum to {format_amount(sum(brow['members'].values()), brow['digits'])}, "
                         "not zero")
        if self.stored is None:
            return
        self._compare_pending(brow)
        self._derive()
        for name in (*projector.FOLDS, *projector.FANNED, *projector.FOLLOWERS, *projector.DERIVED):
            rebuilt = {k: v for (n, k), v in self.rows.items() if n == name}
            if name == balances.NAME:  # the store keeps what waits apart (projections/projector.py)
                rebuilt = {k: {f: x for f, x in v.items() if f != "pending"} for k, v in rebuilt.items()}
            if name == hands.NAME:
                live = {k: self.stored.row(name, self.group, k) for k in rebuilt}
                gone = self.stored.row_keys(name, self.group) - self.done_hands - set(rebuilt)
                live.update({k: self.stored.row(name, self.group, k) for k in gone})
            else:
                live = {k: v for (_, k), v in self.stored.rows(name, self.group).items()}
            for key in sorted(set(live) | set(rebuilt)):
                if live.get(key) != rebuilt.get(key):
                    what = "missing from the store" if live.get(key) is None else (
                        "not in the log" if key not in rebuilt else "different")
                    self._differ(f"{name} row {key or '-'} is {what}")

    def _derive(self) -> None:
        """The rows made from other rows (projections/projector.py's DERIVED): each tournament
        drawn has its standings, made from its tables' scores, and each tournament its card
        and its players' seats (projections/tournament_cards.py); the rows kept by when hands
        ended, made from the hands' rows of the evening (projections/evenings.py)."""
        hand_rows = {k: v for (n, k), v in self.rows.items() if n == evenings.NAME and v is not None}
        places = {k: v["at"] for (n, k), v in self.rows.items() if n == group_tables.PLACE and v is not None}
        digits = (self.rows.get((balances.NAME, "")) or {}).get("digits", 2)
        self.rows.update(evenings.rebuilt(hand_rows, places, digits))
        for (name, _key), row in list(self.rows.items()):
            if name != tournaments.NAME or row is None:
                continue
            finished = []
            if row["drawn_rounds"]:
                scores = {t: self.rows.get((tournaments.SCORE, t)) for _, t in standings_row.tables_drawn(row)}
                kept = standings_row.build(row, scores)
                finished = kept.totals["finished"]
                for at, standing in standings_row.as_rows(row, kept).items():
                    self.rows[standings_row.NAME, at] = standing
            self.rows.update(tournament_cards.every_row(row, finished))

    def _compare_pending(self, brow: dict | None) -> None:
        """The settlements that wait, rebuilt, against the store's rows of them."""
        rebuilt = (brow or {}).get("pending", {})
        live = dict(self.stored.pending_entries(self.group))
        for hand in sorted(set(live) | set(rebuilt)):
            if live.get(hand) != rebuilt.get(hand):
                what = "missing from the store" if hand not in live else (
                    "not in the log" if hand not in rebuilt else "different")
                self._differ(f"waiting settlement of hand {hand} is {what}")

    def _differ(self, what: str) -> None:
        self.report.differences.append(f"group {self.group}: {what}")


def replay(envelopes: Iterable, stored: StoredRows | None, parts=PARTS, share=EVERY_HAND,
           strict: bool = False, history: History | None = None) -> Report:
    """Fold ``envelopes`` (in group, seq order); compare with ``stored`` rows unless None.

    ``parts`` picks the work: ``rows`` (check each event's place, rebuild and compare every
    projection row) and ``settlements`` (decide every event of the hands in ``share`` again
    and re-derive their settlements); processes side by side may each take some of it.
    ``strict`` (an import) lets an event today's rules refuse stand only where the game says
    its rules changed since the hand was settled. ``history`` reads a table's events up to a
    seq (the store's ``table_events``), to decide each correction again; without it a
    correction is noted, not checked."""
    report, current = Report(), None
    for env in envelopes:
        if current is None or env.group != current.group:
            if current is not None:
                current.finish()
            report.groups += 1
            current = GroupRebuild(env.group, stored, report, parts, share, strict, history)
        report.events += 1
        try:
            current.add(env)
        except Exception as e:
            current._differ(f"seq {env.seq} cannot be folded ({e})")
    if current is not None:
        current.finish()
    return report


def rebuild(writer, envelopes: Iterable, group: str | None, batch: int = 1000) -> int:
    """Drop the stored rows (of one group, or all) and write them anew from the log, with the
    live projector, inside the writer's one transaction. Returns how many events it read."""
    writer.drop_rows(group)
    pending, count = [], 0
    for env in envelopes:
        pending.append(env)
        count += 1
        if len(pending) == batch:
            projector.project(writer, pending)
            pending = []
    projector.project(writer, pending)
    return count


def merge(reports: Iterable[Report], same_log: bool = True) -> Report:
    """One report from the reports of parts run side by side over the same log, or (not
    ``same_log``) over groups of their own each."""
    out = Report()
    for r in reports:
        if same_log:
            out.groups, out.events = max(out.groups, r.groups), max(out.events, r.events)
        else:
            out.groups, out.events = out.groups + r.groups, out.events + r.events
        out.settlements += r.settlements
        out.differences += r.differences
        out.notes += r.notes
        out.balances.update(r.balances)
    out.differences.sort()
    out.notes.sort()
    return out
