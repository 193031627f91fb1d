"""A game's Settlement as the ``settlement`` event's data: amounts as decimal strings."""
from __future__ import annotations

from events.money import format_amount
from games.base import Settlement, TableTerms


def settlement_data(s: Settlement, terms: TableTerms, digits: int) -> dict:
    """The event's data. ``rules_version`` is recorded from version 2 on: a settlement
    without it was derived under version 1 (see games.base.RULES_VERSION)."""
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
