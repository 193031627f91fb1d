"""The 16-card pack of Kop and Baśka: A, 10, Q, J of each suit, and their card points."""
from __future__ import annotations

from ..engine.cards import pack

SEATS = 4
TRICKS = 4
PACK = pack(("A", "10", "Q", "J"))
CARD_POINTS = {"A": 11, "10": 10, "Q": 3, "J": 2}  # 104 in all
POINTS_OF = {card: CARD_POINTS[card[:-1]] for card in PACK}
