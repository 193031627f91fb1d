"""The handlers: what a client can ask of a group's ledger, ``handle(command, writer)``.

Each handler reads what it needs inside the write transaction, lets the game decide (a pure
step: ``plan_hand`` and ``plan_play`` append nothing), appends the resulting events at the
version it decided on (the projector updates the rows in the same transaction), and
returns a domain result (service/commands.py). Routes, pages and ``bitka demo`` turn
results into their answers; nothing here knows HTTP.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from events import names
from events.errors import Invalid, NotFound, Refused, RuleBroken, Unprocessable
from events.money import MAX_BALANCE, MAX_MINOR, MoneyError, format_amount, minor_digits, parse_amount
from events.sentences import say
from events.store import NewEvent, Reader, Writer
from games.engine import seen
from games.engine import table as table_decider
from games.engine.base import Command
from games.engine.errors import Incomplete, Malformed, Revealing, RuleViolation
from games.registry import GAMES
from projections import agreement, balances, corrections, folded, tables
from projections import hands as hand_fold
from projections.groups import CONFIRMATIONS, confirmations, member_name
from projections.settlements import settled
from projections.tables import terms as table_terms

from . import auth, seating
from .commands import (
    AddMember,
    AssertBalance,
    Confirm,
    ConfirmTable,
    Correct,
    CreateGroup,
    Credential,
    Dispute,
    GroupCreated,
    HandMoved,
    NewHand,
    OpenTable,
    Pay,
    Play,
    Recorded,
    RotateToken,
    UpdateGroup,
    VoidHand,
)


def handle(command, w: Writer):
    """Carry out one command in the writer's transaction; its domain result."""
    match command:
        case CreateGroup():
            return create_group(w, command)
        case AddMember():
            return add_member(w, command)
        case RotateToken():
            return rotate_token(w, command)
        case OpenTable():
            return open_table(w, command)
        case NewHand():
            return new_hand(w, command)
        case Play():
            return play(w, command)
        case VoidHand():
            return void_hand(w, command)
        case UpdateGroup():
            return update_group(w, command)
        case Confirm():
            return confirm(w, command)
        case ConfirmTable():
            return confirm_table(w, command)
        case Dispute():
            return dispute(w, command)
        case Correct():
            return correct(w, command)
        case Pay():
            return pay(w, command)
        case AssertBalance():
            return assert_balance(w, command)
    raise TypeError(say("no handler for {command}", command=repr(command)))


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(6)}"


def group_row(reader: Reader, group: str) -> dict:
    row = reader.row("group", group, "")
    if row is None:
        raise NotFound(say("there is no group {group}", group=repr(group)))
    return row


def table_row(reader: Reader, group: str, table: str) -> dict:
    row = reader.row("table", group, table)
    if row is None:
        raise NotFound(say("there is no table {table} in this group", table=repr(table)))
    return row


def hand_model(reader: Reader, group: str, hand: str) -> hand_fold.HandModel:
    """The hand from its own events, with what the corrections made at its table say of it."""
    model = folded.HANDS.model(reader, group, hand)
    if model is None:
        raise NotFound(say("there is no hand {hand} in this group", hand=repr(hand)))
    return hand_fold.with_corrections(model, tables.corrections_of(reader.row("table", group, model.table), hand))


def create_group(w: Writer, c: CreateGroup) -> GroupCreated:
    try:
        minor_digits(c.currency)
    except MoneyError as e:
        raise Invalid(str(e), errors={"currency": [str(e)]}) from None
    group, name = new_id("g"), names.stored(c.name)
    data = {"name": name, "currency": c.currency}
    if c.confirmations != "payers":
        data["confirmations"] = c.confirmations
    w.append(group, [NewEvent("group_created", data)], auth.ADMIN, expected_version=0)
    token, digest = auth.mint_token()
    w.add_credential(digest, group, auth.ADMIN)
    return GroupCreated(group, name, c.currency, token)


