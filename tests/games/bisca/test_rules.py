"""Bisca, rule by rule (rules/bisca.md): pack, tricks, draws, each variant's game points,
Capixaba's relas, the match and its money. Expected figures are worked out by hand."""
import pytest

from games.bisca import game as bisca
from games.engine.base import Command, Event, TableTerms
from games.bisca.scoring import rela_bonuses
from games.engine.errors import RuleViolation

S = 100


def _deal(variant="tres", trump="KD", dealer=0, knock=False):
    """A deal in sorted pack order: hands first, then the stock, the trump card apart."""
    v = bisca.VARIANTS[variant]
    cards = [c for c in sorted(bisca.PACKS[v.pack]) if c != trump]
    hands = [cards[i * v.hand:(i + 1) * v.hand] for i in range(v.players)]
    stock = cards[v.players * v.hand:]
    if knock:
        return {"dealer": dealer, "hands": hands, "trump": None, "trump_suit": "H", "stock": stock + [trump]}
    return {"dealer": dealer, "hands": hands, "trump": trump, "stock": stock}


def start(variant="tres", match=(0, 0), **rules):
    rules = bisca.parse_rules({"variant": variant, **rules})
    event = bisca.deal_event(rules, _deal(variant))
    return bisca.new_hand(rules, {**event.data, "match_before": list(match)})


def scored(state, results):
    """Tricks by (winner, card points) alone: for the game point bands, not for play."""
    for number, (winner, points) in enumerate(results, 1):
        state = bisca.evolve(state, Event("trick", {"trick": number, "leader": 0, "cards": [], "winner": winner,
                                                    "points": points, "draws": []}))
    return state


def settle(state, stake=S):
    return bisca.settle(state, TableTerms(stake, tuple(f"m{i}" for i in range(state.rules.players))))


def test_the_pack_ranks_and_points():
    assert len(bisca.PACKS["full"]) == 40 and sum(map(bisca.points, bisca.PACKS["full"])) == 120
    assert len(bisca.PACKS["no-twos"]) == 36 and sum(map(bisca.points, bisca.PACKS["no-twos"])) == 120
    assert bisca.ORDER == ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")


def test_the_highest_trump_wins_else_the_highest_of_the_led_suit():
    assert bisca.winner_index(["7S", "AS", "2D"], "D") == 2
    assert bisca.winner_index(["KS", "7S", "AC"], "D") == 1  # a card of another suit never wins
    assert bisca.winner_index(["3H", "2H"], "D") == 0


def test_no_duty_to_follow_suit_or_trump_in_tres():
    state = start()
    assert sorted(bisca.legal_cards(state, 1, ("AC",))) == sorted(state.held[1])


def test_after_a_trick_the_winner_draws_first_then_the_others_and_the_trump_card_comes_last():
    state = start()  # seat 1 leads; hands AC 2C 3C | 4C 5C 6C; stock top first 7C JC ...
    h0, h1 = state.held
    [event] = bisca.decide(state, Command("trick", {"cards": [h1[0], h0[0]]}))
    assert event.data["winner"] == 1 and event.data["draws"] == [[1, state.stock[0]], [0, state.stock[1]]]
    while state.draw_pile:
        leader = state.leader
        cards = [state.held[leader][0], state.held[1 - leader][0]]
        [event] = bisca.decide(state, Command("trick", {"cards": cards}))
        state = bisca.evolve(state, event)
    assert event.data["draws"][-1][1] == "KD" and state.trump_card is None


def test_a_card_not_yet_drawn_cannot_be_played():
    state = start()
    with pytest.raises(RuleViolation, match=f"{state.stock[0]} has not been drawn yet: seat 1 cannot hold it"):
        bisca.decide(state, Command("trick", {"cards": [state.stock[0], state.held[0][0]]}))


