"""The fewest transfers that bring every balance to zero.

A debtor (negative balance) hands cash to a creditor; by API.md a payment ``from`` -> ``to``
raises ``from``'s balance, so each transfer moves both towards zero.

With n members whose balances are not zero, the fewest transfers is n minus the largest
number of groups the members can be split into, each summing to zero: inside such a group
the largest debtor paying the largest creditor settles it in one transfer fewer than it has
members. Finding those groups is exact for up to ``EXACT_UP_TO`` members (a search over the
subsets that sum to zero); beyond that the greedy pairing of the whole group is used, and
the answer says which method it took.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping

EXACT_UP_TO = 20
MAX_ZERO_SUBSETS = 20_000


def transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    return plan(balances)[0]


def plan(balances: Mapping[str, int]) -> tuple[list[tuple[str, str, int]], str]:
    """The transfers, and the method: "exact" or "greedy"."""
    members = sorted((m for m, b in balances.items() if b), key=lambda m: (balances[m], m))
    moves, members = _opposites(balances, members)
    if len(members) > EXACT_UP_TO:
        return moves + _greedy({m: balances[m] for m in members}), "greedy"
    groups = _zero_groups(tuple(balances[m] for m in members))
    if groups is None:
        return moves + _greedy({m: balances[m] for m in members}), "greedy"
    for group in groups:
        moves += _greedy({members[i]: balances[members[i]] for i in group})
    return moves, "exact"


def _opposites(balances: Mapping[str, int], members: list[str]) -> tuple[list[tuple[str, str, int]], list[str]]:
    """Members owed and owing the very same amount settle with each other: some fewest-transfer
    answer always pairs them so, and the search is left with fewer members."""
    owed: dict[int, list[str]] = {}  # the creditors of each amount, in ``members``' order, the first last
    for m in reversed(members):
        if balances[m] > 0:
            owed.setdefault(balances[m], []).append(m)
    moves, paired = [], set()
    for m in members:
        if balances[m] < 0 and owed.get(-balances[m]):
            match = owed[-balances[m]].pop()
            moves.append((m, match, balances[match]))
            paired.update((m, match))
    return moves, [m for m in members if m not in paired]


def _zero_groups(values: tuple[int, ...]) -> list[list[int]] | None:
    """A partition of the indices into the most groups that each sum to zero (None when
    there are too many zero-sum subsets to search in reasonable time)."""
    n = len(values)
    if not n:
        return []
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    zero = [mask for mask in range(1, 1 << n) if sums[mask] == 0]
    if len(zero) > MAX_ZERO_SUBSETS:
        return None

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        """The most zero-sum groups ``mask`` splits into (it sums to zero itself)."""
        low = mask & -mask
        found = (1, (mask,))
        for sub in zero:
            if sub & low and sub != mask and sub & mask == sub:
                rest = best(mask ^ sub)
                if rest[0] + 1 > found[0]:
                    found = (rest[0] + 1, (sub, *rest[1]))
        return found

    full = (1 << n) - 1
    return [[i for i in range(n) if g >> i & 1] for g in best(full)[1]]


def _greedy(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor, until everyone is even."""
    debtors = sorted(((-b, m) for m, b in balances.items() if b < 0), reverse=True)
    creditors = sorted(((b, m) for m, b in balances.items() if b > 0), reverse=True)
    moves = []
    while debtors and creditors:
        owe, debtor = debtors.pop(0)
        due, creditor = creditors.pop(0)
        amount = min(owe, due)
        moves.append((debtor, creditor, amount))
        if owe > amount:
            debtors.append((owe - amount, debtor))
            debtors.sort(reverse=True)
        if due > amount:
            creditors.append((due - amount, creditor))
            creditors.sort(reverse=True)
    return moves
