"""A hand as its page shows it to one reader: the deal as far as they may see it, the
tricks, the settlement in words, whether it counts yet and what the reader may say of it,
the log, and the live part a seated player's phone acts in (what it owes, its legal cards,
its calls and claims). The hand's page (hands.py) and the phone's answers (phone.py), the
live part again and a refused move, draw the same page from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from flask import g, render_template
from flask_babel import gettext as _

from events.errors import NotFound
from events.money import format_amount
from games.engine import view_keys as keys
from games.engine.seen import cards_in
from projections import audit as audit_trail
from projections.balances import waiting as balances_waiting
from projections.groups import member_name
from projections.hands import settled_at
from ..handlers import lookups
from ..sealed import sealed_for, trail_as_seen
from ..views import hand_view
from . import once
from .base import hand_name, hand_numbers, page_of
from .cards import in_order
from .signed_form import signer
from .words import about


def hand_page_of(group: str, hand: str, problem: str | None = None, status: int = 422, picked: Sequence[str] = ()):
    """The hand's page for this reader; with ``problem`` (a move refused), the page again
    with the refusal said on it, as a 422 (a 403 for a move its member's signature is missing
    from), and the cards its phone had ticked (``picked``) ticked again."""

    def view(r, grow, principal, form_token):
        return render_template("hand.html", **hand_context(r, group, hand, grow, principal, form_token, problem,
                                                           picked))
    page = page_of(group, view)
    return (page, status) if problem and isinstance(page, str) else page


def hand_context(r, group: str, hand: str, grow: dict, principal, form_token: str, problem: str | None,
                 picked: Sequence[str] = ()) -> dict:
    """What a hand's page shows a reader, for the whole page and for its live part alike;
    ``picked``: the cards a refused pick had ticked (``seat_view``)."""
    events = audit_trail.events_of(r, group, hand)
    if not events:
        raise NotFound(_("there is no hand %(hand)s in this group", hand=repr(hand)))
    trow = r.row("table", group, events[0].table)
    model = lookups.hand_model(r, group, hand)
    hidden = sealed_for(r, group, model, principal.subject)
    g.sealed = bool(hidden) or not model.ended  # what one player sees of a hand in play is theirs alone
    trail = trail_as_seen(audit_trail.trail(events, trow, grow, marked=True), events, hidden)  # words: said
    live = live_part(r, group, grow, model, principal, Pick(tuple(picked), problem or ""))
    numbers = hand_numbers(r, group, model.table)  # the hand's and those its sentences name
    opened = events[0].data if events[0].type in ("deal", "result") else None
    title = hand_name(numbers[hand], live["seats"][opened["dealer"]]) if hand in numbers and opened else _("A hand")
    sides = [list(s) for s in model.decider.table.sides(model.decider.parse_rules(trow["rules"]))]
    waiting = balances_pending(r, group, hand)
    signer(r, group, principal)
    return dict(
        group=grow, principal=principal, form_token=form_token, trail=trail, title=title,
        game=model.decider.title, once=once.key(), problem=problem, latest=trow["latest_hand"]["id"] == hand,
        verdict=verdict_choices(waiting, principal, trow), settlement=settlement_hash(r, group, model),
        signs_payouts=payouts_said(waiting, live["seats"], grow["digits"]),
        correction_wait=correction_wait(r, group, grow, live["hand"].get("correction_waiting"), principal),
        waiting_for=[member_name(grow, m) for m in balances_waiting(waiting)] if waiting else [],
        admin=principal.is_admin, sides=sides, numbers=numbers, unit=model.decider.forms.unit,
        can_play=keys.phase(live["hand"]) in keys.DEALT_OUT and model.decider.capabilities.logged_by == "tricks"
        and not hidden, **live)


def settlement_hash(r, group: str, model) -> str | None:
    """The hash of the event that settled the hand as it now stands (what a confirmation or a
    dispute speaks of, and signs), or None while it is not settled."""
    seq = settled_at(model)
    return r.hash_at(group, seq) if seq is not None else None


def correction_wait(r, group: str, grow: dict, waiting: dict | None, principal) -> dict | None:
    """A correction (or void) of the hand that waits for the members it lowers: who they are,
    whether the reader is one of them still to agree, and the hash of the correction their
    agreement signs (None when nothing waits)."""
    if not waiting or not waiting.get("waiting_for"):
        return None
    return {"names": [m["name"] for m in grow["members"] if m["id"] in waiting["waiting_for"]],  # the group's order
            "mine": principal.subject in waiting["waiting_for"],
            "correction": waiting.get("correction") or r.hash_at(group, waiting["seq"])}


def payouts_said(waiting: dict | None, seats: list[str], digits: int) -> list[tuple[str, str]]:
    """What a result that waits pays each seat, by name (what a confirmation of it signs for)."""
    return [(seats[seat], format_amount(amount, digits))
            for seat, _member, amount in (waiting or {}).get("payouts", [])]


def balances_pending(r, group: str, hand: str) -> dict | None:
    """The hand's result while it does not count yet (waiting for payers, or disputed), else None."""
    return r.pending_entry(group, hand)