def add_member(w: Writer, c: AddMember) -> Credential:
    """A new member, named as given (NFC): not a name that reads as another member's once
    invisible characters and compatibility forms are set aside ("Ala" and "Al\\u200ba"), nor
    one drawn like it ("Аla" with a Cyrillic А), nor one that mixes Latin letters with
    Cyrillic or Greek ones."""
    row = group_row(w, c.group)
    name = names.stored(c.name)
    if not names.visible(name):
        raise Invalid(say("name: must show something"), errors={"name": [say("must show something")]})
    if names.mixed_scripts(name):
        raise Unprocessable(say("{name} mixes Latin letters with Cyrillic or Greek ones, which look alike: write the "
                                "name in one alphabet",
                                name=repr(name)))
    clash = next((m["name"] for m in row["members"] if names.skeleton(m["name"]) == names.skeleton(name)), None)
    if clash is not None:
        raise Unprocessable(say("the group already has a member named {clash}, which {name} reads as",
                                clash=repr(clash), name=repr(name)))
    member = new_id("m")
    w.append(c.group, [NewEvent("member_added", {"member": member, "name": name})], c.actor,
             expected_version=w.version(c.group))
    token, digest = auth.mint_token()
    w.add_credential(digest, c.group, member)
    return Credential(member, name, token)


def rotate_token(w: Writer, c: RotateToken) -> Credential:
    """A new token for a member, or for the admin (``admin``); every older one stops working
    at once, and the sessions made from them end. Its open invitations go too (the admin's:
    the admin's link), since each would mint a token again. Tokens are not ledger facts, so
    nothing is appended to the log (the group's version does not move)."""
    row = group_row(w, c.group)
    name = auth.ADMIN if c.member == auth.ADMIN else next((m["name"] for m in row["members"] if m["id"] == c.member),
                                                          None)
    if name is None:
        raise NotFound(say("there is no member {member} in this group", member=repr(c.member)))
    w.drop_invitations(c.group, c.member)
    w.drop_credentials(c.group, c.member)
    token, digest = auth.mint_token()
    w.add_credential(digest, c.group, c.member)
    return Credential(c.member, name, token)


def open_table(w: Writer, c: OpenTable) -> dict:
    """The table's row once opened."""
    row, body = group_row(w, c.group), c.body
    name = body["game"]
    if name not in GAMES:
        scored = ", ".join(GAMES)
        raise Unprocessable(say("{name} is not a game bitka knows; it scores {scored}", name=repr(name), scored=scored))
    game = GAMES[name]
    raw_rules = body.get("rules")
    entry = "scorer"
    if isinstance(raw_rules, Mapping) and "entry" in raw_rules:  # a table rule, not the game's
        entry = raw_rules["entry"]
        if entry not in seating.ENTRIES:
            raise RuleBroken(say("entry is \"scorer\" (any member logs the cards) or \"seats\" (each seat its own), "
                                 "not {entry}",
                                 entry=repr(entry)), field="rules.entry")
        raw_rules = {k: v for k, v in raw_rules.items() if k != "entry"}
    rules = _rules(game, raw_rules)
    seats = list(body["seats"])
    _check_seats(row, name, seats, game.seat_count(rules), game.seating(rules, len(seats)))
    stake = _amount(body["stake"], row["digits"], "stake")
    if stake <= 0:
        raise Invalid(say("the stake must be more than zero"), errors={"stake": [say("must be more than zero")]})
    table = new_id("t")
    data = {"table": table, "game": name, "rules": rules.to_data(), "seats": seats,
            "stake": format_amount(stake, row["digits"])}
    dealer = body.get("dealer", 0)
    if not 0 <= dealer < len(seats):
        raise RuleBroken(say("dealer must be a seat from 0 to {last}",
                             last=len(seats) - 1), field="dealer")
    if dealer:
        data["dealer"] = dealer  # who deals first: the deal passes round from there
    if entry != "scorer":
        data["entry"] = entry
    w.append(c.group, [NewEvent("table_opened", data, table=table)], c.actor, expected_version=w.version(c.group))
    return w.row("table", c.group, table)


