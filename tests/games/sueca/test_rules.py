"""Sueca, rule by rule (rules/sueca.md): the pack, who leads, following suit, who takes a
trick, the trump card in the dealer's hand, the games a hand is worth (bandeira by points or
by tricks, 60-60), the match and its cap, the money per game or per match, the score sheet
and a deal seat by seat. Expected figures are worked out by hand."""
import pytest

from games.engine.base import Command, Event, TableTerms
from games.engine.errors import Incomplete, Malformed, Revealing, RuleViolation
from games.sueca import game as sueca
from tests.harness import given

S = 100
MEMBERS = ("m0", "m1", "m2", "m3")
# Dealer 0; seat 1 leads. Seat 0 holds every spade, seat 1 every heart, seat 2 every club,
# seat 3 every diamond. The trump card is 6S, the last of the dealer's (seat 0's) ten.
SPADES, HEARTS, CLUBS, DIAMONDS = ([r + s for r in sueca.ORDER] for s in "SHCD")
DEAL = {"dealer": 0, "hands": [[c for c in SPADES if c != "6S"] + ["6S"], HEARTS, CLUBS, DIAMONDS], "trump": "6S"}
# Each seat with cards of every suit, so that following suit is a choice: each rank's four
# cards go one to each seat, the suits turning a seat further with each rank. Dealer 3.
MIXED = [[r + "CSHD"[(seat + i) % 4] for i, r in enumerate(sueca.ORDER)] for seat in range(4)]
MIXED_DEAL = {"dealer": 3, "hands": MIXED, "trump": MIXED[3][-1]}


def start(deal=DEAL, **rules):
    rules = sueca.parse_rules(rules)
    return sueca.new_hand(rules, sueca.deal_event(rules, deal).data)


def scored(results, **rules):
    """A hand of tricks given by (winner, card points) alone: for the games, not for play."""
    state = start(**rules)
    for number, (winner, points) in enumerate(results, 1):
        state = sueca.evolve(state, Event("trick", {"trick": number, "leader": 0, "cards": [], "winner": winner,
                                                    "points": points}))
    assert sueca.is_over(state)
    return state


def settle(state, before=(0, 0), stake=S):
    return sueca.settle(state, TableTerms(stake, MEMBERS, match=tuple(before)))


def test_the_pack_ranks_and_points():
    assert len(sueca.PACK) == 40 and sum(map(sueca.points, sueca.PACK)) == 120
    assert sueca.ORDER == ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")
    assert [sueca.points(c) for c in ("AS", "7S", "KS", "JS", "QS", "6S", "2S")] == [11, 10, 4, 3, 2, 0, 0]


def test_the_seat_after_the_dealer_leads_and_the_winner_leads_the_next_trick():
    state = start()
    assert (state.leader, sueca.GAME.moves.turn(state)) == (1, 1)
    state = given(sueca.GAME, DEAL).when("trick", cards=["AH", "AC", "AD", "AS"]).then(
        ("trick", {"trick": 1, "leader": 1, "cards": ["AH", "AC", "AD", "AS"], "winner": 0, "points": 44}))
    assert sueca.GAME.moves.turn(state) == 0  # the ace of trumps took it: its player leads


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led():
    assert sueca.winner_index(["7H", "AH", "2S", "KH"], "S") == 2  # the 2 of trumps beats the ace led
    assert sueca.winner_index(["KD", "7D", "AC", "6D"], "S") == 1  # an ace of another suit never wins
    assert sueca.winner_index(["3H", "2H", "QS", "KS"], "S") == 3  # the highest of two trumps
    assert sueca.winner_index(["6C", "5C", "4C", "2C"], "S") == 0


def test_a_player_must_follow_the_suit_led_when_able():
    state = start(MIXED_DEAL)  # seat 0 leads; every seat holds cards of every suit
    lead = MIXED[0][0]
    same = [c for c in MIXED[1] if c[-1] == lead[-1]]
    assert sueca.legal_cards(state, 1, (lead,)) == same
    other = next(c for c in MIXED[1] if c[-1] != lead[-1])
    led = ("play", {"seat": 0, "card": lead})
    suit = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}[lead[-1]]
    given(sueca.GAME, MIXED_DEAL, led).when("play", seat=1, card=other).refused(
        f"seat 1 holds {' '.join(same)} and must follow {suit}")
    given(sueca.GAME, MIXED_DEAL).when("trick", cards=[lead, other, MIXED[2][0], MIXED[3][0]]).refused(
        f"seat 1 holds {' '.join(same)} and must follow {suit}")


