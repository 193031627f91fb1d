"""Proofs against rewriting: the server's public key, signed checkpoints, inclusion and
consistency proofs (RFC 9162), as API.md's proofs section defines them."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.errors import Unprocessable

from .. import evidence
from ..http import PROBLEM, READ, Blueprint, json_response, read
from ..openapi import NO_TOKEN, reads
from ..schemas import Problem

blp = Blueprint("proofs", __name__, url_prefix="/v1", description="Signed checkpoints and Merkle proofs")
BIG = 2 ** 62


class Key(Schema):
    id = fields.String()
    alg = fields.String()
    public_key = fields.String(metadata={"description": "the raw Ed25519 public key, base64"})


class Keys(Schema):
    keys = fields.List(fields.Nested(Key))


class Checkpoint(Schema):
    group = fields.String()
    size = fields.Integer()
    root = fields.String(metadata={"description": "lowercase hex"})
    timestamp = fields.String()
    key_id = fields.String()
    signature = fields.String(metadata={"description": "base64 Ed25519 signature over the canonical JSON of the "
                                                      "checkpoint without signature"})


# Sizes and seqs start at 1. The document says so; a 0 is still read and answered with the
# 422 that names the range, as every other size outside the group's.
FROM_1 = {"minimum": 1}


class SizeQuery(Schema):
    size = fields.Integer(validate=validate.Range(min=0, max=BIG), metadata=FROM_1)


class InclusionQuery(Schema):
    seq = fields.Integer(required=True, validate=validate.Range(min=0, max=BIG), metadata=FROM_1)
    size = fields.Integer(validate=validate.Range(min=0, max=BIG), metadata=FROM_1)


class Inclusion(Schema):
    seq = fields.Integer()
    size = fields.Integer()
    leaf = fields.String()
    path = fields.List(fields.String())


class ConsistencyQuery(Schema):
    from_ = fields.Integer(required=True, data_key="from", validate=validate.Range(min=0, max=BIG), metadata=FROM_1)
    to = fields.Integer(required=True, validate=validate.Range(min=0, max=BIG), metadata=FROM_1)


class Consistency(Schema):
    from_ = fields.Integer(data_key="from")
    to = fields.Integer()
    path = fields.List(fields.String())


@blp.route("/keys", methods=["GET"])
@blp.response(200, Keys)
@blp.alt_response("4XX", schema=Problem, content_type=PROBLEM, description=(
    "Not expected: the keys take no token and no input. Any client error (a request the HTTP server itself "
    "refuses) is problem+json"))
@blp.doc(security=NO_TOKEN)
def keys():
    """The server's public key; checkpoints name it by its id. Needs no token."""
    return json_response({"keys": [evidence.public_key()]})


def _size(reader, group: str, size: int | None, what: str = "size") -> int:
    version = reader.version(group)
    if size is None:
        return version
    if not 1 <= size <= version:
        raise Unprocessable(f"{what} must be from 1 to the group's size, {version}; not {size}")
    return size


@blp.route("/groups/<group>/checkpoint", methods=["GET"])
@blp.arguments(SizeQuery, location="query")
@blp.response(200, Checkpoint)
@blp.problems(*READ, 422, why={422: "A size outside 1..the group's size"})
@blp.doc(**reads())
def get_checkpoint(query, group):
    """The group's signed tree head, now or at ``size``."""
    return read(group, lambda r, _: evidence.checkpoint(r, group, _size(r, group, query.get("size"))))


@blp.route("/groups/<group>/proofs/inclusion", methods=["GET"])
@blp.arguments(InclusionQuery, location="query")
@blp.response(200, Inclusion)
@blp.problems(*READ, 422, why={422: "seq or size out of range"})
@blp.doc(**reads())
def inclusion(query, group):
    """The audit path (RFC 9162 2.1.3) of event ``seq`` in the tree of ``size`` events."""
    def view(r, _):
        size = _size(r, group, query.get("size"))
        seq = query["seq"]
        if not 1 <= seq <= size:
            raise Unprocessable(f"seq must be from 1 to size, {size}; not {seq}")
        return evidence.inclusions(r, group, [seq], size)[seq]
    return read(group, view)


@blp.route("/groups/<group>/proofs/consistency", methods=["GET"])
@blp.arguments(ConsistencyQuery, location="query")
@blp.response(200, Consistency)
@blp.problems(*READ, 422, why={422: "from or to out of range"})
@blp.doc(**reads())
def consistency(query, group):
    """The consistency proof (RFC 9162 2.1.4) that the tree of ``to`` events extends that of ``from``."""
    def view(r, _):
        new = _size(r, group, query["to"], "to")
        old = query["from_"]
        if not 1 <= old <= new:
            raise Unprocessable(f"from must be from 1 to to, {new}; not {old}")
        return evidence.consistency(r, group, old, new)
    return read(group, view)


