"""A settlement recorded under rules 2 is explained again in its own words: replay compares
a re-derived settlement with the recorded one line by line, and rules 3 only changed how
Sueca, Bisca, Briscola and Tressette name a side of two ("seats 0 and 2 take", where rules
2 wrote "side 0 takes"). ``data/explained_under_rules_2.json`` holds hands of every preset
of those games, each with the explanation bitka wrote for it under rules 2 (made by the tree
before rules 3, commit 43271cd); each is settled again here under rules 2 and under today's."""
import json
import re
from pathlib import Path

import pytest

from games.engine.base import RULES_VERSION, SIDES_BY_SEATS, Command, TableTerms
from games.engine.table import deal_context
from games.registry import GAMES

RECORDED = json.loads((Path(__file__).parent / "data" / "explained_under_rules_2.json").read_text(encoding="utf-8"))


def _settled(hand: dict, rules_version: int):
    game = GAMES[hand["game"]]
    rules = game.parse_rules(hand["rules"])
    match = hand["match"]
    state = game.initial_state(rules, {**game.parse_deal(rules, hand["body"]["deal"]).data,
                                       **deal_context(game, rules, match)})
    for kind in ("tricks", "plays"):
        for data in hand["body"].get(kind, []):
            for event in game.decide(state, Command(kind[:-1], data)):
                state = game.evolve(state, event)
    members = tuple(f"m{i}" for i in range(game.seat_count(rules)))
    return game.settle(state, TableTerms(100, members, match=tuple(match["scores"]) if match else (),
                                         rules_version=rules_version))


@pytest.mark.parametrize("hand", RECORDED, ids=lambda h: f"{h['game']}-{h['rules']}")
def test_a_hand_settled_under_rules_2_is_explained_in_the_words_it_was(hand):
    assert list(_settled(hand, 2).explanation) == hand["explanation"]


def test_todays_rules_name_a_side_of_two_by_its_seats_and_pay_the_same():
    assert RULES_VERSION >= SIDES_BY_SEATS
    reworded = 0
    for hand in RECORDED:
        then, now = _settled(hand, 2), _settled(hand, RULES_VERSION)
        assert now.amounts == then.amounts and now.extra == then.extra
        if any(len(side.seats) == 2 for side in now.sides):
            said = " | ".join(now.explanation)
            assert not SIDE_DOES.search(said) and "each player of side" not in said, said
        reworded += now.explanation != then.explanation
    assert reworded > 10


SIDE_DOES = re.compile(r"\bside \d+ (takes|took|declares|wins|has|scores|reaches|needed)\b")
