"""``bitka demo``: a demo group with complete hands, then its balances."""
from __future__ import annotations

import random
import shlex

import click

from games.baska import game as baska

from games.bisca import game as bisca

from games.kop import game as kop

from games.scopa import game as scopa
from games.engine.autoplay import play_out, play_scopa
from games.engine.base import Command
from projections.hands import waiting_for
from service import handlers
from service.commands import AddMember, Confirm, CreateGroup, NewHand, OpenTable

from . import output
from .options import store_option

MEMBERS = ("Ala", "Bartek", "Celina", "Darek")


def _deal(rng: random.Random, dealer: int, wanted) -> list[list[str]]:
    """Shuffle until the deal is one the demo wants (``wanted(hands, dealer)`` is true)."""
    cards = sorted(kop.PACK)
    while True:
        rng.shuffle(cards)
        hands = [sorted(cards[i * 4:(i + 1) * 4]) for i in range(4)]
        if wanted(hands, dealer):
            return hands


def _both_queens(hands) -> int | None:
    return next((s for s, h in enumerate(hands) if {"QC", "QS"} <= set(h)), None)


def _split_queens(hands, dealer) -> bool:
    return _both_queens(hands) is None


def _one_has_both_queens(hands, dealer) -> bool:
    return _both_queens(hands) is not None


def _strong_first_hand(hands, dealer) -> bool:
    return {"AH", "10H"} <= set(hands[(dealer + 1) % 4])


def _hand_body(module, rules, dealer: int, hands, calls) -> dict:
    """The whole hand: the deal, its calls and four tricks played with the first legal card."""
    state = module.new_hand(rules, {"dealer": dealer, "hands": hands})
    for call in calls:
        for event in module.decide(state, Command("bid", call)):
            state = module.evolve(state, event)
    _, tricks = play_out(module, state)
    return {"deal": {"dealer": dealer, "hands": hands}, "bids": calls, "tricks": [{"cards": t} for t in tricks]}


def _first_hand_calls(*names: str):
    """Calls made in turn from the seat after the dealer, one name each."""
    def calls(hands, dealer):
        return [{"seat": (dealer + 1 + i) % 4, "call": n} for i, n in enumerate(names)]
    return calls


# Each hand of the demo: what it shows, the deal it needs, and its calls.
KOP_PLANS = [
    ("normal game", _split_queens, lambda hands, dealer: []),
    ("wesele", _one_has_both_queens, lambda hands, dealer: [{"seat": _both_queens(hands), "call": "wesele"}]),
    ("cicha", _one_has_both_queens, lambda hands, dealer: []),
    ("zolo with kontra and re", _strong_first_hand,
     lambda hands, dealer: [{"seat": (dealer + 1) % 4, "call": "zolo"}, {"seat": (dealer + 2) % 4, "call": "kontra"},
                            {"seat": (dealer + 1) % 4, "call": "re"}]),
    ("normal game with a kontra", _split_queens, _first_hand_calls("kontra")),
]
# Baśka, tournament rules: a du makes a bok-runda due, so the hands after it are doubled.
BASKA_PLANS = [
    ("zolo-du", _strong_first_hand, _first_hand_calls("zolo-du")),
    ("normal game in the bok-runda", _split_queens, lambda hands, dealer: []),
    ("gran with kontra in the bok-runda", _split_queens, _first_hand_calls("gran", "kontra")),
    ("wesele in the bok-runda", _one_has_both_queens,
     lambda hands, dealer: [{"seat": _both_queens(hands), "call": "wesele"}]),
]


def _play_table(store, gid: str, table: dict, module, plans, rng) -> None:
    rules = module.parse_rules(table["rules"])
    for dealer, (name, wanted, calls) in enumerate(plans):
        dealer %= 4  # the deal passes round the table
        hands = _deal(rng, dealer, wanted)
        hand = _new_hand(store, gid, table, _hand_body(module, rules, dealer, hands, calls(hands, dealer)))
        s = hand.settlement
        click.echo(f"{table['game']} hand {hand.id}: {name}: {s['winner']} win ({s['outcome']}), "
                   f"x{s['multiplier']}")


def _new_hand(store, gid: str, table: dict, body: dict):
    """A whole hand logged at ``table`` by the admin, and confirmed by every member who pays
    in it (the admin is no payer, so it waits for them): the hand's model, settled."""
    with store.writing() as w:
        hand = handlers.handle(NewHand(gid, "admin", table["id"], body), w).hand
        for payer in waiting_for(hand):
            hand = handlers.handle(Confirm(gid, payer, hand.id), w).hand
        return hand


def _open_table(w, gid: str, body: dict) -> dict:
    return handlers.handle(OpenTable(gid, "admin", body), w)


def _scopa_deal(rng: random.Random, dealer: int) -> dict:
    """A two-player scopa deal (shuffled again while 3 or 4 kings would lie face up)."""
    cards = sorted(scopa.PACK)
    while True:
        rng.shuffle(cards)
        if sum(1 for c in cards[6:10] if c[:-1] == "K") < 3:
            return {"dealer": dealer, "hands": [cards[0:3], cards[3:6]], "table": cards[6:10], "stock": cards[10:]}


