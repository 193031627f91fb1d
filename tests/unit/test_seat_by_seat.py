"""A hand dealt seat by seat and played a card at a time is the same hand as the one dealt
whole: played side by side, both are offered the same legal cards at every turn (de Nove's
trump duty once nothing is left to draw, Scopa's captures and its last-round sweep), decide
the same tricks and plays, and settle alike. The rules of cards arriving as they are seen
are stated one by one below."""
from __future__ import annotations

import random

import pytest
from hypothesis import given as hypothesis_given, settings, strategies as st

from games.bisca import game as bisca

from games.bisca import seen as bisca_seen

from games.kop import game as kop

from games.scopa import game as scopa
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.table import deal_context
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.harness import given

def _terms(players: int) -> TableTerms:
    return TableTerms(stake=100, members=tuple("abcd"[:players]))


def _fold(game, state, command):
    events = game.decide(state, command)
    for event in events:
        state = game.evolve(state, event)
    return state, events


def _open(game, rules_raw, dealer=0):
    rules = game.parse_rules(rules_raw)
    data = {**game.parse_deal(rules, {"dealer": dealer}).data, **deal_context(game, rules, None)}
    return game.initial_state(rules, data)


def _whole(game, rules_raw, deal):
    rules = game.parse_rules(rules_raw)
    data = {**game.parse_deal(rules, deal).data, **deal_context(game, rules, None)}
    return game.initial_state(rules, data)


def test_kop_seat_by_seat_the_fourth_card_makes_the_trick_that_the_whole_trick_makes():
    seats = _open(kop.GAME, {})
    for seat, hand in enumerate(KOP_HANDS):
        seats, _ = _fold(kop.GAME, seats, Command("cards", {"seat": seat, "cards": hand}))
    whole = _whole(kop.GAME, {}, {"dealer": 0, "hands": KOP_HANDS})
    for cards in KOP_TRICKS:
        for i, card in enumerate(cards):
            seat = (kop.GAME.moves.turn(seats))
            assert kop.GAME.moves.legal_cards(seats, seat, tuple(cards[:i])) == kop.GAME.moves.legal_cards(whole, seat,
                                                                                                tuple(cards[:i]))
            seats, events = _fold(kop.GAME, seats, Command("play", {"seat": seat, "card": card}))
            assert [e.type for e in events] == (["play", "trick"] if i == 3 else ["play"])
        whole, [trick] = _fold(kop.GAME, whole, Command("trick", {"cards": cards}))
        assert events[-1] == trick
    assert kop.GAME.settle(seats, _terms(4)) == kop.GAME.settle(whole, _terms(4))


def test_kop_a_card_seen_twice_is_refused_without_saying_where_it_was_seen():
    given(kop.GAME, {"dealer": 0}, ("seat_cards", {"seat": 1, "cards": KOP_HANDS[1]})).when(
        "cards", seat=2, cards=["AH", *KOP_HANDS[2][1:]]).refused("AH was already seen in this hand")
    state = given(kop.GAME, {"dealer": 0}, ("seat_cards", {"seat": 1, "cards": KOP_HANDS[1]})).state
    with pytest.raises(RuleViolation) as refused:
        kop.GAME.decide(state, Command("cards", {"seat": 2, "cards": ["AH", *KOP_HANDS[2][1:]]}))
    assert "seat 1" not in refused.value.detail  # the sentence names the card only


def test_kop_nothing_is_played_before_every_seat_has_its_cards_and_a_seat_logs_them_once():
    one = ("seat_cards", {"seat": 1, "cards": KOP_HANDS[1]})
    given(kop.GAME, {"dealer": 0}, one).when("play", seat=1, card="AH").refused("the deal is not complete")
    given(kop.GAME, {"dealer": 0}, one).when("cards", seat=1, cards=KOP_HANDS[2]).refused("logged its cards already")
    given(kop.GAME, {"dealer": 0}).when("cards", seat=1, cards=KOP_HANDS[1][:3]).refused("logs 3 cards here")


def test_kop_a_card_at_a_time_is_judged_as_in_a_whole_trick():
    deal = {"dealer": 0, "hands": KOP_HANDS}
    given(kop.GAME, deal).when("play", seat=2, card="QH").refused("it is seat 1's turn")
    led = ("play", {"seat": 1, "card": "AH"})
    given(kop.GAME, deal, led).when("play", seat=2, card="10C").refused("must follow trumps")
    given(kop.GAME, deal, led).when("play", seat=2, card="AH").refused("AH was already played, by seat 1")
    given(kop.GAME, deal, led).when("trick", cards=KOP_TRICKS[0]).refused("a card at a time")


def _deck(pack, seed):
    deck = sorted(pack)
    random.Random(seed).shuffle(deck)
    return deck


@settings(max_examples=25, deadline=None)
@hypothesis_given(variant=st.sampled_from(["tres", "nove", "quatro", "capixaba", "seis"]), seed=st.integers(0, 10**6),
                  pick=st.integers(0, 10**6))
