"""Each member's devices: the keys the log added for them and those a reset stopped (a pure
fold, one row per member), and the nonces signed acts have used (a row per nonce).

A key is added by ``device_added`` (``via``: invitation, token, approval or reset) and stopped,
with every other key of its member, by ``member_reset``. The service checks a signature against
the member's current keys; ``verify`` and ``replay`` check each logged act against the keys as
they stood when it was logged (projections/signatures.py).
"""
from __future__ import annotations

from typing import Iterable

NAME = "devices"
EVENTS = frozenset({"device_added", "member_reset"})
NONCES = "nonce"
# The events that may carry a signature: each is checked, and its nonce kept, when it does.
SIGNABLE = frozenset({"confirmation", "dispute", "result", "seat_cards", "play", "agreement", "pay_details",
                      "payment", "payment_received", "device_added", "check_in"})


def apply(row: dict | None, event) -> dict | None:
    d = event.data
    row = row or {"member": d["member"], "keys": [], "resets": []}
    if event.type == "device_added":
        key = {"kid": d["kid"], "key": d["key"], "via": d["via"], "seq": event.seq, "at": event.recorded_at,
               "stopped": None}
        return dict(row, keys=[*row["keys"], key])
    if event.type == "member_reset":
        keys = [k if k["stopped"] is not None else dict(k, stopped=event.seq) for k in row["keys"]]
        reset = {"seq": event.seq, "at": event.recorded_at, "reason": d.get("reason", "")}
        return dict(row, keys=keys, resets=[*row["resets"], reset])
    return row


def key_of(event) -> str | None:
    return event.data.get("member")


def used(row: dict | None, event) -> dict | None:
    """The nonce row: the seq of the act that used it."""
    return row if row is not None else {"seq": event.seq}


def nonce_of(event) -> str | None:
    signed = event.data.get("signed")
    return signed.get("nonce") if isinstance(signed, dict) else None


def current(row: dict | None) -> list[dict]:
    """The keys of a member that no reset stopped."""
    return [k for k in (row or {}).get("keys", []) if k["stopped"] is None]


def ever_keyed(row: dict | None) -> bool:
    return bool((row or {}).get("keys"))


def was_reset(row: dict | None) -> bool:
    return bool((row or {}).get("resets"))


def first_via(row: dict | None) -> str:
    """How a member's next first key comes: ``reset`` after a reset, else as it is asked."""
    return "reset" if was_reset(row) and not current(row) else ""


def recent_resets(rows: Iterable[dict], since: str) -> list[dict]:
    """The resets logged at or after ``since`` (an RFC 3339 time), newest first, each with its member."""
    found = [dict(r, member=row["member"]) for row in rows for r in row.get("resets", []) if r["at"] >= since]
    return sorted(found, key=lambda r: r["seq"], reverse=True)
