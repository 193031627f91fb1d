"""``bitka demo``: a demo group with complete hands of every game, then its balances.

What each game's tables play is the game's own (``Game.words.demo``: its contracts one by one, a
doubled round, a game or a match played to its end...); a game that says nothing plays a
few random hands of its first preset."""
from __future__ import annotations

import random
import shlex
from typing import Mapping

import click

from games.engine.autoplay import hand_at_random
from games.engine.contract import DemoTable, Game
from games.registry import GAMES
from projections.hands import waiting_for
from service import handlers
from service.commands import AddMember, Confirm, CreateGroup, NewHand, OpenTable

from . import output
from .options import store_option

MEMBERS = ("Ala", "Bartek", "Celina", "Darek")
RANDOM_HANDS = 3  # played at the table of a game that has no demo of its own


def _random_hands(game: Game, chance: random.Random, number: int, last: Mapping | None) -> dict | None:
    if number >= RANDOM_HANDS:
        return None
    rules = game.parse_rules(game.words.presets[0].rules)
    return hand_at_random(game, rules, chance, number % game.seat_count(rules))


def tables_of(game: Game) -> tuple[DemoTable, ...]:
    """What the demo plays of ``game``."""
    preset = game.words.presets[0]
    return game.words.demo or (DemoTable(preset.rules, "0.50", preset.players, _random_hands),)


@click.command()
@click.option("--seed", default=7, show_default=True, help="Shuffle seed: the same seed gives the same demo.")
@store_option
@click.pass_obj
def demo(obj, seed):
    """Fill the store with a demo group that plays every game bitka scores, each as the game
    shows itself (its contracts one by one, doubles, a doubled round, a game or a match
    played to its end, a bonus), and print the group's balances.

    \b
    Example:
      bitka --db demo.db demo && bitka --db demo.db verify
    """
    store = obj.store(create=True)
    chance = random.Random(seed)
    with store.writing() as w:
        group = handlers.handle(CreateGroup("Demo: Thursday cards", "PLN"), w)
        gid = group.id
        members = [handlers.handle(AddMember(gid, "admin", name), w).id for name in MEMBERS]
    for game in GAMES.values():
        for table in tables_of(game):
            _play(store, gid, game, table, members, chance)
    with store.reading() as r:
        grow, brow, waiting = r.row("group", gid, ""), r.row("balances", gid, ""), r.pending_entries(gid)
    click.echo(f"made group {gid} ({grow['name']}); its admin token is {group.admin_token}")
    output.print_balances(grow, brow, waiting)
    _how_to_look(obj.shown, gid)


def _play(store, gid: str, game: Game, table: DemoTable, members, chance: random.Random) -> None:
    """A table of the demo opened and its hands played, one line each."""
    with store.writing() as w:
        row = handlers.handle(OpenTable(gid, "admin", {"game": game.name, "rules": dict(table.rules),
                                                        "stake": table.stake, "seats": members[:table.players]}), w)
    number, last = 0, None
    while (body := table.hands(game, chance, number, last)) is not None:
        hand = _new_hand(store, gid, row, body)
        last = hand.settlement
        click.echo(f"{game.name} hand {hand.id}: {_said(last)}")
        number += 1


def _said(settlement: Mapping) -> str:
    """A settled hand in a line: who won, how, and the game score where there is one."""
    winner = settlement.get("winner")
    line = f"{winner if winner not in (None, []) else 'nobody'} win ({settlement['outcome']}), " \
           f"x{settlement['multiplier']}"
    match = settlement.get("match")
    if match:
        line += f", score {match['after']}" + (" - game over" if match["game_over"] else "")
    return line


def _new_hand(store, gid: str, table: dict, body: dict):
    """A whole hand logged at ``table`` by the admin, and confirmed by every member who pays
    in it (the admin is no payer, so it waits for them): the hand's model, settled."""
    with store.writing() as w:
        hand = handlers.handle(NewHand(gid, "admin", table["id"], body), w).hand
        for payer in waiting_for(hand):
            hand = handlers.handle(Confirm(gid, payer, hand.id), w).hand
        return hand


def _how_to_look(db: str, gid: str) -> None:
    """The commands that show the demo group, with its store and id filled in."""
    db = shlex.quote(db)
    click.echo("To look at it:")
    click.echo(f"  bitka --db {db} stats --group {gid}")
    click.echo(f"  bitka --db {db} verify --group {gid}")
    click.echo(f"  bitka --db {db} serve    then open http://127.0.0.1:8000/ and sign in with the admin token")
