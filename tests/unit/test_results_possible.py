"""Could a score sheet's result happen? games/ answers with a subset-sum table (Kop, Baśka,
Bisca) and a bound on the plays that can sweep (Scopa); each is held here against a
brute-force search over small packs, and against tests/oracles/results.py over the real ones."""
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from games.bisca import game as bisca

from games.kop import result as kop_result

from games.scopa import game as scopa
from games.engine.base import Event
from games.engine.errors import Incomplete, Malformed, RuleViolation
from games.engine.possible import totals, why_impossible
from games.scopa.result import cards_possible, empty_handed, play_order, scopas_possible
from tests.oracles import results as oracle


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(0, 12), max_size=10), count=st.integers(0, 11))
def test_totals_are_exactly_the_sums_of_every_choice_of_cards(values, count):
    brute = {sum(choice) for choice in combinations(values, count)} if count <= len(values) else set()
    assert totals(tuple(sorted(values)), count) == brute


@pytest.mark.parametrize("tricks", range(5))
def test_a_kop_result_is_possible_exactly_when_some_cards_of_the_pack_give_it(tricks):
    for points in range(105):
        assert (kop_result.possible(points, tricks) is None) == oracle.kop_result_possible(points, tricks), points


@pytest.mark.parametrize("points, tricks, why", [
    (80, 1, "4 cards of the pack of 16 hold from 8 to 44 card points"),   # zolo with 80 in one trick
    (30, 3, "12 cards of the pack of 16 hold from 60 to 96 card points"),  # zolo with 30 in three
    (88, 2, "8 cards of the pack of 16 hold from 20 to 84 card points"),   # a normal game, 88 in two
    (39, 1, "no 4 cards of the pack of 16 add up to 39 (the nearest totals are 36 and 40)"),
])
def test_the_issues_impossible_kop_results_say_why(points, tricks, why):
    assert kop_result.possible(points, tricks) == why


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(sorted(oracle.BISCA_PLAYERS)), p0=st.integers(0, 120), t0=st.integers(0, 20))
def test_a_bisca_result_is_accepted_exactly_when_some_cards_of_the_pack_give_it(variant, p0, t0):
    rules = bisca.parse_rules({"variant": variant})
    total = len(bisca.PACKS[bisca.VARIANTS[variant].pack]) // rules.players
    t0 = min(t0, total)
    raw = {"points": [p0, 120 - p0], "tricks": [t0, total - t0], "bonus": [0, 0]}
    try:
        bisca.result_event(rules, 0, raw)
        accepted = True
    except RuleViolation as e:
        assert "cannot take" in e.detail
        accepted = False
    assert accepted == oracle.bisca_result_possible(variant, raw["points"], raw["tricks"])


@pytest.mark.parametrize("bonus, suit, ok", [
    ([1, 0], None, True), ([0, 2], "S", True), ([3, 0], None, False), ([3, 0], "H", True), ([0, 4], "H", True),
    ([1, 1], "H", False), ([2, 2], None, False), ([0, 5], "H", False)])
def test_capixaba_scores_one_bonus_at_most_worth_what_the_relas_are_worth(bonus, suit, ok):
    rules = bisca.parse_rules({"variant": "capixaba"})
    raw = {"points": [70, 50], "tricks": [6, 4], "bonus": bonus, "trump_suit": suit}
    if ok:
        assert bisca.result_event(rules, 0, raw).data["result"]["bonus"] == bonus
    else:
        with pytest.raises(RuleViolation, match="one bonus at most|a bonus is worth"):
            bisca.result_event(rules, 0, raw)


def _captures(card_value, table):
    singles = [(i,) for i, v in enumerate(table) if v == card_value]
    if singles:
        return singles
    sums = [c for n in range(2, len(table) + 1) for c in combinations(range(len(table)), n)
            if sum(table[i] for i in c) == card_value]
    return sums or [()]


def _reachable_scopas(hands, table, first):
    """Every scopas-per-player a tiny two-player Scopa hand can end with, by trying every
    card and every capture (rules/scopa.md), one round and no stock."""
    return {made for made, _ in _reachable_ends(hands, table, first)}


def _reachable_ends(hands, table, first):
    """Every (scopas per player, players who captured something) a tiny hand can end with."""
    found = set()

    def play(hands, table, turn, made, left, took=frozenset()):
        if left == 0:
            found.add((made, took))
            return
        for i, value in enumerate(hands[turn]):
            for taken in _captures(value, table):
                rest = tuple(v for j, v in enumerate(table) if j not in taken)
                after = rest if taken else rest + (value,)
                scopa_now = bool(taken) and not after and left > 1  # never the hand's last play
                mine = hands[turn][:i] + hands[turn][i + 1:]
                new_hands = (mine, hands[1]) if turn == 0 else (hands[0], mine)
                bumped = tuple(n + (scopa_now and s == turn) for s, n in enumerate(made))
                play(new_hands, after, 1 - turn, bumped, left - 1, took | ({turn} if taken else set()))
    play(tuple(tuple(h) for h in hands), tuple(table), first, (0, 0), sum(map(len, hands)))
    return found


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.integers(1, 5), min_size=8, max_size=8), face_up=st.sampled_from([0, 2]),
       first=st.integers(0, 1))
