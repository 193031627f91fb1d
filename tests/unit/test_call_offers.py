"""The calls a phone offers a seat: those the game's decide takes from that seat now, each
saying what it does; checked against decide itself for every call of the ladder, so an
offer the rules would refuse (or a legal call left out) fails here. The one legal call left
out is a double its seat knows would count once with the double before it
(tests/games/test_calls_change_something.py)."""
from __future__ import annotations

import random

import pytest

from games.bisca import game as bisca
from games.engine.base import Command
from games.engine.errors import RuleViolation
from games.registry import game

WESELE = [["QC", "QS", "AH", "10H"], ["JC", "AD", "10D", "QD"], ["JS", "JH", "JD", "AC"],
          ["10C", "AS", "10S", "QH"]]
FOUR_QUEENS = [["QC", "QS", "QH", "QD"], ["JC", "AD", "10D", "10H"], ["JS", "JH", "JD", "AC"],
               ["10C", "AS", "10S", "AH"]]


def _hand(name, rules, hands):
    g = game(name)
    r = g.parse_rules(rules)
    return g, g.initial_state(r, g.parse_deal(r, {"dealer": 0, "hands": hands}).data)


def _takes(g, state, seat, body) -> bool:
    try:
        g.decide(state, Command("bid", {"seat": seat, **body}))
    except RuleViolation:
        return False
    return True


def _every_call(g, state) -> list[dict]:
    jacks = [None, "JC", "JS", "JH", "JD"]
    return [{"call": c, **({"jack": j} if j else {})} for c in g.moves.calls(state) if c != "pass" for j in jacks
            if j is None or c == "wesele"]


@pytest.mark.parametrize("name, rules, hands", [
    ("kop", {}, WESELE), ("kop", {"wesele": "any-jack"}, WESELE), ("kop", {"max_doubles": 1}, WESELE),
    ("baska", {}, WESELE), ("baska", {"variant": "classic"}, FOUR_QUEENS)])
def test_a_seat_is_offered_every_call_decide_takes_from_it_and_no_other(name, rules, hands):
    g, state = _hand(name, rules, hands)
    rng = random.Random(7)
    for _ in range(4):  # the auction moves on: each round, one seat makes one of its offers
        for seat in range(4):
            offered = [dict(o.body) for o in g.moves.offers(state, seat)]
            for body in offered:
                assert _takes(g, state, seat, body), (seat, body)
            taken = {(b["call"], b.get("jack")) for b in _every_call(g, state) if _takes(g, state, seat, b)}
            if rules.get("wesele") != "any-jack":  # the rules choose the jack: it is offered unsaid
                taken = {(call, None) for call, _ in taken}
            else:  # the caller names it: a wesele without one is no call at all
                assert ("wesele", None) not in taken
            offered_calls = {(b["call"], b.get("jack")) for b in offered}
            assert offered_calls <= taken
            ladder = state.rules.ladder
            assert {call for call, _ in taken - offered_calls} <= {*ladder.doubles, ladder.extra_double}
            assert all(o.says and o.says[0].isupper() for o in g.moves.offers(state, seat))
        seat = rng.randrange(4)
        offers = list(g.moves.offers(state, seat))
        if not offers:
            continue
        [event] = g.decide(state, Command("bid", {"seat": seat, **rng.choice(offers).body}))
        state = g.evolve(state, event)


def test_what_each_call_says_it_does():
    g, state = _hand("kop", {}, WESELE)
    assert g.moves.offers(state, 0)[0].body == {"call": "wesele"}  # the rules choose JC: it goes unsaid
    assert [o.says for o in g.moves.offers(state, 0)] == [
        "Wesele: the holder of JC plays with you against the other two",
        "Zolo: you play alone against three and win with 53 card points",
        "Zolo-du: you play alone against three and must take all four tricks"]
    assert [o.body for o in g.moves.offers(state, 1)] == [{"call": "zolo"}, {"call": "zolo-du"}, {"call": "kontra"}]
    g, state = _hand("baska", {"variant": "classic"}, FOUR_QUEENS)
    assert g.moves.offers(state, 0)[-1].says == "Baska: you hold all four queens and win the hand at once"
    assert "baska" not in [o.body["call"] for o in g.moves.offers(state, 1)]


def test_no_call_once_the_first_card_is_played_nor_before_the_cards_are_in():
    g, state = _hand("kop", {}, WESELE)
    [play] = g.decide(state, Command("play", {"seat": 1, "card": "JC"}))
    after = g.evolve(state, play)
    assert all(list(g.moves.offers(after, seat)) == [] for seat in range(4))
    r = g.parse_rules({})
    dealing = g.initial_state(r, {"dealer": 0, "hands": [WESELE[0], [], [], []]})
    assert all(list(g.moves.offers(dealing, seat)) == [] for seat in range(4))


def _capixaba_deal() -> dict:
    """A deal whose cut trump card is no ace or 7, with the 2 of trumps in a seat's hand."""
    for seed in range(100):
        deck = list(bisca.PACKS["full"])
        random.Random(seed).shuffle(deck)
        if deck[-1][:-1] not in ("A", "7") and "2" + deck[-1][-1] in deck[:12]:
            return {"dealer": 0, "hands": [deck[0:3], deck[3:6], deck[6:9], deck[9:12]], "trump": deck[-1],
                    "stock": deck[12:-1]}
    raise AssertionError("no such deal in 100 shuffles")


def test_capixaba_offers_the_swap_to_the_holder_of_the_two_of_trumps_alone():
    rules, deal = bisca.parse_rules({"variant": "capixaba"}), _capixaba_deal()
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    trump = deal["trump"]
    two = "2" + trump[-1]
    holder = next(s for s, h in enumerate(deal["hands"]) if two in h)
    swap = [({"call": "swap-2"}, f"Swap: you give your {two} for the trump card turned up, {trump}")]
    for seat in range(4):
        offered = [(dict(o.body), o.says) for o in game("bisca").moves.offers(state, seat)]
        assert offered == (swap if seat == holder else [])
    [swapped] = bisca.decide(state, Command("bid", {"seat": holder, "call": "swap-2"}))
    assert list(game("bisca").moves.offers(bisca.evolve(state, swapped), holder)) == []  # once only
