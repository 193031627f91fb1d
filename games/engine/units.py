"""What a game counts card points in: whole points, or thirds of one (three to the point).

A game declares its unit once, on its ``Game`` (``Game.forms.unit``; a trick game's
``CardValues`` takes the same value): every count the game writes in a trick event or a
score sheet is in that unit. Points are whole numbers everywhere; a count of thirds is
never said as points: the log, the settlements and the pages say it as the whole points it
makes and the thirds themselves ("2 points (7 thirds)"), the odd thirds lost.
"""
from __future__ import annotations

from dataclasses import dataclass

from events.sentences import say


@dataclass(frozen=True)
class Unit:
    """What a game counts card points in: ``name`` ("point", "third") and how many of them
    make one point (``per_point``: 3 thirds)."""
    name: str = "point"
    per_point: int = 1

    @property
    def whole(self) -> bool:
        """Whether the unit is the point itself."""
        return self.per_point == 1

    def whole_points(self, count: int) -> int:
        """The whole points ``count`` makes (the odd parts are lost: 7 thirds make 2)."""
        return count // self.per_point

    def said(self, count: int) -> str:
        """``count`` in the log's words: "5 point(s)", or "2 point(s) (7 third(s))"."""
        if self.whole:
            return say("{points:d} point(s)", points=count)
        return say("{points:d} point(s) ({thirds} third(s))", points=self.whole_points(count), thirds=count)


POINT = Unit()
THIRD = Unit("third", 3)
