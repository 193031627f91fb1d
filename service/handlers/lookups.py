"""What the handlers look up and make alike: a group's, a table's and a hand's rows, a new
id, and an amount of money read in the group's digits. Each refuses as the API answers (a
404 for what is not there, a 400 for an amount that is not one)."""
from __future__ import annotations

import secrets

from events.errors import Invalid, NotFound
from events.money import MAX_MINOR, MoneyError, parse_amount
from events.sentences import say
from events.store import Reader
from projections import folded
from projections import hands as hand_fold
from projections.tables import corrections_of

from ..views import WaitingPage


WAITING_PAGE = 500  # settlements that wait, listed in one answer of GET .../balances


def waiting_page(reader: Reader, group: str, after: int = 0, limit: int = WAITING_PAGE) -> WaitingPage:
    """The settlements of ``group`` that wait, logged after seq ``after``, ``limit`` at most."""
    entries = reader.pending_entries(group, after=after, limit=limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    return WaitingPage(entries, reader.pending_count(group), entries[-1][1]["seq"] if more else None)


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
    return hand_fold.with_corrections(model, corrections_of(reader.row("table", group, model.table), hand))


def parsed_amount(text, digits: int, field: str, negative: bool = False, limit: int = MAX_MINOR) -> int:
    """``text`` as an amount in minor units of ``digits``; an Invalid naming ``field`` if it is not one."""
    try:
        return parse_amount(text, digits, allow_negative=negative, limit=limit)
    except MoneyError as e:
        raise Invalid(str(e), errors={field: [str(e)]}) from None
