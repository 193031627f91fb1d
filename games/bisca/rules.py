"""Bisca's pack and its table's rules: the variants (tres, nove, quatro, seis, capixaba),
each with its players, hand and pack, and the rules a table chooses among them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import named_rules
from ..engine.errors import RuleViolation
from ..engine.trick_game.values import CardValues

ORDER = ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")  # high to low in every suit
POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
CARDS = CardValues(ORDER, POINTS)
PACKS = {"full": CARDS.pack(), "no-twos": CARDS.pack(len(ORDER) - 1)}


@dataclass(frozen=True)
class Variant:
    players: int
    hand: int
    pack: str = "full"


VARIANTS = {
    "tres": Variant(2, 3), "nove": Variant(2, 9), "quatro": Variant(4, 3),
    "seis": Variant(6, 3, "no-twos"), "capixaba": Variant(4, 3),
}


@dataclass(frozen=True)
class BiscaRules:
    variant: str = "tres"
    conservative: bool = False
    match_to: int = 4
    stake_per: str = "match"
    majority_bonus: bool = False  # the side with more card points (61+) also gets 1 game point

    game = "bisca"

    def to_data(self) -> dict:
        return {"variant": self.variant, "conservative": self.conservative, "match_to": self.match_to,
                "stake_per": self.stake_per, "majority_bonus": self.majority_bonus}

    @property
    def players(self) -> int:
        return VARIANTS[self.variant].players

    @property
    def target(self) -> int:
        return self.match_to

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        n = self.players
        return ((0,), (1,)) if n == 2 else (tuple(range(0, n, 2)), tuple(range(1, n, 2)))

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def pack(self) -> frozenset[str]:
        return PACKS[VARIANTS[self.variant].pack]

    @property
    def hand(self) -> int:
        """The cards dealt to each seat."""
        return VARIANTS[self.variant].hand


def parse_rules(raw: Mapping | None) -> BiscaRules:
    rules = named_rules(BiscaRules, raw, "bisca")
    if not isinstance(rules.variant, str) or rules.variant not in VARIANTS:
        raise RuleViolation(say("variant must be one of {variants}", variants=', '.join(VARIANTS)))
    if not isinstance(rules.conservative, bool):
        raise RuleViolation(say("conservative must be true or false"))
    if rules.conservative and rules.variant not in ("seis", "quatro"):
        raise RuleViolation(say("conservative is a rule of seis and quatro"))
    if not isinstance(rules.match_to, int) or isinstance(rules.match_to, bool) or not 1 <= rules.match_to <= 50:
        raise RuleViolation(say("match_to must be a whole number of game points from 1 to 50 (4, or 10 for the long "
                                "comb)"))
    if rules.stake_per not in ("match", "game-point"):
        raise RuleViolation(say("stake_per must be 'match' or 'game-point'"))
    if not isinstance(rules.majority_bonus, bool):
        raise RuleViolation(say("majority_bonus must be true or false"))
    return rules


def seat_count(rules: BiscaRules) -> int:
    return rules.players


def seating(rules: BiscaRules, seats: int) -> str | None:
    """A table of ``seats`` refused under ``rules``, naming the variants that seat that many
    (four: quatro and capixaba); None when it is the right number, or no variant seats it."""
    fits = [name for name, v in VARIANTS.items() if v.players == seats]
    if seats == rules.players or not fits:
        return None
    variants = ", ".join(fits)
    return (say("bisca {variant} is played by {players} players, not {seats}; for {seats} players "
                "choose one of the variants {variants}",
                variant=rules.variant, players=rules.players, seats=seats,
                variants=variants))
