"""Translations carried over where the code moved a sentence of the log (``catalogs update``).

A sentence's catalog message is its English, its placeholders' declarations and its
context (``log``, or ``log:<game>`` for a game's own: ``extract.py``). pybabel's update
matches messages by English and context exactly, so a sentence moved from a game's package
to the engine, or a placeholder newly declared a number (``{points}`` made ``{points:d}``),
would come back untranslated and its translation be dropped. Here a message new to a
catalog takes the translation of the message it replaces: the same words (declarations
aside), said by the code no more. Where those were translated two ways (two games' own
sentences made one shared one), the first is taken and marked fuzzy for the translator to
choose. A message whose words another game or the shared sentences still say is a game's
own sentence, translated for that game: the other translation is only offered, marked
fuzzy (never said, and ``catalogs check`` fails, until a translator confirms or rewrites it).
"""
from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po, write_po

from .extract import is_log

_DECLARED = re.compile(r"(?<!\{)\{(\w+):d\}")


def words(msgid: str) -> str:
    """A sentence's English with its placeholders' declarations left out."""
    return _DECLARED.sub(r"{\1}", msgid)


def over(po: Path, language: str, kept: dict, gone: set, sure: bool = False) -> int:
    """Each untranslated sentence of the log in ``po`` given the translation ``kept`` (the
    catalog's messages before the update, by key) held for the same words under a key now
    ``gone`` from the code; one still said elsewhere, offered fuzzy (``sure``: taken as it
    is, as a one-off migration does). How many were carried."""
    with open(po, "rb") as f:
        catalog = read_po(f, locale=language)
    before: dict[str, list[tuple[tuple, Message]]] = {}
    for key, message in kept.items():
        if is_log(key[0]) and isinstance(key[1], str) and message.string and not message.fuzzy:
            before.setdefault(words(key[1]), []).append((key, message))
    carried = 0
    for message in catalog:
        if not (is_log(message.context) and isinstance(message.id, str) and message.id) or message.string:
            continue
        found = [(key, m) for key, m in before.get(words(message.id), ()) if key != (message.context, message.id)]
        if not found:
            continue
        moved = [m for key, m in found if key in gone] or ([m for _, m in found] if sure else [])
        chosen = moved or [m for _, m in found]
        message.string = chosen[0].string
        if not moved or len({m.string for m in moved}) > 1:
            message.flags.add("fuzzy")
        carried += 1
    if carried:
        with open(po, "wb") as f:
            write_po(f, catalog, ignore_obsolete=True, width=None)
    return carried
