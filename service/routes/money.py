"""Balances, payments between members, and the transfers that settle everyone up."""
from __future__ import annotations

from flask import Response

from events.types import EVENT_TYPES
from projections import member_stats
from projections.ledger_views import MONEY_EVENTS, ledger_csv
from .. import handlers, money_schemas as s, signing
from ..handlers import lookups, money
from ..http import READ, WRITE, Blueprint, read, write
from ..openapi import media, reads, writes
from ..commands import AssertBalance, ConfirmPayment, Pay
from ..views import balances_view, recorded, settle_up_view

UNREAD = EVENT_TYPES - MONEY_EVENTS  # the money views never look at bids, tricks or plays
blp = Blueprint("money", __name__, url_prefix="/v1/groups/<group>", description="Balances and payments")


@blp.route("/balances", methods=["GET"])
@blp.arguments(s.BalancesQuery, location="query")
@blp.response(200, s.Balances)
@blp.problems(*READ)
@blp.doc(**reads())
def balances(query, group):
    """What each member is up (+) or down (-); the total is always zero. The settlements that
    do not count yet follow in the order they were logged, a page at a time: `pending_next`
    is the `pending_after` of the next page."""
    return read(group, lambda r, _: balances_view(
        lookups.group_row(r, group), r.row("balances", group, ""),
        lookups.waiting_page(r, group, query["pending_after"], query["pending_limit"])))


@blp.route("/payments", methods=["POST"])
@blp.arguments(s.PaymentIn)
@blp.response(201, s.Payment)
@blp.problems(*WRITE, why={403: "Not the admin nor one of the two members; the receiver with a device key without a "
                                "valid signed `received`"})
@blp.doc(**writes())
def pay(body, group):
    """Cash handed over at the table: `from` pays `to`, raising `from`'s balance. Recorded by
    its receiver (signed `received` `{"from", "to", "amount"}` once they hold a key) it counts
    at once; recorded by its payer, or by the admin for a receiver who holds a key, it is
    `"pending": true` and counts once the receiver confirms it (`POST .../payments/{seq}/confirm`),
    listed meanwhile under `pending` in `GET .../balances`."""
    body = {"from": body["from_"], "to": body["to"], "amount": body["amount"]}
    signed = signing.presented()
    return write(group, lambda w, p: recorded(handlers.handle(Pay(group, p.subject, body, signed), w)),
                 permit=lambda p: money.may_record_payment(p.subject, body))


@blp.route("/payments/<int:seq>/confirm", methods=["POST"], parameters=[
    {"in": "path", "name": "group", "description": "The group's id"},
    {"in": "path", "name": "seq", "description": "The payment event's seq"}])
@blp.response(201, s.Payment)
@blp.problems(*WRITE, why={403: "Not the payment's receiver; a receiver with a device key without a valid signed "
                                "`confirm_payment` `{\"payment\": <the payment event's hash>}`",
                           404: "No payment at that seq", 422: "The payment counts already"})
@blp.doc(**writes())
def confirm_payment(group, seq):
    """The receiver says they got a payment someone else recorded: it counts from now on (a
    `payment_received` event)."""
    signed = signing.presented()
    return write(group, lambda w, p: recorded(handlers.handle(ConfirmPayment(group, p.subject, seq, signed), w)))


@blp.route("/assertions", methods=["POST"])
@blp.arguments(s.AssertionIn)
@blp.response(201, s.Assertion)
@blp.problems(*WRITE, why={422: "The balance the log gives is another (the problem's actual field shows it)"})
@blp.doc(**writes())
def assert_balance(body, group):
    """Record that the group agreed a member's balance at this point: `{"member", "balance"}`."""
    return write(group, lambda w, p: recorded(handlers.handle(AssertBalance(group, p.subject, body), w)))


@blp.route("/stats", methods=["GET"])
@blp.response(200, s.Stats)
@blp.problems(*READ)
@blp.doc(**reads())
def stats(group):
    """Per member: hands played and won, by contract, best and worst hand, balance over time."""
    def view(r, _):
        names = {m["id"]: m["name"] for m in lookups.group_row(r, group)["members"]}
        return member_stats.statistics(r, group, names)
    return read(group, view)


@blp.route("/ledger.csv", methods=["GET"])
@blp.response(200, description="text/csv: seq, recorded_at, kind, hand, table, game, contract, member, name, "
                                "amount, balance")
@blp.problems(*READ)
@blp.doc(**reads())
@blp.doc(**media(200, "text/csv", "a header row, then one row per payout, payment and taken-back payout"))
def ledger_csv_export(group):
    """One row per payout, payment and taken-back payout, with the member's running balance."""
    def view(r, _):
        names = {m["id"]: m["name"] for m in lookups.group_row(r, group)["members"]}
        text = "".join(ledger_csv(r.scan(group, unread=UNREAD), names))
        return Response(text, mimetype="text/csv")
    return read(group, view)


@blp.route("/settle-up", methods=["GET"])
@blp.response(200, s.SettleUp)
@blp.problems(*READ)
@blp.doc(**reads())
def settle_up(group):
    """Transfers that zero every balance (greedy: largest debtor pays largest creditor)."""
    return read(group, lambda r, _: settle_up_view(lookups.group_row(r, group), r.row("balances", group, "")))
