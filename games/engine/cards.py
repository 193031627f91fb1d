"""Cards as canonical strings: rank then suit (``"10H"``, ``"QC"``, ``"7D"``).

Input is forgiving (any case, ``T`` for 10, suit symbols); output is always canonical.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from events.sentences import say

from .errors import RuleViolation

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("C", "S", "H", "D")
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


_CANONICAL = frozenset(r + s for r in RANKS for s in SUITS)


def parse_card(text: object) -> str:
    """Return the canonical form of one card, or raise RuleViolation saying why not."""
    if isinstance(text, str) and text in _CANONICAL:  # most cards arrive canonical (replay reads only such)
        return text
    if not isinstance(text, str) or not text.strip():
        raise RuleViolation(not_a_card(text))
    raw = text.strip().upper()
    suit_part = _SUIT_SYMBOLS.get(raw[-1], raw[-1])
    rank_part = raw[:-1]
    if rank_part == "T":
        rank_part = "10"
    if rank_part not in RANKS or suit_part not in SUITS:
        raise RuleViolation(not_a_card(text))
    return rank_part + suit_part


# The cards the refusal gives as examples (its sentence writes them): codes the API takes, of
# no game's pack, so that no reader is ever told them as "?" (a refusal names a card hidden
# from its reader so) and no player takes them for a card of the hand.
EXAMPLES = ("9H", "8S")


def not_a_card(text: object) -> str:
    """Why ``text`` is no card, with two cards written as the API takes them (``EXAMPLES``)."""
    return say("{text} is not a card: write rank then suit, like 9H or 8S", text=repr(text))


def parse_cards(texts: object) -> list[str]:
    if not isinstance(texts, (list, tuple)):
        raise RuleViolation(say("cards must be given as a list"))
    return [parse_card(t) for t in texts]


def pack(ranks: tuple[str, ...]) -> frozenset[str]:
    """Every card of the given ranks in the four suits."""
    return frozenset(r + s for r in ranks for s in SUITS)


def check_exact_pack(hands: list[list[str]], expected: frozenset[str], what: str) -> None:
    """Refuse a deal that repeats a card, uses a foreign card or leaves one out."""
    seen: set[str] = set()
    for cards in hands:
        for card in cards:
            if card in seen:
                raise RuleViolation(say("{card} is dealt twice", card=card))
            if card not in expected:
                raise RuleViolation(say("{card} is not in the {what} pack", card=card, what=what))
            seen.add(card)
    missing = sorted(expected - seen)
    if missing:
        raise RuleViolation(say("the deal leaves out {missing}: it must be exactly the {what} pack",
                                missing=', '.join(missing), what=what))


def dealt(raw: object, keys: tuple[str, ...], seats: int, size: int, game: str,
          dealer_sits_out: bool = False) -> tuple[int, list[list[str]]]:
    """The dealer and the hands of a deal, checked: an object with only ``keys``, a dealer
    seat, one hand per seat of ``size`` cards each (the pack is checked by the game); where
    the dealer sits the hand out (``dealer_sits_out``), the dealer's hand is empty."""
    if not isinstance(raw, Mapping):
        raise RuleViolation(say("deal must be an object with {keys}", keys=', '.join(keys)))
    extra = sorted(set(raw) - set(keys))
    if extra:
        raise RuleViolation(say("a {game} deal has {keys}, not {extra}",
                                game=game, keys=', '.join(keys), extra=', '.join(extra)))
    dealer = raw.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise RuleViolation(say("dealer must be a seat from 0 to {last:d}", last=seats - 1))
    hands = raw.get("hands")
    if not isinstance(hands, list) or len(hands) != seats:
        raise RuleViolation(say("hands must list {seats} hands, one per seat in seat order", seats=seats))
    parsed = [parse_cards(h) for h in hands]
    if dealer_sits_out and parsed[dealer]:
        raise RuleViolation(say("seat {seat} deals this hand and sits it out: its hand is [], and every other seat is "
                                "dealt {size:d} cards", seat=dealer, size=size))
    for seat, cards in enumerate(parsed):
        if len(cards) != size and not (dealer_sits_out and seat == dealer):
            raise RuleViolation(say("seat {seat} is dealt {cards_count:d} cards; {game} deals {size:d} to each seat",
                                    seat=seat, cards_count=len(cards), game=game, size=size))
    return dealer, parsed


def dealt_round(cards: Sequence[str], seats: int, size: int, first: int = 0) -> list[list[str]]:
    """Cards dealt seat by seat, ``size`` to each, from the top of ``cards``: the first
    ``size`` to seat ``first``, the next to the seat after it, and so on round the table."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    for i in range(seats):
        hands[(first + i) % seats] = list(cards[i * size:(i + 1) * size])
    return hands
