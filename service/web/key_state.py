"""What every page of a group shows of keys (API.md, "Members hold their own keys"): the reader's
own keys (so that the phone's script can tell whether this phone holds one of them, and say so
when it does not), the new phones of theirs that wait for approval, and every reset of the
group's last 30 days, which is never quiet.

Read by ``base.viewer`` for every page; the pages themselves are in keys_pages.py.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from flask_babel import format_date

from projections import devices
from projections.groups import member_name
from ..handlers.devices import WAITING

ANNOUNCED = timedelta(days=30)  # how long every page of every member says that the admin reset someone's devices


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def announced(rows, now: datetime) -> list[dict]:
    """The resets still announced at ``now`` (logged in the 30 days before it), newest first,
    each with its member: a pure function of the group's device rows."""
    return devices.recent_resets(rows, _stamp(now - ANNOUNCED))


def day(stamp: str) -> str:
    """The day of an RFC 3339 time of the log, as the reader's language writes a date."""
    try:
        return format_date(datetime.fromisoformat(stamp.replace("Z", "+00:00")), "medium")
    except ValueError:
        return stamp


def waiting(reader, group: str, member: str) -> list[dict]:
    """The devices of ``member`` that wait for one of their devices to approve them."""
    keys = sorted(k for k in reader.row_keys(WAITING, group) if k.startswith(f"{member}:"))
    return list(reader.rows_of(WAITING, group, keys).values())


def seen(reader, grow: dict, who, now: datetime | None = None) -> dict:
    """What a page shows of keys to the session ``who``: its member's current and stopped
    keys and those that wait, and the group's resets still announced (for everyone)."""
    rows = {key: row for (_group, key), row in reader.rows(devices.NAME, grow["id"]).items()}
    resets = [{"name": member_name(grow, r["member"]), "day": day(r["at"]), "reason": r["reason"], "at": r["at"],
               "member": r["member"]} for r in announced(rows.values(), now or _now())]
    member = who.member
    mine = rows.get(member) if member else None
    kids = [k["kid"] for k in devices.current(mine)]
    stopped = [k["kid"] for k in (mine or {}).get("keys", []) if k["stopped"] is not None]
    return {"group": grow["id"], "member": member, "keyed": devices.ever_keyed(mine), "kids": kids,
            "stopped": stopped, "waiting": [w["kid"] for w in waiting(reader, grow["id"], member)] if member else [],
            "resets": resets, "mine_reset": [r for r in resets if r["member"] == member]}
