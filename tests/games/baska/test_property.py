"""Random legal Baśka hands, both rule sets, hand after hand at one table (hypothesis):
every card legal by the rules text (tests/oracles/kop.py), 104 card points in a played
hand, payouts summing to zero and equal to a second reading of the money rules
(tests/oracles/baska.py), and the bok-runda counts never negative."""
import math

from hypothesis import given, settings, strategies as st

from games.baska import game as baska
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.table import NO_BOK, after_hand
from tests.games.baska.oracle import baska_amounts, bok_due
from tests.oracles.harness import play_hand as played_through
from tests.games.kop.oracle import oracle_may_play

CALLS = ["pass", "wesele", "gran", "zolo", "zolla", "gran-du", "zolo-du", "baska",
         "kontra", "rekontra", "hirsch", "bok"]


def play_hand(order, dealer, variant, attempts, picks):
    hands = [order[i * 4:(i + 1) * 4] for i in range(4)]
    state = baska.new_hand(baska.parse_rules({"variant": variant}), {"dealer": dealer, "hands": hands})
    accepted = []
    for seat, call in attempts:
        try:
            [event] = baska.decide(state, Command("bid", {"seat": seat, "call": call}))
        except RuleViolation:
            continue
        state = baska.evolve(state, event)
        accepted.append((seat, event.data["call"], event.data.get("jack")))
    ranking = "gran" if state.auction.contract in ("gran", "gran-du") else "as-dycha"

    def each(state, seat, played, legal, chosen):
        for card in state.held[seat]:
            assert (card in legal) == oracle_may_play(card, state.held[seat], played, ranking)
    try:
        state, _ = played_through(baska.GAME, state, picks, on_card=each)
    except RuleViolation as e:
        assert "53 against every defence" in str(e)  # the unlosable cicha
        return None, None
    return state, accepted


@settings(max_examples=150, deadline=None)
@given(
    deals=st.lists(st.permutations(sorted(baska.kop.PACK)), min_size=1, max_size=6),
    variant=st.sampled_from(baska.VARIANTS),
    attempts=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(CALLS)), max_size=8),
    picks=st.lists(st.integers(0, 3), min_size=16, max_size=16),
)
def test_random_baska_hands_hand_after_hand(deals, variant, attempts, picks):
    bok = NO_BOK
    for number, order in enumerate(deals):
        state, accepted = play_hand(order, number % 4, variant, attempts, picks)
        if state is None:
            continue
        if state.auction.contract != "baska":
            assert sum(t.points for t in state.tricks) == 104
        s = baska.settle(state, TableTerms(100, ("a", "b", "c", "d"), bok["hands_left"] > 0))
        assert sum(s.amounts) == 0 and all(a != 0 for a in s.amounts)
        expected = baska_amounts([list(h) for h in state.deal], accepted, [(t.winner, t.points) for t in state.tricks],
                                 variant, bok["hands_left"] > 0, 100)
        assert list(s.amounts) == expected
        assert s.extra.get("bok_due", False) == bok_due(accepted, [(t.winner, t.points) for t in state.tricks],
                                                        [list(h) for h in state.deal], variant)
        raised = [f.factor for f in s.factors if f.name not in ("lost-contract", "stare-lose", "wyjscie",
                                                                 "bez-wyjscia", "bez-bitki")]
        assert math.prod(raised) <= 64  # doubles, du, bok-runda: the seed's 6400%
        if variant == "classic" and state.auction.contract == "wesele" and state.auction.doubles:
            assert state.auction.doubles[0].seat != state.auction.declarer  # nobody doubles their own bet
        bok = after_hand(bok, s.extra.get("bok_runda", False), s.extra.get("bok_due", False))
        assert bok["hands_left"] >= 0 and bok["queued"] >= 0
        assert variant == "bytow-2005" or bok == NO_BOK
