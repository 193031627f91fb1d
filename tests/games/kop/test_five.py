"""Kop at a table of five (API.md, "A table of five"): the dealer sits the hand out, the four
others play it by rules/kop.md, the first after the dealer calling and leading; a deal's
hands are five lists, the dealer's empty; a result never names the dealer; the payouts
list all five seats, the dealer's 0. Each seat keeps its table number everywhere.

The hand most tests play: seat 2 deals and sits out, seats 3, 4, 0, 1 play in that order.
Expected amounts are worked out by hand from rules/kop.md, stake B = 50 minor units.
"""
from __future__ import annotations

import random

import pytest

from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.kop import game as kop
from games.kop.turns import seated_rules
from tests.conftest import KOP_HANDS, KOP_TRICKS

from tests.games.kop.kit import bid, start, trick
from tests.games.kop.test_throw_in import THROWABLE, THROWABLE_TRICKS

FIVE = {"players": 5}
B = 50
MEMBERS = ("m0", "m1", "m2", "m3", "m4")
DEALER = 2
# KOP_HANDS is a hand of four dealt by seat 0 (seats 1, 2, 3, 0 play it in that order): the
# same cards at five, dealt by seat 2, to the seats that play in that order (3, 4, 0, 1).
AT_FIVE = {1: 3, 2: 4, 3: 0, 0: 1}
HANDS = [KOP_HANDS[3], KOP_HANDS[0], [], KOP_HANDS[1], KOP_HANDS[2]]


def five(hands=HANDS, dealer=DEALER, calls=()):
    return start(hands, dealer, FIVE, calls)


def played(state, tricks=KOP_TRICKS):
    for cards in tricks:
        state, _ = trick(state, cards)
    return state


def settle(state, stake=B):
    return kop.settle(state, TableTerms(stake, MEMBERS))


def test_at_five_the_dealer_sits_out_and_the_seat_after_calls_and_leads():
    state = five()
    assert kop.GAME.moves.sitting_out(state) == {2}
    assert state.leader == kop.GAME.moves.turn(state) == 3
    assert kop.GAME.trick_seats(state) == [3, 4, 0, 1]  # seat order, round the dealer
    with pytest.raises(RuleViolation, match="seat 2 deals this hand and sits it out; the four others play it"):
        bid(state, {"seat": 2, "call": "zolo"})
    assert kop.GAME.moves.offers(state, 2) == [] and kop.GAME.moves.offers(state, 3)  # the dealer's phone: no call
    assert bid(state, {"seat": 3, "call": "zolo"}).auction.declarer == 3


def test_at_five_a_trick_is_the_four_players_cards_from_its_leader():
    state, data = trick(five(), KOP_TRICKS[0])
    assert (data["leader"], data["winner"]) == (3, 3)
    state, data = trick(state, KOP_TRICKS[1])
    assert data["leader"] == 3 and kop.GAME.moves.turn(state) == 3
    with pytest.raises(RuleViolation, match="a trick is 4 cards"):
        trick(five(), [*KOP_TRICKS[0], "AC"])


def test_at_five_a_card_against_the_rules_is_refused_naming_its_table_seat():
    # AH led by seat 3; seat 4 holds QH QD JC (trumps) and 10C: it must follow trumps.
    with pytest.raises(RuleViolation, match="seat 4 holds QH QD JC and must follow trumps"):
        trick(five(), ["AH", "10C", "QS", "JD"])


def test_at_five_a_card_played_by_the_dealer_is_refused():
    state = five()
    with pytest.raises(RuleViolation, match="seat 2 deals this hand and sits it out"):
        kop.decide(state, Command("play", {"seat": 2, "card": "AH"}))
    with pytest.raises(RuleViolation, match="seat 2 deals this hand and sits it out"):
        kop.decide(state, Command("claim", {"seat": 2}))
    events = kop.decide(state, Command("play", {"seat": 3, "card": "AH"}))
    assert [e.data for e in events] == [{"seat": 3, "card": "AH"}]


def test_at_five_the_dealer_is_dealt_no_cards():
    rules = kop.parse_rules(FIVE)
    assert kop.deal_event(rules, {"dealer": DEALER, "hands": HANDS}).data["hands"][DEALER] == []
    given = [KOP_HANDS[3], KOP_HANDS[0], KOP_HANDS[1][:1], KOP_HANDS[1][1:], KOP_HANDS[2]]
    with pytest.raises(RuleViolation, match=r"seat 2 deals this hand and sits it out: its hand is \[\]"):
        kop.deal_event(rules, {"dealer": DEALER, "hands": given})
    with pytest.raises(RuleViolation, match="hands must list 5 hands"):
        kop.deal_event(rules, {"dealer": DEALER, "hands": KOP_HANDS})
    with pytest.raises(RuleViolation, match="seat 1 is dealt 3 cards"):
        kop.deal_event(rules, {"dealer": 0, "hands": [[], KOP_HANDS[0][:3], KOP_HANDS[1], KOP_HANDS[2],
                                                      KOP_HANDS[3] + KOP_HANDS[0][3:]]})


