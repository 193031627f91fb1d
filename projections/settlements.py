"""A game's Settlement as the ``settlement`` event's data: amounts as decimal strings."""
from __future__ import annotations

from events.money import format_amount
from games.base import Settlement


def settlement_data(s: Settlement, stake: int, digits: int) -> dict:
    return {
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
