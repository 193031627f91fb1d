"""Random legal Sueca hands (hypothesis), under every table rule and any match score before:
at every card the legal cards are those a second reading of the rules allows
(tests/games/sueca/oracle.py); every card of the pack is played once, 120 card points in
all; the games, the match and the money are the oracle's, the payouts summing to zero. A
score sheet is taken exactly when the oracle finds ten tricks that give it, and settles as
the oracle says. A hand dealt seat by seat, in any order, plays and settles as the same deal
dealt whole."""
import random

from hypothesis import given, settings, strategies as st

from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.table import deal_context
from games.sueca import game as sueca
from tests.games.sueca import oracle
from tests.oracles.harness import play_hand

MEMBERS = ("m0", "m1", "m2", "m3")
RULES = st.fixed_dictionaries({
    "trump_card": st.sampled_from(["last", "first"]), "bandeira": st.sampled_from(["points", "tricks"]),
    "match_to": st.integers(1, 10), "stake_per": st.sampled_from(["game", "match"])})


def _deal(rng: random.Random, dealer: int, trump_card: str) -> dict:
    cards = sorted(sueca.PACK)
    rng.shuffle(cards)
    hands = [cards[i * 10:(i + 1) * 10] for i in range(4)]
    return {"dealer": dealer, "hands": hands, "trump": hands[dealer][-1 if trump_card == "last" else 0]}


def _before(data, match_to: int) -> tuple[int, int]:
    return tuple(data.draw(st.integers(0, match_to - 1)) for _ in range(2))


@settings(max_examples=150, deadline=None)
@given(rules=RULES, dealer=st.integers(0, 3), seed=st.randoms(use_true_random=False), data=st.data())
def test_random_sueca_hands(rules, dealer, seed, data):
    parsed = sueca.parse_rules(rules)
    deal = _deal(seed, dealer, rules["trump_card"])
    state = sueca.new_hand(parsed, sueca.deal_event(parsed, deal).data)

    def judged(state, seat, trick, legal, card):
        assert sorted(legal) == oracle.may_play(state.held[seat], trick)

    state, commands = play_hand(sueca.GAME, state, [seed.randrange(100) for _ in range(40)], on_card=judged)
    tricks = [c.data["cards"] for c in commands]
    assert sorted(c for t in tricks for c in t) == sorted(sueca.PACK) and len(tricks) == 10
    before = _before(data, rules["match_to"])
    s = sueca.settle(state, TableTerms(100, MEMBERS, match=before))
    points, taken = oracle.hand_score(dealer, deal["trump"][-1], tricks)
    assert [side.points for side in s.sides] == points and sum(points) == 120
    assert [side.tricks for side in s.sides] == taken
    expected = oracle.settle(points, taken, before, rules["match_to"], rules["bandeira"], rules["stake_per"])
    match = s.extra["match"]
    assert (match["hand"], match["after"], match["game_over"]) == (expected["counted"], expected["after"],
                                                                    expected["over"])
    assert list(s.amounts) == expected["amounts"] and sum(s.amounts) == 0


@settings(max_examples=300, deadline=None)
@given(rules=RULES, tricks=st.integers(0, 10), points=st.integers(0, 120), data=st.data())
def test_a_score_sheet_is_taken_when_ten_tricks_could_give_it(rules, tricks, points, data):
    parsed = sueca.parse_rules(rules)
    sheet = {"points": [points, 120 - points], "tricks": [tricks, 10 - tricks]}
    could = oracle.possible(points, tricks)
    assert could == oracle.possible(120 - points, 10 - tricks)  # the other side holds the rest
    try:
        event = sueca.result_event(parsed, 1, sheet)
    except RuleViolation as e:
        assert not could, e.detail
        return
    assert could, sheet
    before = _before(data, rules["match_to"])
    s = sueca.settle(sueca.result_state(parsed, event.data), TableTerms(100, MEMBERS, match=before))
    expected = oracle.settle(sheet["points"], sheet["tricks"], before, rules["match_to"], rules["bandeira"],
                             rules["stake_per"])
    assert s.extra["match"]["hand"] == expected["counted"] and list(s.amounts) == expected["amounts"]


def _fold(state, command):
    events = sueca.GAME.decide(state, command)
    for event in events:
        state = sueca.GAME.evolve(state, event)
    return state, events


@settings(max_examples=30, deadline=None)
@given(trump_card=st.sampled_from(["last", "first"]), dealer=st.integers(0, 3), seed=st.randoms(use_true_random=False),
       order=st.permutations(["trump", 0, 1, 2, 3]), nine=st.booleans())
def test_a_hand_dealt_seat_by_seat_in_any_order_is_the_hand_dealt_whole(trump_card, dealer, seed, order, nine):
    rules = sueca.parse_rules({"trump_card": trump_card})
    deal = _deal(seed, dealer, trump_card)
    whole = sueca.new_hand(rules, sueca.deal_event(rules, deal).data)
    seats = sueca.new_hand(rules, {**sueca.deal_event(rules, {"dealer": dealer}).data,
                                   **deal_context(sueca.GAME, rules, None)})
    trump_up = False
    for who in order:
        if who == "trump":
            seats, _ = _fold(seats, Command("cards", {"trump": deal["trump"]}))
            trump_up = True
            continue
        cards = deal["hands"][who]
        if who == dealer and nine:  # the dealer may log the nine besides the trump card, before it is up or after
            cards = [c for c in cards if c != deal["trump"]]
        seats, [event] = _fold(seats, Command("cards", {"seat": who, "cards": cards}))
        ten = trump_up or not nine or who != dealer  # once the trump card is up the event holds the dealer's ten
        assert sorted(event.data["cards"]) == sorted(c for c in deal["hands"][who] if ten or c != deal["trump"])
    assert sueca.GAME.moves.owed(seats) == {} and sorted(map(sorted, seats.held)) == sorted(map(sorted, whole.held))
    chooser = random.Random(seed.random())
    while not sueca.is_over(whole):
        leader, cards = whole.leader, []
        for i in range(4):
            seat = (leader + i) % 4
            legal = sueca.legal_cards(whole, seat, tuple(cards))
            assert sorted(sueca.legal_cards(seats, seat, tuple(cards))) == sorted(legal)
            cards.append(chooser.choice(legal))
            seats, _ = _fold(seats, Command("play", {"seat": seat, "card": cards[-1]}))
        whole, _ = _fold(whole, Command("trick", {"cards": cards}))
    terms = TableTerms(100, MEMBERS)
    assert sueca.is_over(seats) and sueca.settle(seats, terms) == sueca.settle(whole, terms)
