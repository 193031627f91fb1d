"""A hand kept folded by the process (projections/folded.py) is always the hand its log
holds: folded on from where it was kept, it equals the hand folded from its deal, and a
kept hand whose last event was rolled back (another event took its seq) is folded again."""
from __future__ import annotations

import random

import pytest

from games.kop import game as kop
from games.engine.autoplay import play_out
from projections import folded, hands as hand_fold
from service import handlers
from service.handlers import lookups
from service.commands import AddMember, CreateGroup, NewHand, OpenTable, Play, VoidHand


def _hand(rng: random.Random, dealer: int = 0):
    cards = sorted(kop.PACK)
    rng.shuffle(cards)
    hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
    state = kop.new_hand(kop.parse_rules({}), {"dealer": dealer, "hands": hands})
    _, tricks = play_out(kop, state, lambda legal: rng.choice(sorted(legal)))
    return {"dealer": dealer, "hands": hands}, tricks


@pytest.fixture
def table(store):
    with store.writing() as w:
        g = handlers.handle(CreateGroup("folded", "PLN", "off"), w)
        seats = [handlers.handle(AddMember(g.id, "admin", n), w).id for n in "NESW"]
        t = handlers.handle(OpenTable(g.id, "admin", {"game": "kop", "seats": seats, "stake": "0.50"}), w)
    return g.id, t["id"]


def _dealt(store, group, table, seed):
    """A hand dealt at ``table`` by its next dealer (a random legal Kop deal): its id, and
    its tricks to play."""
    with store.writing() as w:
        deal, tricks = _hand(random.Random(seed), lookups.table_row(w, group, table)["next_dealer"])
        return handlers.handle(NewHand(group, "admin", table, {"deal": deal}), w).hand.id, tricks


def _play(store, group, hand, cards):
    with store.writing() as w:
        handlers.handle(Play(group, "admin", hand, "trick", {"cards": cards}), w)


def _from_scratch(store, group, hand):
    with store.reading() as r:
        return hand_fold.fold(r.hand_events(group, hand))


def test_a_kept_hand_folded_on_equals_the_hand_folded_from_its_deal(store, table):
    group, tbl = table
    hand, tricks = _dealt(store, group, tbl, 7)
    kept = folded.FoldedHands()
    for cards in tricks:
        with store.reading() as r:
            before = kept.model(r, group, hand)
        assert before == _from_scratch(store, group, hand)
        _play(store, group, hand, cards)
    with store.reading() as r:
        done = kept.model(r, group, hand)
    assert done == _from_scratch(store, group, hand)
    assert done.settlement is not None and len(done.seqs) == 1 + len(tricks) + 1


def test_a_kept_hand_whose_last_event_was_rolled_back_is_folded_again(store, table):
    group, tbl = table
    hand, tricks = _dealt(store, group, tbl, 11)
    kept = folded.FoldedHands()
    with pytest.raises(RuntimeError):
        with store.writing() as w:
            handlers.handle(Play(group, "admin", hand, "trick", {"cards": tricks[0]}), w)
            assert len(kept.model(w, group, hand).seqs) == 2  # kept with the trick this write appended...
            raise RuntimeError("the write fails")  # ...which is then rolled back
    # Another event takes the rolled-back trick's seq: a void, not that trick.
    with store.writing() as w:
        handlers.handle(VoidHand(group, "admin", hand, "misdeal"), w)
    with store.reading() as r:
        model = kept.model(r, group, hand)
    assert model == _from_scratch(store, group, hand)
    assert model.voided is not None and len(model.seqs) == 2


def test_the_kept_hands_are_bounded(store, table):
    group, _ = table
    kept = folded.FoldedHands(size=2)
    ids = []
    with store.writing() as w:
        seats = [m["id"] for m in lookups.group_row(w, group)["members"]]
    for i in range(3):  # three tables, a hand in play at each
        with store.writing() as w:
            tbl = handlers.handle(OpenTable(group, "admin", {"game": "kop", "seats": seats, "stake": "0.50"}), w)["id"]
        ids.append(_dealt(store, group, tbl, i)[0])
    with store.reading() as r:
        for hand in ids:
            assert kept.model(r, group, hand) == hand_fold.fold(r.hand_events(group, hand))
    assert len(kept) == 2


def test_only_hands_in_play_are_kept(store, table):
    group, tbl = table
    hand, tricks = _dealt(store, group, tbl, 5)
    kept = folded.FoldedHands()
    for cards in tricks:
        with store.reading() as r:
            kept.model(r, group, hand)
        assert len(kept) == 1
        _play(store, group, hand, cards)
    with store.reading() as r:
        assert kept.model(r, group, hand).settlement is not None
    assert len(kept) == 0  # settled: dropped
    voided, _ = _dealt(store, group, tbl, 6)
    with store.writing() as w:
        handlers.handle(VoidHand(group, "admin", voided, "misdeal"), w)
    with store.reading() as r:
        assert kept.model(r, group, voided).voided is not None
    assert len(kept) == 0
