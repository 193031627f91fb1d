"""A hand: its state, its calls and tricks, voiding it, and its audit trail."""
from __future__ import annotations

from flask import Response, request

from projections import audit
from .. import ledger, schemas as s
from ..evidence import checkpoint, inclusions
from ..http import READ, SECURED, WRITE, Blueprint, read, write
from ..commands import Play, VoidHand
from ..views import appended_result, games_say, hand_view, trick_result

blp = Blueprint("hands", __name__, url_prefix="/v1/groups/<group>/hands", description="Hands: bids, tricks, audit")


@blp.route("/<hand>", methods=["GET"])
@blp.response(200, s.Hand)
@blp.problems(*READ)
@blp.doc(**SECURED)
def get_hand(group, hand):
    """The hand's state: phase, who leads, calls, tricks, sides, settlement when done."""
    return read(group, lambda r, _: hand_view(ledger.hand_model(r, group, hand)))


@blp.route("/<hand>/bids", methods=["POST"])
@blp.arguments(s.Bid)
@blp.response(201, s.Hand)
@blp.problems(*WRITE, why={422: "A call the auction does not allow"})
@blp.doc(**SECURED)
def add_bid(body, group, hand):
    """One call of the auction: `{"seat": 2, "call": "kontra"}`."""
    return write(group, lambda w, p: hand_view(ledger.handle(Play(group, p.subject, hand, "bid", body), w).hand))


@blp.route("/<hand>/tricks", methods=["POST"])
@blp.arguments(s.TrickIn)
@blp.response(201, s.TrickResult)
@blp.problems(*WRITE, why={422: "A card against the rules, named with the rule"})
@blp.doc(**SECURED)
def add_trick(body, group, hand):
    """One whole trick in play order, leader first. The last trick also settles the hand."""
    return write(group, lambda w, p: trick_result(ledger.handle(Play(group, p.subject, hand, "trick", body), w)))


@blp.route("/<hand>/plays", methods=["POST"])
@blp.arguments(s.PlayIn)
@blp.response(201, s.PlayResult)
@blp.problems(*WRITE, why={422: "A card or capture against the rules; a wrong capture lists the legal ones"})
@blp.doc(**SECURED, description=games_say("play", "One card of a game logged play by play."))
def add_play(body, group, hand):
    """One card of a game logged play by play."""
    body = {k: v for k, v in body.items() if v is not None}
    return write(group, lambda w, p: appended_result(ledger.handle(Play(group, p.subject, hand, "play", body), w),
                                                     "play"))


@blp.route("/<hand>/claims", methods=["POST"])
@blp.arguments(s.ClaimIn)
@blp.response(201, s.ClaimResult)
@blp.problems(*WRITE, why={422: "A claim the game refuses: claims off at the table, or a way to play on that "
                                "would change the result (named in detail)"})
@blp.doc(**SECURED, description=games_say("claim", "A claim `{\"seat\": 1}`, where the game takes one."))
def add_claim(body, group, hand):
    """A claim `{"seat": 1}`, where the game takes one."""
    return write(group, lambda w, p: appended_result(ledger.handle(Play(group, p.subject, hand, "claim", body), w),
                                                     "claim"))


@blp.route("/<hand>/void", methods=["POST"])
@blp.arguments(s.Void)
@blp.response(201, s.Hand)
@blp.problems(*WRITE)
@blp.doc(**SECURED)
def void_hand(body, group, hand):
    """Void the table's latest hand (admin only); a settled hand's payouts are taken back."""
    return write(group, lambda w, p: hand_view(ledger.handle(VoidHand(group, p.subject, hand, body["reason"]),
                                                            w).hand), admin=True)


@blp.route("/<hand>/audit", methods=["GET"])
@blp.response(200, s.Audit, description="JSON, or text/plain when asked with Accept")
@blp.problems(*READ)
@blp.doc(**SECURED)
def get_audit(group, hand):
    """Every event of the hand with who appended it and its hash, and the settlement in words."""
    def view(r, _):
        events = r.hand_events(group, hand)
        if not events:
            ledger.hand_model(r, group, hand)  # raises the 404
        trail = audit.trail(events, ledger.table_row(r, group, events[0].table), ledger.group_row(r, group))
        # Each event's inclusion proof against the group's signed checkpoint: the hand can be
        # checked on its own, without the rest of the log.
        cp = checkpoint(r, group)
        trail["checkpoint"] = cp
        proofs = inclusions(r, group, [e.seq for e in events], cp["size"])
        for shown in trail["events"]:
            proof = proofs[shown["seq"]]
            shown["proof"] = {"leaf": proof["leaf"], "size": proof["size"], "path": proof["path"]}
        if request.accept_mimetypes.best_match(["application/json", "text/plain"]) == "text/plain":
            return Response(audit.as_text(trail), mimetype="text/plain")
        return trail
    return read(group, view)
