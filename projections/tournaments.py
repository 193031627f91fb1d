"""A tournament's row and its tables' small points (pure folds), as API.md "Points, tables of
five, tournaments and seasons" reads them.

The tournament row (``tournament``, one per tournament) is what it was created with, each
round's draw as it was answered, the commitment to the next draw, every commitment published
so far (``published``: round 1's at creation, then each draw's to the next round, so the
seat plan of round k can show what was promised before it was drawn) and the watch links that
are open (by the SHA-256 of their codes). The table score (``table_score``, one per table a
draw opened) is what counts of each seat's payouts there, folded exactly as the group's
balances are (projections/balances.py: a settlement counts once its payers agree, a void
takes it back, a correction moves it), and the hands the table has played, which a round's
``deals`` caps.
"""
from __future__ import annotations

from typing import Mapping

from events import draw

from . import balances

NAME = "tournament"
EVENTS = frozenset({"tournament_created", "round_drawn", "watch_opened", "watch_closed", "check_in"})
SCORE = "table_score"
SCORE_EVENTS = frozenset({"table_opened", "settlement", "hand_voided", "confirmation", "dispute", "correction",
                          "agreement"})
FIELDS = ("name", "game", "rules", "players", "rounds", "deals", "places", "stake", "commitment")


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    if event.type == "tournament_created":
        made = {"id": d["tournament"], **{k: d[k] for k in FIELDS}, "drawn_rounds": [], "watches": [],
                "published": [d["commitment"]]}
        return {**made, "draw": 2, "check_ins": {}} if d.get("draw") == 2 else made
    if row is None:
        return None
    if event.type == "round_drawn":
        drawn = {k: v for k, v in d.items() if k != "tournament"}
        published = [*row.get("published", []), *([d["commitment"]] if d["commitment"] else [])]
        row = dict(row, drawn_rounds=[*row["drawn_rounds"], drawn], commitment=d["commitment"], published=published)
        return dict(row, check_ins={}) if "check_ins" in row else row
    if event.type == "check_in":  # a player's device is here for the next round, with entropy of its own
        return dict(row, check_ins={**row["check_ins"], d["member"]: {"entropy": d["entropy"], "seq": event.seq}})
    if event.type == "watch_opened":
        return dict(row, watches=[*row["watches"], d["watch"]])
    if event.type == "watch_closed":
        return dict(row, watches=[w for w in row["watches"] if w != d["watch"]],
                    ended=[*row.get("ended", []), d["watch"]])
    return row


def key(event) -> str | None:
    """The tournament an event of ``EVENTS`` is about."""
    return event.data.get("tournament")


def score(row: dict | None, event) -> dict | None:
    """A tournament table's small points: ``money`` a balances row over its seats alone,
    ``played`` the hands settled there and not voided (in the order they were settled)."""
    d = event.data
    if event.type == "table_opened":
        if "tournament" not in d:
            return None  # a table of an evening: its money is the group's balances
        digits = len(d["stake"].partition(".")[2])
        return {"money": {"digits": digits, "members": {m: 0 for m in d["seats"]}}, "played": []}
    if row is None:
        return None
    money = balances.apply(row["money"], event)
    played = row["played"]
    if event.type == "settlement" and event.hand not in played:
        played = [*played, event.hand]
    elif event.type == "hand_voided" or (event.type == "correction" and d.get("void")):
        played = [h for h in played if h != event.hand]
    if money is row["money"] and played is row["played"]:
        return row
    return {"money": money, "played": played}


def small(row: dict | None) -> dict[str, int]:
    """What counts of each member's payouts at the table (minor units, or whole points)."""
    return dict(row["money"]["members"]) if row else {}


def by_check_ins(row: dict) -> bool:
    """Whether the tournament's rounds are drawn from its players' check-ins (``"draw": 2``)."""
    return row.get("draw") == 2


def entropies(row: dict) -> list[str]:
    """The entropy of each player checked in for the next round, in the tournament's player order."""
    return [row["check_ins"][p]["entropy"] for p in row["players"] if p in row["check_ins"]]


def played(row: dict | None) -> int:
    """How many hands the table has played (settled, not voided)."""
    return len(row["played"]) if row else 0


def table_sizes(game, said: Mapping, players: int) -> list[int] | None:
    """How ``players`` sit at the game's tables under the rules ``said`` (as the tournament
    was given them, without ``entry``): its own size, the last ones one larger as many as
    needed where the game seats one more (its dealer sitting out) and the rules leave that
    open; None if they fit no tables."""
    size = game.seat_count(game.parse_rules(said))
    larger = size + 1 if game.seated(said, size + 1) is not None else None
    return draw.table_sizes(players, size, larger)
