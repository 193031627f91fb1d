"""Request and response schemas (marshmallow 4): they validate bodies (400 on a mismatch)
and describe every body in the OpenAPI document."""
from __future__ import annotations

import unicodedata

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from events import names
from events.money import MINOR_DIGITS
from games.registry import GAMES

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(value: str) -> None:
    """Names and reasons are shown to other people: no control characters, no text-direction
    overrides that would make a name read as another, no lone surrogates (not text at all)."""
    for ch in value:
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs") or ch in _BIDI_CONTROLS:
            raise ValidationError(f"must not contain the character U+{ord(ch):04X}")
    if not names.visible(value):
        raise ValidationError("must show something: it is blank or only invisible characters")


# The same rule as ``printable`` for the OpenAPI document (which cannot speak of surrogates).
SHOWN_TEXT = r"^(?=.*\S)[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$"


def Name(**kw):  # noqa: N802 - a field factory that reads like a field
    return fields.String(required=True, validate=[validate.Length(min=1, max=100), validate.Regexp(SHOWN_TEXT),
                                                  printable], **kw)


def Id(**kw):  # noqa: N802
    return fields.String(validate=validate.Length(min=1, max=64), **kw)


def Amount(**kw):  # noqa: N802
    return fields.String(validate=validate.Length(min=1, max=32),
                         metadata={"description": "decimal string with the currency's minor digits, e.g. \"12.50\"",
                                   "example": "1.00"}, **kw)


Cards = lambda **kw: fields.List(fields.String(validate=validate.Length(max=8)),  # noqa: E731
                                 validate=validate.Length(max=52), **kw)


