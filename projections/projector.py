"""Keeps every projection's rows in step with the log, inside the append's transaction.

Each projection is a pure fold ``apply(row, event) -> row`` keyed by one row per group,
table or hand, and names the event types it folds (``EVENTS``): an event reaches only the
folds that want it. A fold that returns the very row it was given changed nothing, and
nothing is written. ``replay`` runs the same folds over the whole log and compares.

The balances fold keeps the settlements that wait for confirmation inside its row; the
store keeps each in a row of its own. So the projector gives that fold a row holding only
the waiting settlements the event names (``balances.hands_named``), and stores what the
fold made of them apart: the group's balances row never grows with what waits.
"""
from __future__ import annotations

from typing import Protocol, Sequence

from events.types import EVENT_TYPES, HAND_EVENTS
from . import (balance_steps, balances, corrected, devices, evenings, group_tables, groups, hands, member_stats,
               standings_row, table_kinds, tables, tournament_cards, tournaments)

FOLDS = {groups.NAME: groups.apply, tables.NAME: tables.apply, balances.NAME: balances.apply,
         hands.NAME: hands.summarize, tournaments.NAME: tournaments.apply, tournaments.SCORE: tournaments.score,
         devices.NAME: devices.apply, devices.NONCES: devices.used, table_kinds.NAME: table_kinds.apply,
         group_tables.ORDER: group_tables.ordered, group_tables.PLACE: group_tables.placed}
_WANTED = {groups.NAME: groups.EVENTS, tables.NAME: tables.EVENTS, balances.NAME: balances.EVENTS,
           hands.NAME: hands.EVENTS, tournaments.NAME: tournaments.EVENTS, tournaments.SCORE: tournaments.SCORE_EVENTS,
           devices.NAME: devices.EVENTS, devices.NONCES: devices.SIGNABLE, table_kinds.NAME: table_kinds.EVENTS,
           group_tables.ORDER: group_tables.EVENTS, group_tables.PLACE: group_tables.EVENTS}
ROUTES: dict[str, tuple] = {kind: tuple((name, fold) for name, fold in FOLDS.items() if kind in _WANTED[name])
                            for kind in EVENT_TYPES}
# Event types whose data no projection row reads: a replay of the rows may skip parsing it.
DATA_UNREAD = (EVENT_TYPES - groups.EVENTS - tables.EVENTS - balances.EVENTS - hands.READS_DATA_OF - tournaments.EVENTS
               - tournaments.SCORE_EVENTS - devices.EVENTS - devices.SIGNABLE)
# Folds of one event into several rows, each named by a key the event gives: what a
# correction says of each hand it changed, in that hand's row (projections/corrected.py).
FANNED = {corrected.NAME: (corrected.EVENTS, corrected.keys, corrected.apply),
          evenings.NAME: (evenings.EVENTS, evenings.keys, evenings.apply)}
# Rows folded from what an event changed in another row, each named by the row it follows:
# the balances' last moves (projections/balance_steps.py) from the balances row before and
# after each event. ``fold(row, event, before, after)``.
FOLLOWING = {balances.NAME: ((balance_steps.NAME, balance_steps.EVENTS, balance_steps.apply),)}
# Rows folded, several at once, from what an event changed in another row: per hand and per
# member, what the group's statistics show (projections/member_stats.py), from the balances
# rows before and after each event. ``fold(seen, event, before, after, waits)`` returns the
# rows it changed; ``seen(name, key)`` reads one as the events so far leave it, ``waits(hand)``
# whether the hand's settlement still waits.
SPREAD = {balances.NAME: ((member_stats.EVENTS, member_stats.apply),)}
FOLLOWERS = (*(name for followers in FOLLOWING.values() for name, _, _ in followers), *member_stats.KEPT)
# Rows made from other rows: replay builds them once the log is folded (a tournament's
# standings from its tables' scores, its card and seats from its row and its standings; the
# evening's rows by time from the hands' rows).
DERIVED = (standings_row.NAME, *tournament_cards.NAMES, *evenings.BY_TIME)
POSITION = "all"


