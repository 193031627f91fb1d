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
from .pages import _page, bp

PAGE = 1000  # events per answer; ``next`` says where to ask again


@bp.get("/g/<group>/witness.json")
def witness(group):
    """The group's signed checkpoint now, the server's key, and the events after ``after``
    (the last seq the browser folded) as this member may see them, up to the checkpoint."""
    def view(r, grow, principal, form_token):
        now = checkpoint(r, group)
        asked = request.args.get("after", "")
        after = min(int(asked), now["size"]) if asked.isascii() and asked.isdigit() and len(asked) < 19 else 0
        upto = min(now["size"], after + PAGE)
        events = events_as_seen(r, group, principal.subject, r.events(group, after, upto - after)) \
            if upto > after else []
        return {"group": group, "checkpoint": now, "key": public_key(), "events": events,
                "next": upto if upto < now["size"] else None}
    try:
        return _page(group, view)
    except Damaged as e:
        return Response(json.dumps({"damaged": e.seq, "detail": e.detail}), 500, mimetype="application/json")