def test_a_player_void_in_the_suit_led_may_play_anything_without_a_duty_to_trump():
    state = start()  # seat 1 leads a heart; seat 2 holds clubs only and may play any of them
    assert sueca.legal_cards(state, 2, ("AH",)) == CLUBS
    assert sueca.legal_cards(state, 0, ("AH", "AC", "AD")) == list(start().held[0])  # trump or not, as it likes
    given(sueca.GAME, DEAL).when("trick", cards=["2H", "2C", "2D", "2S"]).then(
        ("trick", {"trick": 1, "leader": 1, "cards": ["2H", "2C", "2D", "2S"], "winner": 0, "points": 0}))


def test_a_whole_trick_is_judged_card_by_card_as_plays_are():
    given(sueca.GAME, DEAL).when("trick", cards=["AC", "AH", "AD", "AS"]).refused(
        "AC is held by seat 2, but this card of the trick is seat 1's to play")
    given(sueca.GAME, DEAL).when("trick", cards=["AH", "AC", "AD"]).refused("a trick is 4 cards in play order")
    given(sueca.GAME, DEAL).when("trick", cards=["AH", "AC", "AD", "AH"]).refused("AH was already played, by seat 1")
    given(sueca.GAME, DEAL).when("trick", cards=["AH", "AC", "AD", "10S"]).refused("10S is not in the sueca pack")
    given(sueca.GAME, DEAL).when("play", seat=2, card="AC").refused("it is seat 1's turn to play, not seat 2's")
    led = given(sueca.GAME, DEAL, ("play", {"seat": 1, "card": "AH"}))
    led.when("trick", cards=["AH", "AC", "AD", "AS"]).refused("a card at a time")
    led.when("bid", seat=2, call="pass").refused("sueca has no calls")


def test_the_fourth_card_played_makes_the_trick_a_whole_trick_makes():
    state = start()
    for seat, card in zip((1, 2, 3), ("KH", "KC", "KD"), strict=True):
        [event] = sueca.decide(state, Command("play", {"seat": seat, "card": card}))
        state = sueca.evolve(state, event)
    events = sueca.decide(state, Command("play", {"card": "KS"}))
    assert [e.type for e in events] == ["play", "trick"]
    [whole] = sueca.decide(start(), Command("trick", {"cards": ["KH", "KC", "KD", "KS"]}))
    assert events[-1] == whole and whole.data["winner"] == 0 and whole.data["points"] == 16


def test_the_trump_card_is_one_of_the_dealers_ten_and_every_reader_sees_it():
    with pytest.raises(RuleViolation, match="the trump card AH must be one of the dealer's cards, seat 0's"):
        start({**DEAL, "trump": "AH"})
    with pytest.raises(RuleViolation, match="names its trump card"):
        start({k: v for k, v in DEAL.items() if k != "trump"})
    with pytest.raises(RuleViolation, match="AS is dealt twice"):
        start({**DEAL, "hands": [DEAL["hands"][0], ["AS", *HEARTS[1:]], CLUBS, DIAMONDS]})
    state = start()
    assert "6S" in state.held[0] and state.trump_suit == "S"
    for reader in (None, 1, 2, 3):
        assert "6S" in sueca.visible(state, reader)  # face up, though the dealer holds it
        assert not {"AS", "7S"} & sueca.visible(state, reader)  # its other cards are not
    assert {"AS", "6S"} <= sueca.visible(state, 0)
    view = sueca.GAME.sight.conceal(state, sueca.view(state), frozenset(sueca.PACK) - sueca.visible(state, 1))
    assert view["trump"] == "6S" and view["held"][0].count(None) == 9 and "6S" in view["held"][0]


def test_the_dealer_plays_the_trump_card_like_any_other():
    state = start()
    for cards in (["AH", "AC", "AD", "6S"],):
        [event] = sueca.decide(state, Command("trick", {"cards": cards}))
        state = sueca.evolve(state, event)
    assert event.data["winner"] == 0 and "6S" not in state.held[0] and state.trump == "6S"