class Rows(Protocol):
    def row(self, name: str, group: str, key: str) -> dict | None: ...
    def put_row(self, name: str, group: str, key: str, data: dict) -> None: ...
    def mark_position(self, name: str, position: int) -> None: ...
    def pending_entry(self, group: str, hand: str) -> dict | None: ...
    def put_pending(self, group: str, hand: str, entry: dict) -> None: ...
    def drop_pending(self, group: str, hand: str) -> None: ...


def row_key(name: str, event) -> str | None:
    """The row of projection ``name`` that ``event`` touches, or None."""
    if name in (tables.NAME, tournaments.SCORE):
        return event.table
    if name == tournaments.NAME:
        return tournaments.key(event)
    if name == hands.NAME:
        return event.hand if event.type in HAND_EVENTS else None
    if name == devices.NAME:
        return devices.key_of(event)
    if name == devices.NONCES:
        return devices.nonce_of(event)
    if name == table_kinds.NAME:
        return table_kinds.key(event)
    if name == group_tables.ORDER:
        return group_tables.order_key(event.seq)
    if name == group_tables.PLACE:
        return event.table
    return ""


def project(rows: Rows, envelopes: Sequence) -> None:
    """Fold ``envelopes`` (already in the log) into the rows they touch."""
    before: dict[tuple[str, str, str], dict | None] = {}
    after: dict[tuple[str, str, str], dict | None] = {}
    waiting = _Waiting(rows)
    seen = _seen(rows, before, after)
    for env in envelopes:
        for name, fold in ROUTES.get(env.type, ()):
            key = row_key(name, env)
            if key is None:
                continue
            at = (name, env.group, key)
            if at not in after:
                before[at] = after[at] = rows.row(*at)
            was = after[at]
            if name == balances.NAME:
                after[at] = waiting.fold(was, env)
            else:
                after[at] = fold(was, env)
            for follower, wanted, follow in FOLLOWING.get(name, ()):
                if env.type in wanted:
                    its = (follower, env.group, key)
                    if its not in after:
                        before[its] = after[its] = rows.row(*its)
                    after[its] = follow(after[its], env, was, after[at])
            for wanted, spread in SPREAD.get(name, ()):
                if env.type in wanted:
                    moved = spread(lambda n, k, g=env.group: seen(n, g, k), env, was, after[at],
                                   waiting.waits(env.group))
                    for (n, k), data in moved.items():
                        seen(n, env.group, k)
                        after[n, env.group, k] = data
        for name, (wanted, keys_of, fold_into) in FANNED.items():
            for key, part in (keys_of(env) if env.type in wanted else {}).items():
                at = (name, env.group, key)
                if at not in after:
                    before[at] = after[at] = rows.row(*at)
                after[at] = fold_into(after[at], env, part)
    _move_standings(rows, before, after)
    _move_cards(rows, before, after)
    evenings.follow(rows, before, after, _seen(rows, before, after))  # rows kept by when hands ended
    for at, data in after.items():
        if data is not None and data is not before[at]:
            rows.put_row(*at, data)
    waiting.store()
    if envelopes:
        rows.mark_position(POSITION, envelopes[-1].position)


def _seen(rows: Rows, before: dict, after: dict):
    """A row as the batch leaves it, read from the store once (into ``before`` and ``after``)."""
    def seen(name: str, group: str, key: str) -> dict | None:
        at = (name, group, key)
        if at not in after:
            before[at] = after[at] = rows.row(*at)
        return after[at]
    return seen


