"""Cards as they are seen: a seat's own cards logged by that seat, a card at a time, and
what a reader of a hand in play may see of it.

A hand dealt seat by seat starts without cards; each seat's cards come as a ``seat_cards``
event when that seat sees them (and the face-up ones when they are turned). A card seen
twice is refused without saying where it was seen: that would tell one player another's
card. While a hand is in play, a reader sees the cards nobody has played yet only if they
are its own seat's, or it logged them itself; ``mask`` puts None in the place of every
other one, and ``cards_in`` finds the cards an event would show.
"""
from __future__ import annotations

import re
from typing import Any, Collection, Iterable, Mapping, Sequence

from events.sentences import say

from .cards import RANKS, SUITS, parse_cards
from .errors import RuleViolation

CARDS = frozenset(r + s for r in RANKS for s in SUITS)


def seat_cards(raw: Mapping, seats: int, size: int | None, pack: Collection[str], seen: Collection[str],
               game: str) -> dict:
    """A seat's cards as the ``seat_cards`` event keeps them: ``{"seat", "cards"}``, checked
    (``size`` cards when given, each of the pack and seen nowhere else)."""
    extra = sorted(set(raw) - {"seat", "cards"})
    if extra:
        raise RuleViolation(say("a {game} seat's cards are {{\"seat\", \"cards\"}}, not {extra}",
                                game=game, extra=', '.join(extra)))
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise RuleViolation(say("seat must be a seat from 0 to {last}, not {seat}",
                                last=seats - 1, seat=repr(seat)))
    cards = parse_cards(raw.get("cards"))
    if size is not None and len(cards) != size:
        raise RuleViolation(say("seat {seat} logs {cards_count:d} cards here; it holds {size:d} now",
                                seat=seat, cards_count=len(cards), size=size))
    return {"seat": seat, "cards": fresh(cards, pack, seen, game)}


def fresh(cards: list[str], pack: Collection[str], seen: Collection[str], game: str) -> list[str]:
    """``cards``, each of the pack, none twice and none seen before in the hand."""
    return not_seen_yet(of_the_pack(cards, pack, game), seen)


def of_the_pack(cards: list[str], pack: Collection[str], game: str) -> list[str]:
    """``cards``, each of the pack and none twice: what a request can be told of its own cards."""
    for i, card in enumerate(cards):
        if card not in pack:
            raise RuleViolation(say("{card} is not in the {game} pack", card=card, game=game))
        if card in cards[:i]:
            raise RuleViolation(say("{card} is named twice", card=card))
    return cards


def not_seen_yet(cards: list[str], seen: Collection[str]) -> list[str]:
    """``cards``, none of them seen before in the hand. This is the one refusal that depends
    on cards the sender may not see, so every form asks it last, of cards that are otherwise
    right: a request that would have logged its cards had they been free is the only one
    told that one was not (it staked its own hand on it), and the refusal names the sender's
    own card, never where it was seen."""
    for card in cards:
        if card in seen:
            raise RuleViolation(say("{card} was already seen in this hand: a card can be seen only once", card=card))
    return cards


# A call that names a card to find its holder (a partner's card the caller chooses):
# the name is said aloud at the table, so it tells nobody where the card is and is never
# sealed. Where the rules choose the jack, the call leaves it out (games/kop/auction.py).
SAID_ALOUD = frozenset({"jack"})


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in ``value`` (an event's data, a view), but one a call
    (a mapping with a ``call``) says aloud."""
    found: set[str] = set()
    _collect(value, found)
    return found


def names_a_card(value: Any) -> bool:
    """Whether ``value`` names any card (but one a call says aloud): ``cards_in`` that stops
    at the first, for the deals replay folds by the thousand."""
    if isinstance(value, str):
        return value in CARDS
    if isinstance(value, (list, tuple)):
        return any(names_a_card(item) for item in value)
    if isinstance(value, (dict, Mapping)):
        return any(names_a_card(item) for key, item in value.items() if not (key in SAID_ALOUD and "call" in value))
    return False


def _collect(value: Any, found: set[str]) -> None:
    # Concrete types before the Mapping ABC, whose isinstance check is slow: this walks
    # every event appended and every deal folded.
    if isinstance(value, str):
        if value in CARDS:
            found.add(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, found)
    elif isinstance(value, (dict, Mapping)):
        for key, item in value.items():
            if not (key in SAID_ALOUD and "call" in value):
                _collect(item, found)


def mask(value: Any, hidden: Collection[str]) -> Any:
    """``value`` with each card of ``hidden`` replaced by None, in the same place (the card
    a call names stays, in that call: it was said aloud; the same name anywhere else is
    masked like any card)."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, Mapping):
        return {k: v if k in SAID_ALOUD and "call" in value else mask(v, hidden) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask(v, hidden) for v in value]
    return value


_CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AKQJ])[CSHD](?![0-9A-Za-z])")


def mask_text(text: str, hidden: Collection[str]) -> str:
    """A sentence with each card of ``hidden`` it names as "?" (a refusal must not tell a
    player another's cards)."""
    return _CARD_IN_TEXT.sub(lambda m: "?" if m.group(0) in hidden else m.group(0), text)


def hidden_from(pack: Collection[str], visible: Collection[str], logged: Iterable[str]) -> frozenset[str]:
    """The cards a reader may not see: every card of the ``pack`` but those the game puts in
    its sight (``visible``) and those it ``logged`` itself."""
    return frozenset(pack).difference(visible, logged)


SEAT_LISTS = ("deal", "held")  # a view's lists of cards, one per seat


def arranged(view: dict, played: Sequence[str]) -> dict:
    """A concealed view whose per-seat lists say nothing by where a card stands: in each
    list with a hidden card (None) the cards shown come first, those played in the order they
    were played, then the Nones."""
    out = dict(view)
    order = {card: i for i, card in enumerate(played)}
    for key in SEAT_LISTS:
        lists = view.get(key)
        if isinstance(lists, list) and any(isinstance(cards, list) and None in cards for cards in lists):
            out[key] = [_shown_first(cards, order) if isinstance(cards, list) else cards for cards in lists]
    return out


def _shown_first(cards: list, order: Mapping[str, int]) -> list:
    if None not in cards:
        return cards
    shown = [c for c in cards if c is not None]
    shown.sort(key=lambda c: order.get(c, len(order)))
    return shown + [None] * (len(cards) - len(shown))
