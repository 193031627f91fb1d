"""Kop's result and money: 53 wins, boki, wyjście bands, lone contracts, counted doubles.

Every expected amount here is worked out by hand from rules/kop.md with a stake B of 100
minor units (1.00), not by the code under test.
"""
import pytest

from tests.games.kop.kit import deal, scored, settle, start

B = 100
SPLIT = deal({1: ["QC"], 3: ["QS"]})            # stare: seats 1 and 3; młodzi: 0 and 2
STARE_WIN_WYJSCIE = [(1, 40), (3, 30), (0, 20), (2, 14)]  # stare 70, młodzi 34: wyjście


def _seed_example(qc: int, qs: int):
    """Seed: A deals; B kontra, C re, D bok, C slup (A..D = seats 0..3)."""
    calls = [{"seat": 1, "call": "kontra"}, {"seat": 2, "call": "re"},
             {"seat": 3, "call": "bok"}, {"seat": 2, "call": "slup"}]
    hands = deal({qc: ["QC"], qs: ["QS"]})
    state = start(hands, dealer=0, calls=calls)
    stare = sorted({qc, qs})
    mlodzi = [s for s in range(4) if s not in stare]
    # stare take 70 points in two tricks, młodzi 34 in two: wyjście, no outcome factor
    return settle(scored(state, [(stare[0], 40), (stare[1], 30), (mlodzi[0], 20), (mlodzi[1], 14)]))


@pytest.mark.parametrize("qc, qs, multiplier", [
    (1, 3, 16),  # sides B+D v A+C: B, C, D, C alternate: four runs
    (1, 2, 8),   # sides B+C v A+D: B and C together, then D, then C: three runs
    (0, 1, 4),   # sides A+B v C+D: B, then C D C together: two runs
])
def test_seed_worked_example_counts_doubles_by_runs(qc, qs, multiplier):
    s = _seed_example(qc, qs)
    assert s.multiplier == multiplier
    assert sorted(s.amounts) == [-multiplier * B] * 2 + [multiplier * B] * 2


def test_a_double_following_one_by_the_same_side_counts_once_and_says_so():
    s = _seed_example(1, 2)
    assert [f.factor for f in s.factors] == [2, 1, 2, 2]
    assert "counts once" in s.factors[1].reason


def test_normal_game_with_wyjscie_pays_one_stake_each():
    s = settle(scored(start(SPLIT), STARE_WIN_WYJSCIE))
    assert (s.contract, s.winner, s.outcome, s.multiplier) == ("normal", "stare", "wyjscie", 1)
    assert s.amounts == (-B, B, -B, B)


def test_losers_with_25_or_fewer_points_pay_double_bez_wyjscia():
    s = settle(scored(start(SPLIT), [(1, 40), (3, 39), (0, 20), (1, 5)]))  # młodzi 20 in one trick
    assert s.outcome == "bez-wyjscia" and s.amounts == (-2 * B, 2 * B, -2 * B, 2 * B)


def test_losers_with_exactly_26_points_still_get_out():
    s = settle(scored(start(SPLIT), [(1, 40), (3, 38), (0, 26), (1, 0)]))
    assert s.outcome == "wyjscie"


def test_bez_bitki_pays_3b():
    s = settle(scored(start(SPLIT), [(1, 30), (3, 30), (1, 30), (3, 14)]))
    assert s.outcome == "bez-bitki" and s.amounts == (-3 * B, 3 * B, -3 * B, 3 * B)


def test_rules_example_stare_win_mlodzi_bez_wyjscia_kontra_by_mlodzi_re_by_stare_is_8b():
    state = start(SPLIT, calls=[{"seat": 0, "call": "kontra"}, {"seat": 1, "call": "re"}])
    s = settle(scored(state, [(1, 40), (3, 39), (0, 20), (1, 5)]))
    assert s.multiplier == 8
    assert s.amounts == (-8 * B, 8 * B, -8 * B, 8 * B)


def test_mlodzi_win_with_53():
    s = settle(scored(start(SPLIT), [(0, 40), (2, 13), (1, 30), (3, 21)]))  # młodzi 53, stare 51
    assert s.winner == "mlodzi" and s.amounts == (B, -B, B, -B)


