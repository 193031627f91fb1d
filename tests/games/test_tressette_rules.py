"""Tressette against a reading of ../shared/rules/tressette.md: ranks and thirds, must follow,
the stock of the game for two with its draws shown, the declarations, the game to its
target, the money and the score sheet; and the unit every game declares (issue 45, point 1)."""
import random

import pytest

from games.engine.autoplay import play_through
from games.engine.base import Command, TableTerms
from games.engine.errors import Revealing, RuleViolation
from games.engine.units import POINT, THIRD
from games.engine.words import trick as trick_said
from games.tressette import GAME
from games.tressette import game as tressette
from games.tressette.rules import CARDS, IN_A_HAND, PACK, parse_rules
from games.tressette.scoring import game_end

WHO = "seat {}".format


def _state(rules: dict, hands, stock=(), dealer=3):
    parsed = parse_rules(rules)
    return GAME.initial_state(parsed, GAME.parse_deal(parsed, {"dealer": dealer, "hands": hands,
                                                               **({"stock": list(stock)} if stock else {})}).data)


def _do(state, kind: str, data: dict):
    for event in GAME.decide(state, Command(kind, data)):
        state = GAME.evolve(state, event)
    return state


def _shuffled(seed: int) -> list[str]:
    cards = sorted(PACK)
    random.Random(seed).shuffle(cards)
    return cards


def _four(seed: int = 1, hands=None):
    cards = _shuffled(seed)
    return hands or [cards[i * 10:(i + 1) * 10] for i in range(4)]


def test_ranks_thirds_and_the_eleven_points_of_a_hand():
    assert CARDS.order == ("3", "2", "A", "K", "Q", "J", "7", "6", "5", "4")
    assert CARDS.winner_index(["AC", "3C", "2C"], None) == 1 and CARDS.winner_index(["4C", "3D", "AH"], None) == 0
    assert sum(CARDS.of(c) for c in PACK) + CARDS.last_trick == IN_A_HAND == 35
    assert [CARDS.of(c) for c in ("AS", "3S", "2S", "KS", "QS", "JS", "7S", "4S")] == [3, 1, 1, 1, 1, 1, 0, 0]
    assert all(THIRD.whole_points(a) + THIRD.whole_points(35 - a) == 11 for a in range(36))
    assert THIRD.said(7) == "2 point(s) (7 third(s))" and POINT.said(7) == "7 point(s)"
    trick = {"trick": 1, "leader": 0, "cards": ["3C", "4C", "5C", "6C"], "winner": 0, "points": 1}
    assert trick_said(trick, WHO, THIRD).endswith("seat 0 wins 0 point(s) (1 third(s))")
    assert trick_said(trick, WHO).endswith("seat 0 wins 1 card points")  # a game of whole points: as before
    assert GAME.forms.unit == THIRD


