"""Briscola against a second reading of its rules file (rules/briscola.md), written here
apart from games/briscola: the ranks and points, who takes a trick, no duty to follow, the
stock drawn winner first with the briscola last, 60-60, the match to 2 and its money, and
the score sheet's splits against a brute-force search of the pack."""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import product

import pytest

from games.briscola import game as briscola
from games.engine.autoplay import play_out
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.table import after_game_hand, terms
from games.registry import GAMES

# The rules file, read again: high to low, and the points of each rank.
HIGH_TO_LOW = "A 3 K Q J 7 6 5 4 2".split()
WORTH = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
SUITS = "CSHD"


def worth(card: str) -> int:
    return WORTH.get(card[:-1], 0)


def taker(cards: list[str], trump: str) -> int:
    """The index of the card that takes the trick: the highest trump, else the highest of
    the suit led."""
    trumps = [i for i, c in enumerate(cards) if c[-1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[-1] == cards[0][-1]]
    return min(pool, key=lambda i: HIGH_TO_LOW.index(cards[i][:-1]))


def _deal(rng: random.Random, players: int, dealer: int = 0) -> dict:
    cards = sorted(r + s for r in HIGH_TO_LOW for s in SUITS)
    rng.shuffle(cards)
    return {"dealer": dealer, "hands": [cards[3 * i:3 * i + 3] for i in range(players)], "trump": cards[3 * players],
            "stock": cards[3 * players + 1:]}


def _start(deal: dict, players: int = 2, **rules):
    parsed = briscola.parse_rules({"players": players, **rules})
    return parsed, briscola.new_hand(parsed, briscola.deal_event(parsed, deal).data)


def _settle(rules, result: dict, match=(), stake=100):
    state = briscola.result_state(rules, briscola.result_event(rules, 0, result).data)
    return briscola.settle(state, TableTerms(stake, tuple(f"m{i}" for i in range(rules.players)), match=match))


def test_the_pack_ranks_and_points():
    pack = briscola.PACK
    assert len(pack) == 40 and {c[:-1] for c in pack} == set(HIGH_TO_LOW)  # no 8, 9 or 10: A K Q J 7..2
    assert sum(worth(c) for c in pack) == 120 == sum(briscola.CARDS.of(c) for c in pack)
    assert all(briscola.CARDS.of(c) == worth(c) for c in pack)
    assert GAMES["briscola"].title == "Briscola" and GAMES["briscola"].sight.pack(briscola.parse_rules({})) == pack


@pytest.mark.parametrize("cards, trump, taken", [
    (["3H", "AH"], "S", 1),  # the ace over the three
    (["KH", "3H"], "S", 1),  # the three over the king
    (["QH", "KH"], "S", 1),  # the king over the knight (Q)
    (["JH", "QH"], "S", 1),  # the knight over the knave (J)
    (["2H", "7H"], "S", 1),
    (["4H", "2H"], "S", 0),  # the 2 is the lowest
    (["AH", "2S"], "S", 1),  # the smallest trump over the ace of the suit led
    (["3C", "AD"], "H", 0),  # another suit, not trump, never takes
    (["2C", "AD", "KS", "4C"], "H", 3),  # four players: the suit led
    (["2C", "AD", "5H", "4H"], "H", 2),  # the highest trump
])
def test_who_takes_a_trick(cards, trump, taken):
    assert taker(cards, trump) == taken  # the test's own reading agrees with the example
    assert briscola.CARDS.winner_index(cards, trump) == taken


def test_any_card_may_be_played_and_the_stock_is_drawn_winner_first_with_the_briscola_last():
    for players, seed in ((2, 1), (4, 2)):
        rng = random.Random(seed)
        deal = _deal(rng, players)
        rules, state = _start(deal, players)
        assert state.turn == 1 and len(state.held[0]) == 3  # the seat after the dealer leads
        pile = list(deal["stock"]) + [deal["trump"]]
        leader, tricks = 1, 0
        while not briscola.is_over(state):
            lead = rng.choice(list(state.held[leader]))
            cards = [lead]
            for i in range(1, players):
                seat = (leader + i) % players
                # no duty to follow, to trump or to beat: every card held is legal
                assert sorted(briscola.legal_cards(state, seat, tuple(cards))) == sorted(state.held[seat])
                off_suit = [c for c in state.held[seat] if c[-1] != lead[-1]]
                cards.append(rng.choice(off_suit or list(state.held[seat])))
            [event] = briscola.decide(state, Command("trick", {"cards": cards}))
            winner = (leader + taker(cards, deal["trump"][-1])) % players
            assert event.data["winner"] == winner and event.data["points"] == sum(map(worth, cards))
            expected = [((winner + i) % players, pile.pop(0)) for i in range(players)] if pile else []
            assert [tuple(d) for d in event.data["draws"]] == expected
            state = briscola.evolve(state, event)
            tricks += 1
            if pile or expected:
                assert all(len(h) == 3 for h in state.held)  # drawn back up to three while the stock lasts
            if expected and not pile:
                assert expected[-1][1] == deal["trump"]  # the briscola is the last card drawn
            leader = winner
        assert tricks == 40 // players and not any(state.held) and state.pile == 0
        points, taken = state.won()
        assert sum(points) == 120 and sum(taken) == tricks


def test_a_card_not_held_or_not_yet_drawn_is_refused():
    rules, state = _start(_deal(random.Random(3), 2))
    with pytest.raises(RuleViolation):
        briscola.decide(state, Command("trick", {"cards": [state.held[1][0], state.stock[0]]}))
    with pytest.raises(RuleViolation):
        briscola.decide(state, Command("trick", {"cards": [state.held[1][0], state.trump_card]}))
    with pytest.raises(RuleViolation):
        briscola.decide(state, Command("bid", {"seat": 0, "call": "pass"}))


def test_sixty_sixty_wins_nobody_and_counts_as_played():
    rules = briscola.parse_rules({})
    s = _settle(rules, {"points": [60, 60], "tricks": [10, 10]}, match=(1, 0))
    assert (s.outcome, s.winner, s.amounts, s.pays) == ("60-60", None, (0, 0), False)
    assert s.extra["match"] == {"before": [1, 0], "hand": [0, 0], "after": [1, 0], "game_over": False,
                                "winners": []}
    assert [side.points for side in s.sides] == [60, 60]


def _play_results(rules, results, stake=100):
    """Settle score sheets one after another as the table does: what each hand paid, and
    the match each left."""
    match, paid = None, []
    for result in results:
        s = _settle(rules, result, terms(stake, (), {"hands_left": 0, "queued": 0}, match).match, stake)
        assert sum(s.amounts) == 0
        paid.append(s.amounts)
        match = after_game_hand(match, s.extra["match"])
    return paid, match


def test_a_match_to_two_and_its_money_per_game_or_per_match():
    two_to_one = [{"points": [70, 50], "tricks": [11, 9]}, {"points": [40, 80], "tricks": [8, 12]},
                  {"points": [60, 60], "tricks": [10, 10]}, {"points": [95, 25], "tricks": [13, 7]}]
    paid, match = _play_results(briscola.parse_rules({}), two_to_one)
    assert paid == [(100, -100), (-100, 100), (0, 0), (100, -100)]  # per game (the default): each game at once
    assert match["scores"] == [0, 0] and match["games"] == 1 and match["last_game"] == {"scores": [2, 1],
                                                                                       "winners": [0]}
    paid, _ = _play_results(briscola.parse_rules({"stake_per": "match"}), two_to_one)
    assert paid == [(0, 0), (0, 0), (0, 0), (100, -100)]  # per match: one stake from the loser, at its end
    # four players: each player of the losing pair pays one stake to a player of the winning one
    four = briscola.parse_rules({"players": 4})
    paid, match = _play_results(four, [{"points": [30, 90], "tricks": [3, 7]}] * 3)
    assert paid == [(-100, 100, -100, 100)] * 3
    assert match["games"] == 1 and match["scores"] == [0, 1]  # the third game starts the next match
    paid, _ = _play_results(briscola.parse_rules({"players": 4, "stake_per": "match", "match_to": 3}),
                            [{"points": [30, 90], "tricks": [3, 7]}] * 3)
    assert paid == [(0, 0, 0, 0)] * 2 + [(-100, 100, -100, 100)]


def test_the_table_rules():
    assert briscola.parse_rules({}).to_data() == {"players": 2, "match_to": 2, "stake_per": "game"}
    for bad in ({"players": 3}, {"players": True}, {"match_to": 0}, {"match_to": 6}, {"match_to": "2"},
                {"stake_per": "point"}, {"variant": "x"}):
        with pytest.raises(RuleViolation):
            briscola.parse_rules(bad)
    game = GAMES["briscola"]
    # a table of four whose rules leave players out plays in pairs; rules that say 2 are refused there, in words
    assert game.parse_rules(game.seated_rules({}, 4)).players == 4 and game.seated_rules({"players": 2}, 4) == {
        "players": 2}
    assert "players 2" in game.seating(game.parse_rules({}), 4) and game.seating(game.parse_rules({}), 2) is None


@lru_cache(maxsize=None)
def _reachable() -> frozenset[tuple[int, int]]:
    """Every (cards, card points) that some cards of the pack make: each count of each value
    tried (4 aces, 4 threes, 4 kings, 4 knights, 4 knaves, 20 cards worth nothing)."""
    counts = {11: 4, 10: 4, 4: 4, 3: 4, 2: 4, 0: 20}
    values = sorted(counts)
    return frozenset((sum(c), sum(n * v for n, v in zip(c, values, strict=True)))
                     for c in product(*(range(counts[v] + 1) for v in values)))


def _accepted(rules, points, tricks) -> bool:
    try:
        briscola.result_event(rules, 0, {"points": points, "tricks": tricks})
    except RuleViolation:
        return False
    return True


@pytest.mark.parametrize("players, points, tricks, ok", [
    (2, [120, 0], [20, 0], True), (2, [0, 120], [0, 20], True),
    (2, [5, 115], [0, 20], False),  # no trick, no points
    (2, [110, 10], [20, 0], False),  # every trick holds all 120
    (2, [22, 98], [1, 19], True), (2, [23, 97], [1, 19], False),  # 22 in one trick of two: two aces
    (2, [44, 76], [2, 18], True), (2, [1, 119], [1, 19], False),
    (4, [44, 76], [1, 9], True), (4, [45, 75], [1, 9], False),  # 44 in one trick of four: four aces
    (4, [61, 59], [5, 5], True),
    (2, [60, 61], [10, 10], False), (2, [60, 60], [10, 9], False), (4, [60, 60], [10, 10], False),
])
def test_score_sheet_splits(players, points, tricks, ok):
    assert _accepted(briscola.parse_rules({"players": players}), points, tricks) is ok


def test_a_split_is_possible_exactly_when_some_cards_of_its_tricks_add_up_to_it():
    reachable = _reachable()
    for players in (2, 4):
        rules, in_hand = briscola.parse_rules({"players": players}), 40 // players
        for tricks, points in product(range(in_hand + 1), range(121)):
            expected = (players * tricks, points) in reachable
            assert _accepted(rules, [points, 120 - points], [tricks, in_hand - tricks]) is expected, \
                (players, tricks, points)


def test_a_hand_played_out_settles_as_its_score_sheet():
    rng = random.Random(9)
    deal = _deal(rng, 4, dealer=2)
    rules, state = _start(deal, 4)
    state, tricks = play_out(briscola, state, rng.choice)
    members = ("a", "b", "c", "d")
    played = briscola.settle(state, TableTerms(50, members))
    sheet = briscola.sheet(state)
    by_sheet = _settle(rules, sheet, stake=50)
    assert (played.outcome, played.winner, played.amounts) == (by_sheet.outcome, by_sheet.winner, by_sheet.amounts)
    # the test's own count: replay the tricks from the seat after the dealer
    leader, points = 3, [0, 0]
    for cards in tricks:
        winner = (leader + taker(cards, deal["trump"][-1])) % 4
        points[winner % 2] += sum(map(worth, cards))
        leader = winner
    assert sheet["points"] == points and [side.points for side in played.sides] == points
