"""Cards as people read them: rank and suit symbol, red or black."""
from __future__ import annotations

import functools
import re

from flask_babel import gettext as _

from ..i18n.languages import current

SYMBOLS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
# A card as the log writes it ("10H", "QC") standing alone in a sentence; a word, a hash or
# a code with letters around it is no card.
_CODE = re.compile(r"(?<![\w-])(10|[2-9AJQK])([CDHS])(?![\w-])")


def faces(text: str) -> str:
    """A sentence of the log with each card in it as its face ("QC" as "Q♣"), as the page
    draws cards elsewhere."""
    return _CODE.sub(lambda m: m.group(1) + SYMBOLS[m.group(2)], text)


def suit_words() -> dict[str, str]:
    """The suits in words, in the reader's language."""
    return {
        # Translators: a suit of playing cards, as a screen reader says a card ("ace of spades").
        "S": _("spades"),
        # Translators: a suit of playing cards, as a screen reader says a card ("ace of clubs").
        "C": _("clubs"),
        # Translators: a suit of playing cards, as a screen reader says a card ("ace of hearts").
        "H": _("hearts"),
        # Translators: a suit of playing cards, as a screen reader says a card ("ace of diamonds").
        "D": _("diamonds"),
    }


def rank_words() -> dict[str, str]:
    """The court cards and the ace in words, in the reader's language (numbers stay figures)."""
    return {
        # Translators: a playing card's rank, as a screen reader says a card ("ace of spades").
        "A": _("ace"),
        # Translators: a playing card's rank, as a screen reader says a card ("king of spades").
        "K": _("king"),
        # Translators: a playing card's rank, as a screen reader says a card ("queen of spades").
        "Q": _("queen"),
        # Translators: a playing card's rank (the knave), as a screen reader says a card ("jack of spades").
        "J": _("jack"),
    }


def face(card: str) -> dict:
    """What a template needs to draw one card (a page draws dozens: each is worked out once
    per language)."""
    return dict(_face(card, current()))


@functools.lru_cache(maxsize=1024)
def _face(card: str, language: str) -> dict:
    """``face`` in ``language``, the request's own (the key keeps languages apart)."""
    rank, suit = card[:-1], card[-1]
    return {"code": card, "rank": rank, "symbol": SYMBOLS.get(suit, suit),
            "colour": "red" if suit in "HD" else "black",
            # Translators: a playing card in words, as a screen reader says it: "ace of spades", "7 of hearts".
            "words": _("%(rank)s of %(suit)s", rank=rank_words().get(rank, rank), suit=suit_words().get(suit, suit))}


_SUIT_ORDER = "CSHD"
_RANK_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def in_order(cards) -> list[str]:
    """Cards as a picker lays them out, so a player finds theirs: by suit (clubs, spades,
    hearts, diamonds), high to low within a suit."""
    def key(card: str) -> tuple[int, int]:
        rank, suit = card[:-1], card[-1]
        return (_SUIT_ORDER.find(suit), _RANK_ORDER.index(rank) if rank in _RANK_ORDER else len(_RANK_ORDER))
    return sorted(cards, key=key)
