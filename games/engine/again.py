"""A hand whose cards were logged, given again: the body a correction by its cards takes,
``{"deal", "bids"?, "tricks"?, "plays"?}``, from the hand's own events as they were logged,
so that the admin's page can show them to be edited and sent again.

It is read from what every game declares (its ``deal_fields``, ``call_fields`` and
``play_fields``, and whether its hands are logged by tricks or by plays): the deal's fields
from the deal event, each call as a ``bid`` command takes it, each trick's cards (a hand
thrown in gives the tricks its claim was counted as), each play's card and capture. A hand
dealt seat by seat gets its deal back from its ``seat_cards`` events; the cards a seat drew
during the play (a round dealt when every hand is empty, a card drawn after each trick) go
back into the stock in the order they were dealt: a round from the seat after the dealer,
a draw from the trick's winner, the card turned face up drawn last.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .base import Command
from .contract import Game
from .errors import Incomplete, Malformed, RuleViolation

CALL = ("seat", "call")  # what a ``bid`` command takes in every game (a game adds its ``call_fields``)
PLAY = ("card",)  # what a ``play`` command takes in every game (a game adds its ``play_fields``)


class NotAgain(Exception):
    """The hand's events do not give its whole hand again (a claim that counted no cards,
    cards seen that are no seat's draw); never said to anyone: the page says it can only
    void such a hand."""


def cards_of(game: Game, rules, events: Sequence[tuple[str, Mapping]]) -> dict | None:
    """The hand of ``events`` (each ``(type, data)``, its deal first) as a correction by its
    cards gives it again; None when its events do not give the whole hand (its deal then
    lacks cards of the pack)."""
    try:
        body = _again(game, events)
    except NotAgain:
        return None
    pack = set(game.sight.pack(rules))
    return body if not pack or _dealt(game, body["deal"]) == pack else None


def _dealt(game: Game, deal: Mapping) -> set[str]:
    """Every card the deal names, in its fields of cards."""
    cards: set[str] = set()
    for f in game.forms.deal_fields:
        value = deal.get(f.name)
        if f.kind == "card" and value:
            cards.add(value)
        elif f.kind == "cards":
            cards |= set(value or [])
        elif f.kind == "hands":
            cards |= {c for hand in value or [] for c in hand}
    return cards


def _again(game: Game, events: Sequence[tuple[str, Mapping]]) -> dict:
    if not events or events[0][0] != "deal":
        raise NotAgain  # a hand logged by its result
    opened = events[0][1]
    names = {f.name for f in game.forms.deal_fields}
    deal = {k: _copied(v) for k, v in opened.items() if k in names}
    by_plays = game.capabilities.logged_by == "plays"
    bids, tricks, plays = [], [], []
    call = (*CALL, *(f.name for f in game.forms.call_fields))
    play = (*PLAY, *(f.name for f in game.forms.play_fields))
    lists = {f.name for f in game.forms.play_fields if f.kind == "cards"}
    drawn = _Drawn(len(deal.get("hands") or []), opened.get("dealer", 0), by_plays)
    for kind, data in events[1:]:
        if kind == "seat_cards":
            if tricks or plays:
                drawn.add(data)
            else:
                _seen(deal, data, names)
        elif kind == "bid":
            bids.append({k: data[k] for k in call if k in data})
        elif kind == "trick" and not by_plays:
            drawn.round_after(data.get("winner"))
            tricks.append({"cards": list(data["cards"])})
        elif kind == "play" and by_plays:
            drawn.round_after(None)
            plays.append({k: list(data[k]) if k in lists else data[k] for k in play if k in data})
        elif kind == "claim":
            counted = data.get("tricks")
            if not counted or by_plays:
                raise NotAgain  # a claim that ended the hand before its cards were played
            tricks += [{"cards": list(t["cards"])} for t in counted]
    if drawn.rounds:
        deal["stock"] = drawn.stock(deal)
    body: dict = {"deal": deal}
    for key, items in (("bids", bids), ("tricks", tricks), ("plays", plays)):
        if items:
            body[key] = items
    return body


def _copied(value):
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def _seen(deal: dict, data: Mapping, names: set[str]) -> None:
    """A seat's cards (or the face-up ones) logged before the play began: part of the deal."""
    if "seat" in data:
        deal["hands"][data["seat"]] = list(data["cards"])
        return
    for key, value in data.items():
        if key in names:
            deal[key] = _copied(value)


class _Drawn:
    """The cards the seats logged as they drew them during the play, round by round, put
    back into the stock in the order the game deals them."""

    def __init__(self, seats: int, dealer: int, by_plays: bool):
        self.seats, self.dealer, self.by_plays = seats, dealer, by_plays
        self.rounds: list[tuple[int, dict[int, list[str]]]] = []  # (the first seat to draw, each seat's cards)
        self.first: int | None = None  # who draws first after the latest trick or play
        self.fresh = False  # a trick or play since the latest draw: the next draw starts a round

    def round_after(self, winner) -> None:
        """A trick (its winner draws first after it) or a play: a new round may follow."""
        self.first = (self.dealer + 1) % max(self.seats, 1) if self.by_plays else winner
        self.fresh = True

    def add(self, data: Mapping) -> None:
        if "seat" not in data or not isinstance(self.first, int) or not self.seats:
            raise NotAgain  # cards seen during the play that are not a seat's draw
        if self.fresh or not self.rounds:
            self.rounds.append((self.first, {}))
            self.fresh = False
        self.rounds[-1][1][data["seat"]] = list(data["cards"])

    def stock(self, deal: dict) -> list[str]:
        cards = []
        for first, round_ in self.rounds:
            for i in range(self.seats):
                cards += round_.get((first + i) % self.seats, [])
        if deal.get("trump"):  # the card turned face up is drawn last, and is not in the stock
            cards = cards[:-1]
        return cards


def turns(game: Game, rules, opened: Mapping, body: Mapping) -> list[int | None]:
    """Who leads each trick (or makes each play) of ``body``, played again from its deal by
    the rules with what its deal event recorded of the table (the match score); None from
    the first one the rules refuse on."""
    kind = "play" if game.capabilities.logged_by == "plays" else "trick"
    items = list(body.get(f"{kind}s") or [])
    seats: list[int | None] = [None] * len(items)
    try:
        state = game.initial_state(rules, {**opened, **body["deal"]})
        for bid in body.get("bids") or []:
            state = _step(game, state, Command("bid", bid))
        for i, item in enumerate(items):
            seats[i] = game.moves.turn(state)
            state = _step(game, state, Command(kind, item))
    except (RuleViolation, Incomplete, Malformed, KeyError, TypeError, ValueError):
        pass
    return seats


def _step(game: Game, state, command):
    for event in game.decide(state, command):
        state = game.evolve(state, event)
    return state
