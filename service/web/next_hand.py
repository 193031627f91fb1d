"""What follows a hand that is over, on its page: the table's next hand once it is dealt (a
link static/live.js follows by itself, so that no phone taps its way from one hand to the
next), or, at a table where each phone logs its own cards, the one tap that deals it."""
from __future__ import annotations

from ..handlers import lookups
from ..http import store
from .base import bp


@bp.app_template_global("after_hand")
def after_hand(group: str, table: str, hand: str) -> dict:
    """``next``: the id and number of the table's newest hand when it is not ``hand``;
    ``deal``: the table takes a hand dealt seat by seat now (open, its newest hand over).
    From the table's row alone: what a hand's page costs does not grow with its table."""
    with store().reading() as r:
        trow = lookups.table_row(r, group, table)
    latest = trow["latest_hand"]
    if latest is None:
        return {"next": None, "deal": False}
    if latest["id"] != hand:
        return {"next": {"id": latest["id"], "number": trow["hand_count"]}, "deal": False}
    return {"next": None, "deal": trow.get("entry") == "seats" and not trow["closed"]}
