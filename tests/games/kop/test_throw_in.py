"""Throwing in (rules/kop.md, "Throwing in"; Baśka "as in Kop"): a claim settles the hand at
once when every legal continuation settles alike, else it is refused naming one that would
not. Checked against every continuation enumerated with the rules read a second time
(tests/oracles/kop.py), not with games/."""
import pytest
from hypothesis import given, settings, strategies as st

from games.baska import game as baska

from games.kop import game as kop
from games.engine.base import Command
from games.engine.errors import RuleViolation
from tests.games.baska.oracle import baska_amounts, bok_due
from tests.games.kop.oracle import oracle_amounts, oracle_may_play, oracle_winner

from tests.games.kop.kit import settle, start, trick

THROWABLE = [["AD", "AH", "JH", "JS"], ["10H", "10S", "AS", "QH"], ["JC", "JD", "QC", "QD"], ["10C", "10D", "AC", "QS"]]
THROWABLE_TRICKS = [["10H", "JC", "10D", "AH"], ["AD", "QH", "QC", "QS"]]


def continuations(hands_left, leader, ranking):
    """Every legal way to play the remaining cards, as [(winner, points)] per trick."""
    points = {"A": 11, "10": 10, "Q": 3, "J": 2}

    def play(hands, leader, trick, done):
        if not any(hands) and not trick:
            yield done
            return
        seat = (leader + len(trick)) % 4
        for card in hands[seat]:
            if not oracle_may_play(card, hands[seat], trick, ranking):
                continue
            rest = [h if s != seat else [c for c in h if c != card] for s, h in enumerate(hands)]
            now = trick + [card]
            if len(now) < 4:
                yield from play(rest, leader, now, done)
            else:
                winner = (leader + oracle_winner(now, ranking)) % 4
                yield from play(rest, winner, [], done + [(winner, sum(points[c[:-1]] for c in now))])
    yield from play([list(h) for h in hands_left], leader, [], [])


def ending(paid, tricks, bok=False):
    """What a claim must not change (rules/kop.md): the payouts, the losers' outcome (their
    card points and tricks, read from who pays) and, in Baśka, whether a bok-runda falls due."""
    losers = {seat for seat, amount in enumerate(paid) if amount < 0}
    won = [p for w, p in tricks if w in losers]
    outcome = "bez-bitki" if not won else ("wyjscie" if sum(won) >= 26 else "bez-wyjscia")
    return tuple(paid), outcome, bok


def claim(state, seat=1):
    module = baska if state.rules.game == "baska" else kop
    [event] = module.decide(state, Command("claim", {"seat": seat}))
    return module.evolve(state, event), event.data


def test_a_throw_in_settles_at_once_when_every_way_to_play_on_pays_the_same():
    state = start(THROWABLE)
    for cards in THROWABLE_TRICKS:
        state, _ = trick(state, cards)
    played = [(t.winner, t.points) for t in state.tricks]
    ways = {tuple(oracle_amounts(THROWABLE, [], played + rest, 100))
            for rest in continuations(state.held, state.leader, "as-dycha")}
    assert len(ways) == 1 and len(list(continuations(state.held, state.leader, "as-dycha"))) > 1
    done, data = claim(state)
    assert kop.is_over(done) and done.thrown_in_by == 1
    assert [t["trick"] for t in data["tricks"]] == [3, 4] and all(not t.played for t in done.tricks[2:])
    s = settle(done)
    assert [tuple(s.amounts)] == list(ways)
    assert "seat 1 threw in after 2 trick(s)" in s.explanation[1]
    assert kop.view(done)["tricks"][2]["played"] is False and kop.view(done)["phase"] == "done"


def test_a_throw_in_that_another_way_would_change_is_refused_naming_that_way():
    from tests.conftest import KOP_HANDS, KOP_TRICKS
    state, _ = trick(start(KOP_HANDS), KOP_TRICKS[0])
    with pytest.raises(RuleViolation) as refused:
        claim(state)
    said = refused.value.detail
    assert said.startswith("throwing in is refused: the rest of the hand can still end differently. If seat 1 leads")
    assert "bez-bitki" in said and "in 1 trick(s)" in said  # młodzi taking a trick or not: not bez bitki
    played = [(t.winner, t.points) for t in state.tricks]
    assert len({tuple(oracle_amounts(KOP_HANDS, [], played + rest, 100))
                for rest in continuations(state.held, state.leader, "as-dycha")}) > 1


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(sorted(kop.PACK)), before=st.integers(1, 3), picks=st.lists(st.integers(0, 3),
                                                                                            min_size=12, max_size=12),
       game=st.sampled_from(["kop", "baska"]))
def test_a_claim_stands_exactly_when_every_continuation_pays_the_same(order, before, picks, game):
    hands = [order[i * 4:(i + 1) * 4] for i in range(4)]
    module = baska if game == "baska" else kop
    state = module.new_hand(module.parse_rules({}), {"dealer": 0, "hands": hands})
    pick = iter(picks)
    for _ in range(before):
        cards = []
        for i in range(4):
            legal = module.legal_cards(state, (state.leader + i) % 4, tuple(cards))
            cards.append(legal[next(pick) % len(legal)])
        try:
            [event] = module.decide(state, Command("trick", {"cards": cards}))
        except RuleViolation:  # Baśka's unlosable cicha: no hand to throw in
            return
        state = module.evolve(state, event)
    played = [(t.winner, t.points) for t in state.tricks]
    def way(rest):
        tricks = played + rest
        if game == "kop":
            return ending(oracle_amounts(hands, [], tricks, 100), tricks)
        return ending(baska_amounts(hands, [], tricks, "bytow-2005", False, 100), tricks,
                      bok_due([], tricks, hands, "bytow-2005"))
    ways = {way(rest) for rest in continuations(state.held, state.leader, "as-dycha")}
    try:
        done, _ = claim(state, seat=2)
    except RuleViolation as e:
        assert len(ways) > 1, e.detail
        return
    assert len(ways) == 1 and tuple(settle(done).amounts) == next(iter(ways))[0]


def test_a_claim_before_the_first_trick_ends_the_hand_and_closes_the_auction():
    # Stare (seats 0 and 2) hold every ace and ten but the diamonds' and the hearts' top trumps.
    hands = [["AC", "AH", "QC", "QD"], ["10S", "AD", "JC", "JD"], ["10H", "AS", "QH", "QS"], ["10C", "10D", "JH", "JS"]]
    done, data = claim(start(hands), seat=2)
    assert len(data["tricks"]) == 4 and settle(done).winner == "stare"
    with pytest.raises(RuleViolation, match="the hand is over"):
        kop.decide(done, Command("bid", {"seat": 1, "call": "kontra"}))


def test_every_continuation_counts_even_the_claimants_own_mistakes_and_baska_refuses_an_unlosable_cicha():
    unlosable = [["QC", "AH", "JD", "QS"], ["AC", "10C", "AS", "10S"], ["10D", "JS", "QD", "10H"],
                 ["JC", "QH", "JH", "AD"]]
    from tests.games.baska.kit import start as baska_start
    with pytest.raises(RuleViolation, match="cicha may not be played with it"):
        claim(baska_start(unlosable))
    with pytest.raises(RuleViolation, match="stare end with 52 card points"):  # seat 0 could still misplay
        claim(start(unlosable))


@pytest.mark.parametrize("body, why", [({"seat": 4}, "seat must be"), ({"seat": 1, "cards": []}, "only seat")])
def test_a_claim_names_one_seat(body, why):
    with pytest.raises(RuleViolation, match=why):
        kop.decide(start(THROWABLE), Command("claim", body))
