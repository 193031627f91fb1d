"""Cards as canonical strings: rank then suit (``"10H"``, ``"QC"``, ``"7D"``).

Input is forgiving (any case, ``T`` for 10, suit symbols); output is always canonical.
"""
from __future__ import annotations

from .errors import RuleViolation

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("C", "S", "H", "D")
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def parse_card(text: object) -> str:
    """Return the canonical form of one card, or raise RuleViolation saying why not."""
    if not isinstance(text, str) or not text.strip():
        raise RuleViolation(f"{text!r} is not a card: write rank then suit, like 10H or QC")
    raw = text.strip().upper()
    suit_part = _SUIT_SYMBOLS.get(raw[-1], raw[-1])
    rank_part = raw[:-1]
    if rank_part == "T":
        rank_part = "10"
    if rank_part not in RANKS or suit_part not in SUITS:
        raise RuleViolation(f"{text!r} is not a card: write rank then suit, like 10H or QC")
    return rank_part + suit_part


def parse_cards(texts: object) -> list[str]:
    if not isinstance(texts, (list, tuple)):
        raise RuleViolation("cards must be given as a list")
    return [parse_card(t) for t in texts]


def pack(ranks: tuple[str, ...]) -> frozenset[str]:
    """Every card of the given ranks in the four suits."""
    return frozenset(r + s for r in ranks for s in SUITS)


def check_exact_pack(hands: list[list[str]], expected: frozenset[str], what: str) -> None:
    """Refuse a deal that repeats a card, uses a foreign card or leaves one out."""
    seen: set[str] = set()
    for cards in hands:
        for card in cards:
            if card in seen:
                raise RuleViolation(f"{card} is dealt twice")
            if card not in expected:
                raise RuleViolation(f"{card} is not in the {what} pack")
            seen.add(card)
    missing = sorted(expected - seen)
    if missing:
        raise RuleViolation(f"the deal leaves out {', '.join(missing)}: it must be exactly the {what} pack")