def test_bisca_seat_by_seat_offers_the_same_cards_as_the_whole_deal_at_every_turn(variant, seed, pick):
    rules = bisca.parse_rules({"variant": variant})
    n, size = rules.players, bisca.VARIANTS[variant].hand
    deck = _deck(bisca.PACKS[bisca.VARIANTS[variant].pack], seed)
    if variant == "capixaba" and deck[-1][:-1] in ("A", "7"):
        deck = deck[:-2] + [deck[-1], deck[-2]] if deck[-2][:-1] not in ("A", "7") else deck[1:] + deck[:1]
        if deck[-1][:-1] in ("A", "7"):
            return
    deal = {"dealer": 0, "hands": [deck[i * size:(i + 1) * size] for i in range(n)], "trump": deck[-1],
            "stock": deck[n * size:-1]}
    whole, seats = _whole(bisca.GAME, {"variant": variant}, deal), _open(bisca.GAME, {"variant": variant})
    for seat in range(n):
        seats, _ = _fold(bisca.GAME, seats, Command("cards", {"seat": seat, "cards": deal["hands"][seat]}))
    seats, _ = _fold(bisca.GAME, seats, Command("cards", {"trump": deal["trump"]}))
    chooser = random.Random(pick)
    while not bisca.GAME.is_terminal(whole):
        assert not bisca.GAME.is_terminal(seats)
        leader, cards = whole.leader, []
        for i in range(n):
            seat = (leader + i) % n
            legal = bisca.legal_cards(whole, seat, tuple(cards))
            assert bisca.legal_cards(seats, seat, tuple(cards)) == legal  # de Nove's duty falls alike
            cards.append(chooser.choice(legal))
            seats, events = _fold(bisca.GAME, seats, Command("play", {"seat": seat, "card": cards[-1]}))
        whole, [trick] = _fold(bisca.GAME, whole, Command("trick", {"cards": cards}))
        assert {**events[-1].data, "draws": []} == {**trick.data, "draws": []}
        if bisca.GAME.is_terminal(whole):  # a Capixaba bonus can end the match, and the hand, mid-hand
            break
        for seat, card in trick.data["draws"]:
            seats, _ = _fold(bisca.GAME, seats, Command("cards", {"seat": seat, "cards": [card]}))
    assert bisca.GAME.is_terminal(seats)
    assert bisca.GAME.settle(seats, _terms(n)) == bisca.GAME.settle(whole, _terms(n))


def test_bisca_a_draw_must_be_a_card_nobody_has_seen_and_the_last_one_is_the_trump_card():
    deck = _deck(bisca.PACKS["full"], 7)
    seats = _open(bisca.GAME, {"variant": "nove"})
    for seat, hand in enumerate((deck[0:9], deck[9:18])):
        seats, _ = _fold(bisca.GAME, seats, Command("cards", {"seat": seat, "cards": hand}))
    seats, _ = _fold(bisca.GAME, seats, Command("cards", {"trump": deck[-1]}))
    with pytest.raises(RuleViolation, match="owes no card"):  # nobody draws before a trick
        bisca.GAME.decide(seats, Command("cards", {"seat": 0, "cards": [deck[20]]}))
    leader, cards = seats.leader, []
    for i in range(2):
        cards.append(bisca.legal_cards(seats, (leader + i) % 2, tuple(cards))[0])
        seats, _ = _fold(bisca.GAME, seats, Command("play", {"seat": (leader + i) % 2, "card": cards[-1]}))
    first = seats.owed[0]
    with pytest.raises(RuleViolation, match="already seen"):  # deck[3] was dealt to seat 0
        bisca.GAME.decide(seats, Command("cards", {"seat": first, "cards": [deck[3]]}))
    with pytest.raises(RuleViolation, match="have not logged"):  # no card before the draws are logged
        bisca.GAME.decide(seats, Command("play", {"seat": seats.turn, "card": seats.held[seats.turn][0]}))
    last = None
    while seats.pile > 1 or seats.owed:  # draw and play on until only the trump card is left to draw
        for seat in seats.owed:
            if seats.pile == 1:  # what is left to draw is the face-up trump card
                last = seat
                break
            card = next(c for c in deck if c not in bisca_seen.known(seats))
            seats, _ = _fold(bisca.GAME, seats, Command("cards", {"seat": seat, "cards": [card]}))
        if last is not None:
            break
        leader, cards = seats.leader, []
        for i in range(2):
            cards.append(bisca.legal_cards(seats, (leader + i) % 2, tuple(cards))[0])
            seats, _ = _fold(bisca.GAME, seats, Command("play", {"seat": (leader + i) % 2, "card": cards[-1]}))
    with pytest.raises(RuleViolation, match=f"the last card to draw is the face-up trump card, {deck[-1]}"):
        bisca.GAME.decide(seats, Command("cards", {"seat": last, "cards": [deck[0]]}))
    bisca.GAME.decide(seats, Command("cards", {"seat": last, "cards": [deck[-1]]}))