def test_every_scopa_count_a_small_hand_reaches_is_within_the_bound(values, face_up, first):
    hands = [values[:3], values[3:6]]
    table = values[6:6 + face_up]
    order = [(first + i) % 2 for i in range(6)]
    for made in _reachable_scopas(hands, table, first):
        assert scopas_possible(made, order, face_up > 0), (hands, table, made)


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), deal=st.sampled_from(["standard", "scientifico"]),
       dealer=st.integers(0, 3), scopas=st.lists(st.integers(0, 20), min_size=3, max_size=3))
def test_the_scopa_bound_agrees_with_a_forward_search_of_the_plays(players, deal, dealer, scopas):
    if deal == "scientifico" and players != 4:
        deal = "standard"
    rules = scopa.parse_rules({"players": players, "deal": deal})
    face_up = scopa.DEALS[deal][1]
    order = play_order(rules, dealer % players, face_up)
    wanted = scopas[:len(rules.sides)]
    assert scopas_possible(wanted, order, face_up > 0) == oracle.scopas_possible(wanted, list(order), face_up == 0)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.integers(1, 4), min_size=8, max_size=8), face_up=st.sampled_from([0, 2]),
       first=st.integers(0, 1))
def test_a_player_who_took_a_card_in_a_small_hand_is_never_called_empty_handed(values, face_up, first):
    hands = [values[:3], values[3:6]]
    order = [(first + i) % 2 for i in range(6)]
    for made, took in _reachable_ends(hands, values[6:6 + face_up], first):
        assert not took & set(empty_handed(made, order, face_up > 0)), (hands, made, took)


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), deal=st.sampled_from(["standard", "scientifico"]),
       dealer=st.integers(0, 3), scopas=st.lists(st.integers(0, 20), min_size=3, max_size=3))
def test_who_must_have_taken_nothing_agrees_with_a_forward_search_of_the_plays(players, deal, dealer, scopas):
    if deal == "scientifico" and players != 4:
        deal = "standard"
    rules = scopa.parse_rules({"players": players, "deal": deal})
    face_up = scopa.DEALS[deal][1]
    order = play_order(rules, dealer % players, face_up)
    wanted = scopas[:len(rules.sides)]
    if not scopas_possible(wanted, order, face_up > 0):
        return
    may_take = oracle.sides_that_may_take(wanted, list(order), face_up == 0) | {s for s, n in enumerate(wanted) if n}
    assert set(empty_handed(wanted, order, face_up > 0)) == set(range(len(wanted))) - may_take


def test_two_players_a_standard_hand_holds_at_most_18_scopas_and_never_two_in_a_row():
    rules = scopa.parse_rules({})
    order = play_order(rules, 0, 4)  # seat 1 plays first, 36 plays
    assert scopas_possible([0, 18], order, True) and not scopas_possible([0, 19], order, True)
    assert scopas_possible([17, 0], order, True) and not scopas_possible([18, 0], order, True)
    # A sweep by the other side needs a play between that leaves cards: each change of sweeper costs a play.
    assert scopas_possible([1, 16], order, True) and not scopas_possible([1, 17], order, True)
    assert scopas_possible([9, 8], order, True) and not scopas_possible([9, 9], order, True)


@pytest.mark.parametrize("least, winner, ok", [
    ([20, 0], 0, True), ([20, 20], None, True), ([20, 20], 0, False), ([22, 0], 1, False), ([0, 18], 0, True),
    ([14, 14, 0], None, True), ([14, 14, 14], None, False), ([10, 0, 0], 2, True), ([26, 0, 0], 1, False)])
def test_each_scopa_takes_two_cards_which_bounds_who_took_most(least, winner, ok):
    assert cards_possible(least, winner) == ok


