"""Bisca's play on the trick-taking core: no duty to follow suit, the trump suit of the card
cut (or Capixaba's knock), a stock drawn after each trick; in nove, once nothing is left to
draw, a trump lead must be answered with a trump by a player who has one. A whole trick is
judged as Bisca always judged it (each card its seat's, then the answer to trumps), and a
Capixaba trick scores its rela bonus the moment it is taken."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.errors import Revealing, RuleViolation, may_not_play
from ..engine.trick_game.play import TrickRules
from ..engine.trick_game.stock import DrawTrick
from . import scoring as bisca_scoring
from .rules import CARDS


@dataclass(frozen=True)
class Trick(DrawTrick):
    """A Bisca trick: the core's, with the cards each seat drew after it (the winner first)
    and the Capixaba bonuses it scored."""
    bonuses: tuple[Mapping, ...] = ()

    def to_data(self) -> dict:
        data = super().to_data()
        if self.bonuses:
            data["bonuses"] = [dict(b) for b in self.bonuses]
        return data

    @classmethod
    def from_data(cls, d: Mapping) -> "Trick":
        trick = DrawTrick.from_data(d)
        return cls(trick.number, trick.leader, trick.cards, trick.winner, trick.points, trick.played,
                   draws=trick.draws, bonuses=tuple(d.get("bonuses", ())))


def _answers_trumps(state, seat: int, played: tuple, hand: list[str]) -> list[str]:
    """Nove: once nothing is left to draw, a trump lead is answered with a trump when one is held."""
    if state.rules.variant == "nove" and played and state.pile == 0 and played[0][-1] == state.trump_suit:
        return [c for c in hand if c[-1] == state.trump_suit] or hand
    return hand


def _must_answer(state, seat: int, played: tuple) -> str:
    return say("seat {seat} holds a trump and must answer the trump lead with one: nothing is left to draw",
               seat=seat)


def _with_relas(state, trick: Trick) -> Trick:
    if state.rules.variant != "capixaba":
        return trick
    return Trick(trick.number, trick.leader, trick.cards, trick.winner, trick.points, draws=trick.draws,
                 bonuses=bisca_scoring.rela_bonuses(state, trick))


def _judged(state, cards: list[str]) -> None:
    """A whole trick, leader first, its form checked (``one_card.whole_trick``): each card
    its seat's, and allowed by the follow rules once the stock is gone."""
    n, leader = state.seats, state.leader
    for i, card in enumerate(cards):
        seat = (leader + i) % n
        if card not in state.held[seat]:
            why, says_where = _not_held(state, card, seat, cards[:i])
            if says_where:
                raise Revealing(why, None, may_not_play(card, seat))
            raise RuleViolation(why)
        if card not in PLAY.legal_cards(state, seat, tuple(cards[:i])):
            raise Revealing(_must_answer(state, seat, ()), seat, may_not_play(card, seat))


def _not_held(state, card: str, seat: int, earlier) -> tuple[str, bool]:
    """Why ``seat`` cannot play ``card``, which it does not hold, and whether that says where
    the card is (in another hand, or still to draw)."""
    if card not in state.rules.pack:
        return say("{card} is not in the {variant} pack",
                   card=card, variant=state.rules.variant), False
    if card in earlier:
        return say("{card} is played twice in this trick", card=card), False
    owner = state.holder(card)
    if owner is not None:
        return say("{card} is held by seat {owner}, but this card of the trick is seat {seat}'s to play",
                   card=card, owner=owner, seat=seat), True
    if card in state.draw_pile:
        return say("{card} has not been drawn yet: seat {seat} cannot hold it", card=card, seat=seat), True
    if any(card in t.cards for t in state.tricks) or card == state.trump_card:
        return say("{card} was already played",
                   card=card) if card != state.trump_card else say("{card} is the face-up trump card",
                                                                                 card=card), False
    return say("{card} is not in seat {seat}'s hand", card=card, seat=seat), True


PLAY = TrickRules(
    CARDS, lambda rules: rules.pack,
    lambda state, card: say("{card} is not in the {variant} pack", card=card, variant=state.rules.variant),
    follow=False, trump=lambda state: state.trump_suit, stock=True,
    restrict=_answers_trumps, refuse=_must_answer, judge_trick=_judged, scored=_with_relas, trick=Trick)
