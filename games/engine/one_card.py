"""The one-card move: a seat plays one card of the trick (or the play) in progress; and
the form of its counterpart, a whole trick logged at once (``whole_trick``).

Every game played a card at a time judges the card the same way and in the same order,
so that the same mistake gets the same refusal in every game: the card must not have been
played already, it must be the seat's turn, the card must be of the game's pack, the seat
must hold it, and the game's follow rules must allow it. The last two tell what a seat
holds, so they are ``Revealing``: a reader who may not see that hand is told only that the
seat may not play the card. A trick game then logs the card and, with the trick's last
card, the trick (``trick_card``); a game of captures judges its capture after the card.

A whole trick (the ``trick`` command) is refused alike in every trick game while its form
is wrong: while a trick is being played a card at a time, with a field besides ``cards``,
or with other than one card per seat. Each game then judges its cards.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Mapping, Sequence

from events.sentences import say

from .base import Event
from .cards import parse_card, parse_cards
from .errors import Revealing, RuleViolation, may_not_play

Why = Callable[[int, str], str | None]  # why a seat may not play a card it holds (None: it may)


@dataclass(frozen=True)
class InPlay:
    """What judging one card needs to know of a hand in play."""
    seats: int
    turn: int | None  # the seat to play next
    played: Mapping[str, int]  # each card played so far, by the seat that played it
    pack: Collection[str]
    not_in_pack: Callable[[str], str]  # the refusal of a card of another pack, in the game's words
    held: Callable[[int], Sequence[str]]  # a seat's cards not played yet
    why_not: Why = lambda seat, card: None
    # The refusal of a card the seat does not hold, when the game can say more than that it
    # is not in the hand (it lies on the table); None: it says only that.
    not_held: Callable[[int, str], RuleViolation | None] = lambda seat, card: None
    per_trick: int = 0  # cards in a trick: one from each seat when 0 (Kop at five: four, the dealer's seat out)

    @property
    def trick_size(self) -> int:
        return self.per_trick or self.seats


def judged(hand: InPlay, data: Mapping, keys: Collection[str] = ("seat", "card")) -> tuple[int, str]:
    """The seat and card of a play the rules allow now, or the refusal. ``seat`` may be left
    out (the seat whose turn it is); ``keys`` are the fields a play may have."""
    extra = sorted(set(data) - set(keys))
    if extra:
        raise RuleViolation(say("a card played is {{\"seat\", \"card\"}}, not {extra}", extra=", ".join(extra)))
    seat, card = data.get("seat", hand.turn), parse_card(data.get("card"))
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < hand.seats:
        raise RuleViolation(say("seat must be a seat from 0 to {last}, not {seat}", last=hand.seats - 1,
                                seat=repr(seat)))
    if card in hand.played:
        raise RuleViolation(say("{card} was already played, by seat {player}", card=card,
                                player=hand.played[card]))
    if seat != hand.turn:
        raise RuleViolation(say("it is seat {turn}'s turn to play, not seat {seat}'s", turn=hand.turn, seat=seat))
    if card not in hand.pack:
        raise RuleViolation(hand.not_in_pack(card))
    if card not in hand.held(seat):
        raise hand.not_held(seat, card) or Revealing(say("{card} is not in seat {seat}'s hand", card=card, seat=seat),
                                                     None, may_not_play(card, seat))
    why = hand.why_not(seat, card)
    if why is not None:
        raise Revealing(why, seat, may_not_play(card, seat))
    return seat, card


def trick_card(hand: InPlay, data: Mapping, trick: Sequence[str],
               trick_of: Callable[[list[str]], Event]) -> list[Event]:
    """A card played to the trick in progress (``trick``, its cards so far): its ``play``
    event and, with the trick's last card, the trick's event (``trick_of`` the four cards)."""
    seat, card = judged(hand, data)
    events = [Event("play", {"seat": seat, "card": card})]
    if len(trick) == hand.trick_size - 1:
        events.append(trick_of([*trick, card]))
    return events


def whole_trick(data: Mapping, seats: int, in_progress: Sequence) -> list[str]:
    """The cards of a trick logged whole (``{"cards": [...]}``, in play order from the
    leader), one per seat, or the refusal of its form. None while a trick is being played a
    card at a time (``in_progress``: its cards so far): its other cards come one by one."""
    if in_progress:
        raise RuleViolation(say("this trick is being played a card at a time: play its other cards one by one"))
    extra = sorted(set(data) - {"cards"})
    if extra:
        raise RuleViolation(say("a trick has only cards, not {extra}", extra=", ".join(extra)))
    cards = parse_cards(data.get("cards"))
    if len(cards) != seats:
        raise RuleViolation(say("a trick is {n:d} cards in play order, starting with the leader; got {cards_count:d}",
                                n=seats, cards_count=len(cards)))
    return cards