def test_a_whole_hand_must_follow_and_scores_in_thirds():
    state = _state({}, _four(2), dealer=3)
    assert GAME.moves.turn(state) == 0  # the player after the dealer leads
    led = state.held[0][0]
    same = [c for c in state.held[1] if c[-1] == led[-1]]
    if same:
        assert GAME.moves.legal_cards(state, 1, (led,)) == same
        other = next((c for c in state.held[1] if c[-1] != led[-1]), None)
        if other:
            after = _do(state, "play", {"seat": 0, "card": led})
            with pytest.raises(RuleViolation, match="must follow"):
                GAME.decide(after, Command("play", {"seat": 1, "card": other}))
    done, _ = play_through(GAME, state)
    settled = GAME.settle(done, TableTerms(100, ("a", "b", "c", "d")))
    thirds = tressette.sheet(done)["thirds"]
    assert sum(thirds) == 35 and sum(t.points for t in done.tricks) == 35
    assert [s.points for s in settled.sides] == [t // 3 for t in thirds]
    assert any("point(s) (" in line and "third(s))" in line for line in settled.explanation)


def test_the_stock_for_two_the_winner_draws_first_and_the_draws_are_shown():
    cards = _shuffled(3)
    hands, stock = [cards[:10], cards[10:20]], cards[20:]
    for show in (True, False):
        state = _state({"players": 2, "show_draws": show}, hands, stock, dealer=1)
        lead = state.held[0][0]
        answer = GAME.moves.legal_cards(state, 1, (lead,))[0]
        state = _do(state, "trick", {"cards": [lead, answer]})
        draws = state.tricks[0].draws
        assert [s for s, _ in draws] == [state.tricks[0].winner, 1 - state.tricks[0].winner]
        assert [c for _, c in draws] == stock[:2]
        for seat, card in draws:
            assert card in state.held[seat]
            assert (card in GAME.sight.visible(state, 1 - seat)) is show  # shown to the other player, or not
            assert (card in GAME.sight.view(state)["table_cards"]) is show
    done, _ = play_through(GAME, _state({"players": 2}, hands, stock, dealer=0))
    assert len(done.tricks) == 20 and GAME.is_terminal(done) and sum(tressette.sheet(done)["thirds"]) == 35


def test_seat_by_seat_for_two_each_drawn_card_is_sealed_from_nobody():
    cards = _shuffled(4)
    rules = parse_rules({"players": 2})
    state = GAME.initial_state(rules, GAME.parse_deal(rules, {"dealer": 1}).data)
    assert GAME.moves.owed(state) == {"0": 10, "1": 10}
    state = _do(_do(state, "cards", {"seat": 0, "cards": cards[:10]}), "cards", {"seat": 1, "cards": cards[10:20]})
    lead = state.held[0][0]
    state = _do(state, "trick", {"cards": [lead, GAME.moves.legal_cards(state, 1, (lead,))[0]]})
    assert GAME.moves.owed(state) == {"0": 1, "1": 1}
    with pytest.raises(RuleViolation):
        GAME.decide(state, Command("play", {"seat": state.leader, "card": state.held[state.leader][0]}))
    state = _do(state, "cards", {"seat": 1, "cards": [cards[20]]})
    assert cards[20] in GAME.sight.visible(state, 0) and cards[20] in GAME.sight.visible(state, None)
    with pytest.raises(RuleViolation, match="owes no card"):
        GAME.decide(state, Command("cards", {"seat": 1, "cards": [cards[21]]}))


def _with(cards_of_seat0: list[str]):
    rest = [c for c in _shuffled(5) if c not in cards_of_seat0]
    seat0 = cards_of_seat0 + rest[:10 - len(cards_of_seat0)]
    rest = rest[10 - len(cards_of_seat0):]
    return [seat0, rest[:10], rest[10:20], rest[20:30]]


def test_declarations_are_checked_against_the_cards_held():
    hands = _with(["AD", "2D", "3D", "AC", "AS", "2C", "2S", "2H", "3C"])
    state = _state({"accuse": True}, hands)
    offered = GAME.moves.offers(state, 0)
    assert offered and offered[0].body["call"] == "accuse"
    declared = _do(state, "bid", {"seat": 0, "call": "accuse", "cards": ["AD", "2D", "3D", "AC", "AS"]})
    assert declared.declared[0]["points"] == 3 + 3  # a napoletana of diamonds, three aces
    assert {"AD", "2D", "3D", "AC", "AS"} <= GAME.sight.visible(declared, 1)  # shown to the table
    four_twos = _do(state, "bid", {"seat": 0, "call": "accuse", "cards": "2D,2C,2S,2H"})  # as a page's form sends it
    assert four_twos.declared[0]["points"] == 4
    with pytest.raises(RuleViolation, match="once per hand"):
        GAME.decide(declared, Command("bid", {"seat": 0, "call": "accuse", "cards": ["2C", "2S", "2H"]}))
    with pytest.raises(Revealing, match="does not hold"):
        GAME.decide(state, Command("bid", {"seat": 0, "call": "accuse", "cards": ["AH", "2H", "3H"]}))
    with pytest.raises(Revealing, match="make no declaration"):
        GAME.decide(state, Command("bid", {"seat": 0, "call": "accuse", "cards": ["AD", "2D", "3D", "3C"]}))
    played = _do(state, "play", {"seat": 0, "card": hands[0][-1]})
    with pytest.raises(RuleViolation, match="before one's first card"):
        GAME.decide(played, Command("bid", {"seat": 0, "call": "accuse", "cards": ["AD", "2D", "3D"]}))
    with pytest.raises(RuleViolation, match="without declarations"):
        GAME.decide(_state({}, hands), Command("bid", {"seat": 0, "call": "accuse", "cards": ["AD", "2D", "3D"]}))
    done, _ = play_through(GAME, declared)
    settled = GAME.settle(done, TableTerms(100, ("a", "b", "c", "d")))
    assert settled.sides[0].points == tressette.sheet(done)["thirds"][0] // 3 + 6


@pytest.mark.parametrize("target", [11, 21, 31])
def test_the_game_to_its_target_both_reaching_it_and_a_tie(target):
    assert game_end([target - 1, 3], target).outcome == "hand"
    assert game_end([target, 3], target).winners == [0]
    assert game_end([target + 2, target + 4], target).winners == [1]  # both reach it: the higher total
    assert game_end([target + 1, target + 1], target).outcome == "tie"  # a tie plays another hand
    with pytest.raises(RuleViolation):
        parse_rules({"target": target + 1})


@pytest.mark.parametrize("stake_per", ["game", "point"])
def test_money_when_a_game_is_won_sums_to_zero(stake_per):
    rules = parse_rules({"stake_per": stake_per, "target": 11})
    result = GAME.parse_result(rules, 0, {"thirds": [26, 9], "tricks": [7, 3], "last": 0}).data
    state = GAME.result_state(rules, result)
    settled = GAME.settle(state, TableTerms(100, ("a", "b", "c", "d"), match=(5, 9)))
    assert settled.extra["match"]["after"] == [13, 12] and settled.winner == [0, 2]
    margin = 1 if stake_per == "game" else 13 - 12
    assert settled.amounts == (100 * margin, -100 * margin, 100 * margin, -100 * margin) and sum(settled.amounts) == 0
    wide = GAME.settle(state, TableTerms(100, ("a", "b", "c", "d"), match=(5, 0)))
    assert wide.amounts[0] == (100 if stake_per == "game" else 100 * (13 - 3)) and sum(wide.amounts) == 0
    going = GAME.settle(state, TableTerms(100, ("a", "b", "c", "d")))
    assert not going.pays and going.amounts == (0, 0, 0, 0)


@pytest.mark.parametrize("sheet, accepted", [
    ({"thirds": [20, 15], "tricks": [6, 4], "last": 1}, True),
    ({"thirds": [35, 0], "tricks": [10, 0], "last": 0}, True),
    ({"thirds": [20, 14], "tricks": [6, 4], "last": 1}, False),  # 34 thirds
    ({"thirds": [20, 15], "tricks": [6, 5], "last": 1}, False),  # 11 tricks
    ({"thirds": [33, 2], "tricks": [10, 0], "last": 0}, False),  # a side with no trick has no thirds
    ({"thirds": [33, 2], "tricks": [9, 1], "last": 1}, False),  # the last trick's side has 3 thirds at least
    ({"thirds": [34, 1], "tricks": [9, 1], "last": 0}, True),
    ({"thirds": [20, 15], "tricks": [6, 4], "last": 2}, False),
])
def test_the_score_sheet_takes_a_split_tricks_could_give(sheet, accepted):
    rules = parse_rules({})
    if accepted:
        assert GAME.parse_result(rules, 0, sheet).data["result"] == sheet
    else:
        with pytest.raises(RuleViolation):
            GAME.parse_result(rules, 0, sheet)


def test_the_score_sheet_of_two_players_and_of_declarations():
    two = parse_rules({"players": 2})
    assert GAME.parse_result(two, 0, {"thirds": [18, 17], "tricks": [11, 9], "last": 0})
    with pytest.raises(RuleViolation):
        GAME.parse_result(two, 0, {"thirds": [18, 17], "tricks": [6, 4], "last": 0})
    declaring = parse_rules({"accuse": True})
    sheet = {"thirds": [18, 17], "tricks": [5, 5], "last": 0, "accuse": [6, 0]}
    state = GAME.result_state(declaring, GAME.parse_result(declaring, 0, sheet).data)
    assert [s.points for s in GAME.settle(state, TableTerms(100, tuple("abcd"))).sides] == [6 + 6, 5]
    for wrong in ([1, 0], [2, 0], [25, 0]):
        with pytest.raises(RuleViolation):
            GAME.parse_result(declaring, 0, {**sheet, "accuse": wrong})
    with pytest.raises(RuleViolation):
        GAME.parse_result(parse_rules({}), 0, sheet)  # no declarations at this table