def verdict_choices(waiting: dict | None, principal, trow: dict) -> dict:
    """What the viewer may say of a hand that does not count yet: confirm it (a member who
    pays in it and has not agreed yet), dispute it (a member seated at its table)."""
    if waiting is None or principal.is_admin:
        return {"confirm": False, "dispute": False}
    return {"confirm": principal.subject in balances_waiting(waiting),
            "dispute": principal.subject in trow["seats"], "state": waiting["state"]}


@dataclass(frozen=True)
class Pick:
    """The cards a phone ticked and sent, and the refusal they got (none: nothing refused)."""
    cards: tuple[str, ...] = ()
    refusal: str = ""

    def told_not_mine(self) -> set[str]:
        """The cards ticked that the refusal names: its phone was told it cannot pick them up
        (seen already in the hand: a card is seen only once)."""
        return {word.strip(".,:;'\"()") for word in self.refusal.split()} & set(self.cards)


def could_hold(game, rules, shown: dict, owes: int, pick: Pick) -> list[str]:
    """The cards a phone offers its seat to pick up, as the picker lays them out: every card
    of the pack but those the seat has seen in the hand (its own, those played, face up,
    turned for trumps) and those a refusal of its last pick told it are not its own; never
    judged on a card hidden from it (another seat's, which it may well pick by mistake)."""
    shown_cards = cards_in({k: v for k, v in shown.items() if k not in ("rules", "settlement")})
    could = [c for c in game.sight.pack(rules) if c not in shown_cards]
    # The face-up trump card is the stock's last card: whoever draws when the stock runs out takes it.
    last = keys.trump_drawn_last(shown) if owes else None
    if last:
        could.append(last)
    told = pick.told_not_mine()
    return in_order(c for c in could if c not in told)


def seat_view(model, shown: dict, seat: int | None, trow: dict, principal, pick: Pick = Pick()) -> dict:
    """What the phone of ``seat`` may do now (nothing for a reader without a seat); ``pick``:
    the cards its last pick ticked, ticked again (but those its refusal named) when that pick
    was refused."""
    game, state = model.decider, model.state
    rules = game.parse_rules(trow["rules"]) if trow else None
    owed = game.moves.owed(state) if not model.ended else {}
    mine = {"seat": seat, "owes": 0, "turn": False, "legal": [], "plays": [], "calls": [], "claims": False,
            "turn_up": None, "instead": [], "pack": [], "picked": [], "watching": False}
    in_play = not model.ended and keys.phase(shown) in keys.IN_PLAY
    if seat is None or not in_play:
        return mine
    if seat in game.moves.sitting_out(state):  # it watches: it owes, plays, calls and claims nothing
        return {**mine, "watching": True}
    mine["owes"] = owed.get(str(seat), 0)
    mine["pack"] = could_hold(game, rules, shown, mine["owes"], pick)
    mine["picked"] = [c for c in pick.cards if c in mine["pack"]] if pick.refusal else []
    if seat == keys.dealer(shown) and ("table" in owed or "trump" in owed):
        mine["turn_up"] = "table" if "table" in owed else "trump"
        mine["turn_up_count"] = owed.get("table", 1)
        mine["instead"] = list(game.moves.instead_of_turning(state, seat)) if mine["turn_up"] == "trump" else []
    if owed:
        return mine
    turn = game.moves.turn(state)
    mine["turn"] = turn == seat
    on_table = keys.on_table(shown)
    if mine["turn"]:
        if game.capabilities.logged_by == "tricks":
            mine["legal"] = list(game.moves.legal_cards(state, seat, on_table))
        else:
            mine["plays"] = game.moves.legal_plays(state)
    mine["calls"] = list(game.moves.offers(state, seat))
    mine["claims"] = game.capabilities.claims
    mine["claim_says"] = game.capabilities.claim_says
    return mine


def live_part(r, group: str, grow: dict, model, principal, pick: Pick = Pick()) -> dict:
    """Everything the hand's live part needs, for the page and for the fragment alike."""
    trow = lookups.table_row(r, group, model.table)
    about(trow["game"])
    hidden = sealed_for(r, group, model, principal.subject)
    shown = hand_view(model, hidden)
    seats = [member_name(grow, m) for m in trow["seats"]]
    seat = trow["seats"].index(principal.subject) if principal.subject in trow["seats"] else None
    return {"hand": shown, "seats": seats, "mine": seat_view(model, shown, seat, trow, principal, pick), "table": trow,
            "version": r.version(group)}
