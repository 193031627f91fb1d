"""Baśka's money in both rule sets, bok-rundy, and the 6400% that caps nothing (rules/baska.md).

Expected amounts are worked out by hand from the rules file, stake B = 100 minor units.
"""
import pytest

from games.engine.table import NO_BOK, after_hand

from tests.games.baska.kit import deal, scored, settle, start

B = 100
SPLIT = deal({1: ["QC"], 3: ["QS"]})  # stare: seats 1 and 3; młodzi: 0 and 2


def pays(amounts, seat_units):
    return list(amounts) == [u * B for u in seat_units]


@pytest.mark.parametrize("tricks, outcome, each", [
    ([(1, 40), (3, 30), (0, 20), (2, 14)], "wyjscie", 2),
    ([(1, 40), (3, 39), (0, 20), (1, 5)], "bez-wyjscia", 4),
    ([(1, 40), (3, 30), (1, 20), (3, 14)], "bez-bitki", 6),
])
def test_bytow_mlodzi_losing_a_normal_game_pay_2_4_or_6_each(tricks, outcome, each):
    s = settle(scored(start(SPLIT), tricks))
    assert s.outcome == outcome and pays(s.amounts, [-each, each, -each, each])


def test_bytow_normal_game_lost_bez_bitki_by_starzy_costs_12_each():
    s = settle(scored(start(SPLIT), [(0, 40), (2, 30), (0, 20), (2, 14)]))
    assert (s.winner, s.outcome) == ("mlodzi", "bez-bitki") and pays(s.amounts, [12, -12, 12, -12])


def test_bytow_wesele_is_scored_as_a_normal_game_with_the_pair_as_starzy():
    hands = deal({2: ["QC", "QS", "JC"], 0: ["JS"]})
    s = settle(scored(start(hands, calls=[{"seat": 2, "call": "wesele"}]), [(1, 60), (3, 30), (1, 14), (3, 0)]))
    assert (s.contract, s.winner, s.outcome) == ("wesele", "mlodzi", "bez-bitki")
    assert pays(s.amounts, [-12, 12, -12, 12])