def test_at_five_dealt_seat_by_seat_nobody_waits_for_the_dealer():
    rules = kop.parse_rules(FIVE)
    state = kop.new_hand(rules, kop.deal_event(rules, {"dealer": DEALER}).data)
    assert kop.GAME.moves.owed(state) == {"0": 4, "1": 4, "3": 4, "4": 4}
    with pytest.raises(RuleViolation, match="seat 2 deals this hand and sits it out"):
        kop.decide(state, Command("cards", {"seat": 2, "cards": KOP_HANDS[0]}))
    shown = kop.view(state)
    assert shown["deal"][DEALER] == [] and shown["deal"][0] == [None] * 4 and shown["awaiting"] == [0, 1, 3, 4]
    for seat in (0, 1, 3, 4):
        [event] = kop.decide(state, Command("cards", {"seat": seat, "cards": HANDS[seat]}))
        state = kop.evolve(state, event)
    assert state.complete and kop.view(state)["phase"] == "auction" and kop.GAME.moves.owed(state) == {}


def test_at_five_the_dealer_sees_no_card_until_it_is_played():
    state = five()
    assert kop.visible(state, DEALER) == frozenset()
    assert kop.visible(state, 3) == frozenset(HANDS[3])
    [event] = kop.decide(state, Command("play", {"seat": 3, "card": "AH"}))
    assert kop.visible(kop.evolve(state, event), DEALER) == {"AH"}


def test_at_five_the_payouts_list_all_five_seats_the_dealers_0_and_sum_to_zero():
    # Stare: QC at seat 3, QS at seat 0; młodzi 4 and 1 take no trick: bez bitki, 3B; the
    # kontra of seat 4 (młodzi) doubles it: each pays or receives 6B = 3.00 at 0.50 a stake.
    state = played(five(calls=[{"seat": 4, "call": "kontra"}]))
    s = settle(state)
    assert [side.seats for side in s.sides] == [(0, 3), (1, 4)]
    assert (s.outcome, s.winner, s.multiplier) == ("bez-bitki", "stare", 6)
    assert list(s.amounts) == [300, -300, 0, 300, -300] and sum(s.amounts) == 0
    assert "seats 0 and 3 hold QC and QS (stare) against seats 1 and 4 (młodzi)" in s.explanation


def test_at_five_a_player_alone_against_three_is_paid_by_the_three_others_not_by_the_dealer():
    # Zolo (5B from each of the three) by seat 3, who takes every trick: 3 x 250 = 750.
    s = settle(played(five(calls=[{"seat": 3, "call": "zolo"}])))
    assert (s.contract, s.winner) == ("zolo", "declarer")
    assert list(s.amounts) == [-250, -250, 0, 750, -250]


def test_at_five_a_result_naming_the_dealer_is_refused():
    rules = kop.parse_rules(FIVE)
    named = "names seat 2, who dealt this hand and sat it out: a result names only the four who played it"
    for result in ({"contract": "zolo", "declarer": 2, "doubles": [], "points": 60, "tricks": 2},
                   {"contract": "normal", "stare": [2, 3], "doubles": [], "points": 60, "tricks": 2},
                   {"contract": "wesele", "declarer": 3, "partner": 2, "doubles": [], "points": 60, "tricks": 2},
                   {"contract": "normal", "stare": [0, 3], "doubles": [2], "points": 60, "tricks": 2}):
        with pytest.raises(RuleViolation, match=named):
            kop.result_event(rules, DEALER, result)
    with pytest.raises(RuleViolation, match="declarer must be a seat from 0 to 4"):
        kop.result_event(rules, DEALER, {"contract": "zolo", "declarer": 5, "doubles": [], "points": 60, "tricks": 2})


def test_at_five_a_hand_logged_by_its_result_pays_as_the_hand_played():
    state = played(five(calls=[{"seat": 4, "call": "kontra"}]))
    sheet = kop.sheet(state)
    assert sheet == {"contract": "normal", "stare": [0, 3], "doubles": [4], "points": 104, "tricks": 4}
    event = kop.result_event(kop.parse_rules(FIVE), DEALER, sheet)
    assert settle(kop.result_state(kop.parse_rules(FIVE), event.data)).amounts == settle(state).amounts


