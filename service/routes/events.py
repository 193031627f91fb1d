"""The group's log itself, page by page."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import request

from .. import event_schemas as s
from ..http import READ, Blueprint, json_response, read
from ..openapi import reads
from ..sealed import events_as_seen

blp = Blueprint("events", __name__, url_prefix="/v1/groups/<group>", description="The hash-chained log")
MAX_LIMIT = 1000


@blp.route("/events", methods=["GET"])
@blp.arguments(s.EventsQuery, location="query")
@blp.response(200, s.EventPage, description="Events after `after`; a `Link: rel=\"next\"` header while more remain")
@blp.problems(400, *READ)
@blp.doc(**reads(link=True))
def events(query, group):
    """Every event envelope with seq, type, data, actor, time, prev_hash and hash.

    While a hand is in play, an event that would show a member a card it may not see (another
    seat's, or the stock's) comes with `"sealed": true`, its `data` as `{}` and its Merkle
    `leaf`; `hash` and `prev_hash` are kept, so the chain still checks. The admin sees what it
    may see as any reader does: all at a `scorer` table, at an `entry: "seats"` table only the
    cards it logged itself and those in sight of everyone."""
    after, limit = query["after"], min(query["limit"], MAX_LIMIT)

    def view(r, p):
        page = r.events(group, after, limit)
        version = r.version(group)
        response = json_response({"events": events_as_seen(r, group, p.subject, page), "version": version}, 200,
                                 version)
        if page and page[-1].seq < version:
            # A relative reference (RFC 8288 resolves it against this request's address): the
            # Host header is the client's to send, so it is never echoed back as a link.
            nxt = f"{request.path}?{urlencode({'after': page[-1].seq, 'limit': limit})}"
            response.headers["Link"] = f'<{nxt}>; rel="next"'
        return response
    return read(group, view)
