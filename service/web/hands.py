"""A hand's pages: the hand itself (the deal as far as the reader may see it, the tricks,
the settlement in words, whether it counts yet, the log) and what its verify button checks.
"""
from __future__ import annotations

from flask_babel import gettext as _

from events.errors import NotFound
from projections import audit as audit_trail
from ..evidence import checkpoint, inclusions, public_key
from ..sealed import events_as_seen
from .base import bp, page_of
from .hand_shown import hand_page_of


@bp.get("/g/<group>/hands/<hand>")
def hand_page(group, hand):
    """A hand: on a seated player's phone, what it may do now (phone.py) and the table as
    it stands, live; for everyone, the deal as far as they may see it, the tricks, the
    settlement in words, whether it counts yet, and the log with its verify button."""
    return hand_page_of(group, hand)


@bp.get("/g/<group>/hands/<hand>/evidence.json")
def hand_evidence(group, hand):
    """What the hand page's verify button checks, as the API would serve it: the hand's
    envelopes, an inclusion proof of each in the group's tree, the signed checkpoint of
    that tree and the server's public key. The browser recomputes everything from these."""
    def view(r, grow, principal, form_token):
        events = audit_trail.events_of(r, group, hand)
        if not events:
            raise NotFound(_("there is no hand %(hand)s in this group", hand=repr(hand)))
        size = r.version(group)
        proofs = inclusions(r, group, [e.seq for e in events], size)
        shown = events_as_seen(r, group, principal.subject, events)
        return {"group": group, "size": size, "checkpoint": checkpoint(r, group, size), "key": public_key(),
                "events": [{**e, "proof": proofs[e["seq"]]["path"]} for e in shown]}
    return page_of(group, view)
