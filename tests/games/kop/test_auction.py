"""Kop's auction: who may call what, the contract ladder, the named doubles (rules/kop.md)."""
import pytest

from games.kop import game as kop
from games.engine.errors import RuleViolation
from games.kop.scoring import teams

from tests.games.kop.kit import bid, deal, start, trick

SPLIT = deal({1: ["QC"], 3: ["QS"]})            # a normal game: stare are seats 1 and 3
BOTH = deal({2: ["QC", "QS", "JC"], 0: ["JS"]})  # seat 2 holds both black queens and JC


def test_normal_game_the_black_queen_holders_play_together():
    t = teams(start(SPLIT))
    assert (t.contract, t.stare, t.mlodzi) == ("normal", (1, 3), (0, 2))


def test_holder_of_both_black_queens_who_stays_silent_plays_cicha_alone():
    t = teams(start(BOTH))
    assert (t.contract, t.stare, t.mlodzi) == ("cicha", (2,), (0, 1, 3))


def test_wesele_partner_with_the_declarer_holding_jc_is_the_holder_of_js():
    state = start(BOTH, calls=[{"seat": 2, "call": "wesele"}])
    t = teams(state)
    assert state.auction.jack == "JS"
    assert (t.contract, t.stare, t.mlodzi) == ("wesele", (0, 2), (1, 3))


def test_wesele_partner_is_the_holder_of_jc_when_the_declarer_lacks_it():
    hands = deal({1: ["QC", "QS"], 3: ["JC"]})
    assert teams(start(hands, calls=[{"seat": 1, "call": "wesele"}])).stare == (1, 3)


def test_wesele_naming_another_jack_than_the_highest_lacking_is_refused():
    with pytest.raises(RuleViolation, match="highest jack the caller lacks, JS, not JH"):
        start(BOTH, calls=[{"seat": 2, "call": "wesele", "jack": "JH"}])


def test_any_jack_variant_the_caller_names_a_jack_not_in_hand():
    rules = {"wesele": "any-jack"}
    hands = deal({2: ["QC", "QS", "JC"], 3: ["JH"]})
    assert teams(start(hands, rules=rules, calls=[{"seat": 2, "call": "wesele", "jack": "jh"}])).stare == (2, 3)
    with pytest.raises(RuleViolation, match="seat 2 holds JC"):
        start(hands, rules=rules, calls=[{"seat": 2, "call": "wesele", "jack": "JC"}])
    with pytest.raises(RuleViolation, match="names the partner's jack"):
        start(hands, rules=rules, calls=[{"seat": 2, "call": "wesele"}])


def test_wesele_only_by_the_holder_of_both_black_queens():
    with pytest.raises(RuleViolation, match="seat 1 lacks QS"):
        start(SPLIT, calls=[{"seat": 1, "call": "wesele"}])


def test_anyone_may_call_zolo_and_play_alone():
    t = teams(start(SPLIT, calls=[{"seat": 0, "call": "zolo"}]))
    assert (t.contract, t.stare, t.mlodzi) == ("zolo", (0,), (1, 2, 3))


def test_a_contract_must_outrank_the_standing_one():
    state = start(BOTH, calls=[{"seat": 0, "call": "zolo"}])
    for lower in ("wesele", "zolo"):
        with pytest.raises(RuleViolation, match="does not outrank the standing zolo"):
            bid(state, {"seat": 2, "call": lower})
    assert bid(state, {"seat": 1, "call": "zolo-du"}).auction.contract == "zolo-du"


def test_a_new_contract_cancels_the_doubles_before_it_and_the_ladder_restarts():
    state = start(SPLIT, calls=[{"seat": 0, "call": "kontra"}, {"seat": 1, "call": "re"},
                                {"seat": 2, "call": "zolo"}])
    assert state.auction.doubles == ()
    with pytest.raises(RuleViolation, match="next double is 'kontra', not 'bok'"):
        bid(state, {"seat": 3, "call": "bok"})
    assert bid(state, {"seat": 3, "call": "kontra"}).auction.doubles[0].call == "kontra"


