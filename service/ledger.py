"""What a client can ask of a group's ledger, as plain functions over a store writer.

Each write reads what it needs inside the write transaction, lets the game decide, and
appends the resulting events (the projector updates the rows in the same transaction).
Nothing here knows about HTTP; the blueprints and ``bitka demo`` both call it.
"""
from __future__ import annotations

import secrets
from typing import Mapping, Sequence

from events import names
from events.errors import BadRequest, Forbidden, NotFound, RuleBroken, Unprocessable
from events.money import MAX_MINOR, MoneyError, format_amount, minor_digits, parse_amount
from events.store import NewEvent, Writer
from games.base import Command
from games.errors import Incomplete, RuleViolation
from games.registry import GAMES, PLANNED
from projections import hands as hand_fold
from projections.settlements import settlement_data
from projections.tables import terms as table_terms
from . import auth
from .views import hand_view, table_view


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(6)}"


def group_row(reader, group: str) -> dict:
    row = reader.row("group", group, "")
    if row is None:
        raise NotFound(f"there is no group {group!r}")
    return row


def create_group(w: Writer, name: str, currency: str) -> dict:
    try:
        minor_digits(currency)
    except MoneyError as e:
        raise BadRequest(str(e), errors={"currency": [str(e)]}) from None
    group, name = new_id("g"), names.stored(name)
    w.append(group, [NewEvent("group_created", {"name": name, "currency": currency})], auth.ADMIN)
    token, digest = auth.mint_token()
    w.add_credential(digest, group, auth.ADMIN)
    return {"id": group, "name": name, "currency": currency, "admin_token": token}


def add_member(w: Writer, group: str, actor: str, name: str) -> dict:
    """A new member, named as given (NFC): not a name that reads as another member's once
    invisible characters and compatibility forms are set aside ("Ala" and "Al\u200ba")."""
    row = group_row(w, group)
    name = names.stored(name)
    if not names.visible(name):
        raise BadRequest("name: must show something", errors={"name": ["must show something"]})
    clash = next((m["name"] for m in row["members"] if names.key(m["name"]) == names.key(name)), None)
    if clash is not None:
        raise Unprocessable(f"the group already has a member named {clash!r}, which {name!r} reads as")
    member = new_id("m")
    w.append(group, [NewEvent("member_added", {"member": member, "name": name})], actor)
    token, digest = auth.mint_token()
    w.add_credential(digest, group, member)
    return {"id": member, "name": name, "token": token}


def rotate_token(w: Writer, group: str, member: str) -> dict:
    """A new token for a member; every older one stops working at once. Tokens are not
    ledger facts, so nothing is appended to the log (the group's version does not move)."""
    row = group_row(w, group)
    name = next((m["name"] for m in row["members"] if m["id"] == member), None)
    if name is None:
        raise NotFound(f"there is no member {member!r} in this group")
    w.drop_credentials(group, member)
    token, digest = auth.mint_token()
    w.add_credential(digest, group, member)
    return {"id": member, "name": name, "token": token}


def open_table(w: Writer, group: str, actor: str, body: Mapping) -> dict:
    row = group_row(w, group)
    game = body["game"]
    if game not in GAMES:
        scored = ", ".join(GAMES)
        if game in PLANNED:
            raise Unprocessable(f"{game} is not supported yet; bitka scores {scored}")
        raise Unprocessable(f"{game!r} is not a game bitka knows; it scores {scored}")
    module = GAMES[game]
    rules = _rules(module, body.get("rules"))
    seats = list(body["seats"])
    _check_seats(row, game, seats, module.seat_count(rules))
    stake = _amount(body["stake"], row["digits"], "stake")
    if stake <= 0:
        raise BadRequest("the stake must be more than zero", errors={"stake": ["must be more than zero"]})
    table = new_id("t")
    data = {"table": table, "game": game, "rules": rules.to_data(), "seats": seats,
            "stake": format_amount(stake, row["digits"])}
    w.append(group, [NewEvent("table_opened", data, table=table)], actor)
    return table_view(w.row("table", group, table), group_row(w, group), [])


def _rules(module, raw):
    try:
        return module.parse_rules(raw)
    except RuleViolation as e:
        raise RuleBroken(e.detail) from None
    except TypeError:
        raise RuleBroken("rules must be an object of rule names and values") from None


def _check_seats(row: dict, game: str, seats: Sequence[str], count: int) -> None:
    known = {m["id"] for m in row["members"]}
    if len(seats) != count:
        raise Unprocessable(f"this {game} table is played by {count} players; {len(seats)} seats were given")
    for member in seats:
        if member not in known:
            raise Unprocessable(f"{member!r} is not a member of this group")
    if len(set(seats)) != len(seats):
        raise Unprocessable("a member may take only one seat at a table")


def _amount(text, digits: int, field: str) -> int:
    try:
        return parse_amount(text, digits)
    except MoneyError as e:
        raise BadRequest(str(e), errors={field: [str(e)]}) from None


def table_row(reader, group: str, table: str) -> dict:
    row = reader.row("table", group, table)
    if row is None:
        raise NotFound(f"there is no table {table!r} in this group")
    return row