def _move_standings(rows: Rows, before: dict, after: dict) -> None:
    """Each tournament table whose small points changed moves its tournament's standings rows
    (the totals and its round's); a tournament with no totals yet (its first draw, or a store
    from before they were kept) gets every row made from all its tables."""
    seen = _seen(rows, before, after)
    changed = [(group, table, score) for (name, group, table), score in after.items()
               if name == tournaments.SCORE and score is not None and score is not before[name, group, table]]
    for group, table, score in changed:
        at_table = seen(tables.NAME, group, table) or {}
        tournament = seen(tournaments.NAME, group, at_table["tournament"]) if "tournament" in at_table else None
        if tournament is None:
            continue
        totals, number = seen(standings_row.NAME, group, tournament["id"]), at_table["round"]
        if totals is None:
            kept = standings_row.build(tournament, {t: seen(tournaments.SCORE, group, t)
                                                    for _, t in standings_row.tables_drawn(tournament)})
        else:
            its_round = seen(standings_row.NAME, group, standings_row.round_key(tournament["id"], number))
            kept = standings_row.update(standings_row.Kept(totals, {number: its_round or standings_row.empty_round()}),
                                        tournament, table, number, score)
        for key, row in standings_row.as_rows(tournament, kept).items():
            seen(standings_row.NAME, group, key)
            after[standings_row.NAME, group, key] = row


def _move_cards(rows: Rows, before: dict, after: dict) -> None:
    """Each tournament whose row or standings' totals changed gets its card made again; a
    round it drew, the seat of each of its players."""
    seen = _seen(rows, before, after)
    moved = {(group, key) for (name, group, key), row in after.items()
             if row is not None and row is not before[name, group, key]
             and (name == tournaments.NAME or (name == standings_row.NAME and not standings_row.is_round_key(key)))}
    for group, key in sorted(moved):
        tournament = seen(tournaments.NAME, group, key)
        if tournament is None:
            continue
        totals = seen(standings_row.NAME, group, key)
        if totals is None and tournament["drawn_rounds"]:  # a store from before the standings were kept
            scores = {t: seen(tournaments.SCORE, group, t) for _, t in standings_row.tables_drawn(tournament)}
            totals = standings_row.build(tournament, scores).totals
        card = tournament_cards.card(tournament, totals["finished"] if totals else [])
        if card != seen(tournament_cards.CARD, group, key):
            after[tournament_cards.CARD, group, key] = card
        was = before.get((tournaments.NAME, group, key))
        for drawn in tournament["drawn_rounds"][len(was["drawn_rounds"]) if was else 0:]:
            for seat, row in tournament_cards.seats(key, drawn).items():
                before.setdefault((tournament_cards.SEAT, group, seat), None)  # a draw's seats are new
                after[tournament_cards.SEAT, group, seat] = row


class _Waiting:
    """The waiting settlements a batch of events reads and changes, read from the store once
    each and written back once: the balances fold sees them inside its row, the store keeps
    them apart."""

    def __init__(self, rows: Rows):
        self.rows = rows
        self.before: dict[tuple[str, str], dict | None] = {}
        self.after: dict[tuple[str, str], dict | None] = {}

    def fold(self, row: dict | None, env) -> dict | None:
        named = balances.hands_named(env)
        for hand in named:
            if (env.group, hand) not in self.after:
                self.before[env.group, hand] = self.after[env.group, hand] = self.rows.pending_entry(env.group, hand)
        if row is None:
            return balances.apply(None, env)
        held = {hand: self.after[env.group, hand] for hand in named if self.after[env.group, hand] is not None}
        seen = {**row, "pending": held} if held else row
        out = balances.apply(seen, env)
        if out is seen:
            return row  # nothing changed
        now = out.get("pending", {})
        for hand in named:
            self.after[env.group, hand] = now.get(hand)
        return {k: v for k, v in out.items() if k != "pending"}

    def waits(self, group: str):
        """Whether a hand's settlement still waits, as the events so far leave it (a hand the
        last event named)."""
        return lambda hand: self.after.get((group, hand)) is not None

    def store(self) -> None:
        for (group, hand), entry in self.after.items():
            if entry == self.before[group, hand]:
                continue
            if entry is None:
                self.rows.drop_pending(group, hand)
            else:
                self.rows.put_pending(group, hand, entry)
