"""What the handlers look up and make alike: a group's, a table's and a hand's rows, a new
id, an amount of money read in the group's digits, a game, a table's rules and its stake.
Each refuses as the API answers (a 404 for what is not there, a 400 for an amount that is
not one, a 422 for a game or rules bitka does not know)."""
from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Mapping

from events.errors import Invalid, NotFound, RuleBroken, Unprocessable
from events.money import MAX_MINOR, MoneyError, format_amount, parse_amount
from events.sentences import say
from events.store import Reader
from games.engine.errors import RuleViolation
from games.registry import GAMES
from projections import balances, folded, group_tables
from projections.groups import member_name
from projections import hands as hand_fold
from projections import corrected

from .. import seating
from ..views import TablesPage, WaitingPage


WAITING_PAGE = 500  # settlements that wait, listed in one answer of GET .../balances


def waiting_page(reader: Reader, group: str, after: int = 0, limit: int = WAITING_PAGE) -> WaitingPage:
    """The settlements of ``group`` that wait, logged after seq ``after``, ``limit`` at most."""
    entries = reader.pending_entries(group, after=after, limit=limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    return WaitingPage(entries, reader.pending_count(group), entries[-1][1]["seq"] if more else None)


TABLES_PAGE = 100  # the tables GET /v1/groups/{g} lists unless asked for another number


def tables_page(reader: Reader, grow: dict, after: str = "", limit: int = TABLES_PAGE) -> TablesPage:
    """The group's tables opened after table ``after`` (from the first when it is not one of
    them), ``limit`` at most, their rows read at once."""
    shown, more = table_ids(reader, grow["id"], after, limit)
    rows = reader.rows_of("table", grow["id"], shown)
    return TablesPage([rows[t] for t in shown if t in rows], grow["table_count"], shown[-1] if more else None)


def table_ids(reader: Reader, group: str, after: str = "", limit: int = TABLES_PAGE) -> tuple[list[str], bool]:
    """The ids of the group's tables opened after table ``after`` (from the first when it is
    not one of them), ``limit`` at most, read a page of the group's order of tables; and
    whether more follow."""
    listed = reader.rows_in_order(group_tables.ORDER, group, table_place(reader, group, after), limit + 1)
    return [row["id"] for _key, row in listed[:limit]], len(listed) > limit


def table_place(reader: Reader, group: str, table: str) -> str:
    """Where ``table`` is in the group's order of tables (the key of its row there), or ""
    (before the first) when it is not a table of the group."""
    place = reader.row(group_tables.PLACE, group, table) if table else None
    return place["at"] if place else ""


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(6)}"


def group_row(reader: Reader, group: str) -> dict:
    row = reader.row("group", group, "")
    if row is None:
        raise NotFound(say("there is no group {group}", group=repr(group)))
    return row


def table_row(reader: Reader, group: str, table: str) -> dict:
    row = reader.row("table", group, table)
    if row is None:
        raise NotFound(say("there is no table {table} in this group", table=repr(table)))
    return row


def hand_model(reader: Reader, group: str, hand: str) -> hand_fold.HandModel:
    """The hand from its own events, with what the corrections made at its table say of it."""
    model = folded.HANDS.model(reader, group, hand)
    if model is None:
        raise NotFound(say("there is no hand {hand} in this group", hand=repr(hand)))
    model = hand_fold.with_corrections(model, corrected.of_hand(reader, group, hand,
                                                                reader.row("table", group, model.table)))
    if not model.corrections and model.voided is None:
        return model  # nothing changed it after it was settled: no correction of it can wait (a play reads no more)
    waits = balances.corrections_waiting(reader.row(balances.NAME, group, ""), hand=hand)
    if not waits:
        return model
    return replace(model, waits=tuple({**e, "hash": reader.hash_at(group, e["seq"])} for e in waits))


def parsed_amount(text, digits: int, field: str, negative: bool = False, limit: int = MAX_MINOR) -> int:
    """``text`` as an amount in minor units of ``digits``; an Invalid naming ``field`` if it is not one."""
    try:
        return parse_amount(text, digits, allow_negative=negative, limit=limit)
    except MoneyError as e:
        raise Invalid(str(e), errors={field: [str(e)]}) from None


def stake_of(text, digits: int) -> str:
    """A stake as the log keeps it (the currency's digits), more than zero."""
    stake = parsed_amount(text, digits, "stake")
    if stake <= 0:
        raise Invalid(say("the stake must be more than zero"), errors={"stake": [say("must be more than zero")]})
    return format_amount(stake, digits)


def known_game(name: str):
    """The game called ``name``, or a refusal that lists the games bitka scores."""
    if name not in GAMES:
        scored = ", ".join(GAMES)
        raise Unprocessable(say("{name} is not a game bitka knows; it scores {scored}", name=repr(name), scored=scored))
    return GAMES[name]


def table_rules(game, raw_rules, seats: int | None = None) -> tuple:
    """A table's rules as the game parses them (at a table of ``seats``, where the rules leave
    the number unsaid, the game's for that many), and its ``entry`` (a table rule, not the game's)."""
    entry = "scorer"
    if isinstance(raw_rules, Mapping) and "entry" in raw_rules:
        entry = raw_rules["entry"]
        if entry not in seating.ENTRIES:
            raise RuleBroken(say("entry is \"scorer\" (any member logs the cards) or \"seats\" (each seat its own), "
                                 "not {entry}",
                                 entry=repr(entry)), field="rules.entry")
        raw_rules = {k: v for k, v in raw_rules.items() if k != "entry"}
    if seats is not None:
        raw_rules = game.seated_rules(raw_rules, seats)
    return _rules(game, raw_rules), entry


def rules_said(raw_rules: Mapping) -> dict:
    """A table's or a tournament's rules as they were said, without ``entry`` (a table rule,
    not the game's), once ``table_rules`` took them: what ``Game.seated`` fits to a number
    of seats, a rule said at its default value included."""
    return {k: v for k, v in raw_rules.items() if k != "entry"}


def _rules(game, raw):
    try:
        return game.parse_rules(raw)
    except RuleViolation as e:
        raise RuleBroken(e.detail, field="rules") from None
    except TypeError:
        raise RuleBroken(say("rules must be an object of rule names and values"), field="rules") from None


def none_waits(w: Reader, group: str, table: str) -> None:
    """A correction of a table where an earlier one waits for members it lowers is refused:
    each is a difference from the table as the one before left it."""
    waiting = balances.corrections_waiting(w.row(balances.NAME, group, ""), table=table)
    if waiting:
        names = ", ".join(member_name(group_row(w, group), m) for m in waiting[0]["waiting_for"]
                          if m not in waiting[0]["agreed"])
        raise Unprocessable(say("a correction at this table waits for {names} to agree (hand {hand}): it counts, or "
                                "the table takes another correction, once they do",
                                names=names, hand=waiting[0]["hand"]))
