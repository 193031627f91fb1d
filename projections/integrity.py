"""What a log must mean, beyond its hashes. Anyone can recompute hashes, so replay (and with
it import, migrate and backup, before they write) also checks that each event could have
been appended where it stands: ids well-formed and never reused, a member added once under
a name nobody else has, tables of known games seating members, hands dealt in turn at open
tables, calls and tricks only while their hand is being played, payouts to the table's
seats summing to zero, payments between members. ``fault`` says what is wrong with one
event, given the rows folded from the events before it; the games' own rules (each card,
each settlement) are checked where the hands are re-played (projections/replay.py).
"""
from __future__ import annotations

import re
from typing import Mapping

from events import names, pay_details
from events.errors import Unprocessable
from events.money import MAX_BALANCE, MAX_MINOR, MoneyError, parse_amount
from events.types import EVENT_TYPES
from games.engine.errors import RuleViolation
from games.registry import GAMES
from . import balances, tournament_faults

ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
HAND_PLAY = frozenset({"seat_cards", "bid", "trick", "play", "claim", "settlement", "hand_voided"})


def well_formed(value) -> bool:
    return isinstance(value, str) and ID.fullmatch(value) is not None


def fault(rows: Mapping, env, dealt: set[str]) -> str | None:
    """Why ``env`` cannot stand after the events that made ``rows`` (None when it can);
    ``dealt`` holds every hand id the group has used."""
    group = rows.get(("group", ""))
    if env.type not in EVENT_TYPES:
        return f"{env.type!r} is not an event type bitka knows"
    if env.type == "group_created":
        if env.seq != 1 or group is not None:
            return "group_created may only be the group's first event"
        return None if well_formed(env.group) else f"the group id {env.group!r} is not well-formed"
    if group is None:
        return "the group's log does not begin with group_created"
    members = {m["id"]: m["name"] for m in group["members"]}
    if env.actor != "admin" and env.actor not in members:
        return f"the actor {env.actor!r} is neither the admin nor a member of the group"
    check = _CHECKS.get(env.type)
    try:
        return check(rows, env, members, dealt) if check else None
    except (KeyError, TypeError, AttributeError, ValueError):
        return f"the {env.type} event is missing a field or holds one of the wrong kind"


def _member_added(rows, env, members, dealt) -> str | None:
    member, name = env.data["member"], env.data["name"]
    if not well_formed(member):
        return f"the member id {member!r} is not well-formed"
    if member in members:
        return f"member {member} is added a second time"
    if not isinstance(name, str) or not names.visible(name):
        return f"the member name {name!r} shows nothing"
    clash = next((other for other, shown in members.items() if names.key(shown) == names.key(name)), None)
    return f"the name {name!r} reads as the name of member {clash}" if clash else None


def _table_opened(rows, env, members, dealt) -> str | None:
    d = env.data
    table = d["table"]
    if not well_formed(table) or env.table != table:
        return f"the table id {table!r} is not well-formed or not the event's table"
    if ("table", table) in rows:
        return f"table {table} is opened a second time"
    if d["game"] not in GAMES:
        return f"{d['game']!r} is not a game bitka knows"
    game = GAMES[d["game"]]
    try:
        rules = game.parse_rules(d["rules"])
    except RuleViolation as e:
        return f"the table's rules are not {d['game']}'s: {e.detail}"
    seats = d["seats"]
    if not isinstance(seats, list) or len(seats) != game.seat_count(rules) or len(set(seats)) != len(seats) \
            or any(s not in members for s in seats):
        return f"the table's seats are not {game.seat_count(rules)} different members of the group"
    if d.get("entry", "scorer") not in ("scorer", "seats"):
        return f"the table's entry {d.get('entry')!r} is neither scorer nor seats"
    dealer = d.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(seats):
        return f"the table's first dealer {dealer!r} is not one of its seats"
    if "tournament" in d:
        return tournament_faults.table_of_a_round(rows, env)
    return _positive(d["stake"], rows[("group", "")]["digits"], "stake")


