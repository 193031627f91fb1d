"""What a reader may see of the hands in play, read from the store: the cards each hand
hides from it (service/seating.py decides), and the log's events with those that would show
such a card sealed."""
from __future__ import annotations

from typing import Iterable

from events.merkle import leaf_hash
from events.sentences import say
from events.store import Reader
from events.types import HAND_EVENTS
from projections import folded
from projections import hands as hand_fold

from . import seating

ENDED = ("done", "voided")


def sealed_for(reader: Reader, group: str, model: hand_fold.HandModel, subject: str) -> frozenset[str]:
    """The cards of ``model`` that ``subject`` may not see now (seating.hidden)."""
    if model.ended:  # no table row needed
        return frozenset()
    return seating.hidden(model, reader.row("table", group, model.table), subject)


def hidden_in(reader: Reader, group: str, hand: str, subject: str) -> frozenset[str]:
    """The cards of ``hand`` that ``subject`` may not see now; a hand that ended (its summary
    row says so) is not folded at all."""
    row = reader.row("hand", group, hand)
    if row is None or row["phase"] in ENDED:
        return frozenset()
    model = folded.HANDS.model(reader, group, hand)
    return frozenset() if model is None else sealed_for(reader, group, model, subject)


def events_as_seen(reader: Reader, group: str, subject: str, page: Iterable) -> list[dict]:
    """The events of ``page`` as API.md serves them to ``subject``: each one that would show
    a card hidden from it sealed (data emptied, hashes kept, its Merkle leaf given)."""
    hidden: dict[str, frozenset[str]] = {}
    shown = []
    for env in page:
        if env.hand is None or env.type not in HAND_EVENTS:
            shown.append(env.public())
            continue
        if env.hand not in hidden:
            hidden[env.hand] = hidden_in(reader, group, env.hand, subject)
        if seating.is_sealed(env.data, hidden[env.hand]):
            shown.append(seating.sealed_envelope(env.public(), leaf_hash(env.canonical())))
        else:
            shown.append(env.public())
    return shown


def is_sealed_for(reader: Reader, group: str, subject: str, env) -> bool:
    """Would ``env`` be sealed for ``subject`` now?"""
    if env.hand is None or env.type not in HAND_EVENTS:
        return False
    return seating.is_sealed(env.data, hidden_in(reader, group, env.hand, subject))


SEALED_SUMMARY = say("sealed: it shows cards you may not see while the hand is in play")


def trail_as_seen(trail: dict, events: Iterable, hidden: frozenset[str]) -> dict:
    """A hand's audit trail with each event that would show a card of ``hidden`` said in no
    more words than that it is sealed."""
    for env, shown in zip(events, trail["events"], strict=True):
        if seating.is_sealed(env.data, hidden):
            shown.update(summary=SEALED_SUMMARY, sealed=True)
    return trail
