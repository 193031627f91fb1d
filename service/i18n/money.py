"""Money as each language writes it: ``3,00 zł``, ``3,00 €``, ``R$ 3,00``, ``€3.00``; and
points, for a group that keeps them: ``12 pkt``, ``12 punti``, ``12 pontos``, ``12 points``.

The amount keeps exactly the currency's minor digits as bitka counts them (ISO 4217),
whatever CLDR's cash rounding says; Babel places the symbol and the separators."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel import Locale
from babel.numbers import format_currency, format_decimal, get_currency_name

from events.money import POINTS, minor_digits

from .languages import translations


def money(amount: str, currency: str, language: str, signed: bool = False) -> str:
    """A decimal amount string of ``currency`` in ``language``'s way (``signed`` puts a + on
    gains); what cannot be read is shown as it came."""
    return _money(str(amount), currency, language, bool(signed))


@lru_cache(maxsize=8192)  # a page of results writes the same few amounts hundreds of times: by their text
def _money(amount: str, currency: str, language: str, signed: bool) -> str:
    try:
        value = Decimal(amount)
        digits = minor_digits(currency)
    except (InvalidOperation, ValueError):
        return f"{amount} {currency}"
    if currency == POINTS:
        return points(value, language, signed)
    locale = Locale.parse(language)
    pattern = locale.currency_formats["standard"]
    text = format_currency(value, currency, format=_with_digits(pattern.pattern, digits), locale=locale,
                           currency_digits=False)
    # CLDR's currency spacing, which Babel leaves out: a code of letters never touches a digit ("PLN 3.00").
    text = _LETTER_DIGIT.sub("\u00a0", text)
    return f"+{text}" if signed and value > 0 else text


_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=[0-9])|(?<=[0-9])(?=[^\W\d_])")


def points(value: Decimal, language: str, signed: bool = False) -> str:
    """A whole number of points as ``language`` writes it, its word agreeing with the count."""
    count = int(value)
    shown = number(count, language)
    # None takes the plural's word: CLDR's Portuguese singular covers 0, and Brazilians write "0 pontos".
    said = translations(language).ngettext("%(num)s point", "%(num)s points", abs(count) or 2) % {"num": shown}
    return f"+{said}" if signed and count > 0 else said


def unit(currency: str, language: str) -> str:
    """What a column of amounts is headed by: the currency's code, or the language's word for points."""
    return translations(language).gettext("points") if currency == POINTS else currency


def currency_name(currency: str, language: str) -> str:
    """A currency as the language names it ("złoty polski"), or points as a choice of what to play for."""
    if currency == POINTS:
        return translations(language).gettext("Points, not money")
    return get_currency_name(currency, locale=language)


def number(value, language: str, digits: int = 0) -> str:
    """A plain number in ``language``'s way (``1 234,5`` in Polish)."""
    return format_decimal(value, format="#,##0" + ("." + "0" * digits if digits else ""), locale=language)


def _with_digits(pattern: str, digits: int) -> str:
    """A CLDR currency pattern with exactly ``digits`` fraction digits."""
    fraction = "." + "0" * digits if digits else ""
    if re.search(r"0\.[0#]+", pattern):
        return re.sub(r"0\.[0#]+", "0" + fraction, pattern)
    return re.sub(r"0(?=[^0]*$)", "0" + fraction, pattern)


def amount(text: str, currency: str, language: str) -> str:
    """A decimal amount string in ``language``'s way without the currency (a column headed by
    it): "-4,00" in Polish, "-4.00" in English; what cannot be read is shown as it came."""
    return _amount(str(text), currency, language)


@lru_cache(maxsize=8192)
def _amount(text: str, currency: str, language: str) -> str:
    try:
        value, digits = Decimal(text), minor_digits(currency)
    except (InvalidOperation, ValueError):
        return str(text)
    return format_decimal(value, format="#,##0" + ("." + "0" * digits if digits else ""), locale=language,
                          decimal_quantization=False)
