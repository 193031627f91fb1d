"""The money's handlers: a balance the group agreed (beancount's balance assertion) and a
payment between two members, and who may record a payment."""
from __future__ import annotations

from typing import Mapping

from events.errors import Invalid, Refused, Unprocessable
from events.money import MAX_BALANCE, format_amount
from events.sentences import say
from events.store import NewEvent, Writer
from projections import balances

from .. import auth
from ..commands import AssertBalance, Pay, Recorded
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
    """A payment raises the payer's balance, so only the admin or the member who received
    the money (``to``) may record it."""
    if actor != auth.ADMIN and actor != body["to"]:
        raise Refused(say("only the admin or the member who received the money (to) may record a payment"))


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
    [env] = w.append(c.group, [NewEvent("payment", data)], c.actor, expected_version=w.version(c.group))
    return Recorded(env.seq, data)

