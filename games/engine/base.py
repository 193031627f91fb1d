"""Values every game shares: events and commands, table terms, the settlement.

All pure, over frozen values; what a game is, is ``contract.Game``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from events.sentences import say

from .errors import RuleViolation

RULES_VERSION = 3
"""The version of the rules every settlement is derived under; each settlement records it.

1. Until 2026-11: Baśka bytow-2005 capped every payment at 64 times its contract's base, and
   a gran or zolo 52-52 made no bok-runda due; classic let the wesele caller double first.
2. The 64x bound is the most doubles, du and a bok-runda reach together, not a cap; any
   52-52 makes a bok-runda due (bytow-2005); the classic wesele caller may not double first.
3. From 2026-12-05: the same money, but a settlement's explanation names a side of two by
   its seats ("seats 0 and 2 take ...", whose verb agrees with two players) in Sueca, Bisca,
   Briscola and Tressette, and Briscola and Tressette say a player alone's stake as paid by
   the other ("side 0 receives one stake from side 1"). A settlement recorded under rules 2
   is explained again in its own words (``SIDES_BY_SEATS``), so that replay finds it as it was.
"""
SIDES_BY_SEATS = 3  # the first rules whose explanations name a side of two by its seats


def named_rules(cls, raw: Mapping | None, game: str):
    """A game's rules object from a table's ``rules``: unknown names are refused by name,
    omitted ones take their defaults. Each game then checks the values."""
    raw = dict(raw or {})
    names = list(cls.__dataclass_fields__)
    unknown = sorted(set(raw) - set(names))
    if unknown:
        raise RuleViolation(say("{game} has no rule {unknown}; its rules are {names}",
                                game=game, unknown=', '.join(unknown), names=', '.join(names)))
    return cls(**raw)


@dataclass(frozen=True)
class Event:
    """A fact a game decided: its ``type`` is one of API.md's event types."""
    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Command:
    """What a client asks a hand to do: ``kind`` is ``bid`` or ``trick`` (or ``play``...)."""
    kind: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class TableTerms:
    """What settling a hand needs from its table: the stake, who sits where, whether a
    doubled round is running, the game score, and what else the game carries from hand to
    hand (``carried``: each of its ``TableRules.spans`` by name)."""
    stake: int  # minor units
    members: tuple[str, ...]
    bok_runda: bool = False
    match: tuple[int, ...] = ()  # the game score per side before this hand
    rules_version: int = RULES_VERSION  # an older one re-derives a settlement recorded under it
    carried: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Side:
    seats: tuple[int, ...]
    role: str
    points: int
    tricks: int

    def to_data(self) -> dict:
        return {"seats": list(self.seats), "role": self.role, "points": self.points, "tricks": self.tricks}


@dataclass(frozen=True)
class Factor:
    """One reason the payment is multiplied (``factor`` 1 when it did not count)."""
    name: str
    factor: int
    reason: str
    seat: int | None = None

    def to_data(self) -> dict:
        data = {"name": self.name, "factor": self.factor, "reason": self.reason}
        if self.seat is not None:
            data["seat"] = self.seat
        return data


Winner = str | Sequence[int] | int | None
"""Who won a hand: a role (``"stare"``), the winning side's seats, a side's number, or None
when nobody did."""


@dataclass(frozen=True)
class Settlement:
    """How a hand ended and what each seat wins (+) or pays (-), in minor units."""
    outcome: str
    contract: str
    sides: tuple[Side, ...]
    winner: Winner
    multiplier: int
    units: int  # stakes each loser pays each winner before the multiplier: each payment is the stake x units x
    # multiplier (a game paying per game point counts the points one side took beyond the other)
    factors: tuple[Factor, ...]
    amounts: tuple[int, ...]  # per seat, minor units, summing to zero
    members: tuple[str, ...]
    explanation: tuple[str, ...] = field(default=())
    extra: Mapping[str, Any] = field(default_factory=dict)  # what the table must learn (bok-rundy, match)
    pays: bool = True  # False: a hand that ends no game carries its score and no payouts

    def __post_init__(self):
        if sum(self.amounts) != 0:
            raise ValueError(say("payouts must sum to zero, not {sum_self_amounts}",
                                 sum_self_amounts=sum(self.amounts)))
