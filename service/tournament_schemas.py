"""The bodies of tournaments, their draws, standings and seasons, and watch links (marshmallow:
a body that does not match is a 400), each described for the OpenAPI document."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from games.registry import GAMES

from .schemas import Amount, Id, Name

MAX_PLAYERS = 1000
MAX_ROUNDS = 100
MAX_DEALS = 1000


class TournamentCreate(Schema):
    name = Name(metadata={"example": "Bytów, 3 December"})
    game = fields.String(required=True, validate=validate.Length(min=1, max=32),
                         metadata={"example": next(iter(GAMES)), "description": "one of " + ", ".join(GAMES)})
    rules = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "games": "RulesIn", "description": "the rules every table plays (as a table's; `entry` too)"})
    players = fields.List(Id(), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS), metadata={
        "description": "member ids, in the order the draw shuffles them; their count must fit the game's tables "
                       "(tables of the game's size; where its dealer may sit out, the last ones one larger as many "
                       "as needed: 13 sit 4, 4, 5)"})
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_ROUNDS),
                            metadata={"example": 5})
    deals = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_DEALS),
                           metadata={"example": 32, "description": "the hands each table of a round plays; the next "
                                                                   "one is a 422"})
    places = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=1000)),
                         validate=validate.Length(min=1, max=8), metadata={
                             "example": [5, 3, 1, 0], "description": "table points by place at a full table, best "
                                                                     "first (when left out 5, 3, 1, 0, as far as a "
                                                                     "table has places: 5, 3 at a table of two); a "
                                                                     "place beyond them, a fifth at a table of five, "
                                                                     "gets 0"})
    stake = Amount()  # each table's stake: one whole unit when left out ("1" in points)


class TableDrawn(Schema):
    id = fields.String(metadata={"description": "the table's id: an ordinary table of the group"})
    seats = fields.List(fields.String(), metadata={"description": "member ids in seat order (seat 0 deals first)"})


class Drawn(Schema):
    round = fields.Integer()
    secret = fields.String(metadata={"description": "64 lowercase hex digits: the 32 bytes whose SHA-256 is the "
                                                    "commitment published before this round"})
    after = fields.Integer(metadata={"description": "the seq of the group's last event before the draw"})
    seed = fields.String(metadata={"description": "SHA-256(secret bytes || the raw 32 bytes of event `after`'s "
                                                  "hash), in hex"})
    commitment = fields.String(allow_none=True, metadata={"description": "the next round's commitment (null after "
                                                                         "the last round)"})
    tables = fields.List(fields.Nested(TableDrawn))
    absent = fields.List(fields.String(), metadata={
        "description": "`\"draw\": 2`: the players drawn without their check-in (the admin named them)"})


class DrawIn(Schema):
    absent = fields.List(Id(), load_default=list, validate=validate.Length(max=MAX_PLAYERS), metadata={
        "description": "players to draw without their check-in (`\"draw\": 2`): they are still seated, and the "
                       "draw's answer and the seat plan say so"})


class CheckInIn(Schema):
    entropy = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"), metadata={
        "description": "64 lowercase hex digits of fresh random bytes from the player's device",
        "example": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"})


class CheckedIn(Schema):
    seq = fields.Integer()
    member = fields.String()
    tournament = fields.String()
    round = fields.Integer()
    entropy = fields.String()


class Tournament(Schema):
    id = fields.String()
    name = fields.String()
    game = fields.String()
    rules = fields.Dict(metadata={"games": "Rules"})
    players = fields.List(fields.String())
    rounds = fields.Integer()
    deals = fields.Integer()
    places = fields.List(fields.Integer())
    stake = fields.String()
    commitment = fields.String(allow_none=True, metadata={
        "description": "lowercase hex SHA-256 of the 32 raw bytes of the secret the next draw reveals; null once "
                       "every round is drawn"})
    drawn = fields.Integer(metadata={"description": "how many rounds are drawn"})
    drawn_rounds = fields.List(fields.Nested(Drawn), metadata={"description": "each draw's answer, in order"})
    draw = fields.Integer(metadata={"description": "2: each round is drawn from the secret and every checked-in "
                                                   "player's entropy (tournaments created since members hold keys); "
                                                   "1: from the secret and the last event's hash"})
    checked_in = fields.List(fields.String(), metadata={"description": "`\"draw\": 2`: the players checked in for "
                                                                       "the next round"})


class Placed(Schema):
    round = fields.Integer()
    table = fields.String()
    small = fields.String(metadata={"description": "what counts of the player's payouts at that table"})
    place = fields.Integer(metadata={"description": "the best place the player's small points cover there"})
    points = fields.String(metadata={"description": "table points, the shortest decimal (\"4\", \"2.25\")"})


class Standing(Schema):
    member = fields.String()
    name = fields.String()
    place = fields.Integer()
    points = fields.String(metadata={"description": "table points over the rounds, the shortest decimal"})
    small = fields.String(metadata={"description": "small points: what counts of the payouts, over the rounds"})
    first_places = fields.Integer()
    rounds = fields.List(fields.Nested(Placed), metadata={
        "description": "each table the player sat at that has played a hand (a table not started places nobody)"})


class Standings(Schema):
    tournament = fields.String()
    rounds = fields.Integer()
    rounds_played = fields.Integer(metadata={"description": "the rounds whose tables have all played their deals"})
    players = fields.List(fields.Nested(Standing), metadata={
        "description": "best first: table points, then small points, then first places; still tied share a place"})


class SeasonQuery(Schema):
    tournaments = fields.String(required=True, validate=validate.Length(min=1, max=2000), metadata={
        "description": "the tournaments' ids, comma-separated", "example": "x_1a2b3c4d5e6f,x_6f5e4d3c2b1a"})
    best = fields.Integer(required=True, strict=False, validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={
        "description": "how many of each player's tournaments count (their best by points, then small points)",
        "example": 8})


class Counted(Schema):
    id = fields.String()
    points = fields.String()
    small = fields.String()
    counted = fields.Boolean()


class SeasonStanding(Standing):
    class Meta:
        exclude = ("rounds",)
    tournaments = fields.List(fields.Nested(Counted), metadata={"description": "the tournaments the player played"})


class Season(Schema):
    tournaments = fields.List(fields.String())
    best = fields.Integer()
    players = fields.List(fields.Nested(SeasonStanding))


class WatchOpened(Schema):
    url = fields.String(metadata={"description": "the page /t/{code}, absolute as invitation links are: the "
                                                 "standings and each table's running score, live, without signing "
                                                 "in (cards in play sealed)"})
    code = fields.String()
