"""Baśka's play and auction, rule by rule (rules/baska.md)."""
import pytest

from games.baska import game as baska
from games.engine.errors import RuleViolation
from games.kop.scoring import teams
from games.engine.tricks import legal_cards, winner_index

from tests.games.baska.kit import bid, deal, start, trick

GRAN = baska.GRAN


def test_gran_trumps_are_the_four_jacks_and_each_suit_ranks_ace_ten_queen():
    assert GRAN.trumps == ("JC", "JS", "JH", "JD")
    assert all(GRAN.plain[s] == (f"A{s}", f"10{s}", f"Q{s}") for s in "CSHD")
    assert winner_index(["QH", "AH", "10H", "JD"], GRAN) == 3
    assert winner_index(["QH", "10H", "AS", "QD"], GRAN) == 1


def test_gran_jack_led_must_beat_the_highest_jack_if_able_else_play_a_jack():
    assert legal_cards(["JC", "JD", "AH"], ["JS"], GRAN) == ["JC"]
    assert sorted(legal_cards(["JD", "AH"], ["JS"], GRAN)) == ["JD"]
    assert sorted(legal_cards(["AH", "QS"], ["JS"], GRAN)) == ["AH", "QS"]


def test_gran_suit_led_must_follow_and_beat_the_winner_if_able():
    assert legal_cards(["AH", "QH", "JC"], ["10H"], GRAN) == ["AH"]
    assert sorted(legal_cards(["QH", "JC"], ["10H"], GRAN)) == ["QH"]


def test_gran_void_in_the_led_suit_must_play_a_jack_a_higher_one_if_able():
    assert legal_cards(["JD", "AS", "QC"], ["AH"], GRAN) == ["JD"]
    assert legal_cards(["JD", "JC", "AS"], ["AH", "JS"], GRAN) == ["JC"]
    assert sorted(legal_cards(["AS", "QC"], ["AH"], GRAN)) == ["AS", "QC"]


def test_a_gran_hand_is_played_with_the_gran_ranking():
    hands = [["AH", "QC", "10S", "JD"], ["QH", "JC", "AS", "10D"], ["10H", "QS", "AC", "QD"], ["JH", "JS", "10C", "AD"]]
    state = start(hands, dealer=3, calls=[{"seat": 1, "call": "gran"}])  # seat 0 leads
    with pytest.raises(RuleViolation, match="seat 1 holds QH and must follow hearts"):
        trick(state, ["AH", "JC", "10H", "JH"])  # QH is no trump in gran
    state, data = trick(state, ["AH", "QH", "10H", "JH"])
    assert data["winner"] == 3  # the jack takes it


def test_in_a_normal_game_the_queens_are_trumps_as_in_kop():
    hands = [["AH", "QC", "10S", "JD"], ["QH", "JC", "AS", "10D"], ["10H", "QS", "AC", "QD"], ["JH", "JS", "10C", "AD"]]
    state, data = trick(start(hands, dealer=3), ["AH", "QH", "10H", "JH"])
    assert data["winner"] == 0


def test_contracts_rank_wesele_gran_zolo_gran_du_zolo_du():
    assert baska.LADDERS["bytow-2005"].contracts == ("wesele", "gran", "zolo", "gran-du", "zolo-du")
    state = start(deal({0: ["QC", "QS"]}), calls=[{"seat": 1, "call": "zolo"}])
    with pytest.raises(RuleViolation, match="gran does not outrank the standing zolo"):
        bid(state, {"seat": 2, "call": "gran"})
    assert bid(state, {"seat": 2, "call": "gran-du"}).auction.contract == "gran-du"


def test_baska_the_four_queens_outranks_everything_in_classic_only():
    assert baska.LADDERS["classic"].contracts[-1] == "baska"
    with pytest.raises(RuleViolation, match="'baska' is not a call"):
        start(deal({0: ["QC", "QS", "QH", "QD"]}), calls=[{"seat": 0, "call": "baska"}])


def test_baska_needs_all_four_queens_and_ends_the_hand_at_once():
    with pytest.raises(RuleViolation, match="seat 1 lacks QH QD"):
        start(deal({1: ["QC", "QS"]}), variant="classic", calls=[{"seat": 1, "call": "baska"}])
    state = start(deal({2: ["QC", "QS", "QH", "QD"]}), variant="classic",
                  calls=[{"seat": 0, "call": "zolo-du"}, {"seat": 2, "call": "baska"}])
    assert baska.is_over(state) and not state.tricks
    with pytest.raises(RuleViolation, match="baska was called"):
        trick(state, ["AC", "10C", "AS", "10S"])


def test_zolla_is_zolo():
    assert start(deal({}), calls=[{"seat": 1, "call": "Zolla"}]).auction.contract == "zolo"


