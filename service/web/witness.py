"""What a member's browser checks of the group's log on every visit (static/witness.js).

The browser keeps, from its last visit, the Merkle tree it grew from every event it was
served (its right edge only: a few hashes), the last event's hash and the balances it
folded. Each visit it asks for the events after the last one it folded and the signed
checkpoint now: it hashes each event, links it to the one before, grows its tree with it,
folds the money, and only then trusts the checkpoint, whose root must be its own tree's.
A store damaged under the server is answered as such, in JSON, for the phone to say.
"""
from __future__ import annotations

import json

from flask import Response, request

from events.errors import Damaged
from ..evidence import checkpoint, public_key
from ..sealed import events_as_seen
from .base import bp, page_of

PAGE = 1000  # events per answer; ``next`` says where to ask again
AGAIN = 200  # events asked for again in one answer


@bp.get("/g/<group>/witness.json")
def witness(group):
    """The group's signed checkpoint now, the server's key, and the events after ``after``
    (the last seq the browser folded) as this member may see them, up to the checkpoint;
    ``again`` (seqs, comma-separated) asks for events served sealed before, once more: an
    event sealed while its hand was in play must later show what its leaf holds."""
    def view(r, grow, principal, form_token):
        now = checkpoint(r, group)
        after = min(_number(request.args.get("after", "")) or 0, now["size"])
        upto = min(now["size"], after + PAGE)
        events = events_as_seen(r, group, principal.subject, r.events(group, after, upto - after)) \
            if upto > after else []
        again = sorted({n for n in map(_number, request.args.get("again", "").split(",")[:AGAIN])
                        if n is not None and 0 < n <= now["size"]})
        return {"group": group, "checkpoint": now, "key": public_key(), "events": events,
                "next": upto if upto < now["size"] else None,
                "again": [e for seq in again for e in events_as_seen(r, group, principal.subject,
                                                                     r.events(group, seq - 1, 1))]}
    try:
        return page_of(group, view)
    except Damaged as e:
        return Response(json.dumps({"damaged": e.seq, "detail": e.detail}), 500, mimetype="application/json")


def _number(text: str) -> int | None:
    """A seq as an address gives it, or None for anything else."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None
