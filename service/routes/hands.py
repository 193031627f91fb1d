"""A hand: its state, its calls and tricks, voiding it, and its audit trail."""
from __future__ import annotations

from flask import Response, request

from projections import audit, devices
from .. import handlers, schemas as s, signing, steady
from ..handlers import lookups
from ..evidence import checkpoint, inclusions
from ..http import READ, WRITE, Blueprint, hand_ahead, json_response, read, write
from ..openapi import media, reads, writes
from ..i18n import languages, phrases
from ..commands import Agree, Confirm, Correct, Dispute, Play, VoidHand
from ..sealed import hidden_in, sealed_for, trail_as_seen
from ..views import appended_result, games_say, hand_view, trick_result

blp = Blueprint("hands", __name__, url_prefix="/v1/groups/<group>/hands", description="Hands: bids, tricks, audit")
SEALED = ("While the hand is in play a member sees, of the cards nobody has played, only its own seat's and "
          "those it logged itself; every other card is null in its place. The admin sees everything.")


@blp.route("/<hand>", methods=["GET"])
@blp.response(200, s.Hand)
@blp.problems(*READ)
@blp.doc(**reads(), description=SEALED)
def get_hand(group, hand):
    """The hand's state: phase, who leads, calls, tricks, sides, settlement when done."""
    def view(r, p):
        model = lookups.hand_model(r, group, hand)
        return hand_view(model, sealed_for(r, group, model, p.subject))
    return read(group, view, table=lambda r: r.table_of(group, hand))  # only its table's moves change it


def _move(group: str, hand: str, kind: str, body, shown):
    """A write to a hand in play, answered as ``shown(moved, hidden)`` shows it to its writer."""
    signed = signing.presented() if kind in ("cards", "play") else None
    return write(group, ahead=hand_ahead(lambda p: Play(group, p.subject, hand, kind, body, signed), shown))


@blp.route("/<hand>/cards", methods=["POST"])
@blp.arguments(s.CardsIn)
@blp.response(201, s.CardsResult)
@blp.problems(*WRITE, why={403: "Another seat's cards (only that seat's member or the admin logs them); the face-up "
                                "cards by anyone but the dealer's member or the admin",
                           422: "A card already seen in this hand (the answer names no seat), a seat that owes no "
                                "cards now, or the wrong number of cards"})
@blp.doc(**writes(), description=games_say("cards", "Cards as they are seen, in a hand opened with "
                                                    "`{\"deal\": {\"dealer\": d}}`: a seat's own "
                                                    "`{\"seat\": 1, \"cards\": [...]}`, from that seat's member or "
                                                    "the admin."))
def add_cards(body, group, hand):
    """A seat's cards, or the face-up ones, as they are seen (a `seat_cards` event)."""
    return _move(group, hand, "cards", body, lambda moved, hidden: appended_result(moved, "seat_cards", hidden))


@blp.route("/<hand>/bids", methods=["POST"])
@blp.arguments(s.Bid)
@blp.response(201, s.Hand)
@blp.problems(*WRITE, why={403: "At a table with entry \"seats\", another seat's call",
                           422: "A call the auction does not allow"})
@blp.doc(**writes())
def add_bid(body, group, hand):
    """One call of the auction: `{"seat": 2, "call": "pass"}`, a call of the hand's game."""
    return _move(group, hand, "bid", body, lambda moved, hidden: hand_view(moved.hand, hidden))


@blp.route("/<hand>/tricks", methods=["POST"])
@blp.arguments(s.TrickIn)
@blp.response(201, s.TrickResult)
@blp.problems(*WRITE, why={403: "At a table with entry \"seats\", anyone but the admin (play a card at a time)",
                           422: "A card against the rules, named with the rule"})
@blp.doc(**writes())
def add_trick(body, group, hand):
    """One whole trick in play order, leader first. The last trick also settles the hand."""
    return _move(group, hand, "trick", body, trick_result)


@blp.route("/<hand>/plays", methods=["POST"])
@blp.arguments(s.PlayIn)
@blp.response(201, s.PlayResult)
@blp.problems(*WRITE, why={403: "At a table with entry \"seats\", a card of another seat",
                           409: "Another card was logged at the same moment (If-Match)",
                           422: "A card against the rules, or already played (the answer says so); a wrong "
                                "capture lists the legal ones"})
@blp.doc(**writes(), description=games_say("play", "One card: `{\"seat\": 2, \"card\": \"QD\"}` (seat: "
                                                   "whose turn it is, when left out). The trick is appended with its "
                                                   "last card."))
def add_play(body, group, hand):
    """One card of a hand, played a card at a time."""
    body = {k: v for k, v in body.items() if v is not None}
    return _move(group, hand, "play", body, lambda moved, hidden: appended_result(moved, "play", hidden))


@blp.route("/<hand>/claims", methods=["POST"])
@blp.arguments(s.ClaimIn)
@blp.response(201, s.ClaimResult)
@blp.problems(*WRITE, why={403: "At a table with entry \"seats\", a claim for another seat",
                           422: "A claim the game refuses: claims off at the table, or a way to play on that "
                                "would change the result (named in detail)"})
@blp.doc(**writes(), description=games_say("claim", "A claim `{\"seat\": 1}`, where the game takes one."))
def add_claim(body, group, hand):
    """A claim `{"seat": 1}`, where the game takes one."""
    with steady.no_sooner_than(steady.CLAIM):  # its time tells nothing of the hands it searched
        return _move(group, hand, "claim", body, lambda moved, hidden: appended_result(moved, "claim", hidden))