def test_at_five_a_hand_thrown_in_counts_its_tricks_by_table_seats():
    # THROWABLE is a hand of four dealt by seat 0 that may be thrown in after two tricks.
    hands = [THROWABLE[3], THROWABLE[0], [], THROWABLE[1], THROWABLE[2]]
    state = five(hands)
    for cards in THROWABLE_TRICKS:
        state, _ = trick(state, cards)
    [event] = kop.decide(state, Command("claim", {"seat": 0}))
    counted = event.data["tricks"]
    assert [t["trick"] for t in counted] == [3, 4] and {t["leader"] for t in counted} <= {0, 1, 3, 4}
    done = kop.evolve(state, event)
    four = start(THROWABLE)
    for cards in THROWABLE_TRICKS:
        four, _ = trick(four, cards)
    paid = kop.settle(kop.evolve(four, kop.decide(four, Command("claim", {"seat": 3}))[0]), TableTerms(B, MEMBERS[:4]))
    assert list(settle(done).amounts) == [paid.amounts[3], paid.amounts[0], 0, paid.amounts[1], paid.amounts[2]]
    assert "seat 0 threw in after 2 trick(s)" in settle(done).explanation[1]


def test_at_five_a_throw_in_refused_names_the_table_seat_of_the_way_that_would_change_it():
    state, _ = trick(five(), KOP_TRICKS[0])
    state, _ = trick(state, KOP_TRICKS[1])
    with pytest.raises(RuleViolation, match="If seat 3 leads AD, stare win and mlodzi end with 33 card points"):
        kop.decide(state, Command("claim", {"seat": 0}))


def _at_four(hands5, dealer5):
    """The same hand at four: the players keep their order of play, the dealer's seat goes."""
    order5 = [(dealer5 + 1 + i) % 5 for i in range(4)]
    order4 = [(0 + 1 + i) % 4 for i in range(4)]  # dealt by seat 0 at four
    seat = dict(zip(order5, order4, strict=True))
    hands4 = [[] for _ in range(4)]
    for s5, s4 in seat.items():
        hands4[s4] = hands5[s5]
    return hands4, seat


@pytest.mark.parametrize("n", range(40))
def test_at_five_a_hand_plays_and_pays_as_the_same_hand_at_four(n):
    """Random hands: the same cards played in the same order at five and at four give the
    same tricks and the same money, seat for seat (the dealer at five 0)."""
    chance = random.Random(f"five-{n}")
    dealer = n % 5
    deck = sorted(kop.PACK)
    chance.shuffle(deck)
    rules5 = kop.parse_rules(FIVE)
    hands5 = kop.deals(rules5, deck, dealer)["hands"]
    hands4, seat = _at_four(hands5, dealer)
    state5, state4 = start(hands5, dealer, FIVE), start(hands4, 0)
    for _ in range(chance.randrange(3)):
        offers = [(s, o) for s in seat for o in kop.GAME.moves.offers(state5, s)]
        if not offers:
            break
        s5, offer = chance.choice(offers)
        state5, state4 = bid(state5, {"seat": s5, **offer.body}), bid(state4, {"seat": seat[s5], **offer.body})
    while not kop.is_over(state5):
        cards = []
        for s5 in kop.GAME.trick_seats(state5):
            legal = kop.legal_cards(state5, s5, tuple(cards))
            assert sorted(legal) == sorted(kop.legal_cards(state4, seat[s5], tuple(cards)))
            cards.append(chance.choice(legal))
        state5, t5 = trick(state5, cards)
        state4, t4 = trick(state4, cards)
        assert (seat[t5["leader"]], seat[t5["winner"]], t5["points"]) == (t4["leader"], t4["winner"], t4["points"])
    s5, s4 = settle(state5), kop.settle(state4, TableTerms(B, MEMBERS[:4]))
    assert (s5.outcome, s5.winner, s5.multiplier, s5.units) == (s4.outcome, s4.winner, s4.multiplier, s4.units)
    assert s5.amounts[dealer] == 0 and [s5.amounts[s5_] for s5_ in seat] == [s4.amounts[s4_] for s4_ in seat.values()]


def test_a_table_of_five_takes_rules_that_leave_players_unsaid():
    assert kop.parse_rules(seated_rules({}, 5)).players == 5
    assert kop.parse_rules(seated_rules(None, 5)).players == 5
    assert kop.parse_rules(seated_rules({}, 4)).players == 4
    assert seated_rules({"players": 4}, 5) == {"players": 4}  # said, it stands: the table is refused
    assert kop.GAME.seating(kop.parse_rules({"players": 4}), 5) == (
        "these kop rules say players 4: a table of 5 says players 5, or leaves players out")
    assert "not of 6" in kop.GAME.seating(kop.parse_rules({}), 6)
    with pytest.raises(RuleViolation, match="players must be 4, or 5"):
        kop.parse_rules({"players": 6})


def test_a_table_of_four_keeps_its_rules_as_they_were_logged():
    """Tables of four opened before tables of five logged rules without ``players``: those
    of a table of four read the same still, so replay and import find them as logged."""
    assert "players" not in kop.parse_rules({}).to_data()
    assert kop.parse_rules({"players": 4}).to_data() == kop.parse_rules({}).to_data()
    assert kop.parse_rules(FIVE).to_data()["players"] == 5