def test_the_rules_and_their_refusals():
    assert sueca.parse_rules({}).to_data() == {"trump_card": "last", "bandeira": "points", "match_to": 4,
                                                "stake_per": "game"}
    for raw, said in [({"trump_card": "middle"}, "trump_card must be"), ({"bandeira": "all"}, "bandeira must be"),
                      ({"match_to": 11}, "from 1 to 10"), ({"match_to": 0}, "from 1 to 10"),
                      ({"match_to": True}, "from 1 to 10"), ({"stake_per": "point"}, "stake_per must be"),
                      ({"variant": "x"}, "sueca has no rule variant")]:
        with pytest.raises(RuleViolation, match=said):
            sueca.parse_rules(raw)


# The games a hand is worth

def test_61_to_90_card_points_win_one_game_91_to_119_two():
    for points, games, outcome in [(61, 1, "win"), (90, 1, "win"), (91, 2, "capote"), (119, 2, "capote")]:
        state = scored([(1, points)] + [(0, 0)] * 8 + [(0, 120 - points)])
        s = settle(state)
        assert (s.outcome, s.extra["match"]["hand"], s.winner) == (outcome, [0, games], [1, 3]), points
        assert list(s.amounts) == [-S * games, S * games, -S * games, S * games]


def test_60_60_scores_nobody_and_moves_no_money():
    s = settle(scored([(0, 60), (1, 60)] + [(0, 0)] * 8), before=(2, 1))
    assert s.outcome == "60-60" and s.winner is None and s.extra["match"]["after"] == [2, 1]
    assert not s.pays and list(s.amounts) == [0, 0, 0, 0] and "60-60: nobody wins the hand" in s.explanation


def test_a_bandeira_by_points_is_all_120_whoever_takes_the_tricks():
    nine = [(0, 0)] + [(2, 120)] + [(0, 0)] * 7 + [(1, 0)]  # side 0 takes 9 tricks, side 1 one of no points
    s = settle(scored(nine))
    assert (s.outcome, s.extra["match"]["hand"]) == ("bandeira", [4, 0])
    every = settle(scored([(0, 120)] + [(2, 0)] * 9))
    assert (every.outcome, every.extra["match"]["hand"]) == ("bandeira", [4, 0])


def test_a_bandeira_by_tricks_needs_every_trick_and_all_120_without_one_win_two():
    nine = [(0, 0)] + [(2, 120)] + [(0, 0)] * 7 + [(1, 0)]
    s = settle(scored(nine, bandeira="tricks"))
    assert (s.outcome, s.extra["match"]["hand"]) == ("capote", [2, 0])
    assert any("not every trick (9 of 10)" in line for line in s.explanation)
    every = settle(scored([(0, 120)] + [(2, 0)] * 9, bandeira="tricks"))
    assert (every.outcome, every.extra["match"]["hand"]) == ("bandeira", [4, 0])


# The match

def test_3_0_then_a_hand_worth_4_counts_1_and_ends_the_match_4_0():
    s = settle(scored([(0, 120)] + [(2, 0)] * 9), before=(3, 0))
    match = s.extra["match"]
    assert match == {"before": [3, 0], "hand": [1, 0], "after": [4, 0], "game_over": True, "winners": [0],
                     "worth": [4, 0]}
    assert list(s.amounts) == [S, -S, S, -S]  # per game: the one game counted, not four
    assert any("needed only 1 game(s)" in line for line in s.explanation)


def test_a_side_behind_is_capped_by_what_it_needs_too():
    s = settle(scored([(1, 95)] + [(0, 25)] + [(3, 0)] * 8), before=(3, 3))
    assert s.extra["match"]["hand"] == [0, 1] and s.extra["match"]["winners"] == [1]
    s = settle(scored([(1, 95)] + [(0, 25)] + [(3, 0)] * 8), before=(0, 1))
    assert s.extra["match"]["hand"] == [0, 2] and not s.extra["match"]["game_over"]


