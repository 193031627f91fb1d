"""Settling a hand: the one path the ledger (when a hand ends) and replay (re-deriving it)
both take, from the game's Settlement to the ``settlement`` event's data."""
from __future__ import annotations

from events.errors import RuleBroken
from events.money import MAX_MINOR, format_amount
from games.engine.base import Settlement, TableTerms


# Whether a settlement counted at once or waits for a payer to confirm it: the ledger's
# decision, recorded beside the game's settlement (and left out when it is re-derived).
CONFIRMATION_KEYS = ("confirmed", "confirmed_because")


def of_the_game(settlement: dict | None) -> dict | None:
    """A settlement without the ledger's confirmation fields: what the game re-derives."""
    if settlement is None:
        return None
    return {k: v for k, v in settlement.items() if k not in CONFIRMATION_KEYS}


def settled(game, state, terms: TableTerms, digits: int) -> dict:
    """The settlement event's data for a finished hand, with its table's terms; a hand that
    would pay more than bitka can book is refused (RuleBroken)."""
    settlement = game.settle(state, terms)
    if max((abs(a) for a in settlement.amounts), default=0) > MAX_MINOR:
        raise RuleBroken(f"this hand would pay {settlement.multiplier} times the stake per seat, more than bitka "
                         "can book; check the doubles, or void the hand")
    return settlement_data(settlement, terms, digits)


def settlement_data(s: Settlement, terms: TableTerms, digits: int) -> dict:
    """The event's data. ``rules_version`` is recorded from version 2 on: a settlement
    without it was derived under version 1 (see games.engine.base.RULES_VERSION)."""
    stake = terms.stake
    data = {
        "outcome": s.outcome,
        "contract": s.contract,
        "sides": [side.to_data() for side in s.sides],
        "winner": s.winner,
        "multiplier": s.multiplier,
        "units": s.units,
        "stake": format_amount(stake, digits),
        "factors": [f.to_data() for f in s.factors],
        "payouts": [{"seat": seat, "member": member, "amount": format_amount(amount, digits)}
                    for seat, (member, amount) in enumerate(zip(s.members, s.amounts, strict=True))] if s.pays else [],
        "explanation": list(s.explanation),
        **s.extra,
    }
    if terms.rules_version > 1:
        data["rules_version"] = terms.rules_version
    return data
