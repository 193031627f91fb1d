"""Money as the tests compare it: integer minor units, read from the API's decimal strings
exactly (never through a float)."""
from __future__ import annotations

from events.money import parse_amount


def minor(amount: str, digits: int = 2) -> int:
    """``"-3.00"`` as ``-300``."""
    return parse_amount(amount, digits, allow_negative=True)