def _hand_start(rows, env, members, dealt) -> str | None:
    if not well_formed(env.hand) or env.hand in dealt:
        return f"the hand id {env.hand!r} is not well-formed or was used before"
    table = rows.get(("table", env.table))
    if table is None:
        return f"the hand is dealt at table {env.table!r}, which was never opened"
    if table["closed"]:
        return f"the hand is dealt at table {env.table}, which is closed"
    latest = table["latest_hand"]
    if latest and latest["status"] == "playing":
        return f"the hand is dealt while hand {latest['id']} is still being played at its table"
    if env.data["dealer"] != table["next_dealer"] or env.data["game"] != table["game"]:
        return f"it was seat {table['next_dealer']}'s deal of {table['game']}, not this one"
    return tournament_faults.beyond_deals(rows, env)


def _hand_play(rows, env, members, dealt) -> str | None:
    table = rows.get(("table", env.table))
    latest = table and table["latest_hand"]
    if not latest or latest["id"] != env.hand:
        return f"hand {env.hand!r} is not the latest hand of table {env.table!r}"
    if env.type == "hand_voided":
        return "the hand is voided twice" if latest["status"] == "voided" else _waits_for(rows, env)
    if latest["status"] != "playing":
        return f"hand {env.hand} is already {latest['status']}"
    if env.actor != "admin":
        whose = _whose(env, table, latest)
        if whose is not None and whose != env.actor:
            return f"{env.actor} logs a {env.type} that only {whose} (or the admin) may log"
    if env.type == "settlement":
        return _payouts(env.data, table, rows[("group", "")]["digits"])
    return None


def _whose(env, table, latest) -> str | None:
    """The member who alone may log ``env`` (beside the admin), or None when any member may:
    a seat's cards are its own member's, the face-up cards the dealer's; at a table where
    each seat logs its own, a seat's calls, plays and claims too."""
    seats, d = table["seats"], env.data
    seat = d.get("seat")
    if env.type == "seat_cards":
        seat = seat if "seat" in d else latest["dealer"]
    elif table.get("entry", "scorer") != "seats" or env.type not in ("bid", "play", "claim"):
        return None
    return seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None


def _payouts(data, table, digits: int) -> str | None:
    payouts = data["payouts"]
    if payouts and [p["member"] for p in payouts] != table["seats"]:
        return "the settlement pays others than the table's seats, in their order"
    if sum(parse_amount(p["amount"], digits, allow_negative=True) for p in payouts) != 0:
        return "the settlement's payouts do not sum to zero"
    return None


def _payment(rows, env, members, dealt) -> str | None:
    src, dst = env.data["from"], env.data["to"]
    if src not in members or dst not in members or src == dst:
        return "a payment is between two different members of the group"
    return _positive(env.data["amount"], rows[("group", "")]["digits"], "amount", MAX_BALANCE)


def _assertion(rows, env, members, dealt) -> str | None:
    return None if env.data["member"] in members else f"{env.data['member']!r} is not a member of the group"


def _table_closed(rows, env, members, dealt) -> str | None:
    return None if ("table", env.table) in rows else f"table {env.table!r} was never opened"


def _pay_details(rows, env, members, dealt) -> str | None:
    member, details = env.data["member"], {k: v for k, v in env.data.items() if k not in ("member", "signed")}
    if member not in members:
        return f"{member!r} is not a member of the group"
    if env.actor not in ("admin", member):
        return f"{env.actor} changes how {member} takes money, which only {member} or the admin does"
    try:
        kept = pay_details.checked(details)
    except Unprocessable as e:
        return e.detail
    return None if kept == details else "the pay_details are not written as bitka keeps them"


def _group_updated(rows, env, members, dealt) -> str | None:
    if env.actor != "admin":
        return "only the admin changes the group's settings"
    value = env.data["confirmations"]
    return None if value in ("payers", "off") else f"confirmations {value!r} is neither payers nor off"


def _confirmation(rows, env, members, dealt) -> str | None:
    if set(env.data) - {"settlement", "signed"}:
        return "a confirmation says nothing beside who confirmed which hand (and, signed, of which settlement)"
    waiting = (rows.get(("balances", "")) or {}).get("pending", {}).get(env.hand)
    if waiting is None:
        return f"hand {env.hand!r} has no settlement waiting to be confirmed"
    if env.actor not in balances.waiting(waiting):
        return f"{env.actor} confirms hand {env.hand} without paying in it, having logged it, or twice"
    return None


