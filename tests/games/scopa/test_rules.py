"""Scopa, rule by rule (rules/scopa.md), with the seed's own capture examples."""
import pytest

from games.scopa import game as scopa
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation

TABLE = ["AC", "3S", "4H", "5D", "7C"]  # the seed's table: A 3 4 5 7


def options(card, table=TABLE):
    return sorted(sorted(o) for o in scopa.captures(card, table)[1])


def test_the_pack_is_forty_cards_without_8_9_10_and_face_cards_count_8_9_10():
    assert len(scopa.PACK) == 40 and not any(c[:-1] in ("8", "9", "10") for c in scopa.PACK)
    assert [scopa.value(c) for c in ("AD", "7D", "JD", "QD", "KD")] == [1, 7, 8, 9, 10]


def test_seed_a_3_takes_the_3():
    assert options("3H") == [["3S"]]


def test_seed_a_queen_worth_9_takes_4_and_5():
    # The seed names 4+5; A+3+5 makes 9 too, and the rules file lets the player choose.
    assert ["4H", "5D"] in options("QS") and options("QS") == [["3S", "5D", "AC"], ["4H", "5D"]]
    state = _state([["QS", "KH"], ["3C", "KS"]], TABLE, dealer=1)
    assert sorted(play(state, "QS", ["4H", "5D"])[1]["capture"]) == ["4H", "5D"]


def test_seed_a_6_takes_ace_and_5():
    assert options("6S") == [["5D", "AC"]]


def test_seed_a_5_takes_only_the_5_never_ace_and_4():
    assert options("5C") == [["5D"]]


def test_seed_a_jack_worth_8_may_take_5_3_or_4_3_a_or_7_a_and_nothing_else():
    assert options("JS") == [["3S", "4H", "AC"], ["3S", "5D"], ["7C", "AC"]]


def test_a_card_matching_no_card_and_no_sum_captures_nothing():
    assert scopa.captures("KS", ["AC", "2D"]) == ("none", [])


def _state(hands, table, stock=(), dealer=1, players=2, captured=None, **rules):
    rules = scopa.parse_rules({"players": players, **rules})
    state = scopa.ScopaState(rules, dealer, tuple(tuple(h) for h in hands), tuple(table), tuple(stock),
                             tuple(tuple(c) for c in (captured or [()] * players)), (0,) * players)
    return state


def play(state, card, capture=None):
    body = {"card": card} if capture is None else {"card": card, "capture": capture}
    [event] = scopa.decide(state, Command("play", body))
    return scopa.evolve(state, event), event.data


def test_seat_after_the_dealer_plays_first_and_a_card_out_of_turn_is_refused():
    state = _state([["2C", "KH"], ["3C", "KS"]], ["2D", "6S"], dealer=1)
    assert state.turn == 0
    with pytest.raises(RuleViolation, match="3C is held by seat 1, but it is seat 0's turn"):
        play(state, "3C")


def test_a_card_that_can_capture_must_capture():
    state = _state([["2C", "KH"], ["3C", "KS"]], ["2D", "6S"], dealer=1)
    with pytest.raises(RuleViolation, match="a card that can capture must capture: 2C can take 2D"):
        play(state, "2C", [])
    state, data = play(state, "KH")  # a card that captures nothing may still be chosen
    assert data["capture"] == [] and "KH" in state.table


def test_a_single_match_must_be_taken_not_a_sum():
    state = _state([["5C", "KH"], ["3C", "KS"]], ["AC", "4H", "5D"], dealer=1)
    with pytest.raises(RuleViolation, match="5C may capture 5D, not AC\\+4H: a card matching a single table card"):
        play(state, "5C", ["AC", "4H"])


def test_several_legal_captures_and_none_chosen_is_refused_listing_them():
    state = _state([["JS", "KH"], ["3C", "KS"]], TABLE, dealer=1)
    with pytest.raises(RuleViolation, match="JS can capture AC\\+7C; 3S\\+5D; AC\\+3S\\+4H: say which"):
        play(state, "JS")
    state, data = play(state, "JS", ["7c", "ac"])
    assert sorted(data["capture"]) == ["7C", "AC"] and data["by"] == "sum"


