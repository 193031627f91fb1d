"""The log's sentences in the readers' languages: every line of every audit trail and every
refusal a table meets is one of the catalog's templates, said again in Polish, Italian and
Brazilian Portuguese; the stored events, and so their hashes, stay the same whoever asks."""
from __future__ import annotations

import random
import re

import pytest

from games.bisca import game as bisca

from games.scopa import game as scopa
from games.engine.errors import may_not_play
from games.engine.autoplay import play_out, play_by_plays
from games.registry import GAMES
from service.i18n import phrases
from tests import every_game
from tests.api import test_corrections as tables
from tests.api.test_random_hands import _random_baska_hand, _random_hand
from tests.backends import ON_SQLITE

LANGUAGES = ("pl", "it", "pt_BR")
# English words of the log's sentences that no translation keeps (the games' terms, card
# codes and the API's field names are kept, so they are not in this list).
ENGLISH = re.compile(r"\b(the|and|takes|plays|wins|leads|with|which|nobody|each|seat|side|draw|scores|pays|"
                     r"receives|trick|deals|logs|corrects|voids|confirms|disputes|settlement)\b")
ASKED = {"pl": "pl-PL,pl;q=0.9,en;q=0.5", "it": "it-IT", "pt_BR": "pt-BR,pt;q=0.9"}


def _hands_of_every_kind(client) -> list[tuple[dict, str]]:
    """Hands of every game at each of its presets logged by result (random score sheets),
    and of some games card by card and seat by seat, with a correction, a void, a dispute
    and a confirmation among them: (group, hand id)."""
    rng, logged, group = random.Random(21), [], None
    for name, preset in ((p.values[0], p.values[1]) for p in every_game.presets()):  # every game, each way
        game, chosen = GAMES[name], GAMES[name].words.presets[preset]
        group = tables._group(client, chosen.players, name, dict(chosen.rules), within=group)
        for _ in range(4):
            _, result = tables.random_result(group, game, game.parse_rules(chosen.rules), rng)
            r = group["admin"].post(f"{group['base']}/tables/{group['table']}/hands", {"result": result})
            assert r.status_code == 201, r.json
            logged.append((group, r.json["id"]))
        first = logged[-1][1]
        r = group["admin"].post(f"{group['base']}/hands/{first}/correct", {"reason": "wrong sheet", "void": True})
        assert r.status_code == 201, r.json
    pairs = tables._group(client, 4, "scopa", {"players": 4, "target": 11})  # Scopa in pairs: sides of two
    for _ in range(6):
        r = pairs["admin"].post(f"{pairs['base']}/tables/{pairs['table']}/hands",
                                {"result": tables._scopa_result(rng, 2)})
        assert r.status_code == 201, r.json
        logged.append((pairs, r.json["id"]))
    kop_group = tables._group(client, 4, "kop", {})
    for dealer in range(6):
        hands, bids, tricks, _, _ = _random_hand(rng, dealer % 4)
        body = {"deal": {"dealer": dealer % 4, "hands": hands}, "bids": bids, "tricks": [{"cards": c} for c in tricks]}
        r = kop_group["admin"].post(f"{kop_group['base']}/tables/{kop_group['table']}/hands", body)
        assert r.status_code == 201, r.json
        logged.append((kop_group, r.json["id"]))
    baska_group = tables._group(client, 4, "baska", {"variant": "bytow-2005"})
    for dealer in range(6):
        hands, bids, tricks, _, _ = _random_baska_hand(rng, dealer % 4)
        body = {"deal": {"dealer": dealer % 4, "hands": hands}, "bids": bids, "tricks": [{"cards": c} for c in tricks]}
        r = baska_group["admin"].post(f"{baska_group['base']}/tables/{baska_group['table']}/hands", body)
        assert r.status_code == 201, r.json
        logged.append((baska_group, r.json["id"]))
    scopa_group = tables._group(client, 2, "scopa", {"target": 11})
    for dealer in range(3):
        cards = sorted(scopa.PACK)
        rng.shuffle(cards)
        deal = {"dealer": dealer % 2, "hands": [cards[0:3], cards[3:6]], "table": cards[6:10], "stock": cards[10:]}
        if sum(c[:-1] == "K" for c in deal["table"]) >= 3:
            continue
        _, plays = play_by_plays(scopa, scopa.new_hand(scopa.parse_rules({}), {**deal, "game": "scopa"}))
        r = scopa_group["admin"].post(f"{scopa_group['base']}/tables/{scopa_group['table']}/hands",
                                      {"deal": deal, "plays": plays})
        assert r.status_code == 201, r.json
        logged.append((scopa_group, r.json["id"]))
    for variant in ("capixaba", "quatro"):  # capixaba: the bonuses said as they come
        rules = bisca.parse_rules({"variant": variant})
        group = tables._group(client, 4, "bisca", {"variant": variant})
        v = bisca.VARIANTS[variant]
        cards = sorted(bisca.PACKS[v.pack])
        while True:
            rng.shuffle(cards)
            if cards[-1][:-1] not in ("A", "7"):
                break
        deal = {"dealer": 0, "hands": [cards[i * v.hand:(i + 1) * v.hand] for i in range(4)], "trump": cards[-1],
                "stock": cards[4 * v.hand:-1]}
        state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
        _, tricks = play_out(bisca, state, lambda legal: rng.choice(list(legal)))
        r = group["admin"].post(f"{group['base']}/tables/{group['table']}/hands",
                                {"deal": deal, "tricks": [{"cards": c} for c in tricks]})
        assert r.status_code == 201, r.json
        logged.append((group, r.json["id"]))
    return logged