def test_52_52_without_doubles_stare_lose():
    s = settle(scored(start(SPLIT), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "mlodzi" and s.outcome == "wyjscie"
    assert s.amounts == (B, -B, B, -B)


def test_52_52_the_side_that_made_the_last_counted_double_loses():
    calls = [{"seat": 0, "call": "kontra"}, {"seat": 3, "call": "re"}]  # młodzi, then stare
    s = settle(scored(start(SPLIT, calls=calls), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "mlodzi" and s.amounts == (4 * B, -4 * B, 4 * B, -4 * B)
    calls = [{"seat": 0, "call": "kontra"}]  # młodzi doubled last: młodzi lose
    s = settle(scored(start(SPLIT, calls=calls), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "stare" and s.amounts == (-2 * B, 2 * B, -2 * B, 2 * B)


def test_wesele_is_paid_like_a_normal_game_with_the_pair_as_stare():
    hands = deal({2: ["QC", "QS", "JC"], 0: ["JS"]})  # partner: seat 0 with JS
    s = settle(scored(start(hands, calls=[{"seat": 2, "call": "wesele"}]), [(2, 60), (0, 30), (1, 14), (2, 0)]))
    assert (s.contract, s.winner, s.outcome) == ("wesele", "stare", "bez-wyjscia")
    assert s.amounts == (2 * B, -2 * B, 2 * B, -2 * B)


def test_cicha_won_takes_4b_from_each_of_the_three():
    hands = deal({2: ["QC", "QS"]})
    s = settle(scored(start(hands), [(2, 60), (0, 30), (1, 14), (3, 0)]))
    assert (s.contract, s.winner, s.units) == ("cicha", "stare", 4)
    assert s.amounts == (-4 * B, -4 * B, 12 * B, -4 * B)


def test_cicha_lost_pays_4b_to_each_of_the_three_with_nothing_for_the_outcome():
    hands = deal({2: ["QC", "QS"]})
    s = settle(scored(start(hands), [(0, 100), (2, 4), (1, 0), (3, 0)]))  # cicha bez wyjścia
    assert s.outcome == "bez-wyjscia" and s.multiplier == 1
    assert s.amounts == (4 * B, 4 * B, -12 * B, 4 * B)


def test_zolo_with_kontra_and_re_pays_20b_from_each():
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo"}, {"seat": 2, "call": "kontra"},
                                {"seat": 1, "call": "re"}])
    s = settle(scored(state, [(1, 60), (1, 20), (0, 14), (2, 10)]))
    assert s.winner == "declarer" and s.multiplier == 4
    assert s.amounts == (-20 * B, 60 * B, -20 * B, -20 * B)


def test_zolo_taking_every_trick_earns_nothing_extra():
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo"}])
    s = settle(scored(state, [(1, 30), (1, 30), (1, 30), (1, 14)]))
    assert s.outcome == "bez-bitki" and s.amounts == (-5 * B, 15 * B, -5 * B, -5 * B)


def test_zolo_du_wins_only_with_all_four_tricks():
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo-du"}])
    won = settle(scored(state, [(1, 30), (1, 30), (1, 30), (1, 14)]))
    assert won.winner == "declarer" and won.amounts == (-10 * B, 30 * B, -10 * B, -10 * B)
    lost = settle(scored(state, [(1, 50), (1, 30), (1, 20), (0, 4)]))  # 100 points, three tricks
    assert lost.winner == "defenders" and lost.amounts == (10 * B, -30 * B, 10 * B, 10 * B)


def test_zolo_52_52_without_doubles_the_declarer_loses():
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo"}])
    s = settle(scored(state, [(1, 40), (1, 12), (0, 30), (2, 22)]))
    assert s.winner == "defenders" and s.amounts == (5 * B, -15 * B, 5 * B, 5 * B)


def test_zolo_52_52_after_a_defenders_kontra_the_defenders_lose():
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo"}, {"seat": 3, "call": "kontra"}])
    s = settle(scored(state, [(1, 40), (1, 12), (0, 30), (2, 22)]))
    assert s.winner == "declarer" and s.amounts == (-10 * B, 30 * B, -10 * B, -10 * B)


def test_payouts_always_sum_to_zero_and_scale_with_the_stake():
    s = settle(scored(start(SPLIT), STARE_WIN_WYJSCIE), stake=37)
    assert sum(s.amounts) == 0 and s.amounts == (-37, 37, -37, 37)


def test_wesele_52_52_without_doubles_the_wesele_pair_loses():
    hands = deal({2: ["QC", "QS", "JC"], 0: ["JS"]})  # the pair: seats 0 and 2
    s = settle(scored(start(hands, calls=[{"seat": 2, "call": "wesele"}]), [(2, 40), (0, 12), (1, 30), (3, 22)]))
    assert (s.contract, s.winner) == ("wesele", "mlodzi")
    assert s.amounts == (-B, B, -B, B)


def test_cicha_52_52_without_doubles_the_cicha_player_loses():
    hands = deal({2: ["QC", "QS"]})
    s = settle(scored(start(hands), [(2, 40), (2, 12), (1, 30), (3, 22)]))
    assert (s.contract, s.winner) == ("cicha", "mlodzi")
    assert s.amounts == (4 * B, 4 * B, -12 * B, 4 * B)


def test_zolo_du_52_52_is_lost_by_the_declarer_even_after_a_defenders_double():
    # Decision in rules/kop.md: the last-double rule applies to every contract but zolo-du.
    state = start(SPLIT, calls=[{"seat": 1, "call": "zolo-du"}, {"seat": 0, "call": "kontra"}])
    s = settle(scored(state, [(1, 40), (1, 12), (0, 30), (2, 22)]))
    assert s.winner == "defenders"
    assert s.amounts == (20 * B, -60 * B, 20 * B, 20 * B)
