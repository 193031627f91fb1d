"""The log's listing schemas (GET .../events): service/routes/events.py's query and page,
in the OpenAPI document."""
from __future__ import annotations

from marshmallow import Schema, fields, validate


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2 ** 62))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=2 ** 62),
                           metadata={"description": "at most 1000; larger values are read as 1000"})


class Envelope(Schema):
    seq = fields.Integer()
    type = fields.String()
    hand = fields.String()
    table = fields.String()
    data = fields.Dict()
    actor = fields.String()
    recorded_at = fields.String()
    prev_hash = fields.String()
    hash = fields.String()
    sealed = fields.Boolean(metadata={"description": (
        "present (true) on an event that would show you a card you may not see while its hand is in play: its "
        "data is {} and it is not part of the hashed envelope; hash and prev_hash are the event's own")})
    leaf = fields.String(metadata={"description": "a sealed event's Merkle leaf (hex), for its inclusion proof"})


class EventPage(Schema):
    events = fields.List(fields.Nested(Envelope))
    version = fields.Integer()