@pytest.mark.parametrize("raw, why", [
    ({"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [0, 19]}, "cannot happen in a hand of 36"),
    ({"cards": 1, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [11, 0]}, "cannot have taken the most"),
    ({"cards": None, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [11, 0]}, "cannot end in a tie"),
    # Side 1 sweeps at each of its 18 plays, so side 0 only ever plays onto an empty table and takes nothing.
    ({"cards": 1, "coins": 0, "primiera": 1, "settebello": 1, "scopas": [0, 18]}, "coins cannot be side 0"),
    ({"cards": 1, "coins": None, "primiera": 1, "settebello": 1, "scopas": [0, 18]}, "coins cannot be a tie"),
    ({"cards": 1, "coins": 1, "primiera": 1, "settebello": 0, "scopas": [0, 18]}, "settebello cannot be side 0"),
])
def test_impossible_scopa_results_are_refused_saying_why(raw, why):
    with pytest.raises(RuleViolation, match=why):
        scopa.result_event(scopa.parse_rules({}), 0, raw)


@pytest.mark.parametrize("game, rules, raw, missing", [
    ("scopa", {}, {"settebello": 0}, ("cards", "coins", "primiera", "scopas")),
    ("scopa", {}, {"cards": None, "coins": None, "primiera": None, "settebello": 1}, ("scopas",)),
    ("bisca", {}, {"points": [60, 60]}, ("tricks",)),
    ("bisca", {"variant": "capixaba"}, {"points": [60, 60], "tricks": [5, 5]}, ("bonus",)),
    ("kop", {}, {"contract": "normal", "stare": [0, 2], "points": 60, "tricks": 2}, ("doubles",)),
    ("kop", {}, {"contract": "wesele", "declarer": 0, "doubles": []}, ("partner", "points", "tricks")),
    ("kop", {}, {}, ("contract",)),
])
def test_a_result_without_a_field_that_applies_names_each_missing_field(game, rules, raw, missing):
    from games.registry import game as game_of
    played = game_of(game)
    with pytest.raises(Incomplete) as found:
        played.parse_result(played.parse_rules(rules), 0, raw)
    assert found.value.fields == missing


def test_a_side_that_swept_at_every_play_took_every_category():
    raw = {"cards": 1, "coins": 1, "primiera": 1, "settebello": 1, "scopas": [0, 18]}
    assert scopa.result_event(scopa.parse_rules({}), 0, raw).data["result"] == raw
    # One play fewer swept leaves side 0 a play onto cards, and so a chance at anything.
    assert scopa.result_event(scopa.parse_rules({}), 0, {**raw, "coins": None, "settebello": 0, "scopas": [0, 17]})


@pytest.mark.parametrize("game, rules, raw, field", [
    ("kop", {}, {"contract": "normal", "stare": [0, 2], "doubles": None, "points": 60, "tricks": 2}, "doubles"),
    ("kop", {}, {"contract": "normal", "stare": [0, 2], "doubles": 0, "points": 60, "tricks": 2}, "doubles"),
    ("kop", {}, {"contract": "normal", "stare": [0, 2], "doubles": [], "points": None, "tricks": 2}, "points"),
    ("kop", {}, {"contract": "normal", "stare": None, "doubles": [], "points": 60, "tricks": 2}, "stare"),
    ("kop", {}, {"contract": "zolo", "declarer": "1", "doubles": [], "points": 60, "tricks": 2}, "declarer"),
    ("kop", {}, {"contract": 3}, "contract"),
    ("scopa", {}, {"cards": 0, "coins": 0, "primiera": 0, "settebello": None, "scopas": [0, 0]}, "settebello"),
    ("scopa", {}, {"cards": "0", "coins": 0, "primiera": 0, "settebello": 0, "scopas": [0, 0]}, "cards"),
    ("scopa", {}, {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": None}, "scopas"),
    ("bisca", {"variant": "capixaba"}, {"points": [70, 50], "tricks": [6, 4], "bonus": None}, "bonus"),
    ("bisca", {"variant": "capixaba"}, {"points": [70, 50], "tricks": [6, 4], "bonus": [0, 0], "trump_suit": 7},
     "trump_suit"),
    ("bisca", {}, {"points": None, "tricks": [10, 10]}, "points"),
])
def test_a_field_of_the_wrong_kind_is_malformed_not_read_as_something_else(game, rules, raw, field):
    from games.registry import game as game_of
    played = game_of(game)
    with pytest.raises(Malformed) as found:
        played.parse_result(played.parse_rules(rules), 0, raw)
    assert found.value.field == field


def test_only_capixaba_names_a_trump_suit():
    with pytest.raises(RuleViolation, match="only capixaba names trump_suit"):
        bisca.result_event(bisca.parse_rules({}), 0, {"points": [70, 50], "tricks": [12, 8], "trump_suit": "H"})


def test_a_scopa_tie_is_said_with_null_and_counts_for_nobody():
    event = scopa.result_event(scopa.parse_rules({}), 0, {"cards": None, "coins": None, "primiera": None,
                                                           "settebello": 1, "scopas": [0, 0]})
    assert event == Event("result", {"dealer": 0, "result": {"cards": None, "coins": None, "primiera": None,
                                                             "settebello": 1, "scopas": [0, 0]}})


def test_why_impossible_names_an_empty_choice():
    assert why_impossible(0, 0, (1, 2)) is None
    assert why_impossible(1, 3, (1, 2)) == "the pack of 2 cards has no 3 cards to take"
    assert why_impossible(2, 2, (1, 2)) == "2 cards of the pack of 2 hold 3 card points, whichever they are"
