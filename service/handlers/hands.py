"""The hand's handlers: a hand dealt (or logged by its result), a call, trick, play or claim
of one being played, and the latest hand of a table voided. What each appends is decided by
the hand planner (planning.py)."""
from __future__ import annotations

from dataclasses import replace

from events.errors import Unprocessable
from events.sentences import say
from events.store import NewEvent, Writer

from projections import balances
from projections.groups import confirmations

from ..commands import HandMoved, NewHand, Play, VoidHand
from .planning import appended, carry_out, decide_new_hand, decide_play
from .lookups import group_row, hand_model, none_waits, table_row


def new_hand(c: NewHand, w: Writer) -> HandMoved:
    return carry_out(decide_new_hand(c, w), w)


def play(c: Play, w: Writer) -> HandMoved:
    """A call, trick, play or claim of a hand being played; the settlement with it when it
    ends the hand."""
    return carry_out(decide_play(c, w), w)


def void_hand(c: VoidHand, w: Writer) -> HandMoved:
    model = hand_model(w, c.group, c.hand)
    trow = table_row(w, c.group, model.table)
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} is already voided", hand=c.hand))
    none_waits(w, c.group, model.table)
    if trow["latest_hand"]["id"] != c.hand:
        raise Unprocessable(say("only the table's latest hand ({latest}) may be voided; the admin "
                                "corrects an earlier one (POST .../hands/{hand}/correct)",
                                latest=trow['latest_hand']['id'], hand=c.hand))
    data = {"reason": c.reason, "dealer": trow["latest_hand"]["dealer"],
            "reversed": (model.settlement or {}).get("payouts", [])}
    pending = w.pending_entry(c.group, c.hand)
    asks = confirmations(group_row(w, c.group)) != "off"  # a group that confirms nothing asks nobody's word
    data["waits_for"] = balances.lowered({"pending": {c.hand: pending} if pending else {}}, "hand_voided", c.hand,
                                         data) if asks else []
    version = w.version(c.group)
    return appended(w, c.group, c.actor, version,
                    [NewEvent("hand_voided", data, hand=c.hand, table=model.table)], replace(model, voided=data))

