"""The money's request and response schemas (payments, balance assertions, statistics,
balances, settling up): service/routes/money.py's bodies, in the OpenAPI document."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from .schemas import Amount, Id


class PaymentIn(Schema):
    from_ = Id(required=True, data_key="from")
    to = Id(required=True)
    amount = Amount(required=True)


class Payment(Schema):
    seq = fields.Integer()
    from_ = fields.String(data_key="from")
    to = fields.String()
    amount = fields.String()
    pending = fields.Boolean(metadata={"description": "true: it counts once its receiver confirms it"})
    received = fields.Integer(metadata={"description": "the seq of the receiver's confirmation (its confirm's answer)"})


class AssertionIn(Schema):
    member = Id(required=True)
    balance = Amount(required=True)


class Assertion(Schema):
    seq = fields.Integer()
    member = fields.String()
    balance = fields.String()


class MemberStats(Schema):
    member = fields.String()
    name = fields.String()
    hands_played = fields.Integer()
    hands_won = fields.Integer()
    contracts = fields.Dict(metadata={"description": "per contract: played and won"})
    best_hand = fields.Dict(allow_none=True)
    worst_hand = fields.Dict(allow_none=True)
    balance_after = fields.List(fields.Dict(), metadata={
        "description": "seq and balance after each money event that moved it (it holds until the next)"})


class Stats(Schema):
    members = fields.List(fields.Nested(MemberStats))


class Balance(Schema):
    member = fields.String()
    name = fields.String()
    balance = fields.String()


class Pending(Schema):
    """A settlement that does not count yet (``hand``), or a payment that waits for its
    receiver (``payment``: its seq, with ``from``, ``to`` and ``amount``)."""
    hand = fields.String()
    payment = fields.Integer(metadata={"description": "a payment's seq: it counts once its receiver confirms it"})
    from_ = fields.String(data_key="from")
    to = fields.String()
    amount = fields.String()
    state = fields.String(metadata={"description": "pending (until every member who pays in it confirms it) or "
                                                   "disputed (until confirmed or corrected)"})
    table = fields.String()
    payouts = fields.List(fields.Dict(), metadata={"description": "what it would pay: seat, member, amount"})
    waiting_for = fields.List(fields.String(), metadata={"description": "the payers who have not agreed yet"})
    confirmed_by = fields.List(fields.String(), metadata={"description": "the payers who have agreed so far"})


class Balances(Schema):
    currency = fields.String()
    balances = fields.List(fields.Nested(Balance), metadata={"description": "confirmed settlements only"})
    total = fields.String()
    pending = fields.List(fields.Nested(Pending), metadata={
        "description": "settlements that do not count yet, in the order they were logged: the first "
                       "`pending_limit` (500 unless asked) after `pending_after`; then every payment that waits for "
                       "its receiver (`{\"payment\", \"state\": \"pending\", \"from\", \"to\", \"amount\", "
                       "\"waiting_for\"}`)"})
    pending_total = fields.Integer(metadata={"description": "how many settlements do not count yet, in all"})
    pending_next = fields.Integer(allow_none=True, metadata={
        "description": "the `pending_after` that lists the next page of `pending`; null on the last page"})


class BalancesQuery(Schema):
    pending_after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2 ** 62), metadata={
        "description": "list the settlements that do not count yet logged after this seq (a `pending_next`)"})
    pending_limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=1000), metadata={
        "description": "at most this many of them (1 to 1000; 500 unless given)"})


class Transfer(Schema):
    from_ = fields.String(data_key="from")
    from_name = fields.String()
    to = fields.String()
    to_name = fields.String()
    amount = fields.String()


class SettleUp(Schema):
    currency = fields.String()
    method = fields.String()
    transfers = fields.List(fields.Nested(Transfer))
