"""The auction of Kop (and of its cousin Baśka): contracts, doubles and who may call what.

Calls come in seat order after the dealer; clients may log only the non-pass calls, so a
call is judged on what stands when it arrives, never on whose turn it was. A contract must
outrank the standing one and wipes the doubles before it; doubles climb a named ladder;
the declarer (and the silent holder of both black queens) may not give the first double.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from events.sentences import say

from ..engine.errors import Revealing, RuleViolation

BLACK_QUEENS = ("QC", "QS")
JACKS_HIGH_TO_LOW = ("JC", "JS", "JH", "JD")


@dataclass(frozen=True)
class Ladder:
    """The calls a game knows: contracts low to high, double names in order, aliases."""
    contracts: tuple[str, ...]
    doubles: tuple[str, ...]
    aliases: Mapping[str, str]
    solo: frozenset[str]  # contracts played alone against three
    extra_double: str = "double"  # the name of every double past the named ones


@dataclass(frozen=True)
class Call:
    seat: int
    call: str
    jack: str | None = None

    def to_data(self) -> dict:
        data = {"seat": self.seat, "call": self.call}
        if self.jack:
            data["jack"] = self.jack
        return data


@dataclass(frozen=True)
class Auction:
    """What stands after the calls so far."""
    contract: str | None = None
    declarer: int | None = None
    jack: str | None = None  # the wesele partner's jack
    doubles: tuple[Call, ...] = ()  # doubles made after the standing contract
    wesele_by: int | None = None


def holder(hands: Sequence[Sequence[str]], card: str) -> int:
    return next(seat for seat, cards in enumerate(hands) if card in cards)


def black_queens_holder(hands: Sequence[Sequence[str]]) -> int | None:
    """The seat holding both QC and QS, if one seat does."""
    a, b = (holder(hands, q) for q in BLACK_QUEENS)
    return a if a == b else None


def wesele_jack(hand: Sequence[str]) -> str:
    """The highest jack the wesele caller does not hold: the partner's jack."""
    return next(j for j in JACKS_HIGH_TO_LOW if j not in hand)


def parse_call(raw: Mapping, ladder: Ladder, seats: int) -> Call:
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise RuleViolation(say("seat must be a seat number from 0 to {last}, not {seat}",
                                last=seats - 1, seat=repr(seat)))
    call = raw.get("call")
    if not isinstance(call, str):
        raise RuleViolation(say("call must be a string such as 'pass', a contract or a double"))
    name = ladder.aliases.get(call.strip().lower(), call.strip().lower())
    known = ("pass", *ladder.contracts, *ladder.doubles, ladder.extra_double)
    if name not in known:
        raise RuleViolation(say("{call} is not a call of this game; calls are {known}",
                                call=repr(call), known=', '.join(known)))
    jack = raw.get("jack")
    if jack is not None and not isinstance(jack, str):
        raise RuleViolation(say("jack must be a card such as 'JH'"))
    return Call(seat, name, jack.strip().upper() if jack else None)


def next_double_name(count: int, ladder: Ladder) -> str:
    return ladder.doubles[count] if count < len(ladder.doubles) else ladder.extra_double


def judge_call(auction: Auction, call: Call, hands: Sequence[Sequence[str]], ladder: Ladder,
               rules) -> Call:
    """Return the call as it will be recorded, or raise RuleViolation saying why not.

    ``rules`` answers the questions the games settle differently: ``wesele`` (how the
    partner's jack is found), ``max_doubles``, ``wesele_may_raise`` and
    ``declarer_may_double_first(contract)``."""
    if call.call == "pass":
        return Call(call.seat, "pass")
    if call.call in ladder.contracts:
        return _judge_contract(auction, call, hands, ladder, rules)
    return _judge_double(auction, call, hands, ladder, rules)


def _judge_contract(auction: Auction, call: Call, hands, ladder: Ladder, rules) -> Call:
    order = ladder.contracts
    if auction.contract and order.index(call.call) <= order.index(auction.contract):
        raise RuleViolation(
            say("{call} does not outrank the standing {auction_contract}; contracts rank {order}",
                call=call.call, auction_contract=auction.contract, order=' < '.join(order)))
    if not rules.wesele_may_raise and auction.wesele_by == call.seat:
        raise RuleViolation(say("seat {seat} called wesele and, at this table, may not raise it",
                                seat=call.seat))
    if call.call != "wesele":
        if call.jack:
            raise RuleViolation(say("only wesele names a jack, not {call}", call=call.call))
        return Call(call.seat, call.call)
    hand = hands[call.seat]
    lacking = [q for q in BLACK_QUEENS if q not in hand]
    if lacking:
        raise Revealing(say("only the holder of both black queens may call wesele; seat {seat} lacks "
                            "{lacking}",
                            seat=call.seat,
                            lacking=' '.join(lacking)), call.seat, say("seat {seat} may not call wesele with its cards",
                                                               seat=call.seat))
    return Call(call.seat, "wesele", _partner_jack(call, hand, rules))


