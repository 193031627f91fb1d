"""The last moves of a group's balances, kept in a row of their own beside the balances row:
what the group's chart draws, read at once instead of folding the whole log.

A step is an event that moved at least one balance (a hand that counted, a void, a
correction, an agreement, a payment): its seq, whether it was a hand's (a payment is not:
the chart counts the hands), and each member it moved, with the balance before and after.
The row keeps the last ``KEPT`` steps; the balances before them follow from the balances
now, going back a step at a time (``states``).

The fold is given the balances row before and after the event (the balances fold's, which
the projector and replay run first): ``apply(row, event, before, after)``.
"""
from __future__ import annotations

NAME = "balance_steps"
KEPT = 40  # the steps the group's chart draws
EVENTS = frozenset({"settlement", "hand_voided", "confirmation", "correction", "agreement", "payment",
                    "payment_received"})  # those after which a balance can change
PAYMENTS = ("payment", "payment_received")


def apply(row: dict | None, event, before: dict | None, after: dict | None) -> dict | None:
    """``row`` once ``event`` moved the balances from ``before`` to ``after`` (balances rows,
    None before the group's first event): a step more if it moved one, the oldest dropped."""
    if after is None or event.type not in EVENTS:
        return row
    was, now = (before or {}).get("members", {}), after["members"]
    if now is was:
        return row
    moved = {m: [was.get(m, 0), v] for m, v in now.items() - was.items() if was.get(m, 0) != v}
    if not moved:
        return row
    step = {"seq": event.seq, "hand": event.type not in PAYMENTS, "moved": moved}
    return {"steps": [*(row or {}).get("steps", [])[-(KEPT - 1):], step]}


def states(row: dict | None, members: dict[str, int]) -> tuple[list[dict[str, int]], list[bool]]:
    """The balances before each kept step and after the last (``members``: the balances now),
    oldest first, and whether each step was a hand's. A member missing from a state had 0."""
    steps = (row or {}).get("steps", [])
    found, state = [dict(members)], dict(members)
    for step in reversed(steps):
        state = dict(state)
        for member, (was, _now) in step["moved"].items():
            state[member] = was
        found.append(state)
    found.reverse()
    return found, [step["hand"] for step in steps]


def rebuilt(events, fold) -> dict | None:
    """The row from a group's events that ``fold`` (the balances fold) reads, in log order:
    what a store from before the row was kept gets (events/migrations.py)."""
    row, balances = None, None
    for env in events:
        was, balances = balances, fold(balances, env)
        row = apply(row, env, was, balances)
    return row
