"""``bitka draw --check``: every round of every tournament drawn again from the log alone, as
anyone can (API.md "Drawing a round"): each revealed secret against the commitment published
before it, each seed against the secret and the hash of the event before the draw (or, in a
tournament drawn from its players' check-ins, each checked-in player's entropy), each
round's tables against the players shuffled by that seed, and each table the draw opened
against the draw. It reads a store's group, or an exported log (what a player was given)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import click

from events import draw
from events.canonical import GENESIS
from games.engine.errors import RuleViolation
from games.registry import GAMES
from projections.tournaments import table_sizes

from .options import store_option
from .transfer import read_lines


@dataclass
class _Tournament:
    created: dict
    commitment: str | None
    drawn: int = 0
    tables: dict[str, list[str]] = field(default_factory=dict)  # of the last draw, each table's seats
    check_ins: dict[str, tuple[str, int]] = field(default_factory=dict)  # "draw": 2: member -> (entropy, seq)


@dataclass
class _Opening:
    """The tables a draw that held opens, in its order: bitka appends them right after it,
    in the same write, so each must be the very next event."""
    said: str  # the draw, as a finding names it
    tournament: str
    tables: list[str]


# What a forged log may hold where bitka writes a dict, a list or text: a finding, never a traceback.
_NOT_AS_WRITTEN = (KeyError, TypeError, AttributeError, ValueError, IndexError, RuleViolation)


def findings(envelopes: Iterable) -> Iterator[tuple[bool, str]]:
    """(held, sentence) for each draw and each table it opened, in the log's order."""
    tournaments: dict[str, _Tournament] = {}
    before = None  # the hash of the event before the one read
    opening: _Opening | None = None  # the tables the last draw still has to open
    for env in envelopes:
        if hashlib.sha256(env.canonical()).hexdigest() != env.hash or env.prev_hash != (before or GENESIS):
            yield False, f"event {env.seq} does not hold: its hash or its link to the event before it is not its own"
            return  # a draw after it is seeded from a hash nobody can trust
        if opening is not None and not _opens_next(opening, env):
            yield False, (f"{opening.said}: its table {_named(opening.tables[0])} is not opened right after it: "
                          f"{env.type} at seq {env.seq} comes between the draw and its tables")
            opening = None
        try:
            found, opening = _event(tournaments, env, before, opening)
            yield from found
        except _NOT_AS_WRITTEN:
            yield False, f"{env.type} at seq {env.seq}: it or its tournament's creation is not as bitka writes them"
        before = env.hash
    if opening is not None:
        yield False, f"{opening.said}: its table {_named(opening.tables[0])} is never opened after it"


def _opens_next(opening: _Opening, env) -> bool:
    d = env.data
    return env.type == "table_opened" and d.get("tournament") == opening.tournament and \
        d.get("table") == opening.tables[0]


def _named(value) -> str:
    """An id as a finding names it: text as it is, anything else as JSON would show it."""
    return value if isinstance(value, str) else repr(value)


def _event(tournaments: dict[str, _Tournament], env, before: str | None,
           opening: _Opening | None) -> tuple[list[tuple[bool, str]], _Opening | None]:
    """The findings of one event, and the tables still to be opened after it."""
    d = env.data
    if env.type not in ("tournament_created", "round_drawn", "check_in", "table_opened") or \
            (env.type == "table_opened" and "tournament" not in d):
        return [], opening
    if not isinstance(d.get("tournament"), str):
        return [(False, f"{env.type} at seq {env.seq}: its tournament id {_named(d.get('tournament'))} is not text, "
                        "as bitka writes it")], None
    if env.type == "tournament_created":
        tournaments[d["tournament"]] = _Tournament(d, d.get("commitment"))
        return [], opening
    t = tournaments.get(d["tournament"])
    if env.type == "round_drawn":
        held, said, tables = _round(t, env, before)
        named = f"round {d.get('round')} of tournament {d['tournament']} (seq {env.seq})"
        return [(held, said)], _Opening(named, d["tournament"], tables) if held and tables else None
    if env.type == "check_in":
        return list(_checked_in(t, env)), opening
    found = _opened(t, env, opening)
    return [found], _Opening(opening.said, opening.tournament, opening.tables[1:]) if opening and \
        opening.tables[1:] else None


