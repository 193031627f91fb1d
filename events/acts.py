"""Signed acts: what binds a member, the statement each one signs, and how a signature is checked.

This is the one definition (API.md, "Members hold their own keys") that the service, ``bitka
verify``, ``replay``, ``import`` and ``verify --url`` use; the phones' witness ports it
(static/keys.js), and a test holds the two to the same bytes.

A statement is ``{"act", "group", "nonce", ...the act's fields}``; the signed message is
``bitka statement v1`` and a newline, then the statement's canonical JSON (as for event
hashes). A key is Ed25519, written as the base64url (no padding) of its 32 raw bytes; its
``kid`` is the first 32 hex digits of the SHA-256 of those bytes. The event an act appends
carries ``"signed": {"kid", "nonce", "sig"}`` in its data, and the act's fields are either the
event's own or (``confirm``, ``dispute``, ``agree``, ``confirm_payment``) kept beside them, so
the statement is rebuilt from the event alone.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .canonical import canonical_bytes

PREFIX = b"bitka statement v1\n"
HEADER = "Bitka-Signature"
NONCE = re.compile(r"[0-9a-f]{32}")
KID = re.compile(r"[0-9a-f]{32}")
ENTROPY = re.compile(r"[0-9a-f]{64}")

# Each act and its fields, in the order API.md lists them.
FIELDS: dict[str, tuple[str, ...]] = {
    "confirm": ("hand", "settlement"),
    "dispute": ("hand", "settlement", "reason"),
    "result": ("table", "dealer", "result"),
    "cards": ("hand", "seat", "cards"),
    "play": ("hand", "seat", "card", "capture"),
    "agree": ("hand", "correction"),
    "pay_to": ("member", "iban", "name", "pix", "blik"),
    "received": ("from", "to", "amount"),
    "confirm_payment": ("payment",),
    "approve_device": ("member", "key"),
    "check_in": ("tournament", "round", "entropy"),
}


class BadSignature(ValueError):
    """A header, key or signature that cannot be read (its sentence says which part)."""


@dataclass(frozen=True)
class Signed:
    """What a ``Bitka-Signature`` header (or a signed event's ``signed``) holds."""
    kid: str
    nonce: str
    sig: str  # base64url, no padding, of the 64-byte signature

    def as_data(self) -> dict:
        return {"kid": self.kid, "nonce": self.nonce, "sig": self.sig}


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str, size: int, what: str) -> bytes:
    """The ``size`` raw bytes a base64url text (padded or not) stands for."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text or ""):
        raise BadSignature(f"{what} is not base64url")
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise BadSignature(f"{what} is not base64url") from None
    if len(raw) != size:
        raise BadSignature(f"{what} is {len(raw)} bytes, not {size}")
    return raw


def kid_of(key: str) -> str:
    """A public key's id: the first 32 hex digits of the SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(public_key_bytes(key)).hexdigest()[:32]


def public_key_bytes(key: str) -> bytes:
    raw = unb64url(key, 32, "the key")
    try:
        Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise BadSignature("the key is not an Ed25519 public key") from None
    return raw


def canonical_key(key: str) -> str:
    """A public key as bitka writes it: base64url without padding."""
    return b64url(public_key_bytes(key))


def statement(act: str, group: str, nonce: str | None, fields: Mapping[str, Any]) -> dict:
    """The statement of ``act``: its name, the group, the nonce and exactly its fields."""
    return {"act": act, "group": group, "nonce": nonce, **{name: fields.get(name) for name in FIELDS[act]}}


def message(said: Mapping[str, Any]) -> bytes:
    """The bytes a device signs for a statement."""
    return PREFIX + canonical_bytes(said)


def parse_header(text: str) -> Signed:
    """``kid=<32 hex>, nonce=<32 hex>, sig=<base64url>`` (in any order, spaces optional)."""
    parts: dict[str, str] = {}
    for piece in (text or "").split(","):
        name, eq, value = piece.strip().partition("=")
        if not eq or name.strip() not in ("kid", "nonce", "sig") or name.strip() in parts:
            raise BadSignature("the Bitka-Signature header is 'kid=<kid>, nonce=<nonce>, sig=<signature>'")
        parts[name.strip()] = value.strip()
    if set(parts) != {"kid", "nonce", "sig"}:
        raise BadSignature("the Bitka-Signature header is 'kid=<kid>, nonce=<nonce>, sig=<signature>'")
    return checked(parts)


