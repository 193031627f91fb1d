"""Scopa's pack and its table's rules: how many play, the deal (standard, scopone,
scientifico), the target and the stake."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import named_rules
from ..engine.cards import pack
from ..engine.errors import RuleViolation

PACK = pack(("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"))
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
DEALS = {  # deal -> (cards in each hand, cards face up on the table)
    "standard": (3, 4), "scopone": (9, 4), "scientifico": (10, 0)}
ROUND = 3  # cards to each seat when every hand is empty and the stock is not
TARGETS = range(11, 62)  # the seed names 11, 16 and 21 "for example", and 31 or 41 in longer games


def value(card: str) -> int:
    return VALUE[card[:-1]]


@dataclass(frozen=True)
class ScopaRules:
    players: int = 2
    deal: str = "standard"
    target: int = 11
    claims: bool = True
    stake_per: str = "game"

    game = "scopa"

    def to_data(self) -> dict:
        return {"players": self.players, "deal": self.deal, "target": self.target, "claims": self.claims,
                "stake_per": self.stake_per}

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together: each player alone, or with four, seats 0+2 against 1+3."""
        return ((0, 2), (1, 3)) if self.players == 4 else tuple((s,) for s in range(self.players))

    def side_of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.sides) if seat in seats)


def parse_rules(raw: Mapping | None) -> ScopaRules:
    rules = named_rules(ScopaRules, raw, "scopa")
    if rules.players not in (2, 3, 4) or isinstance(rules.players, bool):
        raise RuleViolation(say("players must be 2, 3 or 4"))
    if not isinstance(rules.deal, str) or rules.deal not in DEALS:
        raise RuleViolation(say("deal must be one of {deals}", deals=', '.join(DEALS)))
    if rules.deal != "standard" and rules.players != 4:
        raise RuleViolation(say("the {deal} deal is for four players", deal=rules.deal))
    if not isinstance(rules.target, int) or isinstance(rules.target, bool) or rules.target not in TARGETS:
        raise RuleViolation(say("target must be a whole number of points from {lowest} to {highest} (11, 16 and "
                                "21 are usual; 31 or 41 for a longer game), not {target}",
                                lowest=TARGETS[0], highest=TARGETS[-1], target=repr(rules.target)))
    if not isinstance(rules.claims, bool):
        raise RuleViolation(say("claims must be true or false"))
    if rules.stake_per not in ("game", "point"):
        raise RuleViolation(say("stake_per must be 'game' or 'point'"))
    return rules


def seat_count(rules: ScopaRules) -> int:
    return rules.players
