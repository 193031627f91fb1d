"""A trick game's play, declared as data (``TrickRules``) and judged here alike for every
trick game: which cards a seat may play, a card played alone, a whole trick, the trick's
event and the hand after each event.

A game declares its ``CardValues``, its pack, how it names a card of another pack, whether
a player must follow the suit led (``follow``), the hand's trump suit (``trump``: None, no
trumps), whether a stock is drawn after each trick (``stock``: its state is a
``StockHand``), and where it has them: a further rule on the cards a seat may play
(``restrict``, with ``refuse``, why it refuses a card it forbids), a whole trick judged its
own way (``judge_trick``), and what else a trick scores (``scored``: a bonus) in the
trick event's class (``trick``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection

from events.sentences import say

from .. import one_card
from ..base import Command, Event
from ..cards import SUIT_NAMES
from ..errors import Revealing, RuleViolation, may_not_play
from ..tricks import Trick
from . import stock as drawn
from .hand import after_play, after_trick
from .values import CardValues

State = Any  # the game's state: a TrickHand (a StockHand with a stock)


@dataclass(frozen=True)
class TrickRules:
    """How a trick game is played, as the core judges it (see the module's docstring)."""
    values: CardValues
    pack: Callable[[Any], Collection[str]]  # the table's rules -> every card of the game
    not_in_pack: Callable[[State, str], str]  # the refusal of a card of another pack
    follow: bool = False
    trump: Callable[[State], str | None] = lambda state: None
    stock: bool = False
    restrict: Callable[[State, int, tuple, list[str]], list[str]] | None = None
    refuse: Callable[[State, int, tuple], str] | None = None
    judge_trick: Callable[[State, list[str]], None] | None = None
    scored: Callable[[State, Trick], Trick] = lambda state, trick: trick
    trick: type[Trick] = Trick

    def legal_cards(self, state: State, seat: int, played: tuple = ()) -> list[str]:
        """The cards ``seat`` may play to a trick holding ``played`` so far: those of the
        suit led when it must follow and holds any, else any; then the game's own rule."""
        hand = list(state.held[seat])
        if self.follow and played:
            hand = [c for c in hand if c[-1] == played[0][-1]] or hand
        return self.restrict(state, seat, played, hand) if self.restrict else hand

    def why_not(self, state: State, seat: int, card: str, played: tuple) -> str | None:
        """Why ``seat`` may not play ``card``, which it holds (None: it may)."""
        if card in self.legal_cards(state, seat, played):
            return None
        if self.follow and played:
            led = played[0][-1]
            same = [c for c in state.held[seat] if c[-1] == led]
            if same and card[-1] != led:
                return say("seat {seat} holds {listing_same} and must follow {suit_name_led}",
                           seat=seat, listing_same=" ".join(same), suit_name_led=SUIT_NAMES[led])
        return self.refuse(state, seat, played)

    def in_play(self, state: State, whole_trick: bool = False) -> one_card.InPlay:
        """The hand as judging its next card sees it; in a whole trick a card held by another
        seat is said to be (the trick's order is wrong), which tells where it is."""
        trick = state.on_table
        return one_card.InPlay(
            state.seats, state.turn, {c: s for s, c in state.played_by_seat()}, self.pack(state.rules),
            lambda card: self.not_in_pack(state, card),
            lambda seat: state.held[seat],
            lambda seat, card: self.why_not(state, seat, card, trick),
            (lambda seat, card: held_elsewhere(state, seat, card)) if whole_trick else (lambda seat, card: None))

    def decide(self, state: State, command: Command) -> list[Event] | None:
        """The events of a card played (``play``) or a whole trick (``trick``); None for any
        other command, which is the game's own."""
        match command:
            case Command(kind="trick", data=data):
                cards = one_card.whole_trick(data, state.seats, state.current)
                if self.judge_trick:
                    self.judge_trick(state, cards)
                else:
                    self._judged_card_by_card(state, cards)
                return [Event("trick", self.trick_of(state, cards).to_data())]
            case Command(kind="play", data=data):
                return one_card.trick_card(self.in_play(state), data, state.on_table,
                                           lambda cards: Event("trick", self.trick_of(state, cards).to_data()))
        return None

    def _judged_card_by_card(self, state: State, cards: list[str]) -> None:
        """A whole trick, leader first, each card judged as if played alone, in turn."""
        so_far = state
        for card in cards:
            seat, card = one_card.judged(self.in_play(so_far, whole_trick=True), {"card": card})
            so_far = after_play(so_far, seat, card)

    def trick_of(self, state: State, cards: list[str]) -> Trick:
        """The trick of cards already judged: its winner, its points (the last trick's bonus
        with them), the draws after it, and what else the game scores in it."""
        leader, values = state.leader, self.values
        winner = (leader + values.winner_index(cards, self.trump(state))) % state.seats
        points = values.of_cards(cards)
        if values.last_trick and self._is_last(state, cards):
            points += values.last_trick
        extra = {"draws": drawn.draws(state, winner)} if self.stock else {}
        trick = self.trick(len(state.tricks) + 1, leader, tuple(cards), winner, points, **extra)
        return self.scored(state, trick)

    def _is_last(self, state: State, cards: list[str]) -> bool:
        """Whether no card is left to play after ``cards``: the hands empty, nothing to draw."""
        left = sum(1 for h in state.held for c in h if c not in cards)
        return not left and not (self.stock and state.pile)

    def evolve(self, state: State, event: Event) -> State | None:
        """The hand after a ``play`` or ``trick`` event; None for any other, the game's own."""
        match event.type, event.data:
            case "play", d:
                return after_play(state, d["seat"], d["card"])
            case "trick", d:
                trick = self.trick.from_data(d)
                return drawn.after_drawing(state, trick) if self.stock else after_trick(state, trick)
        return None


def held_elsewhere(state: State, seat: int, card: str) -> RuleViolation | None:
    """A card of a whole trick that another seat holds: said to a reader who may see it."""
    owner = state.holder(card)
    if owner is None:
        return None
    return Revealing(say("{card} is held by seat {owner}, but this card of the trick is seat {seat}'s to play",
                         card=card, owner=owner, seat=seat), None, may_not_play(card, seat))
