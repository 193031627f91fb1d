"""The hand planner: what a new hand or a move of one appends, decided by its game on a
reader's snapshot (``decide``, a pure step: ``plan_hand`` appends nothing), and appended at
the version it was decided on (``carry_out``). What a refusal tells the member who asked is
decided here too (``_said_to``: nothing of the cards they may not see), and so is what an
event must carry so that its hash gives none away (``_salted``), and whether a settlement
counts at once or waits for its payers (``_confirmed``)."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Mapping

from events import acts
from events.errors import Invalid, RuleBroken, Unprocessable
from events.sentences import say
from events.store import NewEvent, Reader, Writer
from games.engine import seen
from games.engine import table as table_decider
from games.engine.base import Command
from games.engine.cards import parse_cards
from games.engine.errors import Incomplete, Malformed, Revealing, RuleViolation
from games.registry import GAMES
from projections import agreement
from projections import hands as hand_fold
from projections.groups import confirmations
from projections.settlements import settled
from projections.tables import terms as table_terms
from projections.tournaments import SCORE, played

from .. import seating, signing
from ..commands import HandMoved, NewHand, Play
from .lookups import group_row, hand_model, new_id, table_row


@dataclass(frozen=True)
class Decided:
    """A new hand or a move of one, decided on the group as a reader saw it at ``version``:
    the events it appends and the hand after them (``model``), appended nowhere yet. The
    table's row it was decided from tells a reader's view what it may show."""
    group: str
    actor: str
    version: int
    events: tuple[NewEvent, ...]
    model: hand_fold.HandModel
    table: dict


def decide(command: NewHand | Play, reader: Reader) -> Decided:
    """What ``command`` appends, decided on ``reader``'s snapshot; a refusal raises as
    ``handle`` would. ``carry_out`` appends it, while the group is still at that version."""
    match command:
        case NewHand():
            return decide_new_hand(command, reader)
        case Play():
            return decide_play(command, reader)
    raise TypeError(command)  # only a hand is dealt or moved ahead


def carry_out(decided: Decided, w: Writer) -> HandMoved:
    """Append what was decided: a VersionConflict if the group moved on meanwhile."""
    return appended(w, decided.group, decided.actor, decided.version, decided.events, decided.model)


def decide_new_hand(c: NewHand, reader: Reader) -> Decided:
    """A new hand at ``c.table``, dealt by a member who may deal it there."""
    version = reader.version(c.group)
    trow = table_row(reader, c.group, c.table)
    seating.may_deal(c.actor, trow, c.body)
    events, model = plan_hand(reader, c.group, c.table, c.body, new_id("h"))
    if "result" in c.body:
        events = _signed(reader, c.group, c.actor, c.signed, events, "result", c.body)
    events = _confirmed(reader, c.group, trow, events, c.actor, model.decider.moves.sitting_out(model.state))
    return Decided(c.group, c.actor, version, tuple(events), model, trow)


def decide_play(c: Play, reader: Reader) -> Decided:
    """A move of a hand being played, logged by a member who may log it; a refusal said as its
    sender may read it (``_said_to``)."""
    version = reader.version(c.group)
    model = hand_model(reader, c.group, c.hand)
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} was voided", hand=c.hand))
    if model.settlement is not None:
        raise RuleBroken(say("the hand is over and settled"))
    trow = table_row(reader, c.group, model.table)
    seating.may_log(c.actor, trow, c.kind, c.body, model.opened["dealer"], model.decider.moves.turn(model.state))
    try:
        events, after = _played(reader, c.group, trow, model, [(None, Command(c.kind, c.body))])
    except RuleBroken as e:  # a refusal tells its sender nothing of the cards it may not see
        said = _said_to(c.actor, trow, model, e, c.body)
        if said == e.detail:
            raise
        raise RuleBroken(said, field=e.field, **e.extra) from None
    if c.kind in SIGNED_MOVES:
        events = _signed(reader, c.group, c.actor, c.signed, events, c.kind, c.body)
    events = _confirmed(reader, c.group, trow, events, c.actor, model.decider.moves.sitting_out(model.state))
    return Decided(c.group, c.actor, version, tuple(events), after, trow)


SIGNED_MOVES = {"cards": "seat_cards", "play": "play"}  # a move of a hand that binds the member who sends it


def _signed(reader: Reader, group: str, actor: str, signed, events: list[NewEvent], act: str,
            asked: Mapping) -> list[NewEvent]:
    """The events with the act among them (a result, a seat's cards, a card played) carrying its
    member's signature (service/signing.py): its statement is the request's, the cards in
    canonical codes, a capture as it was asked (``null`` when none)."""
    kind = SIGNED_MOVES.get(act, act)
    at = next(i for i, e in enumerate(events) if e.type == kind)
    event = events[at]
    logged = acts.fields_of(act, event.hand, event.table, event.data)
    fields = dict(logged)
    if act == "result":
        fields["result"] = asked.get("result")
    elif act == "play":
        fields["capture"] = parse_cards(asked["capture"]) or None if asked.get("capture") is not None else None
    sealed = signing.sealed_by(reader, group, actor, act, fields, signed, logged)
    if not sealed:
        return events
    return [*events[:at], replace(event, data={**event.data, **sealed}), *events[at + 1:]]


def plan_hand(reader: Reader, group: str, table: str, body: Mapping, hand: str):
    """The events a new hand at ``table`` appends (its deal with its calls, tricks and plays,
    or its result; and its settlement when it is over) and the hand after them: decided by
    the game, appended nowhere. A score sheet's preview is this, and nothing more."""
    trow = table_row(reader, group, table)
    if trow["closed"]:
        raise Unprocessable(say("this table is closed"))
    if "deals" in trow and played(reader.row(SCORE, group, table)) >= trow["deals"]:
        raise Unprocessable(say("this table has played the {deals} deals of its round", deals=trow["deals"]))
    latest = trow["latest_hand"]
    if latest and latest["status"] == "playing":
        raise Unprocessable(say("hand {latest_id} at this table is still being played; finish it or void it first",
                                latest_id=latest['id']))
    game = GAMES[trow["game"]]
    rules = game.parse_rules(trow["rules"])
    context = table_decider.deal_context(game, rules, trow["match"])  # what the hand must know of its table
    if "result" in body and "deal" in body:
        raise Invalid(say("a hand is logged by its deal (and its play) or by its result alone, not both"),
                      errors={"result": [say("Give either deal or result.")]})
    if "result" in body:
        first, state = _result_start(game, rules, trow, body, context)
        commands = []
    elif "deal" in body:
        deal = ruled("deal", game.parse_deal, rules, body["deal"])
        if deal.data["dealer"] != trow["next_dealer"]:
            raise RuleBroken(say("it is seat {next_dealer}'s deal at this table, not seat {deal_data_dealer}'s",
                                 next_dealer=trow['next_dealer'],
                                 deal_data_dealer=deal.data['dealer']), field="deal.dealer")
        first = NewEvent("deal", {"game": trow["game"], "rules": rules.to_data(), **deal.data, **context})
        state = game.initial_state(rules, first.data)
        first = _salted(game, first, state)
        commands = [(f"{kind}s[{i}]", Command(kind, item)) for kind in ("bid", "trick", "play")
                    for i, item in enumerate(body.get(f"{kind}s") or [])]
    else:
        raise Invalid(say("a hand needs a deal"), errors={"deal": [say("Missing data for required field.")]})
    model = hand_fold.HandModel(hand, table, trow["game"], state, result=first.data.get("result"), opened=first.data)
    return _played(reader, group, trow, model, commands, [replace(first, hand=hand, table=table)])


def _result_start(game, rules, trow: dict, body: Mapping, context: dict):
    """A hand logged by its result alone: its ``result`` event and the hand it describes."""
    extra = sorted(set(body) - {"result", "dealer"})
    if extra:
        raise Unprocessable(say("a hand logged by its result has only dealer and result, not {extra}",
                                extra=', '.join(extra)))
    dealer = body.get("dealer", trow["next_dealer"])
    if dealer != trow["next_dealer"]:
        raise RuleBroken(say("it is seat {next_dealer}'s deal at this table, not seat {dealer}'s",
                             next_dealer=trow['next_dealer'], dealer=dealer), field="dealer")
    event = ruled("result", game.parse_result, rules, dealer, body["result"])
    data = {"game": trow["game"], "rules": rules.to_data(), **event.data, **context}
    return NewEvent("result", data), game.result_state(rules, data)


def ruled(where: str | None, rule, *args):
    """``rule(*args)``, a game's RuleViolation becoming a RuleBroken that says where it
    struck, and a result without fields it needs an Invalid naming each of them."""
    try:
        return rule(*args)
    except RuleViolation as e:
        broken = RuleBroken(f"{where}: {e.detail}" if where else e.detail, field=where)
        if isinstance(e, Revealing):  # what to say instead to whoever may not see that seat's cards
            broken.revealing = (e.seat, f"{where}: {e.public}" if where else e.public)
        raise broken from None
    except Incomplete as e:
        prefix = f"{where}." if where else ""
        missing = {prefix + name: [say("Missing data for required field.")] for name in e.fields}
        raise Invalid(e.detail, errors=missing) from None
    except Malformed as e:
        field = ".".join(part for part in (where, e.field) if part)
        raise Invalid(f"{where}: {e.detail}" if where else e.detail, errors={field: [e.detail]}) from None


def _played(reader: Reader, group: str, trow: dict, model, commands, first=()):
    """Decide each command in turn on the evolving state: the events (all of them, or a
    refusal) and the hand's model after them, settled when it is over."""
    game, state = model.decider, model.state
    events = list(first)
    for where, command in commands:
        if game.is_terminal(state):
            raise RuleBroken(say("{where}: the hand is already over", where=where), field=where)
        for ev in ruled(where, game.decide, state, command):
            state = game.evolve(state, ev)
            events.append(_salted(game, NewEvent(ev.type, ev.data, hand=model.id, table=model.table), state))
    settlement = model.settlement
    if game.is_terminal(state) and settlement is None:
        digits = group_row(reader, group)["digits"]
        settlement = settled(game, state, table_terms(trow, digits), digits)
        events.append(NewEvent("settlement", settlement, hand=model.id, table=model.table))
    return events, replace(model, state=state, settlement=settlement)


def _said_to(actor: str, trow: dict, model, e: RuleBroken, asked: Mapping) -> str:
    """The refusal as ``actor`` may read it: a refusal that tells what a seat holds is said
    in the words that do not, when some of that seat's cards (any seat's, for a refusal of a
    claim) are hidden from the actor; any other card it names that the actor may not see, as
    ?. The cards the actor's own request named are its own words and are said back as they
    are: masking them where they are hidden would tell which of them are."""
    hidden = seating.hidden(model, trow, actor)
    if not hidden:
        return e.detail
    revealing = getattr(e, "revealing", None)
    if revealing is not None:
        seat, public = revealing
        held = model.decider.moves.held(model.state)
        if seat is None or not 0 <= seat < len(held) or not hidden.isdisjoint(held[seat]):
            return public
    return seen.mask_text(e.detail, hidden - seen.cards_in(asked))


def _salted(game, event: NewEvent, after) -> NewEvent:
    """An event that names a card still hidden after it from a reader not seated (a seat's
    cards, a deal, a draw) carries 16 random bytes: its hash, which every member can read
    while its data is sealed, would otherwise give the cards away to anyone who tried each
    way they could lie."""
    if seen.cards_in(event.data) <= game.sight.visible(after, None) | frozenset(game.sight.played(after)):
        return event
    return replace(event, data={**event.data, "salt": secrets.token_hex(16)})


def appended(w: Writer, group: str, actor: str, version: int, events, model) -> HandMoved:
    """Append ``events`` at ``version``: the hand after them (its settlement as recorded, who
    logged what) and the envelopes appended."""
    envelopes = w.append(group, events, actor, expected_version=version)
    logged_by = model.logged_by
    for envelope in envelopes:
        logged_by = hand_fold.logged(logged_by, envelope)
        if envelope.type == "settlement":  # as recorded: with its confirmation decided
            model = replace(model, settlement=envelope.data, settled_by=envelope.actor,
                            confirmation="pending" if envelope.data.get("confirmed") is False else "counted")
    return HandMoved(replace(model, seqs=(*model.seqs, *(e.seq for e in envelopes)), logged_by=logged_by),
                     tuple(envelopes))


def _confirmed(reader: Reader, group: str, trow: dict, events: list[NewEvent], actor: str,
               sitting_out: frozenset[int]) -> list[NewEvent]:
    """The events with their settlement's confirmation decided (projections/agreement.py): at
    once when nobody but its logger pays, when the group confirms nothing, or when every seat
    that plays (``sitting_out`` aside) logged and played its own cards; else it waits for each
    other payer (``"confirmed": false``)."""
    out = []
    for event in events:
        if event.type == "settlement":
            why = _confirmed_because(reader, group, trow, events, event, actor, sitting_out)
            data = {**event.data, "confirmed": why is not None}
            if why is not None:
                data["confirmed_because"] = why
            event = replace(event, data=data)
        out.append(event)
    return out


def _confirmed_because(reader: Reader, group: str, trow: dict, events, settlement: NewEvent,
                       actor: str, sitting_out: frozenset[int]) -> str | None:
    own = agreement.OwnPlay(trow["seats"], seating.entry_of(trow) == "seats", sitting_out)
    if own.holds and settlement.hand is not None:
        for env in reader.hand_events(group, settlement.hand):
            own.add(env.type, env.data, env.actor)
    for event in events:
        if event.type != "settlement":
            own.add(event.type, event.data, actor)
    payers = agreement.payers(settlement.data["payouts"])
    return agreement.at_once(payers, actor, confirmations(group_row(reader, group)) != "off", own.whole)

