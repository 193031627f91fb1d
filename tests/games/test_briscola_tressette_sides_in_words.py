"""Briscola's and Tressette's sentences about a side read right for a player alone and for a
pair: a sentence that has a side of two do something is its own sentence ("seats 0 and 2
take ..."), whose verb agrees with two players in English and in every translation, never
"side 0 takes" named "Ala and Celina takes" on a page; and a declaration is offered in the
words the rules give it (a declaration, the accusa), never the API's code "accuse"."""
from __future__ import annotations

import random
import re

import pytest

from games.engine.autoplay import hand_at_random
from games.engine.base import Command, TableTerms
from games.registry import GAMES
from games.tressette import game as tressette
from service.i18n import phrases
from service.web.words import said

NAMES = ("Ala", "Bartek", "Celina", "Darek")
LANGUAGES = ("pl", "it", "pt_BR")
TABLES = [("briscola", {"players": 4}), ("briscola", {"players": 4, "stake_per": "match"}),
          ("tressette", {"accuse": True}), ("tressette", {"stake_per": "point"}),
          ("briscola", {"players": 2}), ("briscola", {"players": 2, "stake_per": "match"}),
          ("tressette", {"players": 2}), ("tressette", {"players": 2, "stake_per": "point"})]
# The game score before the hand: level and one short of the end, so that most hands win a game or the match.
BEFORE = {"briscola": (1, 1), "tressette": (20, 20)}
_PAIR_NAMED = re.compile(r"\b(Ala and Celina|Bartek and Darek) (\w+)")
_SIDE_DOES = re.compile(r"\bside \d (\w+)")


def _settled(name: str, raw: dict, seed: int):
    game = GAMES[name]
    rules = game.parse_rules(raw)
    body = hand_at_random(game, rules, random.Random(seed), seed % rules.players)
    state = game.initial_state(rules, game.parse_deal(rules, body["deal"]).data)
    for trick in body["tricks"]:
        for event in game.decide(state, Command("trick", trick)):
            state = game.evolve(state, event)
    settlement = game.settle(state, TableTerms(50, NAMES[:rules.players], match=BEFORE[name]))
    return rules, [list(s) for s in game.table.sides(rules)], settlement.explanation


@pytest.mark.parametrize("name, raw", TABLES, ids=[f"{n}-{r}" for n, r in TABLES])
def test_a_sentence_about_a_side_agrees_with_its_players_in_every_language(name, raw):
    pairs = 0
    for seed in range(12):
        rules, sides, lines = _settled(name, raw, seed)
        for line in lines:
            # a side of two has its own sentences; "side N" is followed by a verb only for a player alone
            for word in _SIDE_DOES.findall(line):
                assert rules.players == 2 or not word.endswith("s") or word.isdigit(), line
            assert rules.players == 4 or "seats " not in line, line
            page = said(line, NAMES[:rules.players], sides, "en", game=name)
            for _pair, verb in _PAIR_NAMED.findall(page):
                pairs += 1
                assert not verb.endswith("s"), f"{page!r} (logged {line!r})"
            for language in LANGUAGES:
                assert phrases.covered(line, language, name), (language, line)
    if raw.get("players", 4 if name == "tressette" else 2) == 4:
        assert pairs, "no sentence of these hands named a pair doing something"


def test_each_sentence_about_a_pair_is_said_with_a_plural_verb_in_each_language():
    """The hand won, the match won and the stakes received by a pair, as each language says them."""
    line = "seats 1 and 3 take 64 card points, 61 or more: they win the hand, one game"
    expected = {"en": "Bartek and Darek take 64 card points, 61 or more: they win the hand, one game",
                "pl": "Bartek i Darek biorą 64 pkt z kart, 61 lub więcej: wygrywają rozdanie",
                "it": "Bartek e Darek fanno 64 punti carta, 61 o più: vincono la mano",
                "pt_BR": "Bartek e Darek fazem 64 pontos, 61 ou mais: ganham a mão"}
    for language, start in expected.items():
        assert said(line, NAMES, [[0, 2], [1, 3]], language, game="briscola").startswith(start), language
    alone = "stake per game: side 0 receives one stake from side 1"
    assert said(alone, NAMES[:2], [[0], [1]], "en", game="tressette") == "stake per game: Ala receives one stake " \
                                                                         "from Bartek"
    assert said(alone, NAMES[:2], [[0], [1]], "pl", game="tressette") == "stawka za partię: Ala dostaje jedną " \
                                                                         "stawkę, płaci Bartek"


NAPOLETANA = [["AD", "2D", "3D", "KC", "QC", "JC", "7C", "6C", "5C", "4C"],
              ["AC", "2C", "3C", "KD", "QD", "JD", "7D", "6D", "5D", "4D"],
              ["AH", "2H", "3H", "KH", "QH", "JH", "7H", "6H", "5H", "4H"],
              ["AS", "2S", "3S", "KS", "QS", "JS", "7S", "6S", "5S", "4S"]]


def test_a_declaration_is_offered_as_the_rules_name_it_never_as_the_code_accuse():
    rules = tressette.parse_rules({"accuse": True})
    state = tressette.new_hand(rules, {"dealer": 3, "hands": NAPOLETANA})
    [offer] = tressette.offers(state, 0)
    assert offer.body["call"] == "accuse"  # the API's call, as the rules file writes it
    assert offer.says.startswith("Declare a napoletana of diamonds (AD 2D 3D): 3 point(s)"), offer.says
    for language in ("en", *LANGUAGES):
        word = said(offer.body["call"], NAMES, [[0, 2], [1, 3]], language, game="tressette")
        assert word == "accusa", (language, word)
        assert "accuse" not in said(offer.says, NAMES, [[0, 2], [1, 3]], language, game="tressette"), language