def _nove_at_the_end():
    """A nove hand played until nothing is left to draw."""
    state = start("nove")
    while state.draw_pile:
        leader = state.leader
        cards = [state.held[leader][0], state.held[1 - leader][0]]
        [event] = bisca.decide(state, Command("trick", {"cards": cards}))
        state = bisca.evolve(state, event)
    return state


def test_nove_a_trump_lead_must_be_answered_with_a_trump_once_the_stock_is_gone():
    state = _nove_at_the_end()
    leader, other = state.leader, 1 - state.leader
    trumps = [c for c in state.held[other] if c[-1] == "D"]
    led = next((c for c in state.held[leader] if c[-1] == "D"), None)
    assert trumps and led, "the sorted deal leaves trumps in both hands at the end"
    off = next(c for c in state.held[other] if c[-1] != "D")
    with pytest.raises(RuleViolation, match="must answer the trump lead with one"):
        bisca.decide(state, Command("trick", {"cards": [led, off]}))
    assert set(bisca.legal_cards(state, other, (led,))) == set(trumps)


def test_nove_before_the_stock_is_gone_a_trump_lead_leaves_the_reply_free():
    state = start("nove")
    assert bisca.legal_cards(state, 0, ("2D",)) == list(state.held[0])


@pytest.mark.parametrize("results, hand", [
    ([(0, 61), (1, 59)], [1, 0]), ([(0, 81), (1, 39)], [1, 0]), ([(0, 82), (1, 38)], [2, 0]),
    ([(0, 100), (0, 20)], [4, 0]), ([(0, 60), (1, 60)], [0, 0])])
def test_nove_bands_61_81_82_and_every_trick(results, hand):
    assert settle(scored(start("nove"), results)).extra["match"]["hand"] == hand


@pytest.mark.parametrize("variant", ["seis", "quatro"])
@pytest.mark.parametrize("results, hand", [
    ([(0, 61), (1, 59)], [1, 0]), ([(0, 90), (1, 30)], [1, 0]), ([(1, 91), (0, 29)], [0, 2]),
    ([(1, 60), (1, 60)], [0, 4])])
def test_seis_and_quatro_bands_61_90_91_and_every_trick(variant, results, hand):
    assert settle(scored(start(variant, ), results)).extra["match"]["hand"] == hand


def test_conservative_makes_any_win_one_game_point():
    assert settle(scored(start("seis", conservative=True), [(1, 120)])).extra["match"]["hand"] == [0, 1]


def test_tres_any_win_is_one_and_60_60_gives_nobody_anything():
    assert settle(scored(start(), [(0, 100), (1, 20)])).extra["match"]["hand"] == [1, 0]
    s = settle(scored(start(), [(0, 60), (1, 60)]))
    assert s.outcome == "60-60" and s.extra["match"]["hand"] == [0, 0] and not s.pays


@pytest.mark.parametrize("knock, results, hand, outcome", [
    (False, [(0, 70), (1, 50)], [1, 0], "win"), (True, [(0, 70), (1, 50)], [2, 0], "win"),
    (False, [(1, 90), (0, 30)], [0, 2], "capote"), (True, [(1, 95), (0, 25)], [0, 3], "capote"),
])
def test_capixaba_game_points_and_hearts_doubling(knock, results, hand, outcome):
    rules = bisca.parse_rules({"variant": "capixaba"})
    event = bisca.deal_event(rules, _deal("capixaba", trump="KH" if knock else "KD", knock=knock))
    state = bisca.new_hand(rules, {**event.data, "match_before": [0, 0]})
    s = settle(scored(state, results))
    assert (s.outcome, s.extra["match"]["hand"]) == (outcome, hand)


def test_capixaba_all_120_card_points_is_4_and_wins_the_match():
    s = settle(scored(start("capixaba"), [(1, 120)]))
    assert s.extra["match"]["hand"] == [0, 4] and s.extra["match"]["game_over"] and s.extra["match"]["winners"] == [1]


