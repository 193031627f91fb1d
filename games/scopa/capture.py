"""What a Scopa play captures (rules/scopa.md): a table card of the card's value, else a
set of two or more summing to it, else nothing; the capture a play names (or the only one
it can make); and the play as its event records it, with the round dealt or the sweep
made after it."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Mapping, Sequence

from events.sentences import say

from ..engine.cards import parse_cards
from ..engine.errors import RuleViolation
from .rules import value


@dataclass(frozen=True)
class Play:
    seat: int
    card: str
    capture: tuple[str, ...]
    scopa: bool
    by: str  # "match", "sum" or "none": which rule made the capture the legal one
    dealt: tuple[tuple[str, ...], ...] = ()
    sweep: tuple[int, tuple[str, ...]] | None = None

    def to_data(self) -> dict:
        data = {"seat": self.seat, "card": self.card, "capture": list(self.capture), "scopa": self.scopa,
                "by": self.by}
        if self.dealt:
            data["dealt"] = [list(h) for h in self.dealt]
        if self.sweep:
            data["sweep"] = {"seat": self.sweep[0], "cards": list(self.sweep[1])}
        return data

    @classmethod
    def from_data(cls, d: Mapping) -> "Play":
        sweep = d.get("sweep")
        return cls(d["seat"], d["card"], tuple(d["capture"]), d["scopa"], d["by"],
                   tuple(tuple(h) for h in d.get("dealt", ())),
                   (sweep["seat"], tuple(sweep["cards"])) if sweep else None)


def captures(card: str, table: Sequence[str]) -> tuple[str, list[tuple[str, ...]]]:
    """The captures a card may make, and by which rule: single cards of its value first,
    else every set of two or more summing to it, else none."""
    singles = [(c,) for c in table if value(c) == value(card)]
    if singles:
        return "match", singles
    sums = [combo for size in range(2, len(table) + 1) for combo in combinations(table, size)
            if sum(map(value, combo)) == value(card)]
    return ("sum", sums) if sums else ("none", [])


def chosen(card: str, options: list[tuple[str, ...]], raw, by: str) -> tuple[str, ...]:
    """The capture a play takes: the one named (a legal one), or the only legal one. A refusal
    that lists the legal captures carries them as data too (``legal``: one list per capture)."""
    listed = "; ".join("+".join(o) for o in options)
    legal = [list(o) for o in options]
    if raw is None:
        if len(options) > 1:
            raise RuleViolation(say("{card} can capture {listed}: say which in capture",
                                    card=card, listed=listed), legal=legal)
        return options[0] if options else ()
    chosen = parse_cards(raw)
    if not options:
        if chosen:
            raise RuleViolation(say("{card} ({value}) captures nothing: no table card or sum of cards makes "
                                    "{value}",
                                    card=card, value=value(card)))
        return ()
    for option in options:
        if sorted(option) == sorted(chosen):
            return option
    if not chosen:
        raise RuleViolation(say("a card that can capture must capture: {card} can take {listed}",
                                card=card, listed=listed), legal=legal)
    rule = (say("a card matching a single table card must take one such card, never a sum") if by == "match"
            else say("the captured cards must sum to the card's value"))
    raise RuleViolation(say("{card} may capture {listed}, not {chosen}: {rule}",
                            card=card, listed=listed, chosen='+'.join(chosen), rule=rule), legal=legal)
