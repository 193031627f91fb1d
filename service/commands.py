"""What a client can ask of a group's ledger, as values: the commands ``handlers.handle`` takes,
and the domain results it gives back (routes, pages and ``bitka demo`` make their answers
from these; nothing here knows HTTP)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from projections.hands import HandModel


@dataclass(frozen=True)
class CreateGroup:
    name: str
    currency: str
    confirmations: str = "payers"
    organizer: Mapping[str, Any] | None = None  # {"name", "key"}: the first member, with its first key


@dataclass(frozen=True)
class AddMember:
    group: str
    actor: str
    name: str


@dataclass(frozen=True)
class RotateToken:
    group: str
    member: str


@dataclass(frozen=True)
class OpenTable:
    group: str
    actor: str
    body: Mapping[str, Any]  # game, rules, seats, stake


@dataclass(frozen=True)
class NewHand:
    group: str
    actor: str
    table: str
    body: Mapping[str, Any]  # a deal with its calls, tricks or plays; or a result alone
    signed: Any = None  # events.acts.Signed, from the request's Bitka-Signature


@dataclass(frozen=True)
class Play:
    """A command to a hand being played: ``kind`` is bid, trick, play or claim."""
    group: str
    actor: str
    hand: str
    kind: str
    body: Mapping[str, Any]
    signed: Any = None  # events.acts.Signed, from the request's Bitka-Signature


@dataclass(frozen=True)
class VoidHand:
    group: str
    actor: str
    hand: str
    reason: str


@dataclass(frozen=True)
class UpdateGroup:
    group: str
    actor: str
    body: Mapping[str, Any]  # confirmations


@dataclass(frozen=True)
class Confirm:
    """A paying member confirms a settled hand."""
    group: str
    actor: str
    hand: str
    signed: Any = None  # events.acts.Signed, from the request's Bitka-Signature


@dataclass(frozen=True)
class ConfirmTable:
    """A member confirms every pending settlement at a table that waits for it."""
    group: str
    actor: str
    table: str
    signatures: Mapping[str, Any] = field(default_factory=dict)  # hand -> events.acts.Signed


@dataclass(frozen=True)
class Dispute:
    """A seated member disputes a settled hand that is not confirmed yet."""
    group: str
    actor: str
    hand: str
    reason: str
    signed: Any = None


@dataclass(frozen=True)
class Agree:
    """A member a correction (or a void) lowers agrees to it (signed ``agree``)."""
    group: str
    actor: str
    hand: str
    signed: Any = None


@dataclass(frozen=True)
class Correct:
    """The admin replaces a past hand's outcome: ``result`` (checked by its game) or a void."""
    group: str
    actor: str
    hand: str
    reason: str
    result: Mapping[str, Any] | None  # None: void (or by cards)
    cards: Mapping[str, Any] | None = None  # the whole hand again: {"deal", "bids"?, "tricks"?, "plays"?}


@dataclass(frozen=True)
class Pay:
    group: str
    actor: str
    body: Mapping[str, Any]  # from, to, amount
    signed: Any = None  # events.acts.Signed, from the request's Bitka-Signature


@dataclass(frozen=True)
class ConfirmPayment:
    """The receiver of a payment someone else recorded says they got it (signed ``confirm_payment``)."""
    group: str
    actor: str
    payment: int  # its seq
    signed: Any = None


@dataclass(frozen=True)
class SetPayDetails:
    """How a member takes money (an IBAN and its holder's name, a PIX key, a BLIK phone), set
    whole by that member or the admin: what the body leaves out or empty is cleared."""
    group: str
    actor: str
    member: str
    body: Mapping[str, Any]  # iban, name, pix, blik
    signed: Any = None  # events.acts.Signed, from the request's Bitka-Signature
    before_keys: bool = False  # an import of a log from before keys, where the admin could set them


@dataclass(frozen=True)
class AssertBalance:
    group: str
    actor: str
    body: Mapping[str, Any]  # member, balance


@dataclass(frozen=True)
class CreateTournament:
    """The admin creates a tournament: its players, rounds, deals per table, table points by
    place and stake; ``secrets`` commit to its first draw. An import gives the log's id."""
    group: str
    actor: str
    body: Mapping[str, Any]  # name, game, rules, players, rounds, deals, places, stake
    secrets: Any  # service/draws.py Secrets
    tournament: str | None = None
    draw: int = 2  # how its rounds are drawn: 2, from the players' check-ins (an import gives the log's)


@dataclass(frozen=True)
class DrawRound:
    """The admin draws a tournament's next round; an import gives the log's table ids."""
    group: str
    actor: str
    tournament: str
    secrets: Any  # service/draws.py Secrets
    tables: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()  # players the admin draws without their check-in ("draw": 2)


@dataclass(frozen=True)
class CheckIn:
    """A player's device checks in for a tournament's next round with fresh entropy (signed ``check_in``)."""
    group: str
    actor: str
    tournament: str
    round: int
    entropy: str  # 64 lowercase hex digits
    signed: Any = None


@dataclass(frozen=True)
class Watch:
    """The admin opens (``open``) or ends a tournament's watch link, named by the SHA-256 of
    its code (the code itself is shown once, never kept)."""
    group: str
    actor: str
    tournament: str
    watch: str
    open: bool


@dataclass(frozen=True)
class AddDevice:
    """A device of ``member`` registers its public key (a member's own token or sign-in)."""
    group: str
    actor: str
    member: str
    key: str
    via: str = "token"  # how a first key comes: by the member's token, or by an invitation


@dataclass(frozen=True)
class ApproveDevice:
    """One of the member's devices approves a waiting one (signed ``approve_device``)."""
    group: str
    actor: str
    member: str
    kid: str
    signed: Any = None


@dataclass(frozen=True)
class ResetMember:
    """The admin stops every key of a member who lost their phone."""
    group: str
    actor: str
    member: str
    reason: str


@dataclass(frozen=True)
class DeviceAdded:
    member: str
    kid: str
    pending: bool


@dataclass(frozen=True)
class GroupCreated:
    id: str
    name: str
    currency: str
    admin_token: str
    organizer: Credential | None = None


@dataclass(frozen=True)
class Credential:
    """A member and the token just minted for them (shown once)."""
    id: str
    name: str
    token: str


@dataclass(frozen=True)
class HandMoved:
    """A hand after a command: its model, and the events the command appended (a deal, a
    trick, a play, a claim, and the settlement when it ended the hand)."""
    hand: HandModel
    appended: tuple = field(default=())

    def first(self, kind: str) -> Mapping[str, Any]:
        """The data of the first appended event of ``kind``."""
        return next(e.data for e in self.appended if e.type == kind)


@dataclass(frozen=True)
class Recorded:
    """A fact about money appended at ``seq`` (a payment, an agreed balance)."""
    seq: int
    data: Mapping[str, Any]
