"""Tables: a game, its rules, who sits where, the stake; and new hands at a table."""
from __future__ import annotations

from .. import handlers, schemas as s, signing
from ..handlers import lookups
from ..http import READ, WRITE, Blueprint, body_json, hand_ahead, read, write
from ..openapi import reads, writes
from ..commands import ConfirmTable, NewHand, OpenTable
from ..views import hand_view, table_view

blp = Blueprint("tables", __name__, url_prefix="/v1/groups/<group>/tables", description="Tables and their hands")


@blp.route("", methods=["POST"])
@blp.arguments(s.TableCreate)
@blp.response(201, s.Table)
@blp.problems(*WRITE, why={422: "Unknown game, bad rules or seats"})
@blp.doc(**writes(located=True))
def open_table(body, group):
    """Open a table (admin only): `{"game": <a game>, "rules": {}, "seats": [member ids], "stake": "0.50"}`."""
    def opened(w, p):
        return table_view(handlers.handle(OpenTable(group, p.subject, body), w), lookups.group_row(w, group), [])
    return write(group, opened, admin=True, location=lambda t: f"/v1/groups/{group}/tables/{t['id']}")


@blp.route("/<table>", methods=["GET"])
@blp.response(200, s.Table)
@blp.problems(*READ)
@blp.doc(**reads())
def get_table(group, table):
    """The table: seats, rules, next dealer, hands."""
    return read(group, lambda r, _: table_view(lookups.table_row(r, group, table), lookups.group_row(r, group),
                                               r.table_hands(group, table)))


@blp.route("/<table>/hands", methods=["POST"])
@blp.arguments(s.HandCreate)
@blp.response(201, s.Hand, description="The new hand; with all its tricks it is also settled")
@blp.problems(*WRITE, why={422: "A card, call or deal against the rules"})
@blp.doc(**writes(located=True))
def new_hand(body, group, table):
    """Log a hand: the deal, and optionally its calls and tricks. All of it is appended or none.
    A member with a device key who logs a hand by its result signs it (`result`)."""
    signed = signing.presented() if "result" in body else None
    return write(group, location=lambda h: f"/v1/groups/{group}/hands/{h['id']}",
                 ahead=hand_ahead(lambda p: NewHand(group, p.subject, table, body, signed),
                                  lambda moved, hidden: hand_view(moved.hand, hidden)))


@blp.route("/<table>/confirm", methods=["POST"])
@blp.response(201, s.TableConfirmed)
@blp.problems(*WRITE, why={403: "The admin token (no member: the admin corrects); a member with a device key "
                                "without a valid signed `confirm` for each hand that waits for them (the answer "
                                "lists the statements, `statements`)"})
@blp.doc(**writes(), requestBody={"required": False, "content": {"application/json": {"schema": "TableConfirmIn"}}})
def confirm_table(group, table):
    """Confirm, in one tap, every pending settlement at this table that waits for you (a member who pays in
    it): one `confirmation` event each. `{"confirmed": []}` when nothing waited for you."""
    signatures = signing.listed(body_json(), "confirm")
    return write(group, lambda w, p: {"confirmed": handlers.handle(ConfirmTable(group, p.subject, table, signatures),
                                                                   w)})