def test_bytow_52_52_in_a_normal_game_mlodzi_win_with_wyjscie_and_a_bok_runda_falls_due():
    calls = [{"seat": 1, "call": "kontra"}, {"seat": 0, "call": "rekontra"}]  # młodzi doubled last: no matter
    s = settle(scored(start(SPLIT, calls=calls), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "mlodzi" and s.outcome == "wyjscie"
    assert pays(s.amounts, [16, -16, 16, -16])  # starzy pay 4, doubled twice
    assert s.extra == {"bok_runda": False, "bok_due": True}


@pytest.mark.parametrize("contract, won, lost", [
    ("gran", 10, 20), ("zolo", 10, 20), ("gran-du", 20, 40), ("zolo-du", 20, 40)])
def test_bytow_solo_contracts_and_their_double_price_when_lost(contract, won, lost):
    state = start(deal({}), calls=[{"seat": 1, "call": contract}])
    s = settle(scored(state, [(1, 30), (1, 30), (1, 30), (1, 14)]))
    assert s.winner == "declarer" and pays(s.amounts, [-won, 3 * won, -won, -won])
    s = settle(scored(state, [(0, 60), (1, 30), (2, 14), (1, 0)]))
    assert s.winner == "defenders" and pays(s.amounts, [lost, -3 * lost, lost, lost])


def test_bytow_cicha_won_takes_8_from_each_and_lost_pays_16_to_each():
    hands = deal({2: ["QC", "QS"]})
    won = settle(scored(start(hands), [(2, 60), (0, 30), (1, 14), (3, 0)]))
    assert won.contract == "cicha" and pays(won.amounts, [-8, -8, 24, -8])
    lost = settle(scored(start(hands), [(2, 20), (0, 30), (1, 54), (3, 0)]))
    assert pays(lost.amounts, [16, 16, -48, 16])


def test_a_won_gran_du_with_kontra_is_20_x_2_each_and_queues_a_bok_runda():
    state = start(deal({}), calls=[{"seat": 1, "call": "gran-du"}, {"seat": 2, "call": "kontra"}])
    s = settle(scored(state, [(1, 30), (1, 30), (1, 30), (1, 14)]))
    assert pays(s.amounts, [-40, 120, -40, -40])
    assert s.extra["bok_due"] is True


def test_a_lost_du_also_makes_a_bok_runda_due():
    s = settle(scored(start(deal({}), calls=[{"seat": 1, "call": "zolo-du"}]), [(1, 100), (0, 4), (1, 0), (1, 0)]))
    assert s.winner == "defenders" and s.extra["bok_due"] is True and pays(s.amounts, [40, -120, 40, 40])


def test_cicha_52_52_the_cicha_player_loses_and_a_bok_runda_falls_due():
    s = settle(scored(start(deal({2: ["QC", "QS"]})), [(2, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "mlodzi" and s.extra["bok_due"] and pays(s.amounts, [16, 16, -48, 16])


@pytest.mark.parametrize("contract", ["gran", "zolo"])
def test_bytow_gran_or_zolo_52_52_the_declarer_loses_and_a_bok_runda_falls_due(contract):
    state = start(deal({}), calls=[{"seat": 1, "call": contract}, {"seat": 0, "call": "kontra"}])
    s = settle(scored(state, [(1, 40), (1, 12), (0, 30), (2, 22)]))
    assert s.winner == "defenders" and s.extra["bok_due"] is True
    assert pays(s.amounts, [40, -120, 40, 40])
    assert "52-52: a bok-runda falls due" in " ".join(s.explanation)


@pytest.mark.parametrize("contract", ["gran", "zolo"])
def test_under_rules_1_a_gran_or_zolo_52_52_made_no_bok_runda_due(contract):
    state = start(deal({}), calls=[{"seat": 1, "call": contract}])
    s = settle(scored(state, [(1, 40), (1, 12), (0, 30), (2, 22)]), rules_version=1)
    assert s.winner == "defenders" and s.extra["bok_due"] is False


def test_a_hand_in_a_bok_runda_is_paid_double_and_says_so():
    s = settle(scored(start(SPLIT), [(1, 40), (3, 30), (0, 20), (2, 14)]), bok_runda=True)
    assert pays(s.amounts, [-4, 4, -4, 4])
    assert [f.name for f in s.factors] == ["bok-runda"] and s.extra["bok_runda"] is True


STARZY_BEZ_BITKI_FOUR_RUNS = [{"seat": 1, "call": "kontra"}, {"seat": 0, "call": "rekontra"},
                              {"seat": 3, "call": "hirsch"}, {"seat": 2, "call": "bok"}]


def test_the_6400_percent_caps_nothing_starzy_losing_bez_bitki_with_four_runs_pay_192_each():
    # The hand: stare 0+2 take nothing (bez bitki, 6 x 2 for starzy = 12 units) and
    # the four doubles alternate sides (four runs, x16): 12 x 16 = 192 stakes each.
    hands = deal({0: ["QC"], 2: ["QS"]})
    s = settle(scored(start(hands, calls=STARZY_BEZ_BITKI_FOUR_RUNS), [(1, 40), (3, 30), (1, 20), (3, 14)]))
    assert (s.winner, s.outcome, s.multiplier) == ("mlodzi", "bez-bitki", 96)
    assert pays(s.amounts, [-192, 192, -192, 192])
    assert "held a payment" not in " ".join(s.explanation)


def test_a_lost_zolo_du_with_four_runs_in_a_bok_runda_pays_the_whole_128_times():
    # 10 x 2 (du) x 2 (lost) x 16 (four runs) x 2 (bok-runda): doubles, du and the
    # bok-runda make 64, the 6400% of the seed; the loss doubles it again.
    calls = [{"seat": 1, "call": "zolo-du"}, {"seat": 0, "call": "kontra"}, {"seat": 1, "call": "rekontra"},
             {"seat": 2, "call": "hirsch"}, {"seat": 1, "call": "bok"}]
    s = settle(scored(start(deal({}), calls=calls), [(1, 100), (0, 4), (1, 0), (1, 0)]), bok_runda=True)
    assert s.multiplier == 128 and pays(s.amounts, [1280, -3840, 1280, 1280])


def test_under_rules_1_the_ceiling_held_a_payment_to_64_times_its_base():
    hands = deal({0: ["QC"], 2: ["QS"]})
    s = settle(scored(start(hands, calls=STARZY_BEZ_BITKI_FOUR_RUNS), [(1, 40), (3, 30), (1, 20), (3, 14)]),
               rules_version=1)
    assert s.multiplier == 64 and pays(s.amounts, [-128, 128, -128, 128])
    assert "rules 1 held a payment to 64 times its base" in " ".join(s.explanation)


@pytest.mark.parametrize("tricks, units", [
    ([(1, 40), (3, 30), (0, 20), (2, 14)], [-1, 1, -1, 1]),    # młodzi lose with wyjście: 1
    ([(1, 40), (3, 39), (0, 20), (1, 5)], [-2, 2, -2, 2]),     # 25 or fewer: 2
    ([(1, 40), (3, 30), (1, 20), (3, 14)], [-3, 3, -3, 3]),    # no trick: 3
    ([(0, 40), (2, 30), (0, 20), (2, 14)], [6, -6, 6, -6]),    # stare lose without a trick: doubled
])
def test_classic_normal_game_values(tricks, units):
    assert pays(settle(scored(start(SPLIT, variant="classic"), tricks)).amounts, units)


@pytest.mark.parametrize("contract, value", [("gran", 5), ("zolo", 5), ("gran-du", 10), ("zolo-du", 10)])
def test_classic_solo_values_and_a_lone_loser_pays_double(contract, value):
    state = start(deal({}), variant="classic", calls=[{"seat": 1, "call": contract}])
    won = settle(scored(state, [(1, 30), (1, 30), (1, 30), (1, 14)]))
    assert pays(won.amounts, [-value, 3 * value, -value, -value])
    lost = 2 * value
    assert pays(settle(scored(state, [(0, 100), (1, 4), (0, 0), (0, 0)])).amounts, [lost, -3 * lost, lost, lost])


def test_classic_cicha_is_worth_4_and_baska_10_at_once():
    assert pays(settle(scored(start(deal({2: ["QC", "QS"]}), variant="classic"),
                              [(2, 60), (0, 30), (1, 14), (3, 0)])).amounts, [-4, -4, 12, -4])
    s = settle(start(deal({3: ["QC", "QS", "QH", "QD"]}), variant="classic", calls=[{"seat": 3, "call": "baska"}]))
    assert (s.outcome, s.winner) == ("baska", "declarer") and pays(s.amounts, [-10, -10, -10, 30])


def test_classic_52_52_the_side_of_the_last_counted_double_loses_and_no_bok_runda():
    calls = [{"seat": 0, "call": "kontra"}]  # młodzi doubled last
    s = settle(scored(start(SPLIT, variant="classic", calls=calls), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "stare" and pays(s.amounts, [-2, 2, -2, 2]) and s.extra == {}
    s = settle(scored(start(SPLIT, variant="classic"), [(0, 40), (2, 12), (1, 30), (3, 22)]))
    assert s.winner == "mlodzi" and pays(s.amounts, [2, -2, 2, -2])  # stare lose, doubled


def test_bok_rundy_run_four_hands_and_never_overlap():
    bok = after_hand(NO_BOK, False, True)
    assert bok == {"hands_left": 4, "queued": 0}
    bok = after_hand(bok, True, True)  # a tie inside the running bok-runda queues another
    assert bok == {"hands_left": 3, "queued": 1}
    bok = after_hand(after_hand(bok, True, False), True, False)
    assert bok == {"hands_left": 1, "queued": 1}
    bok = after_hand(bok, True, False)  # the first ends, the queued one starts
    assert bok == {"hands_left": 4, "queued": 0}
    for _ in range(4):
        bok = after_hand(bok, True, False)
    assert bok == NO_BOK and after_hand(NO_BOK, True, False) == NO_BOK