def test_clearing_the_table_is_a_scopa():
    state, data = play(_state([["6C", "KH"], ["3C", "KS"]], ["2D", "4S"], dealer=1), "6C")
    assert data["scopa"] and state.scopas == (1, 0) and state.table == ()


def test_when_every_hand_is_empty_three_cards_go_to_each_seat_from_the_stock_after_the_dealer():
    state = _state([[], ["KH"]], ["2D"], stock=["AC", "2C", "3C", "AS", "2S", "3S"], dealer=0)
    state, data = play(state, "KH")  # seat 1 plays first; now every hand is empty
    assert data["dealt"] == [["AS", "2S", "3S"], ["AC", "2C", "3C"]]  # seat 1 gets stock[0:3]
    assert state.stock == () and state.turn == 0


def test_the_last_capturer_sweeps_the_table_and_a_last_play_sweep_is_no_scopa():
    state = _state([["QS"], ["2H"]], ["4D", "5C"], dealer=1)
    state, data = play(state, "QS")  # takes 4+5 and clears the table: a scopa
    assert data["scopa"]
    state, data = play(state, "2H")  # the last card of the hand goes to the table...
    assert data["sweep"] == {"seat": 0, "cards": ["2H"]} and not data["scopa"]
    assert state.captured[0][-1] == "2H" and scopa.is_over(state)


def test_clearing_the_table_with_the_very_last_play_is_no_scopa():
    state, data = play(_state([[], ["3H"]], ["3C"], dealer=0, captured=[["AC"], []]), "3H")
    assert data["capture"] == ["3C"] and not data["scopa"] and scopa.is_over(state)


def test_a_deal_with_three_kings_on_the_table_must_be_redealt():
    cards = sorted(scopa.PACK)
    table = ["KC", "KS", "KH", "2C"]
    rest = [c for c in cards if c not in table]
    deal = {"dealer": 0, "hands": [rest[:3], rest[3:6]], "table": table, "stock": rest[6:]}
    with pytest.raises(RuleViolation, match="3 kings: this deal must be redealt"):
        scopa.deal_event(scopa.parse_rules({}), deal)


@pytest.mark.parametrize("rules, why", [
    ({"players": 5}, "players must be"), ({"deal": "scopone"}, "for four players"),
    ({"target": 10}, "target must be"), ({"target": 62}, "target must be"), ({"target": 21.5}, "target must be"),
    ({"target": True}, "target must be"), ({"stake_per": "hand"}, "stake_per")])
def test_rules_are_checked(rules, why):
    with pytest.raises(RuleViolation, match=why):
        scopa.parse_rules(rules)


@pytest.mark.parametrize("target", [11, 12, 16, 21, 31, 41, 61])
def test_a_game_is_played_to_any_whole_target_from_11_to_61(target):
    assert scopa.parse_rules({"target": target}).target == target


def _finished(captured, scopas=(0, 0), players=2):
    rules = scopa.parse_rules({"players": players})
    return scopa.ScopaState(rules, 0, tuple(() for _ in range(players)), (), (),
                            tuple(tuple(c) for c in captured), tuple(scopas))


HALF_A = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC",
          "AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "7D"]  # 19 cards, no hearts
HALF_B = [c for c in sorted(scopa.PACK) if c not in HALF_A]  # KC KS, the hearts, 9 coins: 21 cards


def test_primiera_a_side_missing_a_suit_has_none():
    from games.scopa.scoring import hand_score, primiera
    assert primiera(HALF_A) is None and primiera(HALF_B)[0] > 0
    points, lines = hand_score(_finished([HALF_A, HALF_B]))
    # A: the settebello; B: cards (21 v 19), coins (9 v 1), primiera (A has no hearts)
    assert points == [1, 3]
    assert any(line.startswith("primiera: seat 0 - (a suit missing) v seat 1") for line in lines)


