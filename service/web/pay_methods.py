"""Which ways of taking money fit a group's currency, in one table (``BY_CURRENCY``): what the
pay-to form asks a member for, and what the settle-up list shows a payer (a code their
banking app scans, or a number to copy). Euros: an IBAN, and its SEPA code (EPC069-12);
zloty: an IBAN, the Polish banks' code (ZBP 2D) for a Polish one, and a BLIK phone; reais:
a PIX key and its BR Code; any other currency: an IBAN to copy; points: nothing.

And the title each code gives the transfer (``title``): the group's name and the evening,
in the language of the payer's bank's country (the ZBP code is Polish banks', the BR Code
Brazil's, a SEPA code's the country of the receiver's IBAN, where bitka speaks its
language; else English), its date written as that country writes one, made of whole words
that fit the code's field: a word of the group's name that does not fit is left out whole,
never cut.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from babel.dates import format_date

from events.money import POINTS
from ..i18n.languages import SOURCE, translations
from ..pay_codes import ascii_text


@dataclass(frozen=True)
class Method:
    """One way a member takes money, as a group's currency offers it."""
    field: str  # the pay-to field it reads (events/pay_details.py): iban, blik or pix
    code: str | None = None  # the payment code a banking app scans (epc, zbp, pix); None: shown to copy
    countries: frozenset[str] = frozenset()  # an IBAN's countries the code takes (empty: any)

    def codes(self, value: str) -> bool:
        """Does this method make a code of ``value`` (a kept field)?"""
        return self.code is not None and (not self.countries or value[:2] in self.countries)


BY_CURRENCY: dict[str, tuple[Method, ...]] = {
    "EUR": (Method("iban", "epc"),),
    "PLN": (Method("iban", "zbp", frozenset({"PL"})), Method("blik")),
    "BRL": (Method("pix", "pix"),),
    POINTS: (),  # points are not paid
}
ANY_OTHER = (Method("iban"),)  # a bank takes an IBAN in any currency: shown to copy


def methods(currency: str) -> tuple[Method, ...]:
    """The ways a group of ``currency`` takes money, in the order the pages show them."""
    return BY_CURRENCY.get(currency, ANY_OTHER)


def fields(currency: str) -> tuple[str, ...]:
    """The pay-to form's fields for a group of ``currency``: each of its methods', and the
    account holder's name beside them (none when it takes no money)."""
    taken = tuple(dict.fromkeys(m.field for m in methods(currency)))
    return (*taken, "name") if taken else ()


# The language of a code's title: the payer's bank's country's. The ZBP code is read by
# Polish banks, the BR Code by Brazil's; a SEPA code by the banks of the receiver's IBAN's
# country (where bitka speaks its language; else English).
CODE_LANGUAGE = {"zbp": "pl", "pix": "pt_BR"}
COUNTRY_LANGUAGE = {"PL": "pl", "IT": "it", "SM": "it", "VA": "it", "PT": "pt_BR", "BR": "pt_BR"}
# A date as a transfer's title writes it in each language: the day first in Europe and
# Brazil, ISO 8601 in English, never a month's name (a title is short, and read anywhere).
TITLE_DATE = {"pl": "dd.MM.yyyy", "it": "dd/MM/yyyy", "pt_BR": "dd/MM/yyyy", SOURCE: "yyyy-MM-dd"}


def title_language(code: str, iban: str = "") -> str:
    """The language of the title of a ``code`` (for a SEPA code, by its IBAN's country)."""
    return CODE_LANGUAGE.get(code) or COUNTRY_LANGUAGE.get(iban[:2], SOURCE)


def title(code: str, group: str, evening: date, most: int, iban: str = "") -> str:
    """The title of a transfer that settles up the evening of ``evening`` in ``group``, in at
    most ``most`` characters, in the payer's bank's language (``title_language``); a BR Code's
    in the printable ASCII every reader takes. The group's name keeps as many of its words
    as fit, whole; when none does, the evening alone, and when not even its date fits, nothing."""
    language = title_language(code, iban)
    said = translations(language)
    shown = (lambda text: ascii_text(text, len(text))) if code == "pix" else (lambda text: " ".join(text.split()))
    when = format_date(evening, TITLE_DATE[language], locale=language)
    words = group.split()
    for count in range(len(words), 0, -1):
        name = " ".join(words[:count]).rstrip(",;:-–—")
        # Translators: the title of a bank transfer that settles up: %(group)s is the group's name,
        # %(date)s the evening's date (05.12.2026). A banking app shows it; keep it short.
        text = shown(said.gettext("%(group)s, evening of %(date)s") % {"group": name, "date": when})
        if len(text) <= most:
            return text
    # Translators: the title of a bank transfer that settles up, when the group's name does not fit
    # in it: %(date)s is the evening's date (05.12.2026).
    text = shown(said.gettext("Evening of %(date)s") % {"date": when})
    return text if len(text) <= most else when if len(when) <= most else ""
