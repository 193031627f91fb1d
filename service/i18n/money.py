"""Money as each language writes it: ``3,00 zł``, ``3,00 €``, ``R$ 3,00``, ``€3.00``.

The amount keeps exactly the currency's minor digits as bitka counts them (ISO 4217),
whatever CLDR's cash rounding says; Babel places the symbol and the separators."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from babel import Locale
from babel.numbers import format_currency, format_decimal

from events.money import minor_digits


def money(amount: str, currency: str, language: str, signed: bool = False) -> str:
    """A decimal amount string of ``currency`` in ``language``'s way (``signed`` puts a + on
    gains); what cannot be read is shown as it came."""
    try:
        value = Decimal(str(amount))
        digits = minor_digits(currency)
    except (InvalidOperation, ValueError):
        return f"{amount} {currency}"
    locale = Locale.parse(language)
    pattern = locale.currency_formats["standard"]
    text = format_currency(value, currency, format=_with_digits(pattern.pattern, digits), locale=locale,
                           currency_digits=False)
    # CLDR's currency spacing, which Babel leaves out: a code of letters never touches a digit ("PLN 3.00").
    text = _LETTER_DIGIT.sub("\u00a0", text)
    return f"+{text}" if signed and value > 0 else text


_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=[0-9])|(?<=[0-9])(?=[^\W\d_])")


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
    try:
        value, digits = Decimal(str(text)), minor_digits(currency)
    except (InvalidOperation, ValueError):
        return str(text)
    return format_decimal(value, format="#,##0" + ("." + "0" * digits if digits else ""), locale=language,
                          decimal_quantization=False)
