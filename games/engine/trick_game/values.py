"""What a trick game's cards are worth, and which one takes a trick.

The ranks run high to low in every suit alike; the highest trump takes the trick, else the
highest card of the suit led (a hand with no trumps: the highest of the suit led). Points
are whole numbers of the game's ``Unit``: a point, or a third of one (Tressette counts the
face cards as thirds); ``Points`` is the one place a count of them is typed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..cards import pack
from ..units import POINT, Unit

Points = int  # a count in the game's unit (CardValues.unit): card points, a trick's, a side's


@dataclass(frozen=True)
class CardValues:
    """The ranks high to low, each rank's points (a rank not named counts nothing), and
    the points the last trick of a hand adds, all in ``unit``."""
    order: tuple[str, ...]
    points: Mapping[str, Points]
    last_trick: Points = 0
    unit: Unit = POINT  # the game's unit (units.py), the same as its Game.forms.unit
    _rank: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_rank", {r: i for i, r in enumerate(self.order)})

    def pack(self, ranks: int | None = None) -> frozenset[str]:
        """The pack of the first ``ranks`` ranks (every rank when None), in the four suits."""
        return pack(self.order[:ranks] if ranks is not None else self.order)

    def of(self, card: str) -> Points:
        return self.points.get(card[:-1], 0)

    def of_cards(self, cards: Sequence[str]) -> Points:
        return sum(map(self.of, cards))

    def beats(self, card: str, best: str, trump: str | None) -> bool:
        """Does ``card`` take the trick from ``best``? A higher card of its suit, or a trump."""
        if card[-1] == best[-1]:
            return self._rank[card[:-1]] < self._rank[best[:-1]]
        return card[-1] == trump

    def winner_index(self, cards: Sequence[str], trump: str | None) -> int:
        """Index (in play order) of the card that takes the trick so far."""
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best], trump):
                best = i
        return best
