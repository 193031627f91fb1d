"""Every signed act of a group's log checked again from the log alone (API.md, "Everyone
checks"): what ``bitka verify``, ``replay`` and ``verify --url`` run over a group's events.

Folding the events in order, it keeps each member's devices as the log added and stopped them,
the nonces used, and which event settled each hand as it stood. An act's event is a finding when
it carries a signature that is not a current key's of its member over the statement rebuilt from
it (events/acts.py), whose nonce was used before, or whose ``settlement`` is not the hand's
settling event at that point; and when its member had a key by then and it carries none. A
``device_added`` is a finding unless an invitation or the member's token (a first key), an
approval signed by a current key, or a reset explains it. Acts of a member before their first
key are "not signed (before keys)", as in stores from before keys.
"""
from __future__ import annotations

from typing import Mapping

from events import acts
from games.engine.seen import names_a_card
from . import devices

BEFORE_KEYS = "not signed (before keys)"
# Acts whose events a member may log unsigned: the cards and plays of a whole deal a scorer
# logged in one request (the hand's deal named every card: the scorer's, not each seat's).
SCORER_MAY_LOG = frozenset({"cards", "play"})


class Signatures:
    def __init__(self, group: str, hashes: bool = True):
        self.group = group
        self.hashes = hashes  # False: the events come without their hashes (replay's scan), so the
        # settlement, correction or payment an act names is not compared (verify compares it)
        self.keys: dict[str, dict] = {}  # member -> their devices row
        self.nonces: set[str] = set()
        self.settled: dict[str, str] = {}  # hand -> hash of the event that settled it as it stands
        self.whole_deal: set[str] = set()  # hands whose deal named the cards
        self.corrections: set[str] = set()  # hashes of corrections
        self.payments: set[str] = set()  # hashes of payments

    def add(self, env) -> str | None:
        """The finding ``env`` is (a sentence naming its seq), or None; the event is folded either way."""
        try:
            finding = self._judge(env)
        except (acts.BadSignature, KeyError, TypeError, AttributeError) as e:
            finding = f"its signature cannot be read ({e})"
        self._fold(env)
        return None if finding is None else f"seq {env.seq} ({env.type}): {finding}"

    def said(self, env) -> str:
        """How an act's event reads in an audit: signed by which key, or before keys."""
        block = env.data.get("signed") if isinstance(env.data, Mapping) else None
        if isinstance(block, Mapping):
            return f"signed by key {block.get('kid')}"
        return BEFORE_KEYS

    def _judge(self, env) -> str | None:
        data = env.data
        if env.type == "device_added":
            return self._device(env)
        if (env.type == "payment" and env.actor != data.get("to") and not data.get("pending")
                and devices.ever_keyed(self.keys.get(data.get("to")))):
            return f"a payment to {data.get('to')} counts without their word, though they held a key"
        if env.type == "pay_details" and env.actor == "admin" and self.keys:
            return f"the admin changed how {data.get('member')} takes money, once members held keys"
        act = acts.act_of(env.type, data, env.actor)
        if act is None or env.actor == "admin":
            return None
        signer = self.keys.get(env.actor)
        if "signed" not in data:
            if not devices.ever_keyed(signer):
                return None  # before keys
            if act in SCORER_MAY_LOG and env.hand in self.whole_deal:
                return None
            return f"{env.actor} had a device key, and this act carries no signature of theirs"
        return self._signature(env, act, env.actor)

    def _signature(self, env, act: str, member: str) -> str | None:
        _, said, signed = acts.rebuilt(self.group, env.type, env.hand, env.table, env.data, env.actor)
        key = next((k for k in devices.current(self.keys.get(member)) if k["kid"] == signed.kid), None)
        if key is None:
            return f"{signed.kid} is not a current key of {member} at this point"
        if signed.nonce in self.nonces:
            return f"its nonce {signed.nonce} was used before"
        if not acts.holds(key["key"], said, signed.sig):
            return f"the signature is not {signed.kid}'s over the statement this event makes"
        if not self.hashes:
            return None
        if act in ("confirm", "dispute") and said["settlement"] != self.settled.get(env.hand):
            return "it speaks of a settlement that is not the hand's as it stood"
        if act == "agree" and said["correction"] not in self.corrections:
            return "it agrees to no correction of this log"
        if act == "confirm_payment" and said["payment"] not in self.payments:
            return "it confirms no payment of this log"
        return None

    def _device(self, env) -> str | None:
        data, row = env.data, self.keys.get(env.data.get("member"))
        if data.get("kid") != acts.kid_of(data.get("key")):
            return "its kid is not its key's"
        if any(k["kid"] == data["kid"] for r in self.keys.values() for k in r["keys"]):
            return "its key was added before"
        via = data.get("via")
        if via == "approval":
            if env.actor != data["member"] or "signed" not in data:
                return "an approval signed by none of the member's current devices"
            return self._signature(env, "approve_device", data["member"])
        if devices.current(row):
            return f"{data['member']} had a current key, so no invitation, token or reset adds one"
        if via == "reset" and not devices.was_reset(row):
            return f"{data['member']} was never reset"
        if via not in ("invitation", "token", "reset"):
            return f"no device comes {via!r}"
        return None

    def _fold(self, env) -> None:
        data = env.data
        if env.type in devices.EVENTS and isinstance(data, Mapping) and "member" in data:
            self.keys[data["member"]] = devices.apply(self.keys.get(data["member"]), env)
        block = data.get("signed") if isinstance(data, Mapping) else None
        if isinstance(block, Mapping) and isinstance(block.get("nonce"), str):
            self.nonces.add(block["nonce"])
        if env.type == "deal" and names_a_card(data):
            self.whole_deal.add(env.hand)
        elif env.type == "settlement":
            self.settled[env.hand] = env.hash
        elif env.type == "correction":
            self.corrections.add(env.hash)
            self.settled[data["hand"]] = env.hash
            for again in data.get("settlements", []):
                self.settled[again["hand"]] = env.hash
        elif env.type == "payment":
            self.payments.add(env.hash)


# The event types the check reads the data of: a scan may leave the rest unparsed.
READS = devices.EVENTS | devices.SIGNABLE | frozenset({"deal", "settlement", "correction", "payment"})


def findings(envelopes, sealed: frozenset[int] = frozenset()) -> list[str]:
    """Every finding among the events of one or more groups (in each group's seq order);
    ``sealed``: seqs whose data the reader was not shown (their acts cannot be checked yet)."""
    checks: dict[str, Signatures] = {}
    out = []
    for env in envelopes:
        check = checks.get(env.group)
        if check is None:
            check = checks[env.group] = Signatures(env.group)
        if env.seq in sealed:
            continue
        found = check.add(env)
        if found is not None:
            out.append(f"group {env.group}: {found}")
    return out
