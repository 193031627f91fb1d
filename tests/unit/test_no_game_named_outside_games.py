"""Nothing outside ``games/`` names a game: not the service, the projections, the command
line, the store, nor the pages' templates, scripts and styles. A game is its package and its
line in the registry; what the rest of bitka shows of it, it takes from the ``Game`` value.

The words looked for are every registered game's name and title, the words of its
glossary of four letters or more (its calls, roles and scores, as its players say them),
and the codes of its log (``Game.words.codes``); a new
game's words are looked for as soon as it is registered. In every file there: the Python
(its comments and docstrings too), the pages' templates, scripts and styles. The API's
own field for the table decider's doubled rounds, ``bok`` (API.md), is not a game's word
there; what a page says of a doubled round, its game says (``Game.forms.notes``)."""
from __future__ import annotations

import re
from pathlib import Path

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("service", "projections", "cli", "events")
READ = (".py", ".html", ".js", ".css")
API_WORDS = {"bok"}  # the table's ``bok`` and a settlement's ``bok_runda``, fixed by API.md
ALSO_ENGLISH = {"figure"}  # a game's own word (Italian's face cards) that English writes alike


def _words() -> set[str]:
    words = set()
    for game in GAMES.values():
        words |= {game.name.lower(), game.title.lower()}
        for term in game.words.glossary:
            words |= {w.lower() for w in re.split(r"[ ,/]+", term.word) if len(w) >= 4}
        words |= {code.lower() for code in game.words.codes if len(code) >= 4}
    return words - API_WORDS - ALSO_ENGLISH


def _named(text: str, words: set[str]) -> set[str]:
    return {w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text.lower())}


def test_the_words_looked_for_are_each_games():
    words = _words()
    assert {w for game in GAMES.values() for w in (game.name, game.title.lower())} <= words
    assert {"wesele", "settebello", "trunfo"} <= words
    assert _named("a wesele, called on the Kop table", words) == {"wesele", "kop"}
    assert not _named("the table kept its stake (a kopek)", words)


def test_nothing_outside_games_names_a_game():
    words, found = _words(), []
    for top in OUTSIDE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in READ or "translations" in path.parts or path.name == "openapi.json":
                continue
            named = _named(path.read_text(encoding="utf-8"), words)
            if named:
                found.append(f"{path.relative_to(ROOT)}: {', '.join(sorted(named))}")
    assert not found, "\n".join(found)
