"""The one-pass judge of a whole trick replay asks of every trick (``first_unplayable``)
finds exactly the card the follow rules, asked card by card, find first: for every Kop
ranking, over random deals and tricks, legal and not."""
from __future__ import annotations

import random

import pytest

from games.engine.tricks import first_unplayable, legal_cards
from games.kop.game import RANKINGS
from games.kop.pack import PACK


def _card_by_card(cards, hands, ranking):
    for i, card in enumerate(cards):
        if card not in hands[i] or card not in legal_cards(hands[i], cards[:i], ranking):
            return i
    return None


@pytest.mark.parametrize("name", sorted(RANKINGS))
def test_the_whole_trick_judge_agrees_with_the_follow_rules_card_by_card(name):
    ranking, chance, pack = RANKINGS[name], random.Random(f"trick-{name}"), sorted(PACK)
    found = set()
    for _ in range(6000):
        chance.shuffle(pack)
        size = chance.randint(1, 4)
        hands = [pack[s * size:(s + 1) * size] for s in range(4)]
        legal_play = chance.random() < 0.5
        cards = []
        for i in range(4):  # a legal card most of the time, any card of the pack otherwise
            allowed = legal_cards(hands[i], cards, ranking) if legal_play else sorted(PACK)
            cards.append(chance.choice([c for c in allowed if c not in cards] or sorted(PACK)))
        expected = _card_by_card(cards, hands, ranking)
        assert first_unplayable(cards, hands, ranking) == expected, (hands, cards)
        found.add(expected)
    assert found == {None, 0, 1, 2, 3}  # every outcome was met