def _play_scopa_game(store, gid: str, table: dict, rng) -> None:
    """Hands of scopa until one ends the game (the first legal play each time)."""
    rules = scopa.parse_rules(table["rules"])
    for number in range(60):
        deal = _scopa_deal(rng, number % 2)
        _, plays = play_scopa(scopa, scopa.new_hand(rules, deal))
        hand = _new_hand(store, gid, table, {"deal": deal, "plays": plays})
        s = hand.settlement
        click.echo(f"scopa hand {hand.id}: points {[side['points'] for side in s['sides']]}, "
                   f"game score {s['match']['after']}" + (" - game over" if s["match"]["game_over"] else ""))
        if s["match"]["game_over"]:
            return


def _bisca_deal(rng: random.Random, variant: str, dealer: int) -> dict:
    """A shuffled bisca deal (in capixaba, shuffled again while an ace or a 7 would be cut)."""
    v = bisca.VARIANTS[variant]
    cards = sorted(bisca.PACKS[v.pack])
    while True:
        rng.shuffle(cards)
        if variant != "capixaba" or cards[-1][:-1] not in ("A", "7"):
            n = v.players
            return {"dealer": dealer, "hands": [cards[i * v.hand:(i + 1) * v.hand] for i in range(n)],
                    "trump": cards[-1], "stock": cards[n * v.hand:-1]}


def _bisca_hand(rules, deal: dict, match_before) -> tuple[object, list]:
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": list(match_before)})
    return play_out(bisca, state)


def _play_bisca(store, gid: str, seats, rng) -> None:
    """A de Nove match played to its end, and a Capixaba hand with a rela in it."""
    with store.writing() as w:
        nove = _open_table(w, gid, {"game": "bisca", "rules": {"variant": "nove"}, "stake": "1.00",
                                    "seats": seats[:2]})
        capixaba = _open_table(w, gid, {"game": "bisca", "rules": {"variant": "capixaba"}, "stake": "0.50",
                                        "seats": seats})
    rules, scores = bisca.parse_rules({"variant": "nove"}), [0, 0]
    for number in range(60):
        deal = _bisca_deal(rng, "nove", number % 2)
        _, tricks = _bisca_hand(rules, deal, scores)
        hand = _new_hand(store, gid, nove, {"deal": deal, "tricks": [{"cards": t} for t in tricks]})
        match = hand.settlement["match"]
        scores = match["after"]
        click.echo(f"bisca nove hand {hand.id}: match {scores}" + (" - match over" if match["game_over"] else ""))
        if match["game_over"]:
            break
    rules = bisca.parse_rules({"variant": "capixaba"})
    while True:  # deal until the first legal cards make a rela
        deal = _bisca_deal(rng, "capixaba", 0)
        state, tricks = _bisca_hand(rules, deal, [0, 0])
        if any(b["name"].startswith("rela") for t in state.tricks for b in t.bonuses):
            break
    hand = _new_hand(store, gid, capixaba, {"deal": deal, "tricks": [{"cards": t} for t in tricks]})
    names = [b["name"] for b in hand.settlement["bonuses"]]
    points = hand.settlement["match"]["hand"]
    click.echo(f"bisca capixaba hand {hand.id}: {', '.join(names)}; game points {points}")


@click.command()
@click.option("--seed", default=7, show_default=True, help="Shuffle seed: the same seed gives the same demo.")
@store_option
@click.pass_obj
def demo(obj, seed):
    """Fill the store with a demo group: a Kop table with complete hands (normal, wesele,
    cicha, zolo with doubles), a Baśka table (tournament rules) where a zolo-du starts a
    bok-runda, a two-player Scopa table played until a game is won, a de Nove match played
    to its end and a Capixaba hand with a rela; then print the group's balances.

    \b
    Example:
      bitka --db demo.db demo && bitka --db demo.db verify
    """
    store = obj.store(create=True)
    rng = random.Random(seed)
    with store.writing() as w:
        group = handlers.handle(CreateGroup("Demo: Thursday cards", "PLN"), w)
        gid = group.id
        seats = [handlers.handle(AddMember(gid, "admin", name), w).id for name in MEMBERS]
        kop_table = _open_table(w, gid, {"game": "kop", "rules": {}, "stake": "0.50", "seats": seats})
        baska_table = _open_table(w, gid, {"game": "baska", "rules": {"variant": "bytow-2005"}, "stake": "0.10",
                                           "seats": seats})
    _play_table(store, gid, kop_table, kop, KOP_PLANS, rng)
    _play_table(store, gid, baska_table, baska, BASKA_PLANS, rng)
    with store.writing() as w:
        scopa_table = _open_table(w, gid, {"game": "scopa", "rules": {}, "stake": "1.00", "seats": seats[:2]})
    _play_scopa_game(store, gid, scopa_table, rng)
    _play_bisca(store, gid, seats, rng)
    with store.reading() as r:
        grow, brow = r.row("group", gid, ""), r.row("balances", gid, "")
    click.echo(f"made group {gid} ({grow['name']}); its admin token is {group.admin_token}")
    output.print_balances(grow, brow)
    _how_to_look(obj.shown, gid)


def _how_to_look(db: str, gid: str) -> None:
    """The commands that show the demo group, with its store and id filled in."""
    db = shlex.quote(db)
    click.echo("To look at it:")
    click.echo(f"  bitka --db {db} stats --group {gid}")
    click.echo(f"  bitka --db {db} verify --group {gid}")
    click.echo(f"  bitka --db {db} serve    then open http://127.0.0.1:8000/ and sign in with the admin token")