class Problem(Schema):
    """RFC 9457 problem details, and every member bitka adds where it applies. More may come:
    a client keeps the members it does not know (additionalProperties)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(metadata={"description": "urn:bitka:problem:<kind>", "example": "urn:bitka:problem:"
                                                                                           "rule-violation"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String(metadata={"description": "exactly why, in a sentence (a 422's in the Accept-Language "
                                                    "asked for)"})
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata={
        "description": "400: each field that does not match the schema, with its messages"})
    version = fields.Integer(metadata={"description": "412 (If-Match names a version the group has moved past) and "
                                                      "the 409 of a lost race: the group's current version"})
    actual = fields.String(metadata={"description": "422 of an assertion: the balance the log gives the member",
                                     "example": "-3.50"})
    statement = fields.Dict(metadata={
        "description": "403 of a signed act: the statement the service built from the request, the one to sign "
                       "(its nonce null when the request carried none)"})
    statements = fields.List(fields.Dict(), metadata={
        "description": "403 of POST .../tables/{t}/confirm without signatures: the statement of each hand that waits"})
    legal = fields.List(fields.List(fields.String()), metadata={
        "description": "422 of a play whose capture was left out (or wrong) when several are legal: every legal "
                       "capture, each the table cards it takes", "example": [["4C", "5S"], ["2D", "7H"]]})
    seq = fields.Integer(metadata={"description": "500 damaged-store: the first seq of the group's stored log found "
                                                  "not to match its hash chain (nothing that needs it is served)"})


class OrganizerIn(Schema):
    name = Name(metadata={"description": "the organizer's name as a member", "example": "Ala"})
    key = fields.String(required=True, validate=[validate.Length(min=43, max=44),
                                                 validate.Regexp(r"^[A-Za-z0-9_-]+=?$")],
                        metadata={"description": "the organizer's device key: an Ed25519 public key, base64url "
                                                 "(no padding) of its 32 raw bytes"})


class OrganizerOut(Schema):
    id = fields.String()
    token = fields.String(metadata={"description": "the organizer's member token, shown once"})


class GroupCreate(Schema):
    name = Name()
    currency = fields.String(required=True, validate=validate.OneOf(sorted(MINOR_DIGITS)),
                             metadata={"description": "ISO 4217 code, upper case", "example": "PLN"})
    confirmations = fields.String(load_default="payers", validate=validate.OneOf(["payers", "off"]), metadata={
        "description": "payers (the default): a settlement counts once every member who pays in it has agreed; "
                       "off: at once. Off is chosen here, when the group is created: a PATCH to off is refused once "
                       "any member has a device key"})
    organizer = fields.Nested(OrganizerIn, metadata={
        "description": "the organizer who plays: the first member, with this device key as their first device; the "
                       "answer adds `organizer: {id, token}`"})


class GroupCreated(Schema):
    id = fields.String()
    name = fields.String()
    currency = fields.String()
    admin_token = fields.String()
    organizer = fields.Nested(OrganizerOut, metadata={"description": "when the request named one"})


class Member(Schema):
    id = fields.String()
    name = fields.String()


class MemberCreate(Schema):
    name = Name()


WITHHELD = {"description": "true on an Idempotency-Key replay: the token (kept only as a hash) is not shown again"}


class MemberCreated(Member):
    token = fields.String()
    token_withheld = fields.Boolean(metadata=WITHHELD)


class TableSummary(Schema):
    id = fields.String()
    game = fields.String()
    stake = fields.String()
    next_dealer = fields.Integer()
    hand_count = fields.Integer()
    latest_hand = fields.Dict(allow_none=True)


class Group(Schema):
    id = fields.String()
    name = fields.String()
    currency = fields.String()
    confirmations = fields.String(metadata={"description": "payers or off"})
    version = fields.Integer()
    members = fields.List(fields.Nested(Member))
    tables = fields.List(fields.Nested(TableSummary), metadata={
        "description": "a page of the group's tables, in the order they were opened (`tables_after`, "
                       "`tables_limit`)"})
    tables_total = fields.Integer(metadata={"description": "how many tables the group has, in all"})
    tables_next = fields.String(allow_none=True, metadata={
        "description": "the table to ask the next page after (`?tables_after=`), null on the last page"})


class GroupQuery(Schema):
    tables_after = fields.String(load_default="", validate=validate.Length(max=64), metadata={
        "description": "list the tables opened after this one (a `tables_next`); from the first unless given"})
    tables_limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000), metadata={
        "description": "at most this many tables (1 to 1000; 100 unless given)"})


class TableCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=32),
                         metadata={"example": next(iter(GAMES)), "description": "one of " + ", ".join(GAMES)})
    rules = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "games": "RulesIn", "description": "the game's rules (the form of the table's game); omitted rules take "
                                          "their defaults"})
    seats = fields.List(Id(), required=True, validate=validate.Length(min=1, max=8),
                        metadata={"description": "member ids in order of play"})
    stake = Amount(required=True)
    dealer = fields.Integer(strict=True, validate=validate.Range(min=0, max=7), metadata={
        "description": "the seat that deals the first hand (0 when left out); the deal then passes round"})


class Seat(Schema):
    seat = fields.Integer()
    member = fields.String()
    name = fields.String()


class Table(Schema):
    id = fields.String()
    game = fields.String()
    rules = fields.Dict(metadata={"games": "Rules"})
    seats = fields.List(fields.Nested(Seat))
    stake = fields.String()
    next_dealer = fields.Integer()
    hands = fields.List(fields.String())
    latest_hand = fields.Dict(allow_none=True)
    closed = fields.Boolean()
    match = fields.Dict(allow_none=True)
    bok = fields.Dict(allow_none=True, metadata={
        "description": "at a table whose game has doubled rounds: running, hands_left in the running round, queued "
                       "after it"})
    carried = fields.Dict(metadata={"description": "at a table whose game carries something else from hand to hand "
                                                   "(its spans): each by its name, as it stands now; absent otherwise"})
    tournament = fields.String(metadata={"description": "at a table a tournament's draw opened: the tournament"})
    round = fields.Integer(metadata={"description": "at a tournament's table: the round it was drawn for"})
    deals = fields.Integer(metadata={"description": "at a tournament's table: how many hands it plays (one more is "
                                                    "a 422)"})


class _Bid(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=7))
    call = fields.String(required=True, validate=validate.Length(min=1, max=16),
                         metadata={"description": "one of the calls the hand's game takes now (GET the hand: "
                                                  "calls)", "example": "pass"})


class TrickIn(Schema):
    cards = Cards(required=True, metadata={"description": "the trick in play order, leader first",
                                           "example": ["AH", "QH", "QS", "JD"]})


def _deal_field(kind: str, required: bool, doc: str):
    said = {"description": doc}
    match kind:
        case "seat":
            return fields.Integer(required=required, strict=True, validate=validate.Range(min=0, max=7), metadata=said)
        case "hands":
            return fields.List(Cards(), required=required, validate=validate.Length(min=1, max=8), metadata=said)
        case "cards":
            return Cards(required=required, metadata=said)
        case "card":
            return fields.String(allow_none=True, validate=validate.Length(max=8), metadata=said)
        case "suit":
            return fields.String(validate=validate.Length(max=2), metadata=said)
    raise ValueError(f"no deal field of kind {kind!r}")


def _deal_schema() -> type[Schema]:
    """A deal's fields, as the registered games declare them: each field's description says
    which games take it and what it is in each."""
    declared: dict[str, list] = {}
    for game in GAMES.values():
        for f in game.forms.deal_fields:
            declared.setdefault(f.name, []).append((game, f))
    common = [name for name, uses in declared.items() if len(uses) == len(GAMES)]
    made = {}
    for name, uses in declared.items():
        doc = uses[0][1].doc if name in common else "; ".join(f"{g.title}: {f.doc}" for g, f in uses)
        made[name] = _deal_field(uses[0][1].kind, name in common and all(f.required for _, f in uses), doc)
    return Schema.from_dict(made, name="Deal")


Deal = _deal_schema()
Deal.per_game = "Deal"  # documented as one of each game's deals (service/openapi.py)


class _CardsIn(Schema):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=7),
                          metadata={"description": "the seat whose cards these are (its own hand, or what it drew)"})
    cards = Cards(metadata={"description": "the seat's cards", "example": ["QC", "JD", "AH", "10S"]})


class CardsResult(Schema):
    seat_cards = fields.Dict(metadata={"description": "the seat_cards event's data (cards hidden from you as null)"})
    hand = fields.Dict()


class _PlayIn(Schema):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=7),
                          metadata={"description": "the seat playing; left out: the seat whose turn it is"})
    card = fields.String(required=True, validate=validate.Length(min=1, max=8), metadata={"example": "QD"})


def _with_games_fields(base: type[Schema], part: str, name: str) -> type[Schema]:
    """A request's schema: the fields every game takes (``base``) and those some games add
    (``Forms.<part>``), each described as the games that take it describe it."""
    declared: dict[str, list] = {}
    for game in GAMES.values():
        for f in getattr(game.forms, part):
            declared.setdefault(f.name, []).append((game, f))
    made = {field_name: _deal_field(uses[0][1].kind, False, "; ".join(f"{g.title}: {f.doc}" for g, f in uses))
            for field_name, uses in declared.items()}
    return base.from_dict(made, name=name)


Bid = _with_games_fields(_Bid, "call_fields", "Bid")
CardsIn = _with_games_fields(_CardsIn, "seen_fields", "CardsIn")
PlayIn = _with_games_fields(_PlayIn, "play_fields", "PlayIn")


class PlayResult(Schema):
    play = fields.Dict()
    hand = fields.Dict()


class ClaimIn(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=7))


class ClaimResult(Schema):
    claim = fields.Dict()
    hand = fields.Dict()


class HandCreate(Schema):
    deal = fields.Nested(Deal)
    bids = fields.List(fields.Nested(Bid), validate=validate.Length(max=64))
    tricks = fields.List(fields.Nested(TrickIn), validate=validate.Length(max=20))
    plays = fields.List(fields.Nested(PlayIn), validate=validate.Length(max=64))
    result = fields.Dict(metadata={"games": "Result", "description": (
        "A hand logged by its result alone (not with deal): its game's score sheet, as that game's Result "
        "schema says (the fields depend on the game and its table's rules). Every field that applies is "
        "required; a missing one or one of the wrong kind is a 400 naming it, an impossible result a 422.")})
    dealer = fields.Integer(strict=True)


class Hand(Schema):
    """A hand as its game shows it: the members below, and the game's own (the face-up
    cards, a trump card, a hand dealt seat by seat's owed cards...). A client
    keeps the members it does not know (additionalProperties)."""

    class Meta:
        unknown = INCLUDE

    id = fields.String()
    table = fields.String()
    game = fields.String()
    phase = fields.String(metadata={"description": "dealing (a deal seat by seat, cards still owed), auction, play, "
                                                   "done or voided"})
    dealer = fields.Integer()
    leader = fields.Integer(allow_none=True, metadata={"description": "the seat that leads the next trick"})
    turn = fields.Integer(allow_none=True, metadata={"description": "whose turn it is: the next trick's leader"})
    points = fields.List(fields.Integer(), metadata={"description": "card points taken so far, per seat"})
    rules = fields.Dict(metadata={"games": "Rules"})
    deal = fields.List(fields.List(fields.String(allow_none=True)), metadata={
        "description": "each seat's cards; while the hand is in play a card sealed from you is null"})
    held = fields.List(fields.List(fields.String(allow_none=True)), metadata={
        "description": "cards still in each seat's hand (null: sealed from you)"})
    calls = fields.List(fields.Dict())
    contract = fields.String(allow_none=True, metadata={"description": "the contract called, where the game has "
                                                                       "one; null while the cards that would tell "
                                                                       "it are sealed from you"})
    declarer = fields.Integer(allow_none=True)
    doubles = fields.List(fields.Dict())
    sides = fields.List(fields.Dict())
    tricks = fields.List(fields.Dict())
    settlement = fields.Dict(allow_none=True)
    correction_waiting = fields.Dict(allow_none=True, metadata={
        "description": "a correction (or void) of this hand that lowers some members and waits for them: `{\"seq\", "
                       "\"correction\": its event's hash (what `agree` signs), \"waiting_for\", \"agreed\"}`; "
                       "until each has agreed the hand counts as before. Null when none waits"})
    voided = fields.Dict(allow_none=True)
    events = fields.List(fields.Integer())
    current = fields.List(fields.Dict(), metadata={"description": "the trick being played a card at a time: "
                                                                  "[{\"seat\", \"card\"}] so far"})
    awaiting = fields.List(fields.Integer(), metadata={"description": "a hand dealt seat by seat: the seats whose "
                                                                      "cards are still owed"})
    confirmation = fields.Dict(allow_none=True, metadata={
        "description": "whether the settlement counts yet (null until the hand is settled): {\"state\": counted, "
                       "pending or disputed, \"waiting_for\": [the payers who have not agreed yet], "
                       "\"confirmed_by\": [the payers who confirmed], \"disputes\": [...], \"because\"?: why it "
                       "counted at once}"})
    corrections = fields.List(fields.Dict(), metadata={"description": "the corrections that changed this hand"})


class TableConfirmed(Schema):
    confirmed = fields.List(fields.String(), required=True, metadata={
        "description": "the hands this member confirmed now, oldest first (empty: none waited for it)"})


class TrickResult(Schema):
    trick = fields.Integer()
    leader = fields.Integer()
    cards = fields.List(fields.String())
    winner = fields.Integer()
    points = fields.Integer()
    hand = fields.Nested(Hand)


def Reason(**kw):  # noqa: N802 - a field factory that reads like a field
    return fields.String(required=True, validate=[validate.Length(min=1, max=500), validate.Regexp(SHOWN_TEXT),
                                                  printable], **kw)


class Void(Schema):
    reason = Reason()


class DisputeIn(Schema):
    reason = Reason(metadata={"description": "what is wrong with the hand, in the member's words",
                              "example": "seat 2 had no trump left: that trick was mine"})


class CorrectIn(Schema):
    reason = Reason(metadata={"example": "the score sheet had Bob's points as Ala's"})
    result = fields.Dict(metadata={"games": "Result", "description": "the hand's result as it should have been (the "
                                                                     "form of a score sheet's result for its game); "
                                                                     "or void"})
    cards = fields.Dict(metadata={"description": "a hand whose cards were logged: the whole hand again, as a new "
                                                 "hand's body gives it: {\"deal\": {...}, \"bids\"?: [...], "
                                                 "\"tricks\"?: [...], \"plays\"?: [...]}, checked by the rules"})
    void = fields.Boolean(truthy={True}, falsy={False},
                          metadata={"description": "true: the hand counts as never played (JSON true, nothing else)"})

    @validates_schema
    def one_outcome(self, data, **kwargs):
        given = [k for k in ("result", "cards") if k in data] + (["void"] if data.get("void") else [])
        if len(given) != 1:
            raise ValidationError("give one of a result, the hand's cards or \"void\": true", "result")
        cards = data.get("cards")
        if cards is not None:
            if not isinstance(cards.get("deal"), dict):
                raise ValidationError("the hand's cards start with its deal: {\"deal\": {...}}", "cards")
            extra = sorted(set(cards) - {"deal", "bids", "tricks", "plays"})
            if extra or any(not isinstance(cards.get(k, []), list) for k in ("bids", "tricks", "plays")):
                raise ValidationError("the hand's cards are {\"deal\", \"bids\"?, \"tricks\"?, \"plays\"?}, "
                                      "each a list but the deal", "cards")


class CorrectionResult(Schema):
    correction = fields.Dict(metadata={"description": "the correction event's data: hand, reason, result or void, "
                                                      "adjustments (what each changed hand now pays more or less), "
                                                      "settlements (each changed hand's new settlement), table"})
    hand = fields.Dict(metadata={"description": "the corrected hand's state now"})


class GroupUpdate(Schema):
    confirmations = fields.String(required=True, validate=validate.OneOf(["payers", "off"]), metadata={
        "description": "payers: a settlement counts once every member who pays in it confirms it (or at once, when its "
                       "actor pays, every seat logged its own cards, or nobody pays); off: every settlement counts "
                       "at once"})


class Audit(Schema):
    hand = fields.String()
    table = fields.String()
    game = fields.String()
    phase = fields.String()
    events = fields.List(fields.Dict())
    settlement = fields.Dict(allow_none=True)
    voided = fields.Dict(allow_none=True)
    explanation = fields.List(fields.String())
    checkpoint = fields.Dict(metadata={"description": "the group's signed checkpoint the proofs are against"})
