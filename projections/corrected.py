"""What the corrections said of each hand, one row per hand they changed (a pure fold).

A correction changes the hand it corrects and every later hand of its table it settles
again. Each such hand keeps a row of its own, keyed by the hand: the entries of the
corrections that changed it, oldest first, each with what it records of that hand (its
new settlement whole, or what changed in it: projections/corrections.py). The table's row
keeps only its running state, so it stays the same size whatever its history, and a hand's
page reads its own row alone. Tables whose rows were kept before (with every hand's
entries under ``corrections``) are read the same way until ``bitka replay --rebuild``.
"""
from __future__ import annotations

from typing import Mapping

NAME = "corrected"
EVENTS = frozenset({"correction"})
_SAID = ("settlement", "changed", "removed")  # what a correction's ``settlements`` entry records of a hand


def keys(event) -> dict[str, dict | None]:
    """The hands a correction changes (the one it corrects, then those it settles again),
    each with what it records of that hand (None: it settles the hand as before)."""
    d = event.data
    said = {s["hand"]: s for s in d["settlements"]}
    return {hand: said.get(hand) for hand in dict.fromkeys([d["hand"], *said])}


def apply(row: dict | None, event, said: Mapping | None) -> dict:
    """A hand's row once ``event`` (a correction) changed it; ``said``: what the correction
    records of that hand (``keys``)."""
    d = event.data
    entry = {"seq": event.seq, "hand": d["hand"], "reason": d["reason"]}
    if "waits_for" in d:  # logged since members' word is asked: a pending hand corrected is a new result
        entry["asks"] = True
    if d.get("void"):
        entry["void"] = True
    elif "cards" in d:
        entry["by_cards"] = True
        if said is None or said["hand"] == d["hand"]:  # the hand it corrects: its cards are kept with it alone
            entry["cards"] = d["cards"]
    else:
        entry["result"] = d["result"]
    if said is not None:
        entry.update({k: said[k] for k in _SAID if k in said})
    return {"table": event.table, "entries": [*(row or {}).get("entries", []), entry]}


def entries(row: Mapping | None) -> list[dict]:
    """A hand's row's entries, oldest first (none: no correction changed it)."""
    return list((row or {}).get("entries", []))


def of_hand(reader, group: str, hand: str, table_row: Mapping | None = None) -> list[dict]:
    """What the corrections made at a table say of ``hand``, oldest first: those kept in the
    table's row before hands had rows of their own, then the hand's row's."""
    kept = (table_row or {}).get("corrections", {}).get(hand, [])
    return [*kept, *entries(reader.row(NAME, group, hand))]


def from_events(events, hand: str) -> list[dict]:
    """The entries of ``hand``'s row, folded from the corrections among ``events`` (its trail:
    its own events and the corrections that settled it again)."""
    row = None
    for env in events:
        changed = keys(env) if env.type in EVENTS else {}
        if hand in changed:
            row = apply(row, env, changed[hand])
    return entries(row)