def _rules(game, raw):
    try:
        return game.parse_rules(raw)
    except RuleViolation as e:
        raise RuleBroken(e.detail, field="rules") from None
    except TypeError:
        raise RuleBroken(say("rules must be an object of rule names and values"), field="rules") from None


def _check_seats(row: dict, game: str, seats: Sequence[str], count: int, refusal: str | None = None) -> None:
    known = {m["id"] for m in row["members"]}
    if len(seats) != count:
        raise Unprocessable(refusal or say("this {game} table is played by {count} players; {seats_count} seats were "
                                           "given",
                                           game=game, count=count, seats_count=len(seats)))
    for member in seats:
        if member not in known:
            raise Unprocessable(say("{member} is not a member of this group", member=repr(member)))
    if len(set(seats)) != len(seats):
        raise Unprocessable(say("a member may take only one seat at a table"))


def _amount(text, digits: int, field: str, negative: bool = False, limit: int = MAX_MINOR) -> int:
    try:
        return parse_amount(text, digits, allow_negative=negative, limit=limit)
    except MoneyError as e:
        raise Invalid(str(e), errors={field: [str(e)]}) from None


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
            return _decide_new_hand(reader, command)
        case Play():
            return _decide_play(reader, command)
    raise TypeError(command)  # only a hand is dealt or moved ahead


def carry_out(decided: Decided, w: Writer) -> HandMoved:
    """Append what was decided: a VersionConflict if the group moved on meanwhile."""
    return _appended(w, decided.group, decided.actor, decided.version, decided.events, decided.model)


def new_hand(w: Writer, c: NewHand) -> HandMoved:
    return carry_out(_decide_new_hand(w, c), w)


def _decide_new_hand(reader: Reader, c: NewHand) -> Decided:
    version = reader.version(c.group)
    trow = table_row(reader, c.group, c.table)
    seating.may_deal(c.actor, trow, c.body)
    events, model = plan_hand(reader, c.group, c.table, c.body, new_id("h"))
    events = _confirmed(reader, c.group, trow, events, c.actor)
    return Decided(c.group, c.actor, version, tuple(events), model, trow)


def plan_hand(reader: Reader, group: str, table: str, body: Mapping, hand: str):
    """The events a new hand at ``table`` appends (its deal with its calls, tricks and plays,
    or its result; and its settlement when it is over) and the hand after them: decided by
    the game, appended nowhere. A score sheet's preview is this, and nothing more."""
    trow = table_row(reader, group, table)
    if trow["closed"]:
        raise Unprocessable(say("this table is closed"))
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
        deal = _decided("deal", game.parse_deal, rules, body["deal"])
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
    event = _decided("result", game.parse_result, rules, dealer, body["result"])
    data = {"game": trow["game"], "rules": rules.to_data(), **event.data, **context}
    return NewEvent("result", data), game.result_state(rules, data)


def _decided(where: str | None, decide, *args):
    """``decide(*args)``, a game's RuleViolation becoming a RuleBroken that says where it
    struck, and a result without fields it needs an Invalid naming each of them."""
    try:
        return decide(*args)
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
    game, state = model.rules, model.state
    events = list(first)
    for where, command in commands:
        if game.is_terminal(state):
            raise RuleBroken(say("{where}: the hand is already over", where=where), field=where)
        for ev in _decided(where, game.decide, state, command):
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
        held = model.rules.held(model.state)
        if seat is None or not 0 <= seat < len(held) or not hidden.isdisjoint(held[seat]):
            return public
    return seen.mask_text(e.detail, hidden - seen.cards_in(asked))


def _salted(game, event: NewEvent, after) -> NewEvent:
    """An event that names a card still hidden after it from a reader not seated (a seat's
    cards, a deal, a draw) carries 16 random bytes: its hash, which every member can read
    while its data is sealed, would otherwise give the cards away to anyone who tried each
    way they could lie."""
    if seen.cards_in(event.data) <= game.visible(after, None):
        return event
    return replace(event, data={**event.data, "salt": secrets.token_hex(16)})