def _partner_jack(call: Call, hand, rules) -> str:
    if rules.wesele == "any-jack":
        if call.jack not in JACKS_HIGH_TO_LOW:
            raise RuleViolation(say("at this table wesele names the partner's jack: add \"jack\": one of JC JS JH JD"))
        if call.jack in hand:
            raise Revealing(say("seat {seat} holds {called}; name a jack another player holds",
                                seat=call.seat, called=call.jack), call.seat,
                            say("seat {seat} may not name {called} for its wesele",
                                seat=call.seat, called=call.jack))
        return call.jack
    jack = wesele_jack(hand)
    if call.jack and call.jack != jack:
        raise Revealing(say("at this table the wesele partner holds the highest jack the caller lacks, {jack}, not "
                            "{called}",
                            jack=jack, called=call.jack),
                        call.seat, say("at this table the wesele partner holds the highest jack the caller lacks, "
                                       "which bitka names: leave out \"jack\""))
    # Recorded only if the caller said it: which jack it is tells what the caller holds
    # (JH: both higher jacks), so bitka works it out from the cards (``partnered``) and
    # keeps it out of the log.
    return call.jack


def _judge_double(auction: Auction, call: Call, hands, ladder: Ladder, rules) -> Call:
    count = len(auction.doubles)
    if rules.max_doubles is not None and count >= rules.max_doubles:
        raise RuleViolation(say("this table allows at most {max_doubles} doubles, and they have all been called",
                                max_doubles=rules.max_doubles))
    expected = next_double_name(count, ladder)
    if call.call != expected:
        raise RuleViolation(say("the next double is {expected}, not {call}",
                                expected=repr(expected), call=repr(call.call)))
    if count == 0:
        if auction.contract is not None and call.seat == auction.declarer:
            if not rules.declarer_may_double_first(auction.contract):
                raise RuleViolation(
                    say("seat {seat} called {auction_contract} and may not give the first double; they may "
                        "answer an opponent's double",
                        seat=call.seat, auction_contract=auction.contract))
        if auction.contract is None and black_queens_holder(hands) == call.seat:
            raise Revealing(say("seat {seat} holds both black queens and plays cicha; they may not give the "
                                "first double",
                                seat=call.seat),
                            call.seat, say("seat {seat} may not give the first double with its cards", seat=call.seat))
    return Call(call.seat, call.call)


def partnered(call: Call, hands: Sequence[Sequence[str]]) -> Call:
    """A recorded call with its wesele partner's jack named: the highest jack the caller
    lacks, where the call left it out (a table whose rules choose the jack)."""
    if call.call != "wesele" or call.jack:
        return call
    return Call(call.seat, call.call, wesele_jack(hands[call.seat]))


def partner_cards(auction: Auction, named_aloud: bool) -> set[str]:
    """The cards whose holders tell who plays with a wesele's caller: its jack, and, where the
    rules chose that jack as the highest the caller lacks, the higher jacks the caller holds."""
    if auction.contract != "wesele" or auction.jack is None:
        return set()
    if named_aloud:
        return {auction.jack}
    return set(JACKS_HIGH_TO_LOW[:JACKS_HIGH_TO_LOW.index(auction.jack) + 1])


def apply_call(auction: Auction, call: Call, ladder: Ladder) -> Auction:
    """Fold one recorded call into the auction (no checks: the call was judged)."""
    if call.call == "pass":
        return auction
    if call.call in ladder.contracts:
        wesele_by = call.seat if call.call == "wesele" else auction.wesele_by
        return Auction(call.call, call.seat, call.jack, (), wesele_by)
    return Auction(auction.contract, auction.declarer, auction.jack, (*auction.doubles, call), auction.wesele_by)


def count_runs(doubles: Sequence[Call], side_of: Mapping[int, str]) -> list[bool]:
    """For each double, whether it starts a new run (consecutive doubles by one side count once)."""
    starts, last = [], None
    for d in doubles:
        side = side_of[d.seat]
        starts.append(side != last)
        last = side
    return starts
