"""Settle-up: the fewest transfers, on cases whose optimum is known by hand, and a property:
the transfers always zero the balances and are never more than n - 1."""
from hypothesis import given, settings, strategies as st

from projections.settle_up import _greedy, plan


def _after(balances, moves):
    left = dict(balances)
    for src, dst, amount in moves:
        assert amount > 0
        left[src] += amount
        left[dst] -= amount
    return left


def test_two_pairs_need_two_transfers():
    balances = {"a": 5, "b": 5, "c": -5, "d": -5}
    moves, method = plan(balances)
    assert len(moves) == 2 and method == "exact" and set(_after(balances, moves).values()) == {0}


def test_the_exact_answer_beats_pairing_the_largest_creditor_with_the_largest_debtor():
    balances = {"a": 5, "b": 4, "c": -4, "d": -3, "e": -2}
    assert len(_greedy(balances)) == 4
    moves, method = plan(balances)
    assert len(moves) == 3 and method == "exact" and set(_after(balances, moves).values()) == {0}


def test_nothing_to_pay_when_everyone_is_even():
    assert plan({"a": 0, "b": 0}) == ([], "exact")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5000, 5000), min_size=1, max_size=12))
def test_transfers_always_zero_the_balances_and_never_exceed_n_minus_1(values):
    values = values + [-sum(values)]
    balances = {f"m{i}": v for i, v in enumerate(values)}
    moves, _ = plan(balances)
    assert set(_after(balances, moves).values()) == {0}
    nonzero = sum(1 for v in values if v)
    assert len(moves) <= max(0, nonzero - 1)
    assert len(moves) <= len(_greedy(balances))


def test_more_than_twenty_members_fall_back_to_greedy_and_say_so():
    balances = {f"m{i}": (i + 1) * (1 if i % 2 else -1) for i in range(23)}
    balances["m0"] -= sum(balances.values())
    moves, method = plan(balances)
    assert method == "greedy" and set(_after(balances, moves).values()) == {0}
