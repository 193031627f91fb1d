"""Trick-taking by a ranking: the ranking as data, the follow rules, the winner.

A ranking lists the trumps high to low (all trumps form one suit, whatever is printed on
them) and, for each printed suit, its non-trump cards high to low. The follow rules:
1. holding the led suit, play it, and beat the trick's winning card if you can;
2. void in it but holding trumps, trump, and beat the trick's highest trump if you can;
3. otherwise play anything.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from events.sentences import say

from .cards import SUIT_NAMES

TRUMP = "T"


@dataclass(frozen=True)
class Ranking:
    name: str
    trumps: tuple[str, ...]
    plain: Mapping[str, tuple[str, ...]]
    _order: Mapping[str, tuple[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        order = {card: (TRUMP, i) for i, card in enumerate(self.trumps)}
        for s, cards in self.plain.items():
            order.update({card: (s, i) for i, card in enumerate(cards)})
        object.__setattr__(self, "_order", order)

    def suit_of(self, card: str) -> str:
        return self._order[card][0]

    def is_trump(self, card: str) -> bool:
        return self._order[card][0] == TRUMP

    def beats(self, card: str, best: str, led: str) -> bool:
        """Does ``card`` take the trick from ``best`` when ``led`` is the led suit?"""
        card_suit, card_pos = self._order[card]
        best_suit, best_pos = self._order[best]
        if card_suit == best_suit:
            return card_pos < best_pos
        if card_suit == TRUMP:
            return True
        return False if best_suit == TRUMP else card_suit == led and best_suit != led


def suit_name(suit: str) -> str:
    return "trumps" if suit == TRUMP else SUIT_NAMES[suit]


def winner_index(trick: Sequence[str], ranking: Ranking) -> int:
    """Index (in play order) of the card that wins the trick so far."""
    led = ranking.suit_of(trick[0])
    best = 0
    for i in range(1, len(trick)):
        if ranking.beats(trick[i], trick[best], led):
            best = i
    return best


def legal_cards(hand: Sequence[str], trick: Sequence[str], ranking: Ranking) -> list[str]:
    """The cards of ``hand`` that may be played to a trick that holds ``trick`` so far."""
    return _follow(hand, trick, ranking)[0]


def _follow(hand: Sequence[str], trick: Sequence[str], ranking: Ranking) -> tuple[list[str], str, str | None]:
    """The legal cards, which rule chose them (``lead``, ``follow``, ``beat``, ``trump``,
    ``overtrump``, ``any``) and the card they had to beat, if any."""
    if not trick:
        return list(hand), "lead", None
    led = ranking.suit_of(trick[0])
    best = trick[winner_index(trick, ranking)]
    same = [c for c in hand if ranking.suit_of(c) == led]
    if same:
        overtaking = [c for c in same if ranking.beats(c, best, led)]
        return (overtaking, "beat", best) if overtaking else (same, "follow", None)
    trumps = [c for c in hand if ranking.is_trump(c)]
    if trumps:
        played = [c for c in trick if ranking.is_trump(c)]
        if played:
            top = _highest(played, ranking)
            overtaking = [c for c in trumps if ranking.beats(c, top, TRUMP)]
            if overtaking:
                return overtaking, "overtrump", top
        return trumps, "trump", None
    return list(hand), "any", None


def first_unplayable(cards: Sequence[str], hands: Sequence[Sequence[str]], ranking: Ranking) -> int | None:
    """The index of the first card of a whole trick that its player could not play (not in
    ``hands[i]``, that player's cards before the trick, or against the follow rules), or
    None: ``legal_cards`` asked of every card at once, the trick's winning card and highest trump
    kept as it goes (replay judges every trick of the log so)."""
    order, beats = ranking._order, ranking.beats
    led = order[cards[0]][0] if cards[0] in order else None
    best, top = None, None  # the winning card so far; the highest trump so far
    for i, card in enumerate(cards):
        hand = hands[i]
        if card not in hand:
            return i
        suit = order[card][0]
        if best is not None:
            holds_led = can_beat = False
            for c in hand:
                if order[c][0] == led:
                    holds_led = True
                    if beats(c, best, led):
                        can_beat = True
                        break
            if holds_led:
                if suit != led or (can_beat and not beats(card, best, led)):
                    return i
            else:
                holds_trump = can_overtrump = False
                for c in hand:
                    if order[c][0] == TRUMP:
                        holds_trump = True
                        if top is None or beats(c, top, TRUMP):
                            can_overtrump = True
                            break
                if holds_trump and (suit != TRUMP or (top is not None and can_overtrump
                                                       and not beats(card, top, TRUMP))):
                    return i
        if best is None or beats(card, best, led):
            best = card
        if suit == TRUMP and (top is None or beats(card, top, TRUMP)):
            top = card
    return None


def _highest(cards: Sequence[str], ranking: Ranking) -> str:
    return cards[winner_index(cards, ranking)]


def why_illegal(card: str, seat: int, hand: Sequence[str], trick: Sequence[str], ranking: Ranking) -> str:
    """A sentence saying which follow rule forbids ``card`` (assumes it is illegal)."""
    legal, rule, beaten = _follow(hand, trick, ranking)
    led = ranking.suit_of(trick[0])
    same = [c for c in hand if ranking.suit_of(c) == led]
    if same and ranking.suit_of(card) != led:
        return say("seat {seat} holds {listing_same} and must follow {suit_name_led}",
                   seat=seat, listing_same=_listing(same), suit_name_led=suit_name(led))
    if rule == "beat":
        return say("seat {seat} holds {listing_legal}, which beats {beaten}, and must play it to take the trick",
                   seat=seat, listing_legal=_listing(legal), beaten=beaten)
    if rule == "overtrump" and ranking.is_trump(card):
        return say("seat {seat} holds {listing_legal}, which beats {beaten}, and must trump over it",
                   seat=seat, listing_legal=_listing(legal), beaten=beaten)
    trumps = [c for c in hand if ranking.is_trump(c)]
    return say("seat {seat} has no {suit_name_led} but holds {listing_trumps} and must play a trump",
               seat=seat, suit_name_led=suit_name(led), listing_trumps=_listing(trumps))


def _listing(cards: Sequence[str]) -> str:
    return " ".join(cards)


@dataclass(frozen=True)
class Trick:
    """A trick as its ``trick`` event records it: its number in the hand, the seat that led,
    its cards in play order (leader first), the seat that took it and the card points it
    holds. A game may record more (a subclass adds its fields to ``to_data``)."""
    number: int
    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int
    played: bool = True  # False: counted after a claim, as one legal way the rest could have gone

    def to_data(self) -> dict:
        data = {"trick": self.number, "leader": self.leader, "cards": list(self.cards),
                "winner": self.winner, "points": self.points}
        if not self.played:
            data["played"] = False
        return data

    @classmethod
    def from_data(cls, d: Mapping) -> "Trick":
        """The trick a ``trick`` event recorded (a subclass reads its own fields too)."""
        return cls(d["trick"], d["leader"], tuple(d["cards"]), d["winner"], d["points"], d.get("played", True))