def test_the_match_is_played_to_match_to_games():
    s = settle(scored([(1, 70), (0, 50)] + [(1, 0)] * 8, match_to=1))
    assert s.extra["match"]["game_over"] and s.extra["match"]["after"] == [0, 1]
    s = settle(scored([(1, 70), (0, 50)] + [(1, 0)] * 8, match_to=10), before=(8, 8))
    assert not s.extra["match"]["game_over"] and s.extra["match"]["after"] == [8, 9]


# Money

def test_per_game_each_loser_pays_each_winner_a_stake_for_each_game_counted():
    s = settle(scored([(0, 100), (1, 20)] + [(0, 0)] * 8), stake=250)
    assert s.pays and list(s.amounts) == [500, -500, 500, -500] and s.units == 2


def test_per_match_nothing_moves_until_a_match_is_won_then_one_stake_each():
    hand = [(0, 120)] + [(2, 0)] * 9  # four games
    s = settle(scored(hand, stake_per="match"), before=(0, 2))
    assert s.extra["match"]["game_over"] and list(s.amounts) == [S, -S, S, -S]
    s = settle(scored([(0, 70), (1, 50)] + [(0, 0)] * 8, stake_per="match"), before=(0, 2))
    assert not s.pays and list(s.amounts) == [0, 0, 0, 0] and s.extra["match"]["after"] == [1, 2]
    s = settle(scored([(1, 70), (0, 50)] + [(0, 0)] * 8, stake_per="match"), before=(3, 3))
    assert s.pays and list(s.amounts) == [-S, S, -S, S]


def test_the_settlement_says_the_trump_card_and_why_it_paid():
    s = settle(scored([(0, 100), (1, 20)] + [(0, 0)] * 8))
    assert s.explanation[0] == "trump: spades, the dealer's last card, 6S"
    assert "card points: side 0 100 in 9 tricks, side 1 20 in 1 tricks" in s.explanation
    assert "seats 0 and 2 take 100 card points (91 to 119): a capote, two games" in s.explanation
    assert "match: side 0 2, side 1 0 (to 4)" in s.explanation
    first = settle(scored([(0, 100), (1, 20)] + [(0, 0)] * 8, trump_card="first"))
    assert first.explanation[0] == "trump: spades, the dealer's first card, 6S"


# The score sheet

def result(points, tricks, **rules):
    parsed = sueca.parse_rules(rules)
    event = sueca.result_event(parsed, 2, {"points": points, "tricks": tricks})
    return sueca.result_state(parsed, event.data)


def test_a_score_sheet_settles_as_its_tricks_would():
    s = settle(result([95, 25], [7, 3]))
    assert (s.outcome, s.extra["match"]["hand"]) == ("capote", [2, 0])
    assert s.explanation[0] == "the cards of this hand were not logged: scored from its result"
    assert settle(result([120, 0], [9, 1], bandeira="tricks")).extra["match"]["hand"] == [2, 0]
    assert settle(result([120, 0], [10, 0], bandeira="tricks")).extra["match"]["hand"] == [4, 0]
    assert settle(result([60, 60], [5, 5])).outcome == "60-60"


@pytest.mark.parametrize("points, tricks, said", [
    ([100, 10], [5, 5], "must add up to 120, not 110"),
    ([100, 20], [5, 4], "a sueca hand has 10 tricks, not 9"),
    ([110, 10], [10, 0], "side 0 cannot take 110 card points in 10 trick"),  # every trick is all 120
    ([119, 1], [9, 1], "side 0 cannot take 119 card points in 9 trick"),  # no four cards hold 1 point
    ([75, 45], [0, 10], "side 0 cannot take 75 card points in 0 trick"),  # no trick, no points
    ([1, 119], [1, 9], "side 0 cannot take 1 card points in 1 trick"),  # no four cards hold 1 point
    ([75, 45], [1, 9], "side 0 cannot take 75 card points in 1 trick"),  # four cards hold 44 at most
])
def test_a_score_sheet_no_ten_tricks_could_give_is_refused(points, tricks, said):
    with pytest.raises(RuleViolation, match=said):
        result(points, tricks)


