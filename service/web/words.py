"""What the pages say instead of the log's own words: the players' names for "seat 2" and
"side 1", and "1 run" or "2 runs" for "run(s)". The log and the API keep their words (a
settlement's explanation is part of what its hash covers); people read names, in their
language."""
from __future__ import annotations

import functools
import re
from typing import Mapping, Sequence

from flask import g, has_app_context

from games.registry import GAMES
from projections.typed import restored, set_aside
from ..i18n import phrases
from .cards import faces

_MEMBER_ID = re.compile(r" \(m_[0-9a-f]{12}\)")  # "Bob (m_20180b7fe897)": the id is the API's
_SEAT_NAMED = re.compile(r"\b[Ss]eat \d+ \(([^()]+)\)")  # the audit trail's "seat 1 (Bob)"
_SEATS = re.compile(r"\b[Ss]eats (\d+) and (\d+)")
_SEAT = re.compile(r"\b[Ss]eat (\d+)('s)?")
_SIDE = re.compile(r"\b[Ss]ide (\d+)('s)?")
_PLURAL = re.compile(r"\b(\d+) ([a-z]+(?: [a-z]+)?)\(s\)")
_MAYBE = re.compile(r"\b([a-z]+)\(s\)")
_AGREE = re.compile(r"\b(\w+ and \w+) (wins|scores|has|takes|is|loses)\b")
_FIELD_PATH = re.compile(r"^(?:result|deal|rules|body)(?:\.[a-z_]+)*: ")
_HAND_ID = re.compile(r"\bh_[0-9a-f]{12}\b")  # the API's id of a hand; people count them at their table
_ONE = re.compile(r"\b1 (trick|run|point|stake|hand|card|event)s\b")  # "1 tricks", as a template writes it
_PLURAL_VERB = {"wins": "win", "scores": "score", "has": "have", "takes": "take", "is": "are", "loses": "lose"}


@functools.cache
def _codes() -> tuple[re.Pattern, dict[str, str]]:
    """The games' codes of their logs (a role, an outcome) and how their players say them."""
    codes = {code: word for game in GAMES.values() for code, word in game.words.codes.items()}
    longest_first = "|".join(map(re.escape, sorted(codes, key=len, reverse=True)))
    return re.compile(rf"(?<![\w-])({longest_first})(?![\w-])"), codes


def about(game: str) -> None:
    """The page being drawn is about a hand or a table of ``game``: the log's sentences on it
    are said in that game's own words (``phrases``: its translation where games share the English)."""
    g.game_of_page = game


def page_game() -> str | None:
    """The game the page being drawn is about (``about``); None when it is about none."""
    return g.get("game_of_page") if has_app_context() else None


def _said_codes(text: str, language: str, game: str | None = None) -> str:
    """The games' codes in ``text`` as players say them (``Game.words.codes``), in ``language``
    where the word is one of the log's."""
    pattern, codes = _codes()
    return pattern.sub(lambda m: phrases.word(codes[m.group(1)], language, game), text) if codes else text


def said(text: str, seats: Sequence[str], sides: Sequence[Sequence[int]] = (), language: str = "en",
         hands: Mapping[str, int] | None = None, game: str | None = None) -> str:
    """``text`` with seats and sides named, hands by their number at the table (``hands``)
    and plurals agreed; in another language than English, the log's sentence said in it
    (``phrases``) as ``game`` (else the page's game) says it, seats and sides by name, cards
    as their faces. What a member typed (marked: projections/typed.py) is shown as typed,
    none of this done inside it."""
    game = game or page_game()
    text, kept = set_aside(text)
    text = _FIELD_PATH.sub("", text)  # "result: ..." names the API's field; the page's form shows which
    if hands:
        text = _HAND_ID.sub(lambda m: str(hands.get(m.group(0), m.group(0))), text)
    if language != "en":
        return phrases.on_page(restored(_MEMBER_ID.sub("", text), kept, marked=True), language, seats, sides,
                               lambda said: faces(_said_codes(said, language, game)), game)
    return restored(faces(_in_english(_said_codes(text, language), seats, sides)), kept)


def _in_english(text: str, seats: Sequence[str], sides: Sequence[Sequence[int]]) -> str:
    """The log's English as a page says it: names for seats and sides, plurals agreed."""
    def named(n: str) -> str:
        return seats[int(n)] if int(n) < len(seats) else f"seat {n}"

    def side(m):
        n = int(m.group(1))
        if n >= len(sides):
            return m.group(0)
        return " and ".join(seats[s] for s in sides[n] if s < len(seats)) + (m.group(2) or "")

    def plural(m):
        count, noun = int(m.group(1)), m.group(2)
        return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
    text = _MEMBER_ID.sub("", text)
    text = _SEAT_NAMED.sub(lambda m: m.group(1), text)
    text = _SEATS.sub(lambda m: f"{named(m.group(1))} and {named(m.group(2))}", text)
    text = _SEAT.sub(lambda m: named(m.group(1)) + (m.group(2) or ""), text)
    if sides:
        text = _SIDE.sub(side, text)
        text = _AGREE.sub(lambda m: f"{m.group(1)} {_PLURAL_VERB[m.group(2)]}", text)
    text = _PLURAL.sub(plural, text)
    text = _ONE.sub(lambda m: f"1 {m.group(1)}", text)
    return _MAYBE.sub(lambda m: m.group(1) + "s", text)