@settings(max_examples=20, deadline=None)
@hypothesis_given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_scopa_seat_by_seat_captures_and_sweeps_as_the_whole_deal_does(players, seed, pick):
    raw = {"players": players}
    deck = _deck(scopa.PACK, seed)
    n = players
    table = deck[3 * n:3 * n + 4]
    if sum(c[:-1] == "K" for c in table) >= 3:
        return
    deal = {"dealer": 0, "hands": [deck[3 * i:3 * i + 3] for i in range(n)], "table": table,
            "stock": deck[3 * n + 4:]}
    whole, seats = _whole(scopa.GAME, raw, deal), _open(scopa.GAME, raw)
    seats, _ = _fold(scopa.GAME, seats, Command("cards", {"table": table}))
    for seat in range(n):
        seats, _ = _fold(scopa.GAME, seats, Command("cards", {"seat": seat, "cards": deal["hands"][seat]}))
    chooser = random.Random(pick)
    while not scopa.GAME.is_terminal(whole):
        legal = scopa.GAME.moves.legal_plays(whole)
        assert scopa.GAME.moves.legal_plays(seats) == legal
        move = dict(chooser.choice(legal))
        whole, [played] = _fold(scopa.GAME, whole, Command("play", move))
        seats, [also] = _fold(scopa.GAME, seats, Command("play", move))
        assert {k: v for k, v in also.data.items() if k != "dealt"} == \
            {k: v for k, v in played.data.items() if k != "dealt"}  # the last play's sweep too
        for seat, cards in enumerate(played.data.get("dealt") or []):
            seats, _ = _fold(scopa.GAME, seats, Command("cards", {"seat": seat, "cards": list(cards)}))
    assert scopa.GAME.is_terminal(seats)
    assert scopa.GAME.settle(seats, _terms(n)) == scopa.GAME.settle(whole, _terms(n))


def test_scopa_the_face_up_cards_come_from_the_deal_and_a_round_only_when_every_hand_is_empty():
    deck = _deck(scopa.PACK, 11)
    opened = given(scopa.GAME, {"dealer": 0})
    opened.when("cards", table=deck[:3]).refused("puts 4 cards face up, not 3")
    with_table = given(scopa.GAME, {"dealer": 0}, ("seat_cards", {"table": deck[:4]}))
    with_table.when("play", card=deck[5]).refused("seat 1 has not logged its cards yet")
    with_table.when("cards", seat=1, cards=[deck[0], *deck[5:7]]).refused(f"{deck[0]} was already seen")
    full = given(scopa.GAME, {"dealer": 0}, ("seat_cards", {"table": deck[:4]}),
                 ("seat_cards", {"seat": 0, "cards": deck[4:7]}), ("seat_cards", {"seat": 1, "cards": deck[7:10]}))
    full.when("cards", seat=0, cards=deck[10:13]).refused("owes no cards now")


def test_the_events_of_a_hand_dealt_seat_by_seat_are_what_its_deal_event_says():
    """A deal of the dealer alone is recorded with empty hands (and no stock or table)."""
    for game in (kop.GAME, bisca.GAME, scopa.GAME):
        rules = game.parse_rules({})
        assert game.parse_deal(rules, {"dealer": 1}).data["hands"] == [[] for _ in range(game.seat_count(rules))]
        state = game.initial_state(rules, {**game.parse_deal(rules, {"dealer": 1}).data,
                                           **deal_context(game, rules, None)})
        assert game.sight.view(state)["phase"] == "dealing" and not game.is_terminal(state)
        assert game.sight.visible(state, None) == frozenset()  # nothing is in sight yet


def test_kop_a_claim_in_the_middle_of_a_trick_counts_the_cards_already_on_the_table():
    """Throwing in after two cards of the third trick: the claim's counted tricks begin with
    those two cards, and it settles as the claim made before them."""
    hands = [["AD", "AH", "JH", "JS"], ["10H", "10S", "AS", "QH"], ["JC", "JD", "QC", "QD"],
             ["10C", "10D", "AC", "QS"]]
    state = _whole(kop.GAME, {}, {"dealer": 0, "hands": hands})
    for cards in (["10H", "JC", "10D", "AH"], ["AD", "QH", "QC", "QS"]):
        state, _ = _fold(kop.GAME, state, Command("trick", {"cards": cards}))
    before, [early] = _fold(kop.GAME, state, Command("claim", {"seat": 1}))
    leader = kop.GAME.moves.turn(state)
    on_table = []
    for _ in range(2):
        seat = kop.GAME.moves.turn(state)
        card = kop.GAME.moves.legal_cards(state, seat, tuple(on_table))[0]
        on_table.append(card)
        state, _ = _fold(kop.GAME, state, Command("play", {"seat": seat, "card": card}))
    after, [claim] = _fold(kop.GAME, state, Command("claim", {"seat": 1}))
    first = claim.data["tricks"][0]
    assert first["leader"] == leader and first["cards"][:2] == on_table
    assert kop.GAME.is_terminal(after) and kop.GAME.settle(after, _terms(4)) == kop.GAME.settle(before, _terms(4))