def test_a_score_sheet_of_the_wrong_shape_is_malformed_or_incomplete():
    rules = sueca.parse_rules({})
    with pytest.raises(Incomplete):
        sueca.result_event(rules, 0, {"points": [60, 60]})
    with pytest.raises(Malformed):
        sueca.result_event(rules, 0, {"points": [60, 60, 0], "tricks": [5, 5]})
    with pytest.raises(Malformed):
        sueca.result_event(rules, 0, {"points": [60, "60"], "tricks": [5, 5]})
    with pytest.raises(RuleViolation, match="cannot be negative"):
        sueca.result_event(rules, 0, {"points": [130, -10], "tricks": [5, 5]})
    with pytest.raises(RuleViolation, match="a sueca result has points and tricks, not bonus"):
        sueca.result_event(rules, 0, {"points": [60, 60], "tricks": [5, 5], "bonus": [0, 0]})


# A deal seat by seat

OPEN = {"dealer": 0}
OTHERS = [("seat_cards", {"seat": s, "cards": DEAL["hands"][s]}) for s in (1, 2, 3)]


def test_seat_by_seat_the_dealer_turns_up_the_trump_card_then_logs_its_nine_others():
    opened = given(sueca.GAME, OPEN)
    assert sueca.GAME.moves.owed(opened.state) == {"trump": 1, "0": 9, "1": 10, "2": 10, "3": 10}
    assert sueca.view(opened.state)["phase"] == "dealing" and sueca.visible(opened.state, None) == frozenset()
    up = opened.when("cards", trump="6S").then(("seat_cards", {"trump": "6S"}))
    assert sueca.GAME.moves.owed(up) == {"0": 9, "1": 10, "2": 10, "3": 10} and sueca.visible(up, 2) == {"6S"}
    nine = [c for c in SPADES if c != "6S"]
    state = given(sueca.GAME, OPEN, ("seat_cards", {"trump": "6S"})).when("cards", seat=0, cards=nine).then(
        ("seat_cards", {"seat": 0, "cards": [*nine, "6S"]}))  # the event holds its ten, the trump card last
    assert sorted(state.held[0]) == sorted(SPADES) and sueca.GAME.moves.owed(state) == {"1": 10, "2": 10, "3": 10}
    first = given(sueca.GAME, OPEN, ("seat_cards", {"trump": "6S"}), rules={"trump_card": "first"})
    first.when("cards", seat=0, cards=nine).then(("seat_cards", {"seat": 0, "cards": ["6S", *nine]}))
    given(sueca.GAME, OPEN, ("seat_cards", {"trump": "6S"})).when("cards", seat=0, cards=SPADES).then(
        ("seat_cards", {"seat": 0, "cards": SPADES}))  # or all ten, the trump card among them


def test_seat_by_seat_the_dealer_may_log_its_ten_first_and_turn_up_one_of_them():
    ten = ("seat_cards", {"seat": 0, "cards": SPADES})
    given(sueca.GAME, OPEN, ten).when("cards", trump="6S").then(("seat_cards", {"trump": "6S"}))
    scenario = given(sueca.GAME, OPEN, ten).when("cards", trump="AH")
    with pytest.raises(Revealing) as refused:
        sueca.decide(scenario.state, scenario.command)
    assert "AH is not one of seat 0's cards" in refused.value.detail and refused.value.seat == 0
    assert refused.value.public == "seat 0 may not turn up AH for trumps"
    given(sueca.GAME, OPEN).when("cards", seat=0, cards=SPADES[:8]).refused(
        "seat 0 deals: it logs its nine cards besides the trump card, or all ten with it")


def test_seat_by_seat_the_dealer_may_log_its_nine_first_and_turn_up_its_tenth():
    nine = [c for c in SPADES if c != "6S"]
    state = given(sueca.GAME, OPEN).when("cards", seat=0, cards=nine).then(("seat_cards", {"seat": 0, "cards": nine}))
    assert sueca.GAME.moves.owed(state) == {"trump": 1, "1": 10, "2": 10, "3": 10}
    logged = given(sueca.GAME, OPEN, ("seat_cards", {"seat": 0, "cards": nine}))
    logged.when("cards", trump="AS").refused("AS was already seen in this hand")  # one of the nine: not the trump card
    up = logged.when("cards", trump="6S").then(("seat_cards", {"trump": "6S"}))
    assert sorted(up.held[0]) == sorted(SPADES) and sueca.visible(up, 1) == {"6S"}