@blp.route("/<hand>/confirm", methods=["POST"])
@blp.response(201, s.Hand)
@blp.problems(*WRITE, why={403: "Not a member who pays in the hand (or the one who logged it; the admin is no "
                                "member)", 422: "The hand is not settled, or is confirmed already"})
@blp.doc(**writes())
def confirm_hand(group, hand):
    """A member who pays in the hand's settlement confirms it: from now on it counts in the balances."""
    signed = signing.presented()
    return _verdict(group, lambda p: Confirm(group, p.subject, hand, signed))


@blp.route("/<hand>/dispute", methods=["POST"])
@blp.arguments(s.DisputeIn)
@blp.response(201, s.Hand)
@blp.problems(*WRITE, why={403: "Not a member seated at the hand's table",
                           422: "The hand is not settled, or is confirmed already (only the admin corrects it now)"})
@blp.doc(**writes())
def dispute_hand(body, group, hand):
    """A member seated at the table says the hand is wrong: it stays out of the balances until a payer
    confirms it or the admin corrects it."""
    signed = signing.presented()
    return _verdict(group, lambda p: Dispute(group, p.subject, hand, body["reason"], signed))


def _verdict(group: str, command):
    def act(w, p):
        moved = handlers.handle(command(p), w)
        return hand_view(moved.hand, sealed_for(w, group, moved.hand, p.subject))
    return write(group, act)


@blp.route("/<hand>/agree", methods=["POST"])
@blp.response(201, s.Hand)
@blp.problems(*WRITE, why={403: "A member with a device key without a valid signed `agree` `{\"hand\", \"correction\": "
                                "<the hash of the correction or void event>}` (the answer carries the statement)",
                           422: "No correction of this hand waits for you"})
@blp.doc(**writes())
def agree_to_correction(group, hand):
    """A member a correction (or a void) lowers agrees to it: it counts once every member it
    lowers has (the hand's `correction_waiting` says who it waits for). Until then the hand
    counts as before."""
    signed = signing.presented()
    return _verdict(group, lambda p: Agree(group, p.subject, hand, signed))


@blp.route("/<hand>/correct", methods=["POST"])
@blp.arguments(s.CorrectIn)
@blp.response(201, s.CorrectionResult)
@blp.problems(*WRITE, why={400: "Neither or both of result and void, or a result missing a field",
                           403: "Not the admin", 422: "A result no hand could give, a hand still in play at the "
                                                      "table, or a void of a hand that counts as never played"})
@blp.doc(**writes())
def correct_hand(body, group, hand):
    """Correct any past hand (admin only): `{"reason", "cards": {"deal", "bids"?, "tricks"?, "plays"?}}` (a hand
    whose cards were logged: the whole hand again, checked by the rules as a new hand), `{"reason", "result":
    {...}}` (a hand logged by its result alone; a result for a hand whose cards were logged is a 422 saying what
    they give) or `{"reason", "void": true}`.
    Every later hand of its table whose settlement changes is settled again (doubled rounds, game and
    match scores); one `correction` event lists each changed hand's new settlement and what it
    now pays more or less (adjustments, each summing to zero)."""
    def act(w, p):
        moved = handlers.handle(Correct(group, p.subject, hand, body["reason"], body.get("result"), body.get("cards")),
                                w)
        return {"correction": moved.first("correction"), "hand": hand_view(moved.hand)}
    return write(group, act, admin=True)


@blp.route("/<hand>/void", methods=["POST"])
@blp.arguments(s.Void)
@blp.response(201, s.Hand)
@blp.problems(*WRITE)
@blp.doc(**writes())
def void_hand(body, group, hand):
    """Void the table's latest hand (admin only); a settled hand's payouts are taken back."""
    return write(group, lambda w, p: hand_view(handlers.handle(VoidHand(group, p.subject, hand, body["reason"]),
                                                              w).hand), admin=True)


@blp.route("/<hand>/audit", methods=["GET"])
@blp.response(200, s.Audit, description="JSON, or text/plain when asked with Accept")
@blp.problems(*READ)
@blp.doc(**reads(language=True))
@blp.doc(**media(200, "text/plain", "the trail in words, one event a line, then the settlement explained"))
def get_audit(group, hand):
    """Every event of the hand with who appended it and its hash, and the settlement in words."""
    def view(r, p):
        events = audit.events_of(r, group, hand)
        if not events:
            lookups.hand_model(r, group, hand)  # raises the 404
        grow = lookups.group_row(r, group)
        keys = r.rows_of(devices.NAME, group, sorted({e.actor for e in events if e.actor != "admin"}))
        trail = audit.trail(events, lookups.table_row(r, group, events[0].table), grow,
                            marked=True, keys=keys)  # what members typed is kept as typed by phrases.trail
        trail_as_seen(trail, events, hidden_in(r, group, hand, p.subject))
        # Each event's inclusion proof against the group's signed checkpoint: the hand can be
        # checked on its own, without the rest of the log.
        cp = checkpoint(r, group)
        trail["checkpoint"] = cp
        proofs = inclusions(r, group, [e.seq for e in events], cp["size"])
        for shown in trail["events"]:
            proof = proofs[shown["seq"]]
            shown["proof"] = {"leaf": proof["leaf"], "size": proof["size"], "path": proof["path"]}
        language = languages.for_api()
        phrases.trail(trail, language)
        if request.accept_mimetypes.best_match(["application/json", "text/plain"]) == "text/plain":
            text = audit.as_text(trail, lambda line: phrases.say(line, language, game=trail.get("game")))
            answer = Response(text, mimetype="text/plain")
        else:
            answer = json_response(trail)
        answer.headers["Content-Language"] = language.replace("_", "-")  # the trail's words are in it
        answer.headers["Vary"] = "Accept, Accept-Language"
        return answer
    return read(group, view)
