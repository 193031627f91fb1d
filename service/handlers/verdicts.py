"""What is said of a settled hand: a payer confirms it (one hand, or every hand of a table
that waits for them), a seated member disputes it, the admin corrects it (a result, its
cards again, or a void) and every later hand of its table is settled again."""
from __future__ import annotations

from dataclasses import replace
from itertools import dropwhile

from events import acts, limits
from events.canonical import canonical_bytes
from events.errors import Refused, RuleBroken, Unprocessable
from events.sentences import say
from events.store import NewEvent, Writer
from games.registry import GAMES
from projections import balances, corrections
from projections import hands as hand_fold
from projections.groups import confirmations, member_name
from projections.tables import stake_of

from .. import auth, signing
from ..commands import Agree, Confirm, ConfirmTable, Correct, Dispute, HandMoved
from .planning import appended, ruled
from .lookups import group_row, hand_model, none_waits, table_row


def confirm(c: Confirm, w: Writer) -> HandMoved:
    """A member who pays in a hand's settlement (not its logger) agrees to it: it counts once
    every payer has."""
    if c.actor == auth.ADMIN:
        raise Refused(say("the admin token is no member: each member who pays in the hand confirms it (the admin "
                          "corrects)"))
    model = hand_model(w, c.group, c.hand)
    _settled_hand(model, c.hand)
    waiting = w.pending_entry(c.group, c.hand)
    if waiting is None:
        raise Unprocessable(say("hand {hand} is confirmed already: it counts in the balances", hand=c.hand))
    if c.actor not in balances.waiting(waiting):
        names = ", ".join(member_name(group_row(w, c.group), m) for m in balances.waiting(waiting))
        if c.actor in {member for _, member, amount in waiting["payouts"] if amount < 0}:
            raise Unprocessable(say("you have agreed to hand {hand} already; it waits for {names}",
                                    hand=c.hand, names=names))
        raise Refused(say("only a member who pays in hand {hand}, other than the one who logged it, confirms it: "
                          "{names}",
                          hand=c.hand, names=names or say("nobody else")))
    data = _signed_verdict(w, c.group, c.actor, "confirm", model, c.signed)
    version = w.version(c.group)
    moved = appended(w, c.group, c.actor, version,
                     [NewEvent("confirmation", data, hand=c.hand, table=model.table)], model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def _signed_verdict(w: Writer, group: str, actor: str, act: str, model: hand_fold.HandModel, signed,
                    **more) -> dict:
    """What a confirmation or dispute records: the settlement it speaks of, and its signature
    when its member signs (``{}`` for a member before keys)."""
    settlement = w.hash_at(group, hand_fold.settled_at(model))
    fields = {"hand": model.id, "settlement": settlement, **more}
    sealed = signing.sealed_by(w, group, actor, act, fields, signed)
    return {**more, "settlement": settlement, **sealed} if sealed else dict(more)


def confirm_table(c: ConfirmTable, w: Writer) -> list[str]:
    """Every pending settlement at a table that waits for this member, confirmed at once:
    the hands confirmed, in the order they were logged (none: nothing waited for it)."""
    if c.actor == auth.ADMIN:
        raise Refused(say("the admin token is no member: each member who pays confirms (the admin corrects)"))
    table_row(w, c.group, c.table)
    hands = [hand for hand, entry in w.pending_entries(c.group, table=c.table)
             if c.actor in balances.waiting(entry)]
    if not hands:
        return hands
    if signing.needed(w, c.group, c.actor):
        unsigned = [h for h in hands if h not in c.signatures]
        if unsigned:
            statements = [acts.statement("confirm", c.group, None, {
                "hand": h, "settlement": w.hash_at(c.group, hand_fold.settled_at(hand_model(w, c.group, h)))})
                for h in unsigned]
            raise Refused(say("confirming needs your signature for each hand that waits for you: {hands} (one "
                              "{{\"hand\", \"kid\", \"nonce\", \"sig\"}} each in signatures)",
                              hands=", ".join(unsigned)), statements=statements)
        nonces = [c.signatures[h].nonce for h in hands]
        if len(set(nonces)) < len(nonces):
            raise Refused(say("each signature needs a nonce of its own"))
    events = [NewEvent("confirmation", _signed_verdict(w, c.group, c.actor, "confirm", hand_model(w, c.group, h),
                                                       c.signatures.get(h)), hand=h, table=c.table) for h in hands]
    w.append(c.group, events, c.actor, expected_version=w.version(c.group))
    return hands


def dispute(c: Dispute, w: Writer) -> HandMoved:
    """A member seated at the hand's table says it is wrong: it stays out of the balances
    until a payer confirms it or the admin corrects it."""
    model = hand_model(w, c.group, c.hand)
    trow = table_row(w, c.group, model.table)
    if c.actor not in trow["seats"]:
        raise Refused(say("a hand is disputed by a member seated at its table; the admin corrects it"))
    _settled_hand(model, c.hand)
    if w.pending_entry(c.group, c.hand) is None:
        raise Unprocessable(say("hand {hand} is confirmed: it can no longer be disputed, only corrected by the admin",
                                hand=c.hand))
    data = _signed_verdict(w, c.group, c.actor, "dispute", model, c.signed, reason=c.reason)
    version = w.version(c.group)
    event = NewEvent("dispute", data, hand=c.hand, table=model.table)
    moved = appended(w, c.group, c.actor, version, [event], model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def correct(c: Correct, w: Writer) -> HandMoved:
    """The admin replaces a past hand's outcome (a result, or a void) and every later hand of
    its table is settled again on the table as it now stood: one ``correction`` event with
    each hand's new settlement and the difference each now pays."""
    model = hand_model(w, c.group, c.hand)
    trow, grow = table_row(w, c.group, model.table), group_row(w, c.group)
    game = GAMES[trow["game"]]
    rules = game.parse_rules(trow["rules"])
    past = _past(w, c.group, model.table, c.hand)
    playing = corrections.in_play(past)
    if playing is not None:
        raise Unprocessable(say("hand {playing_id} at this table is still being played: finish it or void it before "
                                "correcting a hand",
                                playing_id=playing.id))
    target = next(h for h in past if h.id == c.hand)
    by_cards = corrections.logged_by_cards(target)
    result = None
    if c.result is not None:
        if by_cards:
            given = _cards_give(target)
            raise RuleBroken(say("hand {hand}'s cards were logged, so it is corrected by its cards (the whole hand "
                                 "again, \"cards\") or voided, not by a result; {given}",
                                 hand=c.hand, given=given), field="result")
        result = ruled("result", game.parse_result, rules, target.opened["dealer"], c.result).data["result"]
    elif c.cards is not None:
        if not by_cards:
            raise RuleBroken(say("hand {hand} was logged by its result alone, so it is corrected by a result",
                                 hand=c.hand),
                             field="cards")
    elif target.settlement is None:
        raise Unprocessable(say("hand {hand} already counts as never played: there is nothing to void",
                                hand=c.hand))
    none_waits(w, c.group, model.table)
    decided = corrections.corrected(game, rules, stake_of(trow, grow["digits"]), trow["seats"],
                                    grow["digits"], past, c.hand, result, c.cards, most=limits.MOST_SETTLED_AGAIN)
    if result is not None:
        outcome = {"result": result}
    else:
        outcome = {"cards": c.cards} if c.cards is not None else {"void": True}
    data = {"hand": c.hand, "reason": c.reason, **outcome,
            "adjustments": decided.adjustments,
            "settlements": corrections.recorded(decided, past, c.hand), "table": decided.table}
    data["waits_for"] = balances.lowered(_pending_of(w, c.group, [c.hand, *(a["hand"] for a in decided.adjustments)]),
                                         "correction", c.hand, data) if confirmations(grow) != "off" else []
    limits.refuse_correction_over(len(canonical_bytes(data)), len(decided.settlements))
    version = w.version(c.group)
    moved = appended(w, c.group, c.actor, version, [NewEvent("correction", data, hand=c.hand, table=model.table)],
                     model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def _past(w: Writer, group: str, table: str, target: str) -> list[corrections.PastHand]:
    """The table's hands as a correction of ``target`` reads them: each one's outcome (its
    deal or result, settlement, void, corrections), and the cards played only in ``target``
    and in the hands after it that one request may settle again: a correction at a table of
    thousands of hands played card by card reads no more cards than it may use."""
    outline = w.table_events(group, table, without=corrections.CARDS)
    hands, window, settled = corrections.history(outline), [], 0
    for hand in dropwhile(lambda h: h.id != target, hands):  # the target, then as many settled hands as it may
        window.append(hand.id)  # settle again and the one that tells it it may not (a void is settled by nothing)
        settled += hand.settlement is not None
        if settled > limits.MOST_SETTLED_AGAIN + 1:
            break
    played = [env for hand in window for env in w.hand_events(group, hand) if env.type in corrections.CARDS]
    return corrections.history(sorted([*outline, *played], key=lambda env: env.seq)) if played else hands


def _pending_of(w: Writer, group: str, hands) -> dict:
    """A balances row holding just the named hands' settlements that do not count yet."""
    return {"pending": {h: e for h in dict.fromkeys(hands) if (e := w.pending_entry(group, h)) is not None}}


def agree(c: Agree, w: Writer) -> HandMoved:
    """A member a correction (or a void) lowers agrees to it: once each such member has, it
    counts."""
    model = hand_model(w, c.group, c.hand)
    waits = balances.corrections_waiting(w.row(balances.NAME, c.group, ""), hand=c.hand)
    found = [e for e in waits if c.actor in e["waiting_for"] and c.actor not in e["agreed"]]
    if not waits:
        raise Unprocessable(say("no correction of hand {hand} waits for anyone's word", hand=c.hand))
    if not found:
        names = ", ".join(member_name(group_row(w, c.group), m) for m in waits[0]["waiting_for"]
                          if m not in waits[0]["agreed"])
        raise Refused(say("the correction of hand {hand} does not wait for you: it waits for {names}",
                          hand=c.hand, names=names))
    entry = found[0]
    correction = w.hash_at(c.group, entry["seq"])
    sealed = signing.sealed_by(w, c.group, c.actor, "agree", {"hand": c.hand, "correction": correction}, c.signed)
    data = {"correction": correction, "seq": entry["seq"], **sealed}
    moved = appended(w, c.group, c.actor, w.version(c.group),
                     [NewEvent("agreement", data, hand=c.hand, table=model.table)], model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def _settled_hand(model: hand_fold.HandModel, hand: str) -> None:
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} was voided: there is nothing to confirm or dispute", hand=hand))
    if model.settlement is None:
        raise Unprocessable(say("hand {hand} is not settled yet: it is confirmed or disputed once it ends", hand=hand))


def _cards_give(hand: corrections.PastHand) -> str:
    """What a hand's logged cards give, in a sentence: its outcome and each seat's payout."""
    if hand.settlement is None:
        return say("its cards settle nothing yet")
    outcome = hand.settlement.get("outcome")
    paid = ", ".join(f"seat {p['seat']} {p['amount']}" for p in hand.settlement.get("payouts", []))
    if not paid:
        return say("its cards give {outcome}", outcome=outcome)
    return say("its cards give {outcome}: {paid}", outcome=outcome, paid=paid)

