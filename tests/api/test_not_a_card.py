"""What is no card is refused with two cards written as the API takes them (friction 10 of
issue 43: "'ZZ' is not a card: write rank then suit, like ? or ?"): its examples are of no
game's pack, so a refusal, which names a card hidden from its reader as "?", never hides
them; on the API, on a phone's page and beside the deal's field where it was typed, in all
four languages."""
from __future__ import annotations

import re

import pytest

from games.engine.cards import EXAMPLES, not_a_card, parse_card
from games.engine.errors import RuleViolation
from games.engine.seen import mask_text
from games.registry import GAMES
from tests.api.test_evening_pages import _deal_by_phones, _form, _hidden, _new_hand, _open_table, evening  # noqa: F401
from tests.conftest import KOP_HANDS, kop_group

LANGUAGES = ("en", "pl", "it", "pt_BR")
FACES = ("9♥", "8♠")  # EXAMPLES as a page draws them


def test_the_examples_are_cards_of_no_game_and_never_hidden():
    assert [parse_card(c) for c in EXAMPLES] == list(EXAMPLES)  # codes the API takes
    with pytest.raises(RuleViolation) as refused:
        parse_card("ZZ")
    assert refused.value.detail == not_a_card("ZZ") == "'ZZ' is not a card: write rank then suit, like 9H or 8S"
    for name, game in GAMES.items():
        for preset in game.words.presets:
            pack = frozenset(game.sight.pack(game.parse_rules(dict(preset.rules))))
            assert not pack & set(EXAMPLES), (name, preset.title)
            assert mask_text(refused.value.detail, pack) == refused.value.detail  # every card hidden: said whole


def test_a_card_that_is_none_is_refused_readably_on_the_api_the_phone_and_the_deal(app, client, evening):  # noqa: F811 - the fixture
    t = kop_group(client)
    made = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}})
    assert made.status_code == 201, made.json
    cyd = client.as_(t["members"][2]["token"])  # he sees his own cards only
    refused = cyd.post(f"{t['base']}/hands/{made.json['id']}/plays", {"seat": 2, "card": "ZZ"})
    assert refused.status_code == 422 and refused.json["detail"] == not_a_card("ZZ"), refused.json

    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    hand = _new_hand(phones, group, table)
    _deal_by_phones(phones, group, hand, KOP_HANDS)
    move = f"/g/{group}/hands/{hand}/move"
    for language in LANGUAGES:  # Cyd taps a card that is none, out of turn: what he may not see stays hidden
        assert phones[2].http.get(f"/language/{language}?next=/").status_code in (302, 303)
        page = phones[2].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        refused = phones[2].http.post(move, data={**_form(page, move), "action": "play", "card": "ZZ"})
        text = refused.get_data(as_text=True)
        problem = re.search(r'<p class="problem" role="alert">(.*?)</p>', text, re.S).group(1)
        assert refused.status_code == 422 and "ZZ" in problem and all(f in problem for f in FACES), problem
        assert "?" not in problem, (language, problem)

    scorer = _open_table(admin, group, "kop:0", names, entry="scorer")
    deal = f"/g/{group}/tables/{scorer}/deal"
    typed = {f"seat{i}": " ".join(cards) for i, cards in enumerate(KOP_HANDS)}
    typed["seat2"] = typed["seat2"].replace("JC", "ZZ")
    for language in LANGUAGES:
        assert phones[0].http.get(f"/language/{language}?next=/").status_code in (302, 303)
        page = phones[0].http.get(deal).get_data(as_text=True)
        answer = phones[0].http.post(deal, data={"form_token": _hidden(page, "form_token"),
                                                 "once": _hidden(page, "once"), **typed})
        text = answer.get_data(as_text=True)
        beside = re.search(r'<p id="(seat\d)-error" class="field-error">(.*?)</p>', text, re.S)
        assert answer.status_code == 422 and beside.group(1) == "seat2", text  # where it was typed
        assert "ZZ" in beside.group(2) and all(f in beside.group(2) for f in FACES) and "deal:" not in beside.group(2)