def test_capixaba_never_leaves_an_ace_or_7_face_up_and_only_it_may_knock_for_hearts():
    rules = bisca.parse_rules({"variant": "capixaba"})
    with pytest.raises(RuleViolation, match="7D is an ace or a 7"):
        bisca.deal_event(rules, _deal("capixaba", trump="7D"))
    with pytest.raises(RuleViolation, match="only capixaba plays without a trump card"):
        bisca.deal_event(bisca.parse_rules({}), _deal("tres", trump="KH", knock=True))


def test_capixaba_the_holder_of_the_2_of_trumps_may_swap_it_for_the_trump_card_before_the_first_trick():
    state = start("capixaba")  # trump KD; 2D is in seat 0's sorted hand? find its holder
    holder = next(s for s, h in enumerate(state.held) if "2D" in h)
    [event] = bisca.decide(state, Command("bid", {"seat": holder, "call": "swap-2"}))
    state = bisca.evolve(state, event)
    assert "KD" in state.held[holder] and state.trump_card == "2D"
    with pytest.raises(RuleViolation, match="may be swapped once"):
        bisca.decide(state, Command("bid", {"seat": holder, "call": "swap-2"}))


def _rela(cards, leader=0, trump="KD", hearts=False, last=False):
    rules = bisca.parse_rules({"variant": "capixaba"})
    t = "KH" if hearts else trump
    event = bisca.deal_event(rules, _deal("capixaba", trump=t, knock=hearts))
    state = bisca.new_hand(rules, {**event.data, "match_before": [0, 0]})
    if last:
        state = bisca.BiscaState(rules, 0, tuple((c,) for c in cards), (), None, state.trump_suit, (0, 0))
    suit = state.trump_suit
    cards = [c.replace("*", suit) for c in cards]
    winner = (leader + bisca.winner_index(cards, suit)) % 4
    trick = bisca.Trick(1, leader, tuple(cards), winner, sum(map(bisca.points, cards)))
    return rela_bonuses(state, trick)


def _one(bonuses):
    [b] = bonuses
    return b["name"], b["side"], b["points"]


def test_rela_the_ace_directly_after_the_7_scores_1_for_the_ace_side():
    assert _one(_rela(["3C", "7*", "A*", "4C"])) == ("rela", 0, 1)  # seat 2 (side 0) played the ace
    assert _one(_rela(["3C", "7*", "A*", "4C"], hearts=True)) == ("rela", 0, 2)


def test_rela_the_7_after_the_ace_by_an_opponent_scores_2_for_the_ace_side():
    assert _one(_rela(["A*", "7*", "3C", "4C"])) == ("rela do as", 0, 2)
    assert _one(_rela(["A*", "3C", "4C", "7*"], hearts=True)) == ("rela do as", 0, 4)


def test_rela_de_parceiros_scores_2_for_the_other_side_except_in_the_last_trick():
    assert _one(_rela(["A*", "3C", "7*", "4C"])) == ("rela de parceiros", 1, 2)
    assert _one(_rela(["A*", "3C", "7*", "4C"], hearts=True)) == ("rela de parceiros", 1, 3)
    assert _rela(["AD", "3C", "7D", "4C"], last=True) == ()


def test_rela_de_roda_the_7_led_and_beaten_by_the_fourth_player_scores_2_for_the_winner():
    assert _one(_rela(["7*", "3C", "4C", "A*"])) == ("rela de roda", 1, 2)  # seat 3 wins it
    assert _one(_rela(["7*", "3C", "4C", "A*"], hearts=True)) == ("rela de roda", 1, 3)


def test_rodar_o_7_the_7_led_and_not_beaten_by_the_ace_scores_1_for_the_leader_side():
    assert _one(_rela(["7*", "3C", "4C", "5C"], leader=1)) == ("rodar o 7", 1, 1)
    assert _one(_rela(["7*", "3C", "4C", "5C"], leader=1, hearts=True)) == ("rodar o 7", 1, 2)


