"""Kop: the pack, both rankings, the follow rules and the trick winner (rules/kop.md)."""
import pytest

from games.kop import game as kop
from games.engine.errors import RuleViolation
from games.engine.tricks import legal_cards, winner_index

from tests.games.kop.kit import deal, start, trick

AS_DYCHA = kop.RANKINGS["as-dycha"]
TRZY_DYCHY = kop.RANKINGS["as-trzy-dychy"]


def test_the_pack_is_sixteen_cards_worth_104_points():
    assert len(kop.PACK) == 16
    assert {c[:-1] for c in kop.PACK} == {"A", "10", "Q", "J"}
    assert sum(kop.CARD_POINTS[c[:-1]] for c in kop.PACK) == 104


@pytest.mark.parametrize("ranking", [AS_DYCHA, TRZY_DYCHY])
def test_every_card_has_exactly_one_place_in_each_ranking(ranking):
    placed = list(ranking.trumps) + [c for cards in ranking.plain.values() for c in cards]
    assert sorted(placed) == sorted(kop.PACK)


def test_as_dycha_has_twelve_trumps_in_the_rules_order():
    assert AS_DYCHA.trumps == ("AH", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D")
    assert AS_DYCHA.plain == {"C": ("AC", "10C"), "S": ("AS", "10S")}


def test_as_trzy_dychy_has_fourteen_trumps_and_lone_black_aces():
    assert len(TRZY_DYCHY.trumps) == 14
    assert TRZY_DYCHY.trumps[:4] == ("AH", "10C", "10S", "10H")
    assert TRZY_DYCHY.plain == {"C": ("AC",), "S": ("AS",)}


def test_all_trumps_are_one_suit_whatever_is_printed_on_them():
    # QC led is a trump lead: the holder of AC (a club) has no trump to follow with? No: AC is
    # not a trump, so a player holding AC and JD must follow trumps with JD.
    assert legal_cards(["AC", "JD"], ["QC"], AS_DYCHA) == ["JD"]


def test_obca_led_holder_of_the_other_obca_must_play_it():
    assert legal_cards(["10C", "AH", "QD", "JS"], ["AC"], AS_DYCHA) == ["10C"]


def test_obca_led_must_follow_even_when_a_trump_has_taken_the_lead():
    assert legal_cards(["10S", "AH"], ["AS", "JD"], AS_DYCHA) == ["10S"]


def test_holder_of_the_led_suit_must_beat_the_winning_card_if_able():
    assert legal_cards(["JC", "QH", "JD"], ["QD"], AS_DYCHA) == ["QH"]


def test_trump_lead_player_who_cannot_beat_must_still_trump():
    assert legal_cards(["JD", "AC", "10S"], ["AH"], AS_DYCHA) == ["JD"]


def test_void_in_led_suit_must_trump_and_overtake_the_highest_trump():
    assert sorted(legal_cards(["QH", "JD", "AD"], ["AS", "JS"], AS_DYCHA)) == ["QH"]


def test_void_in_led_suit_who_cannot_overtake_may_play_any_trump():
    assert sorted(legal_cards(["JD", "AD", "10C"], ["AS", "AH"], AS_DYCHA)) == ["AD", "JD"]


def test_void_in_led_suit_without_trumps_may_play_anything():
    assert sorted(legal_cards(["AC", "10C"], ["AS"], AS_DYCHA)) == ["10C", "AC"]


def test_any_card_may_lead():
    assert legal_cards(["AC", "JD"], [], AS_DYCHA) == ["AC", "JD"]


def test_winner_is_the_highest_trump():
    assert winner_index(["AS", "JD", "10S", "QD"], AS_DYCHA) == 3


def test_without_trumps_the_highest_card_of_the_led_suit_wins():
    assert winner_index(["10S", "AC", "AS", "10C"], AS_DYCHA) == 2


def test_a_card_of_another_plain_suit_never_wins():
    assert winner_index(["10S", "AC"], AS_DYCHA) == 0


def test_in_as_trzy_dychy_the_black_tens_are_trumps():
    # AC led: a player holding 10C holds no club (10C is a trump) and must trump.
    assert legal_cards(["10C", "AS"], ["AC"], TRZY_DYCHY) == ["10C"]
    assert winner_index(["AC", "10C"], TRZY_DYCHY) == 1
    assert winner_index(["10S", "AH"], TRZY_DYCHY) == 1


def _hands():
    return deal({1: ["AC", "QD", "AH", "10S"], 2: ["10C", "JC", "QH", "JD"], 3: ["AS", "QC", "QS", "JS"]})


def test_a_trick_is_refused_naming_the_follow_rule():
    state = start(_hands())  # dealer 0, so seat 1 leads
    with pytest.raises(RuleViolation, match="seat 2 holds 10C and must follow clubs"):
        trick(state, ["AC", "QH", "AS", "10D"])


def test_a_trick_is_refused_when_a_card_is_played_out_of_turn():
    state = start(_hands())
    with pytest.raises(RuleViolation, match="10C is held by seat 2, but card 1 of this trick is seat 1's"):
        trick(state, ["10C", "AC", "AS", "10D"])


def test_a_card_already_played_is_refused():
    state, _ = trick(start(_hands()), ["AC", "10C", "QC", "10H"])
    assert state.leader == 0
    with pytest.raises(RuleViolation, match="AC was already played in trick 1"):
        trick(state, ["AC", "QD", "JC", "JS"])


def test_the_seat_after_the_dealer_leads_and_the_winner_leads_next():
    state = start(_hands(), dealer=3)  # seat 0 leads
    state, data = trick(state, ["10D", "AH", "QH", "QC"])
    assert data["leader"] == 0 and data["winner"] == 1 and data["points"] == 10 + 11 + 3 + 3
    assert state.leader == 1


def test_a_trick_must_have_four_cards():
    with pytest.raises(RuleViolation, match="a trick is 4 cards"):
        trick(start(_hands()), ["AC", "10C", "AS"])


def test_cards_are_read_in_any_case_with_t_and_suit_symbols():
    state, data = trick(start(_hands()), ["a♣", "tc", "q♠", "10♥"])
    assert data["cards"] == ["AC", "10C", "QS", "10H"]


@pytest.mark.parametrize("bad, why", [
    ({"dealer": 0, "hands": [["AC"] * 4] * 4}, "dealt twice"),
    ({"dealer": 0, "hands": [["AC", "10C", "QC", "JC"]] * 3}, "4 hands"),
    ({"dealer": 4, "hands": []}, "dealer must be a seat"),
    ({"dealer": 0, "hands": [["9C", "10C", "QC", "JC"], ["AS", "10S", "QS", "JS"],
                             ["AH", "10H", "QH", "JH"], ["AD", "10D", "QD", "JD"]]}, "not in the 16-card"),
    ({"dealer": 0, "hands": [["AC", "10C", "QC"], ["JC", "AS", "10S", "QS", "JS"],
                             ["AH", "10H", "QH", "JH"], ["AD", "10D", "QD", "JD"]]}, "seat 0 is dealt 3 cards"),
    ({"dealer": 0, "hands": [["XX", "10C", "QC", "JC"], ["AS", "10S", "QS", "JS"],
                             ["AH", "10H", "QH", "JH"], ["AD", "10D", "QD", "JD"]]}, "not a card"),
])
def test_a_deal_must_be_exactly_the_pack_four_cards_each(bad, why):
    with pytest.raises(RuleViolation, match=why):
        kop.deal_event(kop.parse_rules({}), bad)


@pytest.mark.parametrize("rules, why", [
    ({"ranking": "as-cztery"}, "ranking must be"),
    ({"ranking": ["as-dycha"]}, "ranking must be"),
    ({"wesele": "any"}, "wesele must be"),
    ({"max_doubles": -1}, "max_doubles"),
    ({"max_doubles": "4"}, "max_doubles"),
    ({"wesele_kontra": "yes"}, "wesele_kontra"),
    ({"speed": 3}, "kop has no rule speed"),
])
def test_unknown_or_malformed_rules_are_refused(rules, why):
    with pytest.raises(RuleViolation, match=why):
        kop.parse_rules(rules)


def test_a_card_outside_the_kop_pack_is_refused_by_name():
    with pytest.raises(RuleViolation, match="9C is not in the kop pack"):
        trick(start(_hands()), ["AC", "9C", "QC", "10H"])


def test_a_card_played_twice_in_one_trick_is_refused():
    with pytest.raises(RuleViolation, match="AC is played twice in this trick"):
        trick(start(_hands()), ["AC", "AC", "QC", "10H"])