@ON_SQLITE
def test_every_line_of_every_audit_trail_is_said_in_each_language(client):
    for group, hand in _hands_of_every_kind(client):
        english = group["admin"].get(f"{group['base']}/hands/{hand}/audit").json
        lines = [*english["explanation"], *(e["summary"] for e in english["events"])]
        for language in LANGUAGES:
            unsaid = [line for line in lines if not phrases.covered(line, language)]
            assert not unsaid, (language, unsaid)
            asked = group["admin"].get(f"{group['base']}/hands/{hand}/audit",
                                       headers={"Accept-Language": ASKED[language]})
            said = asked.json
            assert asked.headers["Content-Language"] == language.replace("_", "-")
            assert [e["hash"] for e in said["events"]] == [e["hash"] for e in english["events"]]
            assert said["settlement"] == english["settlement"]  # the log's own words stay as logged
            for before, after in zip(english["explanation"], said["explanation"], strict=True):
                assert after != before and "{" not in after.replace("{{", ""), (language, before, after)
                assert not ENGLISH.search(after), (language, before, after)  # no English left inside it
            for event in said["events"]:
                assert not ENGLISH.search(event["summary"]), (language, event["summary"])
            text = group["admin"].get(f"{group['base']}/hands/{hand}/audit",
                                      headers={"Accept-Language": ASKED[language], "Accept": "text/plain"})
            assert text.headers["Content-Language"] == language.replace("_", "-")
            assert "How the settlement was reached" not in text.get_data(as_text=True)


REFUSALS = [  # (game, rules, body of a hand) each refused with a 422
    ("kop", {}, {"result": {"contract": "zolo", "declarer": 0, "doubles": [], "points": 80, "tricks": 1}}),
    ("kop", {}, {"result": {"contract": "normal", "stare": [0, 1], "doubles": [], "points": 88, "tricks": 2}}),
    ("kop", {}, {"deal": {"dealer": 0, "hands": [["QC", "QS", "QH", "QD"], ["JC", "JS", "JH", "JD"],
                                                 ["AC", "AS", "AH", "AD"], ["10C", "10S", "10H", "QC"]]}}),
    ("scopa", {"target": 11}, {"result": {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0,
                                          "scopas": [9, 9]}}),
    ("bisca", {"variant": "nove"}, {"result": {"points": [100, 20], "tricks": [0, 20]}}),
    ("kop", {}, {"result": {"contract": "normal", "stare": [0], "doubles": [], "points": 60, "tricks": 2}}),
    ("kop", {}, {"result": {"contract": "zolo", "declarer": 0, "doubles": [0], "points": 60, "tricks": 2}}),
    ("bisca", {"variant": "capixaba"}, {"result": {"points": [61, 59], "tricks": [5, 5], "bonus": [1, 1]}}),
    ("bisca", {"variant": "nove"}, {"result": {"points": [100, 21], "tricks": [10, 10]}}),
]


@pytest.mark.parametrize("game, rules, body", REFUSALS)
def test_a_refusal_is_said_in_the_readers_language_and_its_type_stays(client, game, rules, body):
    players = 2 if game in ("scopa", "bisca") and rules.get("variant") != "capixaba" else 4
    group = tables._group(client, players, game, rules)
    path = f"{group['base']}/tables/{group['table']}/hands"
    english = group["admin"].post(path, body)
    assert english.status_code == 422, english.json
    for language in LANGUAGES:
        assert phrases.covered(english.json["detail"], language), (language, english.json["detail"])
        said = group["admin"].post(path, body, headers={"Accept-Language": ASKED[language]})
        assert said.status_code == 422
        assert said.json["type"] == english.json["type"]
        assert said.json["detail"] != english.json["detail"]
        assert not ENGLISH.search(re.sub(r"\[[^]]*\]", "", said.json["detail"])), (language, said.json["detail"])
        assert said.headers["Content-Language"] == language.replace("_", "-")
    unasked = group["admin"].post(path, body, headers={"Accept-Language": "de-DE, fr;q=0.8"})
    assert unasked.json["detail"] == english.json["detail"]  # a language bitka does not speak: English


def test_a_kop_card_refusal_names_the_seat_in_polish():
    """A template's seat is the whole noun: "seat 1" becomes "miejsce 1" in the API."""
    said = phrases.say(may_not_play("QC", 1), "pl")
    assert "miejsce 1" in said and "QC" in said and "seat" not in said
