"""Random legal Bisca hands of every variant (hypothesis): 120 card points in all, every
card of the pack played exactly once (so drawn once), payouts summing to zero, and the
game points those of a second reading of the rules (tests/oracles/bisca.py)."""
from hypothesis import given, settings, strategies as st

from games.bisca import game as bisca
from games.engine.base import TableTerms
from games.engine.errors import RuleViolation
from tests.games.bisca.oracle import game_points
from tests.oracles.harness import play_hand


@settings(max_examples=150, deadline=None)
@given(variant=st.sampled_from(sorted(bisca.VARIANTS)), seed=st.randoms(use_true_random=False),
       knock=st.booleans(), match=st.tuples(st.integers(0, 3), st.integers(0, 3)), majority=st.booleans())
def test_random_bisca_hands(variant, seed, knock, match, majority):
    v = bisca.VARIANTS[variant]
    rules = bisca.parse_rules({"variant": variant, "majority_bonus": majority})
    cards = sorted(bisca.PACKS[v.pack])
    seed.shuffle(cards)
    n = v.players
    hands = [cards[i * v.hand:(i + 1) * v.hand] for i in range(n)]
    rest = cards[n * v.hand:]
    knock = knock and variant == "capixaba"
    deal = ({"dealer": 0, "hands": hands, "trump": None, "trump_suit": "H", "stock": rest} if knock
            else {"dealer": 0, "hands": hands, "trump": rest[-1], "stock": rest[:-1]})
    try:
        event = bisca.deal_event(rules, deal)
    except RuleViolation as e:
        assert "ace or a 7" in str(e)
        return
    state = bisca.new_hand(rules, {**event.data, "match_before": list(match)})
    state, commands = play_hand(bisca.GAME, state, [seed.randrange(100) for _ in range(40)])
    played = sorted(c for command in commands for c in command.data["cards"])
    ended_early = bisca.bisca_scoring.match_won_by_bonuses(state)
    if not ended_early:
        assert played == sorted(bisca.PACKS[v.pack])
        assert sum(t.points for t in state.tricks) == 120
    s = bisca.settle(state, TableTerms(100, tuple(f"m{i}" for i in range(n))))
    assert sum(s.amounts) == 0
    tricks = [command.data["cards"] for command in commands]
    expected, ended = game_points(variant, 0, n, state.trump_suit, tricks, match, majority_bonus=majority)
    assert s.extra["match"]["hand"] == expected and s.extra["match"]["game_over"] == ended
