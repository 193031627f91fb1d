"""Random legal Scopa hands for 2, 3 and 4 players and every deal (hypothesis): every card
ends captured or left on the table exactly once, a hand scores at most 4 category points
plus its scopas, each capture is one a second reading of the rules allows, and a game's
payouts sum to zero."""
from hypothesis import given, settings, strategies as st

from games.scopa import game as scopa
from games.engine.base import TableTerms
from tests.oracles.harness import play_hand
from tests.games.scopa.oracle import oracle_captures


SETUPS = [(2, "standard"), (3, "standard"), (4, "standard"), (4, "scopone"), (4, "scientifico")]


@settings(max_examples=120, deadline=None)
@given(order=st.permutations(sorted(scopa.PACK)), setup=st.sampled_from(SETUPS), dealer=st.integers(0, 3),
       picks=st.lists(st.integers(0, 50), min_size=40, max_size=40),
       before=st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_random_scopa_hands(order, setup, dealer, picks, before):
    players, kind = setup
    rules = scopa.parse_rules({"players": players, "deal": kind})
    in_hand, face_up = scopa.DEALS[kind]
    hands = [order[i * in_hand:(i + 1) * in_hand] for i in range(players)]
    table = order[players * in_hand:players * in_hand + face_up]
    if sum(1 for c in table if c[:-1] == "K") >= 3:
        return  # a redeal
    deal = {"dealer": dealer % players, "hands": hands, "table": table, "stock": order[players * in_hand + face_up:]}
    state = scopa.new_hand(rules, scopa.deal_event(rules, deal).data)

    def each(state, legal, play):
        allowed = oracle_captures(play["card"], state.table)
        assert (set(play["capture"]) in allowed) if allowed else play["capture"] == []
    state, _ = play_hand(scopa.GAME, state, picks, on_play=each)
    assert scopa.is_over(state)
    captured = [c for cards in state.captured for c in cards]
    assert sorted(captured + list(state.table)) == sorted(scopa.PACK)
    from games.scopa.scoring import hand_score
    points, _ = hand_score(state)
    assert sum(points) <= 4 + sum(state.scopas)
    n = len(rules.sides)
    s = scopa.settle(state, TableTerms(100, tuple(f"m{i}" for i in range(players)), match=tuple(before[:n])))
    assert sum(s.amounts) == 0
    assert s.pays == (s.outcome == "game")
