"""Random legal Kop hands through the decider (hypothesis).

Each card the chooser plays is checked by an oracle written here straight from the rules
text, independent of games/engine/tricks.py; the hand must then total 104 card points, and its
payouts sum to zero and equal those of a second reading of the rules, also written here.
"""
from hypothesis import given, settings, strategies as st

from games.kop import game as kop
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from tests.oracles.harness import play_hand
from tests.games.kop.oracle import CALLS, oracle_amounts, oracle_may_play

@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(sorted(kop.PACK)),
    dealer=st.integers(0, 3),
    ranking=st.sampled_from(sorted(kop.RANKINGS)),
    attempts=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(CALLS)), max_size=8),
    picks=st.lists(st.integers(0, 3), min_size=16, max_size=16),
    stake=st.integers(1, 10_000),
)
def test_random_legal_hands_total_104_and_pay_what_the_rules_say(order, dealer, ranking, attempts, picks, stake):
    hands = [order[i * 4:(i + 1) * 4] for i in range(4)]
    state = kop.new_hand(kop.parse_rules({"ranking": ranking}), {"dealer": dealer, "hands": hands})
    accepted = []
    for seat, call in attempts:
        try:
            [event] = kop.decide(state, Command("bid", {"seat": seat, "call": call}))
        except RuleViolation:
            continue
        state = kop.evolve(state, event)
        accepted.append((seat, event.data["call"], event.data.get("jack")))
    def each(state, seat, played, legal, card):
        assert oracle_may_play(card, state.held[seat], played, ranking)
        for other in state.held[seat]:
            assert (other in legal) == oracle_may_play(other, state.held[seat], played, ranking)
    state, _ = play_hand(kop.GAME, state, picks, on_card=each)
    assert sum(t.points for t in state.tricks) == 104
    assert sorted(c for t in state.tricks for c in t.cards) == sorted(kop.PACK)
    s = kop.settle(state, TableTerms(stake, ("a", "b", "c", "d")))
    assert sum(s.amounts) == 0
    assert all(a % stake == 0 and a != 0 for a in s.amounts)
    assert list(s.amounts) == oracle_amounts(hands, accepted, [(t.winner, t.points) for t in state.tricks], stake)
    assert sum(side.points for side in s.sides) == 104
