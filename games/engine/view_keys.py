"""The keys of a hand's view (``Sight.view``) that bitka reads outside the game, each named
once here with the shape its value takes: the service, the projections and the pages read a
view by these names and the accessors below, never by a string of their own, and
``tests/games/test_every_game.py`` holds the view of every registered game, in every phase
of random hands dealt whole and seat by seat, to them (``wrong``).

Every view carries the ``REQUIRED`` keys; a game's view carries those of ``OPTIONAL`` where
the game has the thing (a trick played a card at a time, face-up cards, a trump card, a
stock), and then in the shape declared. The rest of a view is the game's own, served as it
is. A view never carries the keys the hand's projection adds itself (``ADDED``): they would
be overwritten."""
from __future__ import annotations

from typing import Any, Callable, Mapping

PHASE = "phase"  # one of PHASES
DEALER = "dealer"  # the seat that dealt
HELD = "held"  # each seat's cards in hand, in seat order
DEAL = "deal"  # each seat's cards this hand: those played, then those held
CURRENT = "current"  # the trick in progress: [{seat, card}], in the order played
TRICKS = "tricks"  # the tricks taken, each with its ``cards``
TABLE_CARDS = "table_cards"  # the cards face up on the table
TRUMP = "trump"  # the trump card turned face up (null: none turned, or no longer shown)
TRUMP_SEEN = "trump_seen"  # whether the trump card has been turned yet
STOCK_LEFT = "stock_left"  # the cards left in the stock (null: no stock at this table)
AWAITING = "awaiting"  # the seats that owe a card before play goes on, in order

DEALING, AUCTION, PLAY, DONE = "dealing", "auction", "play", "done"
PHASES = (DEALING, AUCTION, PLAY, DONE)
IN_PLAY = frozenset({DEALING, AUCTION, PLAY})  # a hand not over
DEALT_OUT = frozenset({AUCTION, PLAY})  # every card dealt: the hand takes calls and cards

# What the hand's projection adds to the game's view (projections/hands.py ``render``).
ADDED = frozenset({"id", "table", "game", "settlement", "voided", "events", "confirmation", "corrections",
                   "correction_waiting"})


def _cards(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


def _per_seat(value: Any) -> bool:
    """A list per seat of its cards, each a card or null (one not logged yet)."""
    return isinstance(value, list) and all(
        isinstance(cards, list) and all(c is None or isinstance(c, str) for c in cards) for cards in value)


def _seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# Each key, with what its value is said to be and the test of it.
Shape = tuple[str, Callable[[Any], bool]]
REQUIRED: Mapping[str, Shape] = {
    PHASE: ("one of " + ", ".join(PHASES), lambda v: v in PHASES),
    DEALER: ("a seat", _seat),
    HELD: ("a list per seat of cards (null: not logged yet)", _per_seat),
    DEAL: ("a list per seat of cards (null: not logged yet)", _per_seat),
}
OPTIONAL: Mapping[str, Shape] = {
    CURRENT: ("a list of {seat, card}",
              lambda v: isinstance(v, list) and all(isinstance(p, dict) and _seat(p.get("seat"))
                                                    and isinstance(p.get("card"), str) for p in v)),
    TRICKS: ("a list of tricks, each with its cards",
             lambda v: isinstance(v, list) and all(isinstance(t, dict) and _cards(t.get("cards")) for t in v)),
    TABLE_CARDS: ("a list of cards", _cards),
    TRUMP: ("a card or null", lambda v: v is None or isinstance(v, str)),
    TRUMP_SEEN: ("true or false", lambda v: isinstance(v, bool)),
    STOCK_LEFT: ("a count of cards or null", lambda v: v is None or (_seat(v))),
    AWAITING: ("a list of seats", lambda v: isinstance(v, list) and all(_seat(s) for s in v)),
}


def wrong(view: Mapping) -> list[str]:
    """What ``view`` (a game's, before the projection adds to it) does not carry as declared:
    each required key missing, each declared key of another shape, each added key it holds."""
    said = [f"no {key!r}" for key in REQUIRED if key not in view]
    said += [f"{key!r} is {view[key]!r}, not {shape}" for key, (shape, fits) in {**REQUIRED, **OPTIONAL}.items()
             if key in view and not fits(view[key])]
    return said + [f"{key!r} is the projection's own" for key in sorted(ADDED & set(view))]


def phase(view: Mapping) -> str:
    return view[PHASE]


def dealer(view: Mapping) -> int:
    return view[DEALER]


def on_table(view: Mapping) -> tuple[str, ...]:
    """The cards of the trick in progress, in the order played (none where the game plays
    no trick a card at a time)."""
    return tuple(played["card"] for played in view.get(CURRENT) or ())


def trump_drawn_last(view: Mapping) -> str | None:
    """The face-up trump card when the draws owed now are the stock's last round (whoever
    draws last takes it), else None: where the game has a stock and a trump card turned."""
    if not (view.get(TRUMP) and view.get(TRUMP_SEEN, True) and view.get(TRICKS)):
        return None
    left = view.get(STOCK_LEFT)
    return view[TRUMP] if (left or 0) <= len(view.get(AWAITING) or ()) else None
