"""Each game's sentences of the log are its own (issue 45, point 4): a template written in
``games/<game>/`` is a catalog message of the context ``log:<game>``, so that two games
writing the same English each have their translation, said for that game's hands; the
engine's and the service's stay shared (``log``). A sentence the code moves keeps its
translation through ``catalogs update`` (``carried.py``)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from games.registry import GAMES
from service.i18n import carried, catalogs, phrases
from service.i18n.extract import ROOT, context_of, extract_log, is_log, owner

SHARED = "side {side} {points:d} in {tricks:d} tricks"  # Bisca's, Briscola's and Sueca's, word for word
SAID = "side 1 70 in 6 tricks"


def _extracted(path: str, source: str) -> list[tuple[str, str]]:
    module = io.BytesIO(source.encode())
    module.name = str(ROOT / path)
    return [message for _line, _func, message, _notes in extract_log(module, (), (), {})]


def test_a_games_sentence_is_its_own_and_the_engines_and_the_services_are_shared():
    source = f'def refuse():\n    return say("{SHARED}", side=1, points=2, tricks=3)\n'
    assert _extracted("games/sueca/scoring.py", source) == [("log:sueca", SHARED)]
    assert _extracted("games/briscola/scoring.py", source) == [("log:briscola", SHARED)]
    assert _extracted("games/engine/words.py", source) == [("log", SHARED)]
    assert _extracted("games/registry.py", source) == [("log", SHARED)]
    assert _extracted("service/handlers/tables.py", source) == [("log", SHARED)]
    assert context_of(ROOT / "games" / "kop" / "game.py") == "log:kop" and owner("log:kop") == "kop"
    assert owner("log") is None and is_log("log") and is_log("log:kop") and not is_log("log column")


def test_every_games_context_in_the_catalog_is_a_registered_game_and_the_shared_sentence_is_one_per_game():
    with open(catalogs.TEMPLATE, "rb") as f:
        pot = read_po(f)
    owners = {owner(m.context) for m in pot if is_log(m.context)}
    assert owners - {None} <= set(GAMES) and None in owners
    said_by = {m.context for m in pot if m.id == SHARED}
    assert said_by == {"log:bisca", "log:briscola", "log:sueca"}, said_by
    for language in ("pl", "it", "pt_BR"):
        found = phrases.catalog(language)
        assert all(found.get(SHARED, context=c) and found.get(SHARED, context=c).string for c in said_by)


@pytest.fixture
def two_games_one_sentence(monkeypatch):
    """A Polish catalog where Bisca and Sueca write the same English, each translated its way,
    and the shared sentences translate it a third way."""
    made = Catalog(locale="pl")
    made.add(SHARED, "BISCA: strona {side} ma {points} w {tricks} lewach", context="log:bisca")
    made.add(SHARED, "SUECA: drużyna {side} ma {points} w {tricks} lewach", context="log:sueca")
    made.add(SHARED, "WSPÓLNE: strona {side} ma {points} w {tricks} lewach", context="log")
    made.add("a tie", "WSPÓLNY remis", context="log")
    made.add("a tie", "remis Sueki", context="log:sueca")
    made.add("seat {seat}", "miejsce {seat}", context="log")
    made.add("side {side}", "strona {side}", context="log")
    caches = (phrases._messages, phrases.templates, phrases.asides, phrases._candidates)

    def clear():
        for cache in caches:
            cache.cache_clear()
    clear()
    monkeypatch.setattr(phrases, "catalog", lambda language: made if language == "pl" else None)
    yield
    clear()


def test_two_games_writing_the_same_english_each_say_their_own_translation(two_games_one_sentence):
    assert phrases.say(SAID, "pl", game="bisca") == "BISCA: strona strona 1 ma 70 w 6 lewach"
    assert phrases.say(SAID, "pl", game="sueca") == "SUECA: drużyna strona 1 ma 70 w 6 lewach"
    assert phrases.say(SAID, "pl", game="scopa") == "WSPÓLNE: strona strona 1 ma 70 w 6 lewach"  # none of its own
    assert phrases.say(SAID, "pl") == "WSPÓLNE: strona strona 1 ma 70 w 6 lewach"  # whose, not known: the shared
    assert phrases.word("a tie", "pl", "sueca") == "remis Sueki" and phrases.word("a tie", "pl") == "WSPÓLNY remis"
    on_page = phrases.on_page(SAID, "pl", ["Ala", "Bob"], [[0], [1]], game="sueca")
    assert on_page == "SUECA: drużyna Bob ma 70 w 6 lewach"
    trail = phrases.trail({"game": "bisca", "events": [{"summary": SAID, "by": "seat 0"}], "explanation": [SAID]}, "pl")
    assert trail["explanation"] == ["BISCA: strona strona 1 ma 70 w 6 lewach"]
    assert trail["events"][0]["summary"] == trail["explanation"][0]


def _po(path: Path, messages: list[tuple[str, str, str]]) -> None:
    made = Catalog(locale="pl")
    for context, msgid, string in messages:
        made.add(msgid, string, context=context)
    with open(path, "wb") as f:
        write_po(f, made, width=None)


def test_a_sentence_the_code_moves_keeps_its_translation_and_one_another_game_still_says_is_only_offered(tmp_path):
    po = tmp_path / "messages.po"
    old = [("log", "{points} point(s)", "{points} pkt"), ("log:bisca", "a trick of {n} cards", "lewa z {n} kart"),
           ("log", "the stock is empty", "talia jest pusta")]
    _po(po, old)
    kept = catalogs._keys(po, "pl")
    # The update: the first made a number and moved to a game; the second moved to the engine;
    # the third said by Sueca too, while the engine still says it.
    _po(po, [("log:tressette", "{points:d} point(s)", ""), ("log", "a trick of {n} cards", ""),
             ("log", "the stock is empty", "talia jest pusta"), ("log:sueca", "the stock is empty", "")])
    gone = {("log", "{points} point(s)"), ("log:bisca", "a trick of {n} cards")}
    assert carried.over(po, "pl", kept, gone) == 3
    with open(po, "rb") as f:
        now = {(m.context, m.id): m for m in read_po(f, locale="pl") if m.id}
    assert now[("log:tressette", "{points:d} point(s)")].string == "{points} pkt"
    assert not now[("log:tressette", "{points:d} point(s)")].fuzzy
    moved = now[("log", "a trick of {n} cards")]
    assert moved.string == "lewa z {n} kart" and not moved.fuzzy
    offered = now[("log:sueca", "the stock is empty")]
    assert offered.string == "talia jest pusta" and offered.fuzzy  # Sueca's own: a translator confirms it