def _dispute(rows, env, members, dealt) -> str | None:
    waiting = (rows.get(("balances", "")) or {}).get("pending", {}).get(env.hand)
    if waiting is None:
        return f"hand {env.hand!r} is disputed with no settlement waiting to be confirmed"
    table = rows.get(("table", waiting["table"]))
    if not table or env.actor not in table["seats"]:
        return f"{env.actor} disputes hand {env.hand} without a seat at its table"
    return None if isinstance(env.data["reason"], str) and env.data["reason"] else "a dispute gives its reason"


def _correction(rows, env, members, dealt) -> str | None:
    if env.actor != "admin":
        return "only the admin corrects a hand"
    wrong = _waits_for(rows, env)
    if wrong:
        return wrong
    table = rows.get(("table", env.table))
    if env.data["hand"] != env.hand or env.hand not in dealt or table is None:
        return f"hand {env.hand!r} was never dealt at table {env.table!r}"
    if table["latest_hand"]["status"] == "playing":
        return f"a hand is corrected while hand {table['latest_hand']['id']} is still being played at its table"
    return None


def _waits_for(rows, env) -> str | None:
    """A correction or void logged since members' word is asked names exactly the members it
    lowers (projections/balances.py ``lowered``), as the ledger decided them."""
    if "waits_for" not in env.data:
        return None
    said = env.data["waits_for"]
    asks = rows[("group", "")].get("confirmations", "payers") != "off"  # a group that confirms nothing asks nobody
    given = balances.lowered(rows.get(("balances", "")), env.type, env.hand, env.data) if asks else []
    if not isinstance(said, list) or sorted(said) != given:
        return f"it waits for {said!r}, but the members it lowers are {given!r}"
    return None


def _agreement(rows, env, members, dealt) -> str | None:
    waiting = (rows.get(("balances", "")) or {}).get("corrections", {}).get(str(env.data.get("seq")))
    if waiting is None:
        return f"no correction at seq {env.data.get('seq')!r} waits for anyone's word"
    if env.actor not in waiting["waiting_for"] or env.actor in waiting["agreed"]:
        return f"{env.actor} agrees to a correction that does not wait for them"
    if env.hand != waiting["hand"] and env.hand not in [h for h, _ in waiting["changes"]]:
        return f"the correction at seq {env.data['seq']} does not change hand {env.hand!r}"
    return None


def _device(rows, env, members, dealt) -> str | None:
    """A device added or a member reset names a member of the group (the keys themselves are
    checked by projections/signatures.py)."""
    member = env.data["member"]
    if member not in members:
        return f"{member!r} is not a member of the group"
    if env.type == "member_reset" and env.actor != "admin":
        return "only the admin resets a member's devices"
    return None


def _tournament(check):
    """A tournament's check (projections/tournament_faults.py), given how ids are judged here."""
    def checked(rows, env, members, dealt) -> str | None:
        return check(rows, env, members, well_formed)
    return checked


def _positive(text, digits: int, what: str, limit: int = MAX_MINOR) -> str | None:
    try:
        return None if parse_amount(text, digits, limit=limit) > 0 else f"the {what} must be more than zero"
    except MoneyError as e:
        return f"the {what}: {e}"


_CHECKS = {"group_updated": _group_updated, "confirmation": _confirmation, "dispute": _dispute,
           "correction": _correction, "member_added": _member_added, "table_opened": _table_opened, "deal": _hand_start,
           "result": _hand_start, "payment": _payment, "assertion": _assertion, "table_closed": _table_closed,
           "pay_details": _pay_details, "device_added": _device, "member_reset": _device, "agreement": _agreement,
           **{kind: _tournament(check) for kind, check in (
               ("tournament_created", tournament_faults.tournament_created),
               ("round_drawn", tournament_faults.round_drawn), ("watch_opened", tournament_faults.watch),
               ("check_in", tournament_faults.check_in),
               ("watch_closed", tournament_faults.watch))},
           **{kind: _hand_play for kind in HAND_PLAY}}