def checked(parts: Mapping[str, Any]) -> Signed:
    """A ``signed`` object (from a header, a body or an event) whose parts have the right form."""
    kid, nonce, sig = parts.get("kid"), parts.get("nonce"), parts.get("sig")
    if not isinstance(kid, str) or not KID.fullmatch(kid):
        raise BadSignature("kid is 32 lowercase hex digits")
    if not isinstance(nonce, str) or not NONCE.fullmatch(nonce):
        raise BadSignature("nonce is 32 lowercase hex digits")
    unb64url(sig, 64, "sig")
    return Signed(kid, nonce, sig)


def holds(key: str, said: Mapping[str, Any], sig: str) -> bool:
    """Whether ``sig`` is ``key``'s Ed25519 signature of the statement ``said``."""
    try:
        public = Ed25519PublicKey.from_public_bytes(public_key_bytes(key))
        public.verify(unb64url(sig, 64, "sig"), message(said))
    except (BadSignature, InvalidSignature, ValueError):
        return False
    return True


# Which logged events are acts: the act each event type is, when a member appends it, and
# where its fields are found. An event type not named here binds nobody.
def act_of(event_type: str, data: Mapping[str, Any], actor: str) -> str | None:
    """The act a member's event is, or None when it is no act (a payer recording a payment,
    a device added by invitation, token or reset)."""
    match event_type:
        case "confirmation":
            return "confirm"
        case "dispute":
            return "dispute"
        case "result":
            return "result"
        case "seat_cards":
            return "cards"
        case "play":
            return "play"
        case "agreement":
            return "agree"
        case "pay_details":
            return "pay_to"
        case "payment":
            return "received" if data.get("to") == actor else None
        case "payment_received":
            return "confirm_payment"
        case "device_added":
            return "approve_device" if data.get("via") == "approval" else None
        case "check_in":
            return "check_in"
    return None


def fields_of(act: str, hand: str | None, table: str | None, data: Mapping[str, Any]) -> dict:
    """An act's fields as its logged event holds them (``hand`` and ``table`` from the envelope)."""
    match act:
        case "confirm" | "agree" | "dispute":
            return {"hand": hand, **{k: data.get(k) for k in FIELDS[act] if k != "hand"}}
        case "result":
            return {"table": table, "dealer": data.get("dealer"), "result": data.get("result")}
        case "cards":
            return {"hand": hand, "seat": data.get("seat"), "cards": cards_sent(data)}
        case "play":
            return {"hand": hand, "seat": data.get("seat"), "card": data.get("card"),
                    "capture": data.get("capture") or None}
        case _:
            return {k: data.get(k) for k in FIELDS[act]}


def rebuilt(group: str, event_type: str, hand: str | None, table: str | None, data: Mapping[str, Any],
            actor: str) -> tuple[str, dict, Signed] | None:
    """A logged event's act, the statement its signer signed and its signature, or None when the
    event carries no signature. A field the event's ``signed`` holds is the one that was signed
    (where the event records another value: a capture the service chose)."""
    block = data.get("signed")
    act = act_of(event_type, data, actor)
    if not isinstance(block, Mapping) or act is None:
        return None
    signed = checked(block)
    fields = fields_of(act, hand, table, data)
    fields.update({k: v for k, v in block.items() if k in fields})
    return act, statement(act, group, signed.nonce, fields), signed


def cards_sent(data: Mapping[str, Any]) -> list | None:
    """The cards a ``seat_cards`` event (or request) names: a seat's, the face-up table
    cards, or the one trump card."""
    if "cards" in data:
        return data["cards"]
    if "table" in data:
        return data["table"]
    if data.get("trump") is not None:
        return [data["trump"]]
    return None
