"""Money at the edges: ISO 4217 currencies, decimal strings in, decimal strings out.

Inside bitka every amount is an integer count of the currency's minor unit. A group may
keep points instead of money (``POINTS``, a tournament's way): whole numbers, no minor
digits, and everything else as in money.
"""
from __future__ import annotations

import re

from events.sentences import say

_TWO_DIGITS = (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN "
    "BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN "
    "ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES "
    "KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK "
    "MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR "
    "SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD "
    "TZS UAH USD USN UYU UZS VED VES WST XCD YER ZAR ZMW ZWG"
)
_ZERO_DIGITS = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_THREE_DIGITS = "BHD IQD JOD KWD LYD OMR TND"
_FOUR_DIGITS = "CLF UYW"

POINTS = "points"  # a group's currency when it keeps points, not money (API.md "Points")

MINOR_DIGITS: dict[str, int] = {
    POINTS: 0,
    **{c: 2 for c in _TWO_DIGITS.split()},
    **{c: 0 for c in _ZERO_DIGITS.split()},
    **{c: 3 for c in _THREE_DIGITS.split()},
    **{c: 4 for c in _FOUR_DIGITS.split()},
}

# Large enough for any table, small enough that sums never leave SQLite's 64-bit integers:
# the most a stake or one hand's payout may be.
MAX_MINOR = 10 ** 15
# The most a balance may be agreed at, or paid back, in one assertion or payment: many hands
# of the largest payouts add up past MAX_MINOR, and still fit a 64-bit integer.
MAX_BALANCE = 10 ** 18
_AMOUNT = re.compile(r"(-?)([0-9]{1,18})(?:\.([0-9]+))?")  # ASCII digits only, matched in full


class MoneyError(ValueError):
    """An amount or currency that cannot be read; the message says why."""


def minor_digits(currency: str) -> int:
    try:
        return MINOR_DIGITS[currency]
    except KeyError:
        raise MoneyError(say("{currency} is neither an ISO 4217 currency code nor points",
                             currency=repr(currency))) from None


def parse_amount(text: object, digits: int, *, allow_negative: bool = False, limit: int = MAX_MINOR) -> int:
    """Read a decimal string such as ``"12.50"`` into minor units (no floats anywhere), at
    most ``limit`` of them either way."""
    if not isinstance(text, str):
        raise MoneyError(say("an amount is a decimal string such as \"12.50\", not a number"))
    m = _AMOUNT.fullmatch(text)
    if not m:
        raise MoneyError(say("{text} is not a decimal amount such as \"12.50\"", text=repr(text)))
    sign, whole, frac = m.group(1), m.group(2), m.group(3) or ""
    if len(frac) > digits:
        raise MoneyError(say("{text} has more than the currency's {digits} decimal digits",
                             text=repr(text), digits=digits))
    minor = int(whole) * 10 ** digits + int(frac.ljust(digits, "0") or 0)
    if sign and not allow_negative and minor:
        raise MoneyError(say("{text} is negative; give a positive amount", text=repr(text)))
    if minor > limit:
        most = format_amount(limit, digits)
        raise MoneyError(say("{text} is larger than bitka accepts: at most {most}", text=repr(text), most=most))
    return -minor if sign else minor


def format_amount(minor: int, digits: int) -> str:
    """Minor units to a decimal string with exactly the currency's digits."""
    sign = "-" if minor < 0 else ""
    whole, frac = divmod(abs(minor), 10 ** digits)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"
