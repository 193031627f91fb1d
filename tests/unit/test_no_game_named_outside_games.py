"""Nothing outside ``games/`` names a game: not the service, the projections, the command
line, the store, nor the pages' templates, scripts and styles. A game is its package and its
line in the registry; what the rest of bitka shows of it, it takes from the ``Game`` value.

The words looked for are every registered game's name and title and the longer words of
its glossary (its calls, roles and scores, as its players say them); a new game's words are
looked for as soon as it is registered. The table decider's doubled rounds keep their
name, bok-runda, which is the engine's (``TableRules.bok_rundy``)."""
from __future__ import annotations

import re
from pathlib import Path

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("service", "projections", "cli", "events")
READ = (".py", ".html", ".js", ".css")
ENGINE_WORDS = {"bok-runda"}


def _words() -> set[str]:
    words = set()
    for game in GAMES.values():
        words |= {game.name.lower(), game.title.lower()}
        for term in game.glossary:
            words |= {w.lower() for w in re.split(r"[ ,/]+", term.word) if len(w) >= 6}
    return words - ENGINE_WORDS


def _named(text: str, words: set[str]) -> set[str]:
    return {w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text.lower())}


def test_the_words_looked_for_are_each_games():
    words = _words()
    assert {"kop", "baśka", "scopa", "bisca", "sueca", "wesele", "settebello", "trunfo"} <= words
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
