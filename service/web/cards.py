"""Cards as people read them: rank and suit symbol, red or black."""
from __future__ import annotations

SYMBOLS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
SUIT_WORDS = {"S": "spades", "C": "clubs", "H": "hearts", "D": "diamonds"}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def face(card: str) -> dict:
    """What a template needs to draw one card."""
    rank, suit = card[:-1], card[-1]
    return {"code": card, "rank": rank, "symbol": SYMBOLS.get(suit, suit),
            "colour": "red" if suit in "HD" else "black",
            "words": f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS.get(suit, suit)}"}
