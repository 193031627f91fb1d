"""Each game's own words, explained in the reader's language: a page per game.

The words and their meanings are the game's (``Game.words.glossary``); the words stay as the
players say them (Polish, Kashubian, Italian, Portuguese), the meanings are said in the
reader's language as the rules' other sentences are (``i18n.phrases``)."""
from __future__ import annotations

from flask import abort, render_template, url_for

from games.registry import GAMES
from .base import bp


@bp.get("/glossary/<game>")
def glossary(game: str):
    """A game's own words and what they mean, for anyone (no sign-in)."""
    found = GAMES.get(game)
    if found is None or not found.words.glossary:
        abort(404)
    return render_template("glossary.html", game=game, title=found.title, terms=found.words.glossary,
                           games=[(g.name, g.title) for g in GAMES.values() if g.words.glossary])


@bp.app_template_filter("glossary_link")
def glossary_link(game: str) -> str:
    """The address of a game's glossary page, by the game's name in a table's row ("" for a
    game that has no glossary), for the table and hand pages to link to."""
    found = GAMES.get(game)
    return url_for("web.glossary", game=game) if found is not None and found.words.glossary else ""