def _opened(t: _Tournament | None, env, opening: _Opening | None) -> tuple[bool, str]:
    """A table a tournament's draw opened: the next one the draw before it seats, so seated."""
    d = env.data
    said = f"table {_named(d.get('table'))} (seq {env.seq})"
    if opening is None:
        return False, f"{said} is not opened right after a draw that seats it"
    seats = t.tables.get(d["table"]) if t else None
    if seats != d.get("seats"):
        return False, f"{said} is not one the draw before it seats so"
    return True, f"{said} opens as round {d.get('round')}'s draw seats it"


def _checked_in(t: _Tournament | None, env) -> Iterator[tuple[bool, str]]:
    """A check-in is kept for its round's draw when a player checks in for themself, once, for
    the round to draw next; anything else is a finding (and kept out of the seed)."""
    d = env.data
    said = f"check-in at seq {env.seq}"
    if t is None or t.created.get("draw") != 2:
        yield False, f"{said}: for a tournament that is not drawn from check-ins"
    elif env.actor != d.get("member") or d.get("member") not in t.created["players"]:
        yield False, f"{said}: {env.actor} checks in for {d.get('member')!r}, not a player checking in for themself"
    elif d.get("round") != t.drawn + 1 or d.get("member") in t.check_ins:
        yield False, f"{said}: not the first check-in of {d.get('member')} for the round to draw next"
    else:
        t.check_ins[d["member"]] = (d.get("entropy"), env.seq)


def _round(t: _Tournament | None, env, before: str | None) -> tuple[bool, str, list[str]]:
    """(held, sentence, the ids of the tables it opens) of a round's draw."""
    d = env.data
    said = f"round {d.get('round')} of tournament {d.get('tournament')} (seq {env.seq})"
    if t is None:
        return False, f"{said}: the tournament was never created in this log", []
    t.drawn += 1
    players = t.created["players"]
    by_check_ins = t.created.get("draw") == 2
    after = max((seq for _, seq in t.check_ins.values()), default=env.seq - 1) if by_check_ins else env.seq - 1
    if d.get("round") != t.drawn or before is None or d.get("after") != after:
        return False, f"{said}: it is not drawn right after the event it names (seq {after}), as round {t.drawn}", []
    if by_check_ins and d.get("absent") != [p for p in players if p not in t.check_ins]:
        return False, f"{said}: the players it draws without a check-in are not those who had none", []
    game = GAMES.get(t.created["game"])
    rules_said = {k: v for k, v in t.created["rules"].items() if k != "entry"}
    sizes = table_sizes(game, rules_said, len(players)) if game else None
    entropies = [t.check_ins[p][0] for p in players if p in t.check_ins] if by_check_ins else None
    why = draw.fault(d, players, t.commitment, before, sizes, entropies)
    t.commitment, t.check_ins, t.tables = d.get("commitment"), {}, {}
    if why:
        return False, f"{said}: {why}", []
    t.tables = {table["id"]: table["seats"] for table in d["tables"]}
    return (True, f"{said}: drawn as its secret says ({', '.join(str(len(s)) for s in t.tables.values())} at tables)",
            [table["id"] for table in d["tables"]])


@click.command("draw")
@click.option("--check", is_flag=True, required=True, help="Draw every round again and compare (the only mode).")
@click.option("--group", "group", help="The group, in the store.")
@click.option("--log", "log", type=click.Path(exists=True, dir_okay=False),
              help="An exported log (bitka export) instead of the store.")
@store_option
@click.pass_obj
def draw_command(obj, check, group, log):
    """Draw every tournament round again from the log alone and compare: each secret with the
    commitment published before it, each seed with that secret and the hash of the event
    before the draw, each round's tables with the players shuffled by the seed. Exit 1 when
    any draw differs.

    \b
    Examples:
      bitka draw --check --group g_3f9a1c2b7d10
      bitka draw --check --log club.jsonl
    """
    if (group is None) == (log is None):
        raise click.UsageError("name the log to check: --group G (in the store) or --log FILE (an export)")
    if log is not None:
        with open(log, "rb") as handle:
            found = list(findings(read_lines(handle)))
    else:
        with obj.store().reading() as r:
            if r.count(group) == 0:
                raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
            found = list(findings(r.scan(group)))
    for held, sentence in found:
        click.echo(("ok: " if held else "DIFFERS: ") + sentence)
    if not found:
        click.echo("no round was drawn in this log")
    if not all(held for held, _ in found):
        raise SystemExit(1)