def hand_model(reader, group: str, hand: str) -> hand_fold.HandModel:
    model = hand_fold.fold(reader.hand_events(group, hand))
    if model is None:
        raise NotFound(f"there is no hand {hand!r} in this group")
    return model


def new_hand(w: Writer, group: str, actor: str, table: str, body: Mapping) -> dict:
    trow = table_row(w, group, table)
    if trow["closed"]:
        raise Unprocessable("this table is closed")
    latest = trow["latest_hand"]
    if latest and latest["status"] == "playing":
        raise Unprocessable(f"hand {latest['id']} at this table is still being played; finish it or void it first")
    if "result" in body:
        return _result_hand(w, group, actor, trow, body)
    if "deal" not in body:
        raise BadRequest("a hand needs a deal", errors={"deal": ["Missing data for required field."]})
    module = GAMES[trow["game"]]
    rules = module.parse_rules(trow["rules"])
    deal = _decided("deal", module.deal_event, rules, body["deal"])
    if deal.data["dealer"] != trow["next_dealer"]:
        raise RuleBroken(f"it is seat {trow['next_dealer']}'s deal at this table, not seat {deal.data['dealer']}'s")
    hand = new_id("h")
    # A game may need to know its table's state in the middle of a hand (Bisca's match score):
    context = module.table_context(trow) if hasattr(module, "table_context") else {}
    deal_data = {"game": trow["game"], "rules": rules.to_data(), **deal.data, **context}
    first = NewEvent("deal", deal_data, hand=hand, table=table)
    state = module.new_hand(rules, deal_data)
    commands = [(f"bids[{i}]", Command("bid", b)) for i, b in enumerate(body.get("bids") or [])]
    commands += [(f"tricks[{i}]", Command("trick", t)) for i, t in enumerate(body.get("tricks") or [])]
    commands += [(f"plays[{i}]", Command("play", p)) for i, p in enumerate(body.get("plays") or [])]
    model = hand_fold.HandModel(hand, table, trow["game"], state)
    _, model = _play(w, group, actor, trow, model, commands, first=[first])
    return hand_view(model)


def _result_hand(w: Writer, group: str, actor: str, trow: dict, body: Mapping) -> dict:
    """A hand logged by its result alone: one ``result`` event, then its settlement, made
    by the same functions that settle a hand logged card by card."""
    extra = sorted(set(body) - {"result", "dealer"})
    if extra:
        raise Unprocessable(f"a hand logged by its result has only dealer and result, not {', '.join(extra)}")
    dealer = body.get("dealer", trow["next_dealer"])
    if dealer != trow["next_dealer"]:
        raise RuleBroken(f"it is seat {trow['next_dealer']}'s deal at this table, not seat {dealer}'s")
    module = GAMES[trow["game"]]
    rules = module.parse_rules(trow["rules"])
    event = _decided("result", module.result_event, rules, dealer, body["result"])
    context = module.table_context(trow) if hasattr(module, "table_context") else {}
    data = {"game": trow["game"], "rules": rules.to_data(), **event.data, **context}
    hand = new_id("h")
    model = hand_fold.HandModel(hand, trow["id"], trow["game"], module.result_state(rules, data))
    _, model = _play(w, group, actor, trow, model, [], first=[NewEvent("result", data, hand=hand, table=trow["id"])])
    return hand_view(model)


def _decided(where: str | None, decide, *args):
    """``decide(*args)``, a game's RuleViolation becoming a 422 that says where it struck,
    and a result without fields it needs a 400 naming each of them."""
    try:
        return decide(*args)
    except RuleViolation as e:
        raise RuleBroken(f"{where}: {e.detail}" if where else e.detail) from None
    except Incomplete as e:
        prefix = f"{where}." if where else ""
        missing = {prefix + name: ["Missing data for required field."] for name in e.fields}
        raise BadRequest(e.detail, errors=missing) from None


def _play(w: Writer, group: str, actor: str, trow: dict, model, commands, first=()):
    """Decide each command in turn on the evolving state; append all events or none.

    Returns the appended envelopes and the hand's model after them."""
    module, state = model.module, model.state
    events = list(first)
    for where, command in commands:
        if module.is_over(state):
            raise RuleBroken(f"{where}: the hand is already over")
        for ev in _decided(where, module.decide, state, command):
            state = module.evolve(state, ev)
            events.append(NewEvent(ev.type, ev.data, hand=model.id, table=model.table))
    if module.is_over(state) and model.settlement is None:
        events.append(NewEvent("settlement", _settlement(w, group, trow, module, state),
                               hand=model.id, table=model.table))
    appended = w.append(group, events, actor)
    # A new hand's model is folded from its own deal envelope; an open hand's carries on.
    after = None if first else model
    for env in appended:
        after = hand_fold.apply(after, env)
    return appended, after


