"""The money's handlers: a balance the group agreed (beancount's balance assertion) and a
payment between two members, and who may record a payment."""
from __future__ import annotations

from typing import Mapping

from events.errors import Invalid, NotFound, Refused, Unprocessable
from events.money import MAX_BALANCE, format_amount
from events.sentences import say
from events.store import NewEvent, Writer
from projections import balances

from .. import auth, signing
from ..commands import AssertBalance, ConfirmPayment, Pay, Recorded
from .lookups import group_row, parsed_amount


def assert_balance(c: AssertBalance, w: Writer) -> Recorded:
    """Record that the group agreed a member's balance here (beancount's balance assertion).
    A balance the log does not give is refused, showing the one it gives."""
    row = group_row(w, c.group)
    member = c.body["member"]
    if member not in {m["id"] for m in row["members"]}:
        raise Unprocessable(say("member: {member} is not a member of this group", member=repr(member)))
    agreed = parsed_amount(c.body["balance"], row["digits"], "balance", negative=True, limit=MAX_BALANCE)
    data = {"member": member, "balance": format_amount(agreed, row["digits"])}
    actual = balances.disagreement(w.row("balances", c.group, ""), data)
    if actual is not None:
        raise Unprocessable(say("{member}'s balance is {actual}, not {data_balance}",
                                member=member, actual=actual, data_balance=data['balance']), actual=actual)
    [env] = w.append(c.group, [NewEvent("assertion", data)], c.actor, expected_version=w.version(c.group))
    return Recorded(env.seq, data)


def may_record_payment(actor: str, body: Mapping) -> None:
    """A payment is recorded by the admin, its payer or its receiver (``to``); it counts once
    its receiver has said they got it."""
    if actor not in (auth.ADMIN, body["to"], body["from"]):
        raise Refused(say("only the admin or the two members a payment is between may record it"))


def pay(c: Pay, w: Writer) -> Recorded:
    row, body = group_row(w, c.group), c.body
    known = {m["id"] for m in row["members"]}
    src, dst = body["from"], body["to"]
    for field, member in (("from", src), ("to", dst)):
        if member not in known:
            raise Unprocessable(say("{field}: {member} is not a member of this group",
                                    field=field, member=repr(member)))
    if src == dst:
        raise Unprocessable(say("a payment needs two different members"))
    may_record_payment(c.actor, body)
    amount = parsed_amount(body["amount"], row["digits"], "amount", limit=MAX_BALANCE)  # a balance paid back whole
    if amount <= 0:
        raise Invalid(say("the amount must be more than zero"), errors={"amount": [say("must be more than zero")]})
    data = {"from": src, "to": dst, "amount": format_amount(amount, row["digits"])}
    if c.actor == dst:  # the receiver's word: signed, once they hold a key
        data.update(signing.sealed_by(w, c.group, c.actor, "received", {**data, "amount": body["amount"]}, c.signed,
                                      data))
    elif c.actor == src or signing.needed(w, c.group, dst):
        data["pending"] = True  # it counts once its receiver signs for it
    [env] = w.append(c.group, [NewEvent("payment", data)], c.actor, expected_version=w.version(c.group))
    return Recorded(env.seq, data)


def confirm_payment(c: ConfirmPayment, w: Writer) -> Recorded:
    """The receiver of a payment someone else recorded says they got it: it counts from now on."""
    group_row(w, c.group)
    found = next(iter(w.events(c.group, after=c.payment - 1, limit=1)), None) if c.payment > 0 else None
    if found is None or found.seq != c.payment or found.type != "payment":
        raise NotFound(say("there is no payment at seq {seq} in this group", seq=c.payment))
    if c.actor != found.data["to"]:
        raise Refused(say("only the member who received a payment says they got it"))
    waiting = (w.row(balances.NAME, c.group, "") or {}).get("payments", {})
    if str(c.payment) not in waiting:
        raise Unprocessable(say("the payment at seq {seq} counts already", seq=c.payment))
    sealed = signing.sealed_by(w, c.group, c.actor, "confirm_payment", {"payment": found.hash}, c.signed)
    data = {"seq": c.payment, "payment": found.hash, **sealed}
    [env] = w.append(c.group, [NewEvent("payment_received", data)], c.actor, expected_version=w.version(c.group))
    shown = {k: v for k, v in found.data.items() if k not in ("pending", "signed")}
    return Recorded(c.payment, {**shown, "received": env.seq})