def test_doubles_come_in_order_kontra_re_bok_slup_and_rej_means_re():
    state = start(SPLIT, calls=[{"seat": 0, "call": "kontra"}, {"seat": 1, "call": "REJ"}])
    assert [d.call for d in state.auction.doubles] == ["kontra", "re"]
    with pytest.raises(RuleViolation, match="next double is 'bok', not 'slup'"):
        bid(state, {"seat": 2, "call": "slup"})
    state = bid(bid(state, {"seat": 2, "call": "bok"}), {"seat": 3, "call": "slup"})
    with pytest.raises(RuleViolation, match="at most 4 doubles"):
        bid(state, {"seat": 0, "call": "double"})


def test_max_doubles_limits_the_ladder():
    state = start(SPLIT, rules={"max_doubles": 1}, calls=[{"seat": 0, "call": "kontra"}])
    with pytest.raises(RuleViolation, match="at most 1 doubles"):
        bid(state, {"seat": 1, "call": "re"})


def test_unlimited_doubles_the_fifth_and_later_are_called_double():
    calls = [{"seat": s % 4, "call": c} for s, c in enumerate(["kontra", "re", "bok", "slup", "double", "double"])]
    state = start(SPLIT, rules={"max_doubles": None}, calls=calls)
    assert len(state.auction.doubles) == 6
    with pytest.raises(RuleViolation, match="next double is 'double', not 'slup'"):
        bid(state, {"seat": 0, "call": "slup"})


def test_the_declarer_may_not_give_the_first_double_but_may_answer_one():
    state = start(SPLIT, calls=[{"seat": 0, "call": "zolo"}])
    with pytest.raises(RuleViolation, match="seat 0 called zolo and may not give the first double"):
        bid(state, {"seat": 0, "call": "kontra"})
    state = bid(bid(state, {"seat": 2, "call": "kontra"}), {"seat": 0, "call": "re"})
    assert [(d.seat, d.call) for d in state.auction.doubles] == [(2, "kontra"), (0, "re")]


def test_the_cicha_player_may_not_give_the_first_double():
    with pytest.raises(RuleViolation, match="seat 2 holds both black queens and plays cicha"):
        start(BOTH, calls=[{"seat": 2, "call": "kontra"}])
    state = start(BOTH, calls=[{"seat": 1, "call": "kontra"}, {"seat": 2, "call": "re"}])
    assert len(state.auction.doubles) == 2


def test_wesele_caller_may_not_double_first_unless_wesele_kontra():
    with pytest.raises(RuleViolation, match="called wesele and may not give the first double"):
        start(BOTH, calls=[{"seat": 2, "call": "wesele"}, {"seat": 2, "call": "kontra"}])
    state = start(BOTH, rules={"wesele_kontra": True},
                  calls=[{"seat": 2, "call": "wesele"}, {"seat": 2, "call": "kontra"}])
    assert state.auction.doubles[0].seat == 2


def test_with_wesele_kontra_the_wesele_caller_may_not_raise_it():
    with pytest.raises(RuleViolation, match="called wesele and, at this table, may not raise it"):
        start(BOTH, rules={"wesele_kontra": True},
              calls=[{"seat": 2, "call": "wesele"}, {"seat": 2, "call": "zolo"}])
    state = start(BOTH, calls=[{"seat": 2, "call": "wesele"}, {"seat": 2, "call": "zolo"}])
    assert state.auction.contract == "zolo"


def test_the_auction_closes_when_the_first_trick_is_logged():
    hands = [["10D", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"],
             ["QS", "JS", "AC", "10S"]]
    state, _ = trick(start(hands), ["AH", "QH", "QS", "JD"])
    with pytest.raises(RuleViolation, match="auction closed"):
        bid(state, {"seat": 0, "call": "kontra"})


@pytest.mark.parametrize("call, why", [
    ({"seat": 4, "call": "pass"}, "seat must be a seat number from 0 to 3"),
    ({"seat": True, "call": "pass"}, "seat must be"),
    ({"seat": 0, "call": "grand"}, "'grand' is not a call of this game"),
    ({"seat": 0, "call": 3}, "call must be a string"),
    ({"seat": 0, "call": "zolo", "jack": "JC"}, "only wesele names a jack"),
])
def test_malformed_calls_are_refused(call, why):
    with pytest.raises(RuleViolation, match=why):
        start(SPLIT, calls=[call])


def test_passes_are_recorded_and_change_nothing():
    state = start(SPLIT, calls=[{"seat": 1, "call": "pass"}, {"seat": 2, "call": "Pass"}])
    assert [c.call for c in state.calls] == ["pass", "pass"]
    assert state.auction == kop.auc.Auction()
