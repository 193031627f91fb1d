"""The events of a hand in words, for its audit trail: what each game's ``describe`` is made
of. ``who(seat)`` names a seat as the group knows it ("seat 1 (Ala)")."""
from __future__ import annotations

import json
from typing import Callable, Mapping

Who = Callable[[int], str]


def dealt(d: Mapping, who: Who, shown: str = "") -> str:
    """A deal: who dealt, and each seat's cards (the rules are the deal event's own, beside
    it); ``shown`` adds what else the game deals (table cards, a stock, a trump card)."""
    dealer = who(d["dealer"])
    if not any(d["hands"]):
        return f"{dealer} deals. The cards are logged seat by seat, as each seat sees them."
    hands = "; ".join(f"{who(s)}: {' '.join(h)}" for s, h in enumerate(d["hands"]))
    return f"{dealer} deals. {hands}{shown}"


def fact(key: str, value, who: Who) -> str:
    """One field of a result in words: seats by who sits there, a list as a list."""
    if value is None:
        return f"{key}: a tie"
    if key in ("stare", "declarer", "partner") or (key == "doubles" and isinstance(value, list)):
        seats = value if isinstance(value, list) else [value]
        if not seats:
            return f"{key}: none"
        return f"{key}: " + (" → " if key == "doubles" else " + ").join(who(s) for s in seats)
    if isinstance(value, list):  # one value per side, in side order
        return f"{key}: " + " / ".join(json.dumps(v) for v in value)
    return f"{key}: {value}"


def result(d: Mapping, who: Who) -> str:
    shown = ", ".join(fact(k, v, who) for k, v in d["result"].items())
    return f"{who(d['dealer'])} deals {d['game']}; the hand is logged by its result alone, without its cards: {shown}"


def call(d: Mapping, who: Who) -> str:
    jack = f" with the holder of {d['jack']}" if d.get("jack") else ""
    return f"{who(d['seat'])} calls {d['call']}{jack}"


def trick(d: Mapping, who: Who) -> str:
    return (f"trick {d['trick']}: {who(d['leader'])} leads; cards {' '.join(d['cards'])}; "
            f"{who(d['winner'])} wins {d['points']} card points")


def thrown_in(d: Mapping, who: Who) -> str:
    counted = "; ".join(f"trick {t['trick']} {' '.join(t['cards'])}" for t in d["tricks"])
    return (f"{who(d['seat'])} throws in: every legal way to play the last {len(d['tricks'])} trick(s) settles "
            f"alike; counted as {counted} (not played)")


def seen(d: Mapping, who: Who) -> str:
    """Cards logged as they are seen: a seat's, the face-up ones, or the trump card."""
    if "table" in d:
        return f"the face-up cards are turned: {' '.join(d['table'])}"
    if "trump" in d:
        return f"the trump card is turned: {d['trump']}" if d["trump"] else "a knock: hearts are trump"
    return f"{who(d['seat'])} logs the cards they see: {' '.join(d['cards'])}"


def any_event(kind: str, d: Mapping, who: Who) -> str:
    """An event a game has no words of its own for: cards seen, a card played, else its type."""
    if kind == "seat_cards":
        return seen(d, who)
    if kind == "play" and "seat" in d and "card" in d:
        return f"{who(d['seat'])} plays {d['card']}"
    return kind
