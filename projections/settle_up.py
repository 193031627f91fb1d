"""Transfers that bring every balance to zero (greedy: largest debtor pays largest creditor).

A debtor (negative balance) hands cash to a creditor; by API.md a payment ``from`` -> ``to``
raises ``from``'s balance, so each transfer moves both towards zero.
"""
from __future__ import annotations

from typing import Mapping


def transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    debtors = sorted(((-b, m) for m, b in balances.items() if b < 0), reverse=True)
    creditors = sorted(((b, m) for m, b in balances.items() if b > 0), reverse=True)
    moves = []
    while debtors and creditors:
        owe, debtor = debtors.pop(0)
        due, creditor = creditors.pop(0)
        amount = min(owe, due)
        moves.append((debtor, creditor, amount))
        if owe > amount:
            debtors.insert(0, (owe - amount, debtor))
            debtors.sort(reverse=True)
        if due > amount:
            creditors.insert(0, (due - amount, creditor))
            creditors.sort(reverse=True)
    return moves