def _appended(w: Writer, group: str, actor: str, version: int, events, model) -> HandMoved:
    appended = w.append(group, events, actor, expected_version=version)
    logged_by = model.logged_by
    for envelope in appended:
        logged_by = hand_fold.logged(logged_by, envelope)
        if envelope.type == "settlement":  # as recorded: with its confirmation decided
            model = replace(model, settlement=envelope.data, settled_by=envelope.actor,
                            confirmation="pending" if envelope.data.get("confirmed") is False else "counted")
    return HandMoved(replace(model, seqs=(*model.seqs, *(e.seq for e in appended)), logged_by=logged_by),
                     tuple(appended))


def play(w: Writer, c: Play) -> HandMoved:
    """A call, trick, play or claim of a hand being played; the settlement with it when it
    ends the hand."""
    return carry_out(_decide_play(w, c), w)


def _decide_play(reader: Reader, c: Play) -> Decided:
    version = reader.version(c.group)
    model = hand_model(reader, c.group, c.hand)
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} was voided", hand=c.hand))
    if model.settlement is not None:
        raise RuleBroken(say("the hand is over and settled"))
    trow = table_row(reader, c.group, model.table)
    seating.may_log(c.actor, trow, c.kind, c.body, model.opened["dealer"], model.rules.turn(model.state))
    try:
        events, after = _played(reader, c.group, trow, model, [(None, Command(c.kind, c.body))])
    except RuleBroken as e:  # a refusal tells its sender nothing of the cards it may not see
        said = _said_to(c.actor, trow, model, e, c.body)
        if said == e.detail:
            raise
        raise RuleBroken(said, field=e.field, **e.extra) from None
    events = _confirmed(reader, c.group, trow, events, c.actor)
    return Decided(c.group, c.actor, version, tuple(events), after, trow)


def void_hand(w: Writer, c: VoidHand) -> HandMoved:
    model = hand_model(w, c.group, c.hand)
    trow = table_row(w, c.group, model.table)
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} is already voided", hand=c.hand))
    if trow["latest_hand"]["id"] != c.hand:
        raise Unprocessable(say("only the table's latest hand ({latest}) may be voided; the admin "
                                "corrects an earlier one (POST .../hands/{hand}/correct)",
                                latest=trow['latest_hand']['id'], hand=c.hand))
    data = {"reason": c.reason, "dealer": trow["latest_hand"]["dealer"],
            "reversed": (model.settlement or {}).get("payouts", [])}
    version = w.version(c.group)
    return _appended(w, c.group, c.actor, version,
                     [NewEvent("hand_voided", data, hand=c.hand, table=model.table)], replace(model, voided=data))


def update_group(w: Writer, c: UpdateGroup) -> dict:
    """The group's settings (the admin's): ``confirmations``. A setting it already has
    appends nothing."""
    row = group_row(w, c.group)
    value = c.body["confirmations"]
    if value not in CONFIRMATIONS:
        raise Invalid(say("confirmations is \"payers\" or \"off\", not {value}", value=repr(value)),
                      errors={"confirmations": [say("Must be one of: payers, off.")]})
    if value != confirmations(row):
        w.append(c.group, [NewEvent("group_updated", {"confirmations": value})], c.actor,
                 expected_version=w.version(c.group))
    return group_row(w, c.group)


def _confirmed(reader: Reader, group: str, trow: dict, events: list[NewEvent], actor: str) -> list[NewEvent]:
    """The events with their settlement's confirmation decided (projections/agreement.py): at
    once when nobody but its logger pays, when the group confirms nothing, or when every seat
    logged and played its own cards; else it waits for each other payer (``"confirmed": false``)."""
    out = []
    for event in events:
        if event.type == "settlement":
            why = _confirmed_because(reader, group, trow, events, event, actor)
            data = {**event.data, "confirmed": why is not None}
            if why is not None:
                data["confirmed_because"] = why
            event = replace(event, data=data)
        out.append(event)
    return out


