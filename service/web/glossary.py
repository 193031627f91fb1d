"""Each game's own words, explained in the reader's language: a page per game.

The words and their meanings are the game's (``Game.glossary``); the words stay as the
players say them (Polish, Kashubian, Italian, Portuguese), the meanings are said in the
reader's language as the rules' other sentences are (``i18n.phrases``)."""
from __future__ import annotations

from flask import abort, render_template

from games.registry import GAMES
from .base import bp


@bp.get("/glossary/<game>")
def glossary(game: str):
    """A game's own words and what they mean, for anyone (no sign-in)."""
    found = GAMES.get(game)
    if found is None or not found.glossary:
        abort(404)
    return render_template("glossary.html", game=game, title=found.title, terms=found.glossary,
                           games=[(g.name, g.title) for g in GAMES.values() if g.glossary])
