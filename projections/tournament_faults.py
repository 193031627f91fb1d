"""What a tournament's events must mean, beyond their hashes (projections/integrity.py's
checks for them): a tournament created by the admin with players who are members and fit
its tables; each round drawn in turn, once the last one's tables played their deals, from
the secret committed to before and the hash of the event before the draw, its tables the
players shuffled by that seed (events/draw.py), each opened right after it as the draw says;
no hand at a round's table beyond its deals; watch links opened and ended by the admin.
Each check takes the rows folded from the events before ``env`` and says what is wrong."""
from __future__ import annotations

import re

from events import draw
from events.money import MoneyError, parse_amount
from games.engine.errors import RuleViolation
from games.registry import GAMES

from . import tournaments as fold

HEX32 = re.compile(r"[0-9a-f]{64}")
LIMITS = {"rounds": 100, "deals": 1000}


def tournament_created(rows, env, members, well_formed) -> str | None:
    d = env.data
    if env.actor != "admin":
        return "only the admin creates a tournament"
    if not well_formed(d["tournament"]) or (fold.NAME, d["tournament"]) in rows:
        return f"the tournament id {d['tournament']!r} is not well-formed or was used before"
    game = GAMES.get(d["game"])
    if game is None:
        return f"{d['game']!r} is not a game bitka knows"
    said = {k: v for k, v in d["rules"].items() if k != "entry"}
    try:
        rules = game.parse_rules(said)
    except RuleViolation as e:
        return f"the tournament's rules are not {d['game']}'s: {e.detail}"
    players = d["players"]
    if not isinstance(players, list) or len(set(players)) != len(players) or any(p not in members for p in players):
        return "the tournament's players are not different members of the group"
    if fold.table_sizes(game, said, len(players)) is None:
        return f"{len(players)} players fit no tables of {d['game']}"
    for name, most in LIMITS.items():
        if not _whole(d[name]) or not 1 <= d[name] <= most:
            return f"the tournament's {name} is not a whole number from 1 to {most}"
    places = d["places"]
    if not isinstance(places, list) or not places or not all(_whole(p) and p >= 0 for p in places) \
            or places != sorted(places, reverse=True) or len(places) > game.seat_count(rules):
        return "the tournament's places are not table points by place, best first"
    try:
        if parse_amount(d["stake"], rows[("group", "")]["digits"]) <= 0:
            return "the tournament's stake must be more than zero"
    except MoneyError as e:
        return f"the tournament's stake: {e}"
    if not isinstance(d["commitment"], str) or not HEX32.fullmatch(d["commitment"]):
        return "the tournament's commitment is not 64 lowercase hex digits"
    return None


def round_drawn(rows, env, members, well_formed) -> str | None:
    d = env.data
    if env.actor != "admin":
        return "only the admin draws a round"
    row = rows.get((fold.NAME, d["tournament"]))
    if row is None:
        return f"round {d.get('round')!r} is drawn for tournament {d['tournament']!r}, which was never created"
    number = len(row["drawn_rounds"]) + 1
    if d["round"] != number or number > row["rounds"]:
        return f"the draw is of round {d['round']!r}, but the tournament's next round is {number} of {row['rounds']}"
    by_check_ins = fold.by_check_ins(row)
    after = max((c["seq"] for c in row["check_ins"].values()), default=env.seq - 1) if by_check_ins else env.seq - 1
    if d["after"] != after:
        return f"the draw says it came after seq {d['after']!r}, but it comes after seq {after}"
    if by_check_ins and d.get("absent") != [p for p in row["players"] if p not in row["check_ins"]]:
        return "the draw's absent players are not exactly those who had not checked in"
    if row["drawn_rounds"]:
        playing = [t["id"] for t in row["drawn_rounds"][-1]["tables"]
                   if fold.played(rows.get((fold.SCORE, t["id"]))) < row["deals"]]
        if playing:
            return f"round {number} is drawn while tables {', '.join(playing)} still play round {number - 1}"
    game = GAMES[row["game"]]
    said = {k: v for k, v in row["rules"].items() if k != "entry"}
    # A log read without its hashes (replay's fold) leaves the seed's link to them to the
    # readers of hashes: verify's chain, an import's draw decided again, bitka draw --check.
    why = draw.fault(d, row["players"], row["commitment"], env.prev_hash or None,
                     fold.table_sizes(game, said, len(row["players"])),
                     fold.entropies(row) if by_check_ins else None)
    if why:
        return f"the draw of round {number} is not the one its secret makes: {why}"
    last = number == row["rounds"]
    if (d["commitment"] is None) != last or (not last and not HEX32.fullmatch(str(d["commitment"]))):
        return "the draw's commitment to the next round is not 64 lowercase hex digits (null after the last round)"
    return None


def check_in(rows, env, members, well_formed) -> str | None:
    """A player of a tournament drawn by check-ins, once for its next round, with 32 bytes of entropy."""
    d = env.data
    row = rows.get((fold.NAME, d["tournament"]))
    if row is None or not fold.by_check_ins(row):
        return f"a check-in for tournament {d['tournament']!r}, which is not drawn by check-ins"
    if env.actor != d["member"] or d["member"] not in row["players"]:
        return f"{env.actor} checks in for {d['member']!r}, who must be a player checking in for themself"
    if d["round"] != len(row["drawn_rounds"]) + 1 or d["round"] > row["rounds"]:
        return f"a check-in for round {d['round']!r}, which is not the tournament's next round"
    if d["member"] in row["check_ins"]:
        return f"{d['member']} checks in twice for round {d['round']}"
    return None if HEX32.fullmatch(str(d["entropy"])) else "a check-in's entropy is not 64 lowercase hex digits"


def table_of_a_round(rows, env) -> str | None:
    """A table opened with ``tournament``: one of the tables its round's draw (just before)
    seats, as the draw seats it, at the tournament's stake and deals."""
    d = env.data
    row = rows.get((fold.NAME, d["tournament"]))
    drawn = row["drawn_rounds"][-1] if row and row["drawn_rounds"] else None
    if drawn is None or drawn["round"] != d["round"]:
        return f"table {d['table']} is opened for a round of tournament {d['tournament']!r} that was not drawn"
    seated = next((t["seats"] for t in drawn["tables"] if t["id"] == d["table"]), None)
    if seated != d["seats"] or d["stake"] != row["stake"] or d["deals"] != row["deals"] or d["game"] != row["game"]:
        return f"table {d['table']} is not opened as round {d['round']}'s draw seats it"
    return None


def beyond_deals(rows, env) -> str | None:
    """A hand dealt at a round's table that has played its deals."""
    table = rows.get(("table", env.table)) or {}
    if "deals" in table and fold.played(rows.get((fold.SCORE, env.table))) >= table["deals"]:
        return f"the hand is dealt at table {env.table}, which has played the {table['deals']} deals of its round"
    return None


def watch(rows, env, members, well_formed) -> str | None:
    d = env.data
    if env.actor != "admin":
        return "only the admin opens and ends a watch link"
    row = rows.get((fold.NAME, d["tournament"]))
    if row is None or not HEX32.fullmatch(str(d["watch"])):
        return "the watch link is not a code's SHA-256 of a tournament of the group"
    if env.type == "watch_closed" and d["watch"] not in row["watches"]:
        return "the watch link ended is not open"
    return None


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