def _confirmed_because(reader: Reader, group: str, trow: dict, events, settlement: NewEvent,
                       actor: str) -> str | None:
    own = agreement.OwnPlay(trow["seats"], seating.entry_of(trow) == "seats")
    if own.holds and settlement.hand is not None:
        for env in reader.hand_events(group, settlement.hand):
            own.add(env.type, env.data, env.actor)
    for event in events:
        if event.type != "settlement":
            own.add(event.type, event.data, actor)
    payers = agreement.payers(settlement.data["payouts"])
    return agreement.at_once(payers, actor, confirmations(group_row(reader, group)) != "off", own.whole)


def _settled_hand(model: hand_fold.HandModel, hand: str) -> None:
    if model.voided is not None:
        raise Unprocessable(say("hand {hand} was voided: there is nothing to confirm or dispute", hand=hand))
    if model.settlement is None:
        raise Unprocessable(say("hand {hand} is not settled yet: it is confirmed or disputed once it ends", hand=hand))


def confirm(w: Writer, c: Confirm) -> HandMoved:
    """A member who pays in a hand's settlement (not its logger) agrees to it: it counts once
    every payer has."""
    if c.actor == auth.ADMIN:
        raise Refused(say("the admin token is no member: each member who pays in the hand confirms it (the admin "
                          "corrects)"))
    model = hand_model(w, c.group, c.hand)
    _settled_hand(model, c.hand)
    waiting = balances.pending_entry(w.row("balances", c.group, ""), c.hand)
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
    version = w.version(c.group)
    moved = _appended(w, c.group, c.actor, version,
                      [NewEvent("confirmation", {}, hand=c.hand, table=model.table)], model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def confirm_table(w: Writer, c: ConfirmTable) -> list[str]:
    """Every pending settlement at a table that waits for this member, confirmed at once:
    the hands confirmed, in the order they were logged (none: nothing waited for it)."""
    if c.actor == auth.ADMIN:
        raise Refused(say("the admin token is no member: each member who pays confirms (the admin corrects)"))
    table_row(w, c.group, c.table)
    brow = w.row("balances", c.group, "")
    hands = [hand for hand, entry in balances.in_log_order((brow or {}).get("pending") or {})
             if entry["table"] == c.table and c.actor in balances.waiting(entry)]
    if hands:
        w.append(c.group, [NewEvent("confirmation", {}, hand=h, table=c.table) for h in hands], c.actor,
                 expected_version=w.version(c.group))
    return hands


def dispute(w: Writer, c: Dispute) -> HandMoved:
    """A member seated at the hand's table says it is wrong: it stays out of the balances
    until a payer confirms it or the admin corrects it."""
    model = hand_model(w, c.group, c.hand)
    trow = table_row(w, c.group, model.table)
    if c.actor not in trow["seats"]:
        raise Refused(say("a hand is disputed by a member seated at its table; the admin corrects it"))
    _settled_hand(model, c.hand)
    if balances.pending_entry(w.row("balances", c.group, ""), c.hand) is None:
        raise Unprocessable(say("hand {hand} is confirmed: it can no longer be disputed, only corrected by the admin",
                                hand=c.hand))
    version = w.version(c.group)
    event = NewEvent("dispute", {"reason": c.reason}, hand=c.hand, table=model.table)
    moved = _appended(w, c.group, c.actor, version, [event], model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def correct(w: Writer, c: Correct) -> HandMoved:
    """The admin replaces a past hand's outcome (a result, or a void) and every later hand of
    its table is settled again on the table as it now stood: one ``correction`` event with
    each hand's new settlement and the difference each now pays."""
    model = hand_model(w, c.group, c.hand)
    trow, grow = table_row(w, c.group, model.table), group_row(w, c.group)
    game = GAMES[trow["game"]]
    rules = game.parse_rules(trow["rules"])
    past = corrections.history(w.table_events(c.group, model.table))
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
        result = _decided("result", game.parse_result, rules, target.opened["dealer"], c.result).data["result"]
    elif c.cards is not None:
        if not by_cards:
            raise RuleBroken(say("hand {hand} was logged by its result alone, so it is corrected by a result",
                                 hand=c.hand),
                             field="cards")
    elif target.settlement is None:
        raise Unprocessable(say("hand {hand} already counts as never played: there is nothing to void",
                                hand=c.hand))
    decided = corrections.corrected(game, rules, tables.stake_of(trow, grow["digits"]), trow["seats"],
                                    grow["digits"], past, c.hand, result, c.cards)
    if result is not None:
        outcome = {"result": result}
    else:
        outcome = {"cards": c.cards} if c.cards is not None else {"void": True}
    data = {"hand": c.hand, "reason": c.reason, **outcome,
            "adjustments": decided.adjustments,
            "settlements": [{"hand": h, "settlement": s} for h, s in decided.settlements.items()],
            "table": decided.table}
    version = w.version(c.group)
    moved = _appended(w, c.group, c.actor, version, [NewEvent("correction", data, hand=c.hand, table=model.table)],
                      model)
    return replace(moved, hand=hand_model(w, c.group, c.hand))


def _cards_give(hand: corrections.PastHand) -> str:
    """What a hand's logged cards give, in a sentence: its outcome and each seat's payout."""
    if hand.settlement is None:
        return say("its cards settle nothing yet")
    outcome = hand.settlement.get("outcome")
    paid = ", ".join(f"seat {p['seat']} {p['amount']}" for p in hand.settlement.get("payouts", []))
    if not paid:
        return say("its cards give {outcome}", outcome=outcome)
    return say("its cards give {outcome}: {paid}", outcome=outcome, paid=paid)


def assert_balance(w: Writer, c: AssertBalance) -> Recorded:
    """Record that the group agreed a member's balance here (beancount's balance assertion).
    A balance the log does not give is refused, showing the one it gives."""
    row = group_row(w, c.group)
    member = c.body["member"]
    if member not in {m["id"] for m in row["members"]}:
        raise Unprocessable(say("member: {member} is not a member of this group", member=repr(member)))
    agreed = _amount(c.body["balance"], row["digits"], "balance", negative=True, limit=MAX_BALANCE)
    data = {"member": member, "balance": format_amount(agreed, row["digits"])}
    actual = balances.disagreement(w.row("balances", c.group, ""), data)
    if actual is not None:
        raise Unprocessable(say("{member}'s balance is {actual}, not {data_balance}",
                                member=member, actual=actual, data_balance=data['balance']), actual=actual)
    [env] = w.append(c.group, [NewEvent("assertion", data)], c.actor, expected_version=w.version(c.group))
    return Recorded(env.seq, data)


def may_record_payment(actor: str, body: Mapping) -> None:
    """A payment raises the payer's balance, so only the admin or the member who received
    the money (``to``) may record it."""
    if actor != auth.ADMIN and actor != body["to"]:
        raise Refused(say("only the admin or the member who received the money (to) may record a payment"))


def pay(w: Writer, c: Pay) -> Recorded:
    row, body = group_row(w, c.group), c.body
    known = {m["id"] for m in row["members"]}
    src, dst = body["from"], body["to"]
    for field, member in (("from", src), ("to", dst)):
        if member not in known:
            raise Unprocessable(say("{field}: {member} is not a member of this group",
                                    field=field, member=repr(member)))
    if src == dst:
        raise Unprocessable(say("a payment needs two different members"))
    may_record_payment(c.actor, body)
    amount = _amount(body["amount"], row["digits"], "amount", limit=MAX_BALANCE)  # a balance paid back whole
    if amount <= 0:
        raise Invalid(say("the amount must be more than zero"), errors={"amount": [say("must be more than zero")]})
    data = {"from": src, "to": dst, "amount": format_amount(amount, row["digits"])}
    [env] = w.append(c.group, [NewEvent("payment", data)], c.actor, expected_version=w.version(c.group))
    return Recorded(env.seq, data)
