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


def findings(envelopes: Iterable) -> Iterator[tuple[bool, str]]:
    """(held, sentence) for each draw and each table it opened, in the log's order."""
    tournaments: dict[str, _Tournament] = {}
    before = None  # the hash of the event before the one read
    for env in envelopes:
        if hashlib.sha256(env.canonical()).hexdigest() != env.hash or env.prev_hash != (before or GENESIS):
            yield False, f"event {env.seq} does not hold: its hash or its link to the event before it is not its own"
            return  # a draw after it is seeded from a hash nobody can trust
        d = env.data
        if env.type == "tournament_created":
            tournaments[d.get("tournament")] = _Tournament(d, d.get("commitment"))
        elif env.type == "round_drawn":
            try:
                yield _round(tournaments.get(d.get("tournament")), env, before)
            except (KeyError, TypeError, AttributeError, ValueError, RuleViolation):
                # a forged log can rehash anything: what no bitka wrote is a finding, not a traceback
                yield False, (f"round_drawn at seq {env.seq}: it or its tournament's creation is not as bitka "
                              "writes them")
        elif env.type == "check_in":
            yield from _checked_in(tournaments.get(d.get("tournament")), env)
        elif env.type == "table_opened" and "tournament" in d:
            t = tournaments.get(d.get("tournament"))
            seats = t.tables.get(d.get("table")) if t else None
            yield (seats == d.get("seats"), f"table {d.get('table')} (seq {env.seq}) "
                   + ("opens as round {}'s draw seats it".format(d.get("round")) if seats == d.get("seats")
                      else "is not one the draw before it seats so"))
        before = env.hash


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


def _round(t: _Tournament | None, env, before: str | None) -> tuple[bool, str]:
    d = env.data
    said = f"round {d.get('round')} of tournament {d.get('tournament')} (seq {env.seq})"
    if t is None:
        return False, f"{said}: the tournament was never created in this log"
    t.drawn += 1
    players = t.created["players"]
    by_check_ins = t.created.get("draw") == 2
    after = max((seq for _, seq in t.check_ins.values()), default=env.seq - 1) if by_check_ins else env.seq - 1
    if d.get("round") != t.drawn or before is None or d.get("after") != after:
        return False, f"{said}: it is not drawn right after the event it names (seq {after}), as round {t.drawn}"
    if by_check_ins and d.get("absent") != [p for p in players if p not in t.check_ins]:
        return False, f"{said}: the players it draws without a check-in are not those who had none"
    game = GAMES.get(t.created["game"])
    rules = game.parse_rules({k: v for k, v in t.created["rules"].items() if k != "entry"}) if game else None
    sizes = table_sizes(game, rules, len(players)) if game else None
    entropies = [t.check_ins[p][0] for p in players if p in t.check_ins] if by_check_ins else None
    why = draw.fault(d, players, t.commitment, before, sizes, entropies)
    t.commitment, t.check_ins = d.get("commitment"), {}
    if why:
        return False, f"{said}: {why}"
    t.tables = {table["id"]: table["seats"] for table in d["tables"]}
    return True, f"{said}: drawn as its secret says ({', '.join(str(len(s)) for s in t.tables.values())} at tables)"


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