def _settlement(reader, group: str, trow: dict, module, state) -> dict:
    digits = group_row(reader, group)["digits"]
    table = table_terms(trow, digits)
    settled = module.settle(state, table)
    if max(abs(a) for a in settled.amounts) > MAX_MINOR:
        raise RuleBroken(f"this hand would pay {settled.multiplier} times the stake per seat, more than bitka "
                         "can book; check the doubles, or void the hand")
    return settlement_data(settled, table, digits)


def _open_hand(w: Writer, group: str, hand: str):
    model = hand_model(w, group, hand)
    if model.voided is not None:
        raise Unprocessable(f"hand {hand} was voided")
    if model.settlement is not None:
        raise RuleBroken("the hand is over and settled")
    return model, table_row(w, group, model.table)


def add_bid(w: Writer, group: str, actor: str, hand: str, body: Mapping) -> dict:
    model, trow = _open_hand(w, group, hand)
    _, model = _play(w, group, actor, trow, model, [(None, Command("bid", body))])
    return hand_view(model)


def add_trick(w: Writer, group: str, actor: str, hand: str, body: Mapping) -> dict:
    model, trow = _open_hand(w, group, hand)
    appended, model = _play(w, group, actor, trow, model, [(None, Command("trick", body))])
    trick = next(e for e in appended if e.type == "trick").data
    return {"trick": trick["trick"], "leader": trick["leader"], "cards": trick["cards"],
            "winner": trick["winner"], "points": trick["points"], "hand": hand_view(model)}


def add_play(w: Writer, group: str, actor: str, hand: str, body: Mapping) -> dict:
    model, trow = _open_hand(w, group, hand)
    appended, model = _play(w, group, actor, trow, model, [(None, Command("play", body))])
    return {"play": next(e for e in appended if e.type == "play").data, "hand": hand_view(model)}


def add_claim(w: Writer, group: str, actor: str, hand: str, body: Mapping) -> dict:
    model, trow = _open_hand(w, group, hand)
    appended, model = _play(w, group, actor, trow, model, [(None, Command("claim", body))])
    return {"claim": next(e for e in appended if e.type == "claim").data, "hand": hand_view(model)}


def void_hand(w: Writer, group: str, actor: str, hand: str, reason: str) -> dict:
    model = hand_model(w, group, hand)
    trow = table_row(w, group, model.table)
    if model.voided is not None:
        raise Unprocessable(f"hand {hand} is already voided")
    if trow["latest_hand"]["id"] != hand:
        raise Unprocessable(f"only the table's latest hand ({trow['latest_hand']['id']}) may be voided")
    data = {"reason": reason, "dealer": trow["latest_hand"]["dealer"],
            "reversed": (model.settlement or {}).get("payouts", [])}
    [env] = w.append(group, [NewEvent("hand_voided", data, hand=hand, table=model.table)], actor)
    return hand_view(hand_fold.apply(model, env))


def assert_balance(w: Writer, group: str, principal: auth.Principal, body: Mapping) -> dict:
    """Record that the group agreed a member's balance here (beancount's balance assertion).
    A balance the log does not give is refused, showing the one it gives."""
    row = group_row(w, group)
    member = body["member"]
    if member not in {m["id"] for m in row["members"]}:
        raise Unprocessable(f"member: {member!r} is not a member of this group")
    agreed = _amount_signed(body["balance"], row["digits"])
    actual = w.row("balances", group, "")["members"].get(member, 0)
    if agreed != actual:
        shown = format_amount(actual, row["digits"])
        raise Unprocessable(f"{member}'s balance is {shown}, not {format_amount(agreed, row['digits'])}",
                            actual=shown)
    data = {"member": member, "balance": format_amount(agreed, row["digits"])}
    [env] = w.append(group, [NewEvent("assertion", data)], principal.subject)
    return {"seq": env.seq, **data}


def _amount_signed(text, digits: int) -> int:
    try:
        return parse_amount(text, digits, allow_negative=True)
    except MoneyError as e:
        raise BadRequest(str(e), errors={"balance": [str(e)]}) from None


def may_record_payment(principal: auth.Principal, body: Mapping) -> None:
    """A payment raises the payer's balance, so only the admin or the member who received
    the money (``to``) may record it."""
    if not principal.is_admin and principal.subject != body["to"]:
        raise Forbidden("only the admin or the member who received the money (to) may record a payment")


def pay(w: Writer, group: str, principal: auth.Principal, body: Mapping) -> dict:
    row = group_row(w, group)
    known = {m["id"] for m in row["members"]}
    src, dst = body["from"], body["to"]
    for field, member in (("from", src), ("to", dst)):
        if member not in known:
            raise Unprocessable(f"{field}: {member!r} is not a member of this group")
    if src == dst:
        raise Unprocessable("a payment needs two different members")
    may_record_payment(principal, body)
    amount = _amount(body["amount"], row["digits"], "amount")
    if amount <= 0:
        raise BadRequest("the amount must be more than zero", errors={"amount": ["must be more than zero"]})
    data = {"from": src, "to": dst, "amount": format_amount(amount, row["digits"])}
    [env] = w.append(group, [NewEvent("payment", data)], principal.subject)
    return {"seq": env.seq, **data}
