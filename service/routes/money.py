"""Balances, payments between members, and the transfers that settle everyone up."""
from __future__ import annotations

from .. import ledger, schemas as s
from ..http import READ, SECURED, WRITE, Blueprint, read, write
from ..views import balances_view, settle_up_view

blp = Blueprint("money", __name__, url_prefix="/v1/groups/<group>", description="Balances and payments")


@blp.route("/balances", methods=["GET"])
@blp.response(200, s.Balances)
@blp.problems(*READ)
@blp.doc(**SECURED)
def balances(group):
    """What each member is up (+) or down (-); the total is always zero."""
    return read(group, lambda r, _: balances_view(ledger.group_row(r, group), r.row("balances", group, "")))


@blp.route("/payments", methods=["POST"])
@blp.arguments(s.PaymentIn)
@blp.response(201, s.Payment)
@blp.problems(*WRITE, why={403: "Only the admin or the receiving member may record it"})
@blp.doc(**SECURED)
def pay(body, group):
    """Cash handed over at the table: `from` pays `to`, raising `from`'s balance."""
    body = {"from": body["from_"], "to": body["to"], "amount": body["amount"]}
    return write(group, lambda w, p: ledger.pay(w, group, p, body))


@blp.route("/settle-up", methods=["GET"])
@blp.response(200, s.SettleUp)
@blp.problems(*READ)
@blp.doc(**SECURED)
def settle_up(group):
    """Transfers that zero every balance (greedy: largest debtor pays largest creditor)."""
    return read(group, lambda r, _: settle_up_view(ledger.group_row(r, group), r.row("balances", group, "")))
