"""Who may log what at a table, and what each reader may see of a hand in play.

A table's ``entry`` rule says who logs cards: ``scorer`` (any member logs whole deals and
tricks for everyone) or ``seats`` (each member logs only its own seat's cards, bids, plays
and claims). Whatever the entry, a seat's own cards (``seat_cards``) come from that seat's
member, and the face-up ones from the dealer's; the admin may log anything.

While a hand is in play a reader sees what its game puts in its sight (the cards played and
face up, and its own seat's) and the cards it logged itself; the admin sees everything at a
scorer's table and, at a table where each seat logs its own cards, no more than a reader who
is not seated. Nothing is sealed once the hand ends.
"""
from __future__ import annotations

from typing import Any, Mapping

from events.errors import Refused
from games.engine.seen import cards_in, hidden_from, mask, names_a_card
from projections.hands import HandModel, parsed_rules
from . import auth

ENTRIES = ("scorer", "seats")


def entry_of(trow: Mapping) -> str:
    return trow.get("entry") or "scorer"


def seat_of(trow: Mapping, subject: str) -> int | None:
    """The reader's seat at the table, or None (the admin, or a member not seated there)."""
    seats = trow["seats"]
    return seats.index(subject) if subject in seats else None


def _seat_asked(body: Mapping, fallback: int | None) -> int | None:
    seat = body.get("seat", fallback)
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def may_log(actor: str, trow: Mapping, kind: str, body: Mapping, dealer: int, turn: int | None) -> None:
    """Refused (403) unless ``actor`` may send this ``kind`` of command (cards, bid, trick,
    play, claim) with ``body`` to a hand at the table of ``trow``. A seat out of range is
    left to the game, which says what is wrong with it (422)."""
    if actor == auth.ADMIN:
        return
    seated(actor, trow)
    seats = trow["seats"]

    def owner(seat: int | None) -> str | None:
        return seats[seat] if seat is not None and 0 <= seat < len(seats) else None

    if kind == "cards":
        if "seat" in body:
            member = owner(_seat_asked(body, None))
            if member is not None and member != actor:
                raise Refused(f"seat {body['seat']}'s cards are logged by the member in that seat, or the admin")
        elif owner(dealer) != actor:
            raise Refused("the face-up cards are logged by the dealer's member, or the admin")
        return
    if entry_of(trow) != "seats":
        return
    if kind == "trick":
        raise Refused("at this table each seat logs its own cards: play a card at a time (POST .../plays); "
                      "only the admin logs a whole trick")
    member = owner(_seat_asked(body, turn if kind == "play" else None))
    if member is not None and member != actor:
        raise Refused(f"at this table each seat logs its own {kind}s: seat {body.get('seat', turn)} is not yours")


def seated(actor: str, trow: Mapping) -> None:
    """Refused (403) unless ``actor`` is the admin or a member seated at the table."""
    if actor != auth.ADMIN and actor not in trow["seats"]:
        raise Refused("only a member seated at this table, or the admin, logs its hands")


def may_deal(actor: str, trow: Mapping, body: Mapping) -> None:
    """A hand is opened by a member seated at the table (or the admin). At a table where
    each seat logs its own cards, a member opens it with the dealer alone (the cards come
    seat by seat), or logs it by its result (signed, and it waits for its payers as any
    result does); a whole deal is the admin's."""
    if actor == auth.ADMIN:
        return
    seated(actor, trow)
    if entry_of(trow) != "seats":
        return
    if "deal" not in body:
        return
    if names_a_card(body.get("deal")) or any(body.get(k) for k in ("bids", "tricks", "plays")):
        raise Refused("at this table each seat logs its own cards: open the hand with {\"deal\": {\"dealer\": d}} "
                      "and let each seat send its cards (POST .../hands/{h}/cards)")


def sees_every_hand(trow: Mapping, subject: str) -> bool:
    """The admin of a scorer's table sees every card in play. At a table where each seat logs
    its own cards the admin may be playing, so it sees only what any reader not seated does."""
    return subject == auth.ADMIN and entry_of(trow) != "seats"


def hidden(model: HandModel, trow: Mapping, subject: str) -> frozenset[str]:
    """The cards of the hand ``subject`` may not see now: none once the hand ended, none for
    the admin of a scorer's table; else every card of the pack but those the game puts in the
    reader's sight (its seat's and the face-up: ``Game.sight.visible``), every card played and those
    it logged itself."""
    if model.ended or sees_every_hand(trow, subject):
        return frozenset()
    game = model.decider
    sight = game.sight.visible(model.state, seat_of(trow, subject)) | frozenset(game.sight.played(model.state))
    pack = game.sight.pack(parsed_rules(model.game, model.opened["rules"]))
    return hidden_from(pack, sight, model.logged_by.get(subject, ()))


def sealed_view(view: Mapping[str, Any], cards: frozenset[str]) -> Any:
    """A hand's view with each card of ``cards`` as null, in its place."""
    return mask(view, cards) if cards else view


def is_sealed(data: Mapping, cards: frozenset[str]) -> bool:
    """Would an event with ``data`` show one of ``cards``?"""
    return bool(cards) and not cards_in(data).isdisjoint(cards)


def sealed_envelope(public: Mapping[str, Any], leaf: bytes) -> dict:
    """An event as a reader who may not see its cards gets it: the envelope with ``data``
    emptied, ``hash`` and ``prev_hash`` as they are (the chain still checks), its Merkle
    ``leaf`` (its inclusion in a checkpoint still checks) and ``"sealed": true`` beside it."""
    return {**public, "data": {}, "sealed": True, "leaf": leaf.hex()}
