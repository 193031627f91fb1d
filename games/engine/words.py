"""The events of a hand in words, for its audit trail: what each game's ``describe`` is made
of. ``who(seat)`` names a seat as the group knows it ("seat 1 (Ala)")."""
from __future__ import annotations

import json
from typing import Callable, Mapping

from events.sentences import say

from .contract import ResultField
from .units import POINT, Unit

Who = Callable[[int], str]


def dealt(d: Mapping, who: Who, shown: str = "") -> str:
    """A deal: who dealt, and each seat's cards (the rules are the deal event's own, beside
    it; a seat dealt none, sitting the hand out, is not named); ``shown`` adds what else the
    game deals (table cards, a stock, a trump card)."""
    dealer = who(d["dealer"])
    if not any(d["hands"]):
        return say("{dealer} deals. The cards are logged seat by seat, as each seat sees them.", dealer=dealer)
    hands = "; ".join(f"{who(s)}: {' '.join(h)}" for s, h in enumerate(d["hands"]) if h)
    return say("{dealer} deals. {hands}{shown}", dealer=dealer, hands=hands, shown=shown)


SEATED = {"seat": " + ", "seats": " + ", "doubles": " → "}  # a score sheet's fields of players, and their joints
TIED = {"side", "per-side"}  # a score sheet's fields where null is a tie


def fact(key: str, value, who: Who, fields: Mapping[str, ResultField] | None = None) -> str:
    """One field of a result in words, named as the log's sentences name it (``fields``,
    the game's score sheet by name): players (a field of kind seat, seats or doubles) by
    who sits there, a choice by its words, a list as a list."""
    field = (fields or {}).get(key)
    kind, noun = (field.kind, field.noun or key) if field else (None, key)
    if value is None:  # "a tie" and "none" are words of the log (service/i18n/words.py)
        return f"{noun}: a tie" if kind in TIED else f"{noun}: none"
    if kind in SEATED and (kind != "doubles" or isinstance(value, list)):
        seats = value if isinstance(value, list) else [value]
        if not seats:
            return f"{noun}: none"
        return f"{noun}: " + SEATED[kind].join(who(s) for s in seats)
    if isinstance(value, list):  # one value per side, in side order
        return f"{noun}: " + " / ".join(json.dumps(v) for v in value)
    if kind == "side":
        return f"{noun}: side {value}"
    words = dict(o for o in field.options if isinstance(o, tuple)) if field else {}
    return f"{noun}: {words.get(value, value)}"


def sheet_of(fields) -> dict[str, ResultField]:
    """A score sheet's fields (``ResultField``) by name, for ``fact``."""
    return {f.name: f for f in fields}


def facts(result: Mapping, who: Who, fields: Mapping[str, ResultField] | None = None) -> str:
    """A result's fields in words, those of its score sheet (``fields``) when it is known:
    a field the table's rules do not ask (a bonus where there is none) says nothing."""
    return ", ".join(fact(k, v, who, fields) for k, v in result.items() if fields is None or k in fields)


def result(d: Mapping, who: Who, fields: Mapping[str, ResultField] | None = None, title: str | None = None) -> str:
    shown = facts(d["result"], who, fields)
    return say("{dealer} deals {game}; the hand is logged by its result alone, without its cards: {shown}",
               dealer=who(d['dealer']), game=title or d['game'], shown=shown)


def call(d: Mapping, who: Who) -> str:
    jack = say(" with the holder of {jack}", jack=d['jack']) if d.get("jack") else ""
    return say("{seat} calls {call}{jack}", seat=who(d['seat']), call=d['call'], jack=jack)


def trick(d: Mapping, who: Who, unit: Unit = POINT) -> str:
    """A trick: who led, its cards, who took it and what it holds, in the game's ``unit``
    (thirds said as the whole points they make and the thirds: units.py)."""
    if not unit.whole:
        return say("trick {trick:d}: {leader} leads; cards {cards}; {winner} wins {worth}",
                   trick=d['trick'], leader=who(d['leader']), cards=' '.join(d['cards']),
                   winner=who(d['winner']), worth=unit.said(d['points']))
    return (say("trick {trick:d}: {leader} leads; cards {cards}; {winner} wins {points:d} card "
                "points",
                trick=d['trick'], leader=who(d['leader']), cards=' '.join(d['cards']),
                winner=who(d['winner']), points=d['points']))


def thrown_in(d: Mapping, who: Who) -> str:
    counted = "; ".join(say("trick {trick:d} {cards}",
                            trick=t['trick'], cards=' '.join(t['cards'])) for t in d["tricks"])
    return (say("{seat} throws in: every legal way to play the last {tricks:d} trick(s) settles alike; "
                "counted as {counted} (not played)",
                seat=who(d['seat']), tricks=len(d['tricks']), counted=counted))


def seen(d: Mapping, who: Who) -> str:
    """Cards logged as they are seen: a seat's, the face-up ones, or the trump card."""
    if "table" in d:
        return say("the face-up cards are turned: {table}", table=' '.join(d['table']))
    if "trump" in d:
        return say("the trump card is turned: {trump}",
                   trump=d['trump']) if d["trump"] else say("a knock: hearts are trump")
    return say("{seat} logs the cards they see: {cards}",
               seat=who(d['seat']), cards=' '.join(d['cards']))


def any_event(kind: str, d: Mapping, who: Who) -> str:
    """An event a game has no words of its own for: cards seen, a card played, else its type."""
    if kind == "seat_cards":
        return seen(d, who)
    if kind == "play" and "seat" in d and "card" in d:
        return say("{seat} plays {card}", seat=who(d['seat']), card=d['card'])
    return kind