def test_three_players_tied_for_most_cards_score_nobody_for_cards():
    from games.scopa.scoring import hand_score
    cards = sorted(scopa.PACK)
    a = [c for c in cards if c[-1] == "C"] + ["AS", "2S", "3S", "4S"]
    b = [c for c in cards if c[-1] == "H"] + ["5S", "6S", "7S", "JS"]
    rest = [c for c in cards if c not in a + b]
    _, lines = hand_score(_finished([a, b, rest], scopas=(0, 0, 0), players=3))
    assert lines[0].endswith("a tie, nobody scores") and len(a) == len(b) == 14


def settle(state, before=(), stake=100):
    return scopa.settle(state, TableTerms(stake, tuple(f"m{i}" for i in range(state.rules.players)), match=before))


def test_a_hand_that_ends_no_game_carries_its_score_and_no_payouts():
    s = settle(_finished([HALF_A, HALF_B]), before=(3, 4))
    assert s.outcome == "hand" and not s.pays and s.extra["match"]["after"] == [4, 7]


def test_two_sides_passing_the_target_in_one_hand_the_higher_wins():
    s = settle(_finished([HALF_A, HALF_B], scopas=(3, 0)), before=(9, 10))  # 9+4 = 13 v 10+3 = 13: tie
    assert s.outcome == "tie-plays-on" and not s.pays
    s = settle(_finished([HALF_A, HALF_B], scopas=(4, 0)), before=(9, 10))  # 14 v 13
    assert s.outcome == "game" and s.winner == [0] and s.amounts == (100, -100)


def test_a_game_to_31_goes_on_past_11_and_21_and_ends_at_31():
    state = _finished([HALF_A, HALF_B])
    longer = scopa.ScopaState(scopa.parse_rules({"target": 31}), 0, state.held, (), (), state.captured, (0, 0))
    s = settle(longer, before=(20, 25))  # 21 v 28: past 11 and 21, short of 31
    assert s.outcome == "hand" and not s.pays and "(to 31)" in s.explanation[-1]
    s = settle(longer, before=(20, 28))  # 21 v 31
    assert s.outcome == "game" and s.winner == [1] and s.amounts == (-100, 100)


def test_three_players_the_winner_takes_the_stake_from_each_other_player():
    s = settle(_finished([HALF_A, HALF_B[:10], HALF_B[10:]], scopas=(0, 0, 0), players=3), before=(10, 0, 0))
    assert s.winner == [0] and s.amounts == (200, -100, -100)


def test_with_stake_per_point_the_loser_pays_the_margin():
    state = _finished([HALF_A, HALF_B])
    state = scopa.ScopaState(scopa.parse_rules({"stake_per": "point"}), 0, state.held, (), (), state.captured,
                             (3, 0))
    s = settle(state, before=(9, 4))  # 9+4 = 13 v 4+3 = 7: a margin of 6
    assert s.amounts == (600, -600)


def _claim(state, seat):
    [event] = scopa.decide(state, Command("claim", {"seat": seat}))
    return scopa.evolve(state, event), event.data


def test_a_true_claim_wins_the_game_at_once():
    state = _state([["2C"], ["3C"]], ["4C"], captured=[HALF_A, []], dealer=1)
    state = scopa.ScopaState(state.rules, 1, state.held, state.table, state.stock, state.captured, (1, 0))
    state, claim = _claim(state, 0)
    assert claim["certain"] == {"scopas": 1, "settebello": 1}  # 19 cards: the other could still take 21
    s = settle(state, before=(9, 2))
    assert s.outcome == "claim-true" and s.winner == [0] and s.amounts == (100, -100)


def test_a_false_claim_loses_the_game_at_once():
    state = _state([["2C"], ["3C"]], ["4C"], captured=[["7D"], []], dealer=1)
    state, claim = _claim(state, 0)
    assert claim["certain"] == {"settebello": 1}
    s = settle(state, before=(8, 2))
    assert s.outcome == "claim-false" and s.winner == [1] and s.amounts == (-100, 100)
    with pytest.raises(RuleViolation, match="the hand is over"):
        play(state, "3C")


def test_claims_may_be_turned_off():
    state = _state([["2C"], ["3C"]], ["4C"], claims=False)
    with pytest.raises(RuleViolation, match="without chiamarsi fuori"):
        _claim(state, 0)