def test_a_capixaba_bonus_that_reaches_the_match_target_ends_the_match_and_the_hand():
    state = start("capixaba", match=(3, 0))
    event = Event("trick", {"trick": 1, "leader": 0, "cards": ["AD", "7D", "3C", "4C"], "winner": 0,
                            "points": 21, "draws": [],
                            "bonuses": [{"name": "rela do as", "side": 0, "points": 2, "rule": ""}]})
    state = bisca.evolve(state, event)
    assert bisca.is_over(state)
    s = settle(state)
    assert s.outcome == "match-ended-mid-hand" and s.extra["match"]["winners"] == [0]
    assert s.amounts == (S, -S, S, -S)


def test_a_match_is_won_at_match_to_and_paid_a_stake_per_player():
    s = settle(scored(start(match=(3, 2)), [(0, 70), (1, 50)]))
    assert s.extra["match"]["game_over"] and s.amounts == (S, -S)
    s = settle(scored(start(match=(2, 2)), [(0, 70), (1, 50)]))
    assert not s.extra["match"]["game_over"] and not s.pays


def test_with_stake_per_game_point_every_hand_is_paid_at_once():
    s = settle(scored(start("nove", stake_per="game-point"), [(0, 90), (1, 30)]))
    assert s.pays and s.amounts == (2 * S, -2 * S)


def test_de_seis_is_three_against_three_in_alternate_seats():
    rules = bisca.parse_rules({"variant": "seis"})
    assert rules.sides == ((0, 2, 4), (1, 3, 5)) and len(bisca.PACKS["no-twos"]) == 36
    s = settle(scored(start("seis", match=(3, 0)), [(0, 61), (1, 59)]))
    assert s.amounts == (S, -S, S, -S, S, -S)


@pytest.mark.parametrize("variant, results, hand", [
    ("tres", [(0, 70), (1, 50)], [2, 0]),           # 1 for the win, 1 for the majority of card points
    ("nove", [(1, 90), (0, 30)], [0, 3]),           # 82+: 2, and the majority: 1
    ("quatro", [(0, 60), (1, 60)], [0, 0]),         # 60-60: nobody has the majority
])
def test_majority_bonus_gives_the_side_with_more_card_points_one_more_game_point(variant, results, hand):
    s = settle(scored(start(variant, majority_bonus=True), results))
    assert s.extra["match"]["hand"] == hand
    assert ("majority_bonus" in " ".join(s.explanation)) == any(hand)
    assert settle(scored(start(variant), results)).extra["match"]["hand"] == [max(0, h - 1) for h in hand]


def test_majority_bonus_is_a_yes_or_no_rule_and_off_by_default():
    assert bisca.parse_rules({}).majority_bonus is False
    with pytest.raises(RuleViolation, match="majority_bonus must be true or false"):
        bisca.parse_rules({"majority_bonus": "yes"})


def test_the_explanation_names_the_trump_suit_and_the_card_cut_even_after_it_was_drawn():
    # The hand: quatro with 6S turned at the cut was explained "trump: none (a knock for hearts), S".
    from games.engine.autoplay import play_out
    state = start("quatro")
    cut = bisca.new_hand(state.rules, {**bisca.deal_event(state.rules, _deal("quatro", trump="6S")).data,
                                       "match_before": [0, 0]})
    done, _ = play_out(bisca, cut)
    assert done.trump_card is None  # drawn with the last draw
    assert settle(done).explanation[0] == "trump: spades, the suit of the card turned at the cut, 6S"
    knocked = bisca.parse_rules({"variant": "capixaba"})
    state = bisca.new_hand(knocked, {**bisca.deal_event(knocked, _deal("capixaba", trump="6S", knock=True)).data,
                                     "match_before": [0, 0]})
    assert settle(play_out(bisca, state)[0]).explanation[0] == "trump: hearts, by a knock (no card was turned)"
