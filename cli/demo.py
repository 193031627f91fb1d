"""``bitka demo``: a demo group with complete hands, then its balances."""
from __future__ import annotations

import random

import click

from games import kop
from games.autoplay import play_out
from games.base import Command
from service import ledger

from . import output

MEMBERS = ("Ala", "Bartek", "Celina", "Darek")


def _deal(rng: random.Random, wanted) -> list[list[str]]:
    """Shuffle until the deal is one the demo wants (``wanted(hands)`` is true)."""
    cards = sorted(kop.PACK)
    while True:
        rng.shuffle(cards)
        hands = [sorted(cards[i * 4:(i + 1) * 4]) for i in range(4)]
        if wanted(hands):
            return hands


def _both_queens(hands):
    return next((s for s, h in enumerate(hands) if {"QC", "QS"} <= set(h)), None)


def _hand_body(dealer: int, hands, calls) -> dict:
    """The whole hand: the deal, its calls and four tricks played with the first legal card."""
    rules = kop.parse_rules({})
    state = kop.new_hand(rules, {"dealer": dealer, "hands": hands})
    for call in calls:
        for event in kop.decide(state, Command("bid", call)):
            state = kop.evolve(state, event)
    _, tricks = play_out(kop, state)
    return {"deal": {"dealer": dealer, "hands": hands}, "bids": calls, "tricks": [{"cards": t} for t in tricks]}


def _plans(rng: random.Random):
    """(name, deal predicate, calls for that deal) for each hand of the demo."""
    def solo_calls(hands, dealer):
        declarer = (dealer + 1) % 4
        opponent = (declarer + 1) % 4
        return [{"seat": declarer, "call": "zolo"}, {"seat": opponent, "call": "kontra"},
                {"seat": declarer, "call": "re"}]
    return [
        ("normal game", lambda h: _both_queens(h) is None, lambda h, d: []),
        ("wesele", lambda h: _both_queens(h) is not None,
         lambda h, d: [{"seat": _both_queens(h), "call": "wesele"}]),
        ("cicha", lambda h: _both_queens(h) is not None, lambda h, d: []),
        ("zolo with kontra and re", lambda h: "AH" in h[(_dealer_of(3) + 1) % 4], solo_calls),
        ("normal game with a kontra", lambda h: _both_queens(h) is None,
         lambda h, d: [{"seat": (d + 1) % 4, "call": "kontra"}]),
    ]


def _dealer_of(index: int) -> int:
    return index % 4


@click.command()
@click.option("--seed", default=7, show_default=True, help="Shuffle seed: the same seed gives the same demo.")
@click.pass_obj
def demo(obj, seed):
    """Fill the store with a demo group: a Kop table and complete hands (normal, wesele,
    cicha, zolo with doubles), then print its balances.

    \b
    Example:
      bitka --db demo.db demo && bitka --db demo.db verify
    """
    store = obj.store(create=True)
    rng = random.Random(seed)
    with store.writing() as w:
        group = ledger.create_group(w, "Demo: Thursday Kop", "PLN")
        gid = group["id"]
        members = [ledger.add_member(w, gid, "admin", name) for name in MEMBERS]
        table = ledger.open_table(w, gid, "admin", {"game": "kop", "rules": {}, "stake": "0.50",
                                                    "seats": [m["id"] for m in members]})
    for index, (name, wanted, calls) in enumerate(_plans(rng)):
        dealer = _dealer_of(index)
        hands = _deal(rng, wanted)
        with store.writing() as w:
            hand = ledger.new_hand(w, gid, "admin", table["id"], _hand_body(dealer, hands, calls(hands, dealer)))
        s = hand["settlement"]
        click.echo(f"hand {hand['id']}: {name}: {s['contract']}, {s['winner']} win ({s['outcome']}), x{s['multiplier']}")
    with store.reading() as r:
        grow, brow = r.row("group", gid, ""), r.row("balances", gid, "")
    click.echo(f"group {gid}; admin token {group['admin_token']}")
    output.print_balances(grow, brow)
