"""The handlers: what a client can ask of a group's ledger, ``handle(command, writer)``.

One handler per command (service/commands.py), each taking the command and the writer whose
transaction it runs in, grouped by what they are about: the group and its members
(groups.py), a table (tables.py), a tournament (tournaments.py), a hand (hands.py, which the hand planner decides:
planning.py), what is said of a settled hand (verdicts.py), money (money.py) and how a member
takes it (pay_to.py); what they all look up is in lookups.py. ``HANDLERS`` maps each
command's type to its handler.

Each handler reads what it needs inside the write transaction, lets the game decide (a pure
step: ``planning.decide`` and ``planning.plan_hand`` append nothing), appends the resulting
events at the version it decided on (the projector updates the rows in the same
transaction), and returns a domain result (service/commands.py). Routes, pages and ``bitka
demo`` turn results into their answers; nothing here knows HTTP.
"""
from __future__ import annotations

from typing import Any, Callable

from events.sentences import say
from events.store import Writer

from ..commands import (
    AddDevice,
    Agree,
    AddMember,
    ApproveDevice,
    AssertBalance,
    Confirm,
    CheckIn,
    ConfirmPayment,
    ConfirmTable,
    Correct,
    CreateGroup,
    CreateTournament,
    Dispute,
    DrawRound,
    NewHand,
    OpenTable,
    Pay,
    Play,
    ResetMember,
    RotateToken,
    SetPayDetails,
    UpdateGroup,
    VoidHand,
    Watch,
)
from . import devices, groups, hands, money, pay_to, tables, tournaments, verdicts

HANDLERS: dict[type, Callable[[Any, Writer], Any]] = {
    CreateGroup: groups.create_group,
    AddMember: groups.add_member,
    RotateToken: groups.rotate_token,
    UpdateGroup: groups.update_group,
    OpenTable: tables.open_table,
    NewHand: hands.new_hand,
    Play: hands.play,
    VoidHand: hands.void_hand,
    Confirm: verdicts.confirm,
    ConfirmTable: verdicts.confirm_table,
    Dispute: verdicts.dispute,
    Correct: verdicts.correct,
    Agree: verdicts.agree,
    Pay: money.pay,
    ConfirmPayment: money.confirm_payment,
    AssertBalance: money.assert_balance,
    SetPayDetails: pay_to.set_pay_details,
    CreateTournament: tournaments.create_tournament,
    DrawRound: tournaments.draw_round,
    CheckIn: tournaments.check_in,
    Watch: tournaments.watch,
    AddDevice: devices.add_device,
    ApproveDevice: devices.approve_device,
    ResetMember: devices.reset_member,
}


def handle(command, w: Writer):
    """Carry out one command in the writer's transaction; its domain result."""
    for kind in type(command).__mro__:  # a command's subclass is handled as the command
        if kind in HANDLERS:
            return HANDLERS[kind](command, w)
    raise TypeError(say("no handler for {command}", command=repr(command)))
