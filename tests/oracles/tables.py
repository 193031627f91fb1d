"""Whole tables of hands logged by their results, read a second time from the rules files
for tests: what each seat is up or down after a sequence of results, with what spans the
hands (Baśka's bok-rundy and their queue, Scopa's games to a target, Bisca's matches).
Independent of games/: the rules of each result are the oracles' own (kop.py, baska.py)."""
from __future__ import annotations

from tests.games.baska.oracle import WON, baska_money
from tests.games.kop.oracle import kop_money

BOK_RUNDA = 4  # rules/baska.md: the four deals after a bok

def _sides(result):
    contract = result["contract"]
    if contract == "normal":
        return False, set(result["stare"])
    if contract == "wesele":
        return False, {result["declarer"], result["partner"]}
    return True, {result["declarer"]}

def total(per_hand, seats: int) -> list[int]:
    """What each seat is up or down after the hands (each hand's payouts per seat)."""
    return [sum(paid[seat] for paid in per_hand) for seat in range(seats)]


def kop_table(results, stake):
    """Kop: each hand pays on its own. Each hand's payouts, per seat."""
    per_hand = []
    for r in results:
        lone, side = _sides(r)
        per_hand.append(kop_money(r["contract"], lone, side, r["points"], r["tricks"], r["doubles"], stake))
    return per_hand

def baska_table(results, variant, stake):
    """Baśka: in bytow-2005 a 52-52 (of any contract but baska) or a du contract makes a
    bok-runda due; it doubles the four hands after the one that made it due, and one that
    falls due while another runs waits for it to end."""
    per_hand, left, queued = [], 0, 0
    for r in results:
        running = left > 0
        if r["contract"] == "baska":
            paid = [30 * stake if s == r["declarer"] else -10 * stake for s in range(4)]
            due = False
        else:
            lone, side = _sides(r)
            assert r["contract"] in ("normal", "wesele") or r["contract"] in WON[variant]
            paid = baska_money(r["contract"], lone, side, r["points"], r["tricks"], r["doubles"], variant, running,
                               stake)
            due = variant == "bytow-2005" and (r["contract"] in ("gran-du", "zolo-du") or r["points"] == 52)
        per_hand.append(paid)
        if running:
            left -= 1
        if due:
            queued += 1
        if left == 0 and queued:
            left, queued = BOK_RUNDA, queued - 1
    return per_hand

def scopa_table(results, players, target, stake):
    """Scopa, stake per game (the default): a hand's points per side are a point each for
    cards, coins, primiera (a tie: nobody) and the settebello, and one per scopa; a game
    ends when a side reaches the target at the end of a hand (the highest wins; equal
    highest: play on), the losers paying ``stake`` as in a normal split."""
    sides = 2 if players == 4 else players
    seats_of = [[0, 2], [1, 3]] if players == 4 else [[s] for s in range(players)]
    per_hand, score = [], [0] * sides
    for r in results:
        paid = [0] * players
        for category in ("cards", "coins", "primiera", "settebello"):
            if r[category] is not None:
                score[r[category]] += 1
        score = [a + b for a, b in zip(score, r["scopas"], strict=True)]
        top = max(score)
        if top >= target and score.count(top) == 1:
            winner = score.index(top)
            for side, seats in enumerate(seats_of):
                for seat in seats:
                    if players == 3:
                        paid[seat] = 2 * stake if side == winner else -stake
                    else:
                        paid[seat] = stake if side == winner else -stake
            score = [0] * sides
        per_hand.append(paid)
    return per_hand

def bisca_table(results, variant, players, match_to, stake):
    """Bisca (not capixaba): the side with 61 card points or more takes the hand's game
    points (tres: 1; nove: 4 for every trick, 2 for 82 or more, else 1; quatro and seis: 4,
    2 for 91 or more, 1); 60-60 gives nobody any. The first side to ``match_to`` wins the
    match: each loser pays ``stake``, each winner receives it, and a new match begins."""
    seats_of = [[0, 2], [1, 3]] if players == 4 else [[0], [1]]
    per_hand, score = [], [0, 0]
    for r in results:
        paid = [0] * players
        per_hand.append(paid)
        winner = 0 if r["points"][0] >= 61 else (1 if r["points"][1] >= 61 else None)
        if winner is None:
            continue
        p, every = r["points"][winner], r["tricks"][1 - winner] == 0
        if variant == "tres":
            g = 1
        elif variant == "nove":
            g = 4 if every else (2 if p >= 82 else 1)
        else:
            g = 4 if every else (2 if p >= 91 else 1)
        score[winner] += g
        if score[winner] >= match_to:
            for side, seats in enumerate(seats_of):
                for seat in seats:
                    paid[seat] = stake if side == winner else -stake
            score = [0, 0]
    return per_hand


# The rules each game's table is read for here (a game's name, the rules as a table sends
# them), and each hand's payouts per seat at a stake of 100: for the tests that hold a
# game's table to its rules file where one is read (tests/api/test_corrections.py).
READINGS = {"kop": ({}, lambda results: kop_table(results, 100)),
            "baska": ({"variant": "bytow-2005"}, lambda results: baska_table(results, "bytow-2005", 100)),
            "scopa": ({"players": 2, "target": 11}, lambda results: scopa_table(results, 2, 11, 100)),
            "bisca": ({"variant": "nove"}, lambda results: bisca_table(results, "nove", 2, 4, 100))}