def test_a_deal_whole_may_leave_the_trump_card_out_of_the_dealers_hand():
    """As the events of a hand whose dealer logged its nine before the trump card give it."""
    nine = [c for c in SPADES if c != "6S"]
    rules = sueca.parse_rules({})
    event = sueca.deal_event(rules, {**DEAL, "hands": [nine, HEARTS, CLUBS, DIAMONDS]})
    assert event.data["hands"][0] == [*nine, "6S"] and event == sueca.deal_event(rules, DEAL)
    first = sueca.parse_rules({"trump_card": "first"})
    assert sueca.deal_event(first, {**DEAL, "hands": [nine, HEARTS, CLUBS, DIAMONDS]}).data["hands"][0][0] == "6S"
    with pytest.raises(RuleViolation, match="AH is dealt twice"):  # the trump card named apart is seat 1's
        sueca.deal_event(rules, {**DEAL, "hands": [nine, HEARTS, CLUBS, DIAMONDS], "trump": "AH"})


def test_seat_by_seat_a_card_is_seen_once_and_nothing_is_played_before_every_card_is_logged():
    one = ("seat_cards", {"seat": 1, "cards": HEARTS})
    given(sueca.GAME, OPEN, one).when("cards", seat=2, cards=["AH", *CLUBS[1:]]).refused(
        "AH was already seen in this hand")
    given(sueca.GAME, OPEN, one).when("cards", trump="AH").refused("AH was already seen in this hand")
    given(sueca.GAME, OPEN, one).when("cards", seat=1, cards=CLUBS).refused("seat 1 has logged its cards already")
    given(sueca.GAME, OPEN, one).when("cards", seat=2, cards=CLUBS[:9]).refused("seat 2 logs 9 cards here")
    given(sueca.GAME, OPEN, *OTHERS).when("play", seat=1, card="AH").refused("the trump card is not logged yet")
    up = ("seat_cards", {"trump": "6S"})
    given(sueca.GAME, OPEN, up, *OTHERS).when("play", seat=1, card="AH").refused(
        "seat\\(s\\) 0 have not logged the cards they hold yet")
    given(sueca.GAME, OPEN, up).when("cards", trump="5S").refused("the trump card was turned already")
    given(sueca.GAME, OPEN, up).when("cards", seat=0, cards=SPADES[:8]).refused(
        "holds the trump card 6S: it logs the nine others, or all ten")
    given(sueca.GAME, OPEN, up).when("cards", seat=0, cards=[*(c for c in SPADES if c != "6S"), "AH"]).refused(
        "holds the trump card 6S: it logs the nine others, or all ten")


def test_a_hand_dealt_seat_by_seat_plays_and_settles_as_the_same_deal_dealt_whole():
    seats = given(sueca.GAME, OPEN, ("seat_cards", {"trump": "6S"}), *OTHERS,
                  ("seat_cards", {"seat": 0, "cards": DEAL["hands"][0]})).state
    whole = start()
    assert sueca.view(seats)["phase"] == "play"
    for _ in range(10):
        leader, cards = whole.leader, []
        for i in range(4):
            seat = (leader + i) % 4
            assert sueca.legal_cards(seats, seat, tuple(cards)) == sueca.legal_cards(whole, seat, tuple(cards))
            cards.append(sueca.legal_cards(whole, seat, tuple(cards))[-1])
            for event in sueca.decide(seats, Command("play", {"seat": seat, "card": cards[-1]})):
                seats = sueca.evolve(seats, event)
        [trick] = sueca.decide(whole, Command("trick", {"cards": cards}))
        whole = sueca.evolve(whole, trick)
    assert sueca.is_over(seats) and settle(seats) == settle(whole)


def test_a_hand_in_words():
    rules = sueca.parse_rules({})
    words = sueca.describe("deal", sueca.deal_event(rules, DEAL).data, lambda seat: f"seat {seat}")
    assert words.startswith("seat 0 deals. seat 0: AS 7S") and words.endswith("; trump card: 6S, the dealer's")
    said = sueca.describe("deal", sueca.deal_event(rules, OPEN).data, lambda seat: f"seat {seat}")
    assert said == "seat 0 deals. The cards are logged seat by seat, as each seat sees them."
    assert sueca.describe("seat_cards", {"trump": "6S"}, str) == "the trump card is turned: 6S"
