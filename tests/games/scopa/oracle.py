"""Scopa read a second time from rules/scopa.md, for tests: which captures a card may make."""
from itertools import combinations

VALUES = {"A": 1, "J": 8, "Q": 9, "K": 10}


def worth(card):
    return VALUES.get(card[:-1]) or int(card[:-1])


def oracle_captures(card, table):
    """One card of the same value, else any set of two or more summing to it."""
    same = [{c} for c in table if worth(c) == worth(card)]
    if same:
        return same
    return [set(combo) for n in range(2, len(table) + 1) for combo in combinations(table, n)
            if sum(map(worth, combo)) == worth(card)]
