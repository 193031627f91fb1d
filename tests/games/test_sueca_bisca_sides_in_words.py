"""Sueca's sentences about a side, and Bisca's at its tables of four, read right for a pair:
a side of two that does something is named by its two seats ("seats 0 and 2 take ..."), so
that its verb agrees with two players in English and in every translation, never "side 0
takes" named "Ala and Celina takes" (or "Ala i Celina bierze") on a page. What hands settled
before wrote ("side 0 takes ...") is still said in every language."""
from __future__ import annotations

import random
import re

import pytest

from games.engine.autoplay import hand_at_random
from games.engine.base import Command, TableTerms
from games.engine.table import deal_context
from games.registry import GAMES
from service.i18n import phrases
from service.web.words import said

NAMES = ("Ala", "Bartek", "Celina", "Darek")
PAIRS = [[0, 2], [1, 3]]
LANGUAGES = ("pl", "it", "pt_BR")
TABLES = [("sueca", {}), ("sueca", {"stake_per": "match"}), ("sueca", {"bandeira": "tricks"}),
          ("bisca", {"variant": "quatro"}), ("bisca", {"variant": "quatro", "majority_bonus": True}),
          ("bisca", {"variant": "capixaba"}), ("bisca", {"variant": "capixaba", "stake_per": "game-point"})]
_SIDE_DOES = re.compile(r"\bside \d ([a-z]+)")
_PAIR_NAMED = re.compile(r"\b(Ala and Celina|Bartek and Darek) ([a-z]+)")


def _explained(name: str, raw: dict, seed: int):
    """A random hand's explanation, at a match one game short of its end for both sides."""
    game = GAMES[name]
    rules = game.parse_rules(raw)
    before = [rules.match_to - 1] * 2
    body = hand_at_random(game, rules, random.Random(seed), seed % rules.players, {"scores": before})
    state = game.initial_state(rules, {**game.parse_deal(rules, body["deal"]).data,
                                       **deal_context(game, rules, {"scores": before})})
    for trick in body["tricks"]:
        for event in game.decide(state, Command("trick", trick)):
            state = game.evolve(state, event)
    return game.settle(state, TableTerms(50, NAMES, match=tuple(before))).explanation


@pytest.mark.parametrize("name, raw", TABLES, ids=[f"{n}-{r}" for n, r in TABLES])
def test_a_pair_that_does_something_is_named_by_its_seats_in_every_language(name, raw):
    pairs = 0
    for seed in range(10):
        for line in _explained(name, raw, seed):
            assert not [w for w in _SIDE_DOES.findall(line) if w.endswith("s")], line  # "side 0 takes": one player's
            page = said(line, NAMES, PAIRS, "en", game=name)
            for _pair, verb in _PAIR_NAMED.findall(page):
                pairs += 1
                assert not verb.endswith("s"), f"{page!r} (logged {line!r})"
            for language in LANGUAGES:
                assert phrases.covered(line, language, name), (language, line)
    assert pairs, "no sentence of these hands named a pair doing something"


@pytest.mark.parametrize("name, line, expected", [
    ("sueca", "seats 1 and 3 take 76 card points (61 to 90): one game",
     {"en": "Bartek and Darek take 76 card points (61 to 90): one game", "pl": "Bartek i Darek biorą 76 pkt z kart",
      "it": "Bartek e Darek fanno 76 punti carta", "pt_BR": "Bartek e Darek fazem 76 pontos"}),
    ("sueca", "stake per game: seats 0 and 2 each receive 2 stake(s) from a player of the other side",
     {"en": "stake per game: Ala and Celina each receive 2 stakes", "pl": "stawka za punkt gry: Ala i Celina dostają",
      "it": "posta a punto di gioco: Ala e Celina ricevono", "pt_BR": "aposta por jogo: Ala e Celina recebem"}),
    ("bisca", "seats 0 and 2 have the majority of the card points (70): 1 more game point (majority_bonus)",
     {"en": "Ala and Celina have the majority", "pl": "Ala i Celina mają większość",
      "it": "Ala e Celina hanno la maggioranza", "pt_BR": "Ala e Celina têm a maioria"}),
])
def test_each_sentence_about_a_pair_is_said_with_a_plural_verb_in_each_language(name, line, expected):
    for language, start in expected.items():
        assert said(line, NAMES, PAIRS, language, game=name).startswith(start), language


def test_what_a_hand_settled_before_wrote_of_a_side_is_still_said_in_every_language():
    """Hands of Sueca settled before pairs were named by their seats keep their words (the
    explanation is part of what the settlement's hash covers): each language still says them."""
    line = "side 1 takes 76 card points (61 to 90): one game"
    for language in LANGUAGES:
        assert phrases.covered(line, language, "sueca"), language
    assert "76 pkt z kart (od 61 do 90)" in said(line, NAMES, PAIRS, "pl", game="sueca")
