"""Who must agree before a settlement counts: every member who pays in it.

Its logger agrees by logging it; each other payer by a ``confirmation``. It counts at once
only when nobody but its logger pays, when the group confirms nothing, or when the hand was
played card by card at an ``entry: "seats"`` table with every seat's cards, calls and plays
sent by that seat's own member. The ledger decides it when the hand ends; replay holds the
recorded decision to the same rules; the balances and the hand's view fold the rest.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from games.engine.seen import names_a_card

NOBODY_PAYS = "nobody pays in it"
ONLY_ITS_LOGGER_PAYS = "nobody but its logger pays in it"
CONFIRMS_NOTHING = "the group confirms nothing"
EACH_SEAT_ITS_OWN = "every seat logged and played its own cards"

# The events of a hand that a seat sends for itself, naming it by ``seat``.
SEATS_OWN = frozenset({"seat_cards", "bid", "play", "claim"})


def payers(payouts: Iterable[Mapping]) -> list[str]:
    """The members who pay in a settlement's ``payouts`` (as API.md writes them), in seat order."""
    return [p["member"] for p in payouts if str(p["amount"]).startswith("-")]


def waiting_for(payers_: Sequence[str], logger: str | None, confirmed: Iterable[str]) -> list[str]:
    """The payers who have not agreed yet: all but the logger and those who confirmed."""
    agreed = set(confirmed) | {logger}
    return [m for m in payers_ if m not in agreed]


def at_once(payers_: Sequence[str], logger: str, group_confirms: bool, own_play: bool) -> str | None:
    """Why a settlement counts the moment it is logged, or None: it waits for its payers."""
    if not payers_:
        return NOBODY_PAYS
    if not group_confirms:
        return CONFIRMS_NOTHING
    if set(payers_) <= {logger}:
        return ONLY_ITS_LOGGER_PAYS
    if own_play:
        return EACH_SEAT_ITS_OWN
    return None


class OwnPlay:
    """Whether a hand is being played from its own seats: each event that names a seat sent
    by that seat's member, the cards of every seat that plays (all but those sitting the hand
    out, ``out``) sent that way, and no trick logged whole."""

    def __init__(self, seats: Sequence[str], seats_entry: bool, out: frozenset[int] = frozenset()):
        self.seats, self.out = tuple(seats), out
        self.holds = seats_entry
        self.cards_from: set[int] = set()
        self.plays_since_trick = 0

    def add(self, kind: str, data: Mapping, actor: str) -> None:
        if not self.holds:
            return
        if kind in SEATS_OWN and "seat" in data:
            seat = data["seat"]
            if not (isinstance(seat, int) and 0 <= seat < len(self.seats) and self.seats[seat] == actor):
                self.holds = False
                return
            if kind == "seat_cards":
                self.cards_from.add(seat)
            elif kind == "play":
                self.plays_since_trick += 1
        elif kind == "deal" and names_a_card(data):
            self.holds = False  # a whole deal is somebody's, not each seat's
        elif kind == "trick":
            if self.plays_since_trick == 0:
                self.holds = False  # a whole trick, logged by one for all
            self.plays_since_trick = 0
        elif kind == "result":
            self.holds = False

    @property
    def whole(self) -> bool:
        return self.holds and self.cards_from == set(range(len(self.seats))) - self.out