def test_zolo_cancels_an_earlier_kontra():
    state = start(deal({1: ["QC"], 3: ["QS"]}), calls=[{"seat": 0, "call": "kontra"}, {"seat": 2, "call": "zolo"}])
    assert state.auction.doubles == ()
    assert bid(state, {"seat": 1, "call": "kontra"}).auction.doubles[0].seat == 1


def test_wesele_caller_holding_both_black_jacks_plays_with_the_holder_of_jh():
    state = start(deal({0: ["QC", "QS", "JC", "JS"], 3: ["JH"]}), calls=[{"seat": 0, "call": "wesele"}])
    t = teams(state)
    assert (state.auction.jack, t.stare) == ("JH", (0, 3))


@pytest.mark.parametrize("variant, names", [
    ("bytow-2005", ["kontra", "rekontra", "hirsch", "bok"]),
    ("classic", ["kontra", "rekontra", "bok", "hirsch"]),
])
def test_each_variant_names_its_four_doubles_in_its_order(variant, names):
    calls = [{"seat": i % 4, "call": n} for i, n in enumerate(names)]
    state = start(deal({1: ["QC"], 3: ["QS"]}), variant=variant, calls=calls)
    assert [d.call for d in state.auction.doubles] == names
    with pytest.raises(RuleViolation, match="at most 4 doubles"):
        bid(state, {"seat": 0, "call": "double"})
    with pytest.raises(RuleViolation, match=f"next double is '{names[1]}'"):
        start(deal({1: ["QC"], 3: ["QS"]}), variant=variant, calls=[calls[0], {"seat": 1, "call": names[2]}])


def test_a_solo_player_may_not_give_the_first_double_but_may_answer_one():
    state = start(deal({}), calls=[{"seat": 1, "call": "gran"}])
    with pytest.raises(RuleViolation, match="seat 1 called gran and may not give the first double"):
        bid(state, {"seat": 1, "call": "kontra"})
    state = bid(bid(state, {"seat": 2, "call": "kontra"}), {"seat": 1, "call": "rekontra"})
    assert len(state.auction.doubles) == 2


def test_the_cicha_player_may_not_give_the_first_double_on_their_own_cicha():
    with pytest.raises(RuleViolation, match="plays cicha"):
        start(deal({2: ["QC", "QS"]}), calls=[{"seat": 2, "call": "kontra"}])


def test_bytow_the_wesele_caller_doubles_as_starzy_and_may_double_first():
    state = start(deal({0: ["QC", "QS"]}), calls=[{"seat": 0, "call": "wesele"}, {"seat": 0, "call": "kontra"}])
    assert state.auction.doubles[0].seat == 0


def test_classic_the_wesele_caller_may_not_give_the_first_double_but_may_answer_one():
    state = start(deal({0: ["QC", "QS"]}), variant="classic", calls=[{"seat": 0, "call": "wesele"}])
    with pytest.raises(RuleViolation, match="seat 0 called wesele and may not give the first double"):
        bid(state, {"seat": 0, "call": "kontra"})
    state = bid(bid(state, {"seat": 1, "call": "kontra"}), {"seat": 0, "call": "rekontra"})
    assert [d.seat for d in state.auction.doubles] == [1, 0]


UNLOSABLE = [["QC", "AH", "JD", "QS"], ["AC", "10C", "AS", "10S"], ["10D", "JS", "QD", "10H"], ["JC", "QH", "JH", "AD"]]


def test_a_silent_holder_of_the_black_queens_with_an_unlosable_hand_is_refused():
    state = start(UNLOSABLE, dealer=0)  # seat 1 leads; seat 0 would play cicha
    with pytest.raises(RuleViolation, match="seat 0 holds both black queens and a hand that takes 53 against"):
        trick(state, ["AC", "10D", "JC", "AH"])


def test_the_unlosable_cicha_may_be_played_as_zolo_or_in_the_classic_rules():
    state = start(UNLOSABLE, dealer=0, calls=[{"seat": 0, "call": "zolo"}])
    assert trick(state, ["AC", "10D", "JC", "AH"])[1]["winner"] == 0
    assert trick(start(UNLOSABLE, dealer=0, variant="classic"), ["AC", "10D", "JC", "AH"])[1]["winner"] == 0


def test_a_cicha_that_can_be_lost_is_accepted():
    losable = [["QC", "QS", "JD", "10D"], ["AH", "10H", "AC", "10C"],
               ["QH", "QD", "JC", "JS"], ["AD", "JH", "AS", "10S"]]
    state, data = trick(start(losable, dealer=0), ["AH", "QH", "AD", "QC"])
    assert data["winner"] == 1


@pytest.mark.parametrize("rules, why", [({"variant": "kashubian"}, "variant must be"), ({"ranking": "x"}, "no rule")])
def test_unknown_rules_are_refused(rules, why):
    with pytest.raises(RuleViolation, match=why):
        baska.parse_rules(rules)
