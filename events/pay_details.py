"""How a member takes money, as the ``pay_details`` event keeps it: an IBAN and the account
holder's name, a PIX key, a phone number for BLIK (any of them, or none).

``checked(body)`` reads what a member typed and gives the details as they are kept: each
field written one way (an IBAN without spaces in capitals, a PIX key as the Banco Central's
directory writes it, a BLIK phone as +48 and nine digits), the empty ones left out. What
does not hold is refused with a sentence naming what is wrong, before anything is appended:

- an IBAN (ISO 13616) is two letters of a country that has IBANs, two check digits and the
  account, exactly as long as that country's IBANs are, and its check digits hold (mod 97);
- a PIX key is one of the Banco Central's forms: a CPF (11 digits) or a CNPJ (14 characters)
  whose check digits hold, an e-mail address, a mobile phone as +55, its area code (DDD) and
  nine digits, or a random key (a UUID);
- a BLIK phone is a Polish one: +48 and nine digits.

Example::

    >>> checked({"iban": "pl61 1090 1014 0000 0712 1981 2874", "blik": "600 700 800"})
    {'iban': 'PL61109010140000071219812874', 'blik': '+48600700800'}
"""
from __future__ import annotations

import re
import unicodedata
from typing import Mapping

from events import names
from events.errors import Unprocessable
from events.sentences import say

FIELDS = ("iban", "name", "pix", "blik")
NAME_LONGEST = 70  # the beneficiary's name in a SEPA transfer (EPC069-12, AT-21)
TYPED_LONGEST = 100  # what a field may hold as typed, spaces and all

# The length of each country's IBANs (the SWIFT IBAN registry, ISO 13616).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29,
    "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24,
    "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    "YE": 30,
}
# Brazil's area codes (DDD), as Anatel numbers them.
DDD = frozenset("11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 "
                "55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 "
                "99".split())
EMAIL_LONGEST = 77  # the Banco Central's directory keeps e-mail keys of at most 77 characters

_IBAN = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+")
_SPACING = re.compile(r"[\s\-.()/]+")
_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
_EMAIL = re.compile(r"[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*"
                    r"[a-z0-9])?)+")
_CNPJ = re.compile(r"[0-9A-Z]{12}[0-9]{2}")


def checked(body: Mapping) -> dict:
    """The details as kept, from what was typed (see the module's docstring); a field left
    out, null or empty is not kept."""
    kept = {}
    for field in FIELDS:
        value = body.get(field)
        if value is None:
            continue
        if not isinstance(value, str):
            raise Unprocessable(say("{field}: must be text", field=field))
        if len(value) > TYPED_LONGEST:
            raise Unprocessable(say("{field}: at most {most} characters", field=field, most=TYPED_LONGEST))
        if value.strip():
            kept[field] = _READERS[field](value)
    return kept


def holder(text: str) -> str:
    """The account holder's name, as a bank writes it on a transfer."""
    name = " ".join(names.stored(text).split())
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name) or not names.visible(name):
        raise Unprocessable(say("name: the account holder's name must be letters, digits and punctuation a bank "
                                "prints, without control characters"))
    if len(name) > NAME_LONGEST:
        raise Unprocessable(say("name: a bank takes an account holder's name of at most {most} characters, and this "
                                "one has {length:d}", most=NAME_LONGEST, length=len(name)))
    return name


def iban(text: str) -> str:
    """An IBAN as it is kept: without spaces, in capitals (ISO 13616's electronic form)."""
    value = re.sub(r"\s+", "", text).upper().removeprefix("IBAN")
    if not value.isascii() or not _IBAN.fullmatch(value):
        raise Unprocessable(say("iban: {iban} is not an IBAN: an IBAN is the two letters of its country, two check "
                                "digits, then the account's letters and digits", iban=repr(text.strip())))
    country, expected = value[:2], IBAN_LENGTHS.get(value[:2])
    if expected is None:
        raise Unprocessable(say("iban: {country} is not a country that has IBANs", country=country))
    if len(value) != expected:
        raise Unprocessable(say("iban: an IBAN of {country} has {expected} characters, and {iban} has {length:d}",
                                country=country, expected=expected, iban=grouped(value), length=len(value)))
    if not iban_checks(value):
        raise Unprocessable(say("iban: the check digits of {iban} do not match the rest of it (ISO 13616, mod 97): "
                                "a character was mistyped, or two were swapped", iban=grouped(value)))
    return value


def iban_checks(value: str) -> bool:
    """ISO 13616's check: the country and check digits moved to the end, each letter read as
    a number (A = 10 ... Z = 35), the whole number leaves 1 when divided by 97."""
    moved = value[4:] + value[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def grouped(value: str) -> str:
    """An IBAN as people read it: in groups of four ("PL61 1090 1014 ...")."""
    return " ".join(value[i:i + 4] for i in range(0, len(value), 4))


def pix(text: str) -> str:
    """A PIX key as the Banco Central's directory writes it: a CPF or CNPJ as digits (and a
    new CNPJ's capital letters), an e-mail in small letters, a phone as +55 and its digits,
    a random key as a UUID in small letters with its dashes."""
    value = text.strip()
    if "@" in value:
        return _email(value)
    if value.startswith("+"):
        return _mobile(value)
    if _UUID.fullmatch(value.lower()):
        bare = value.lower().replace("-", "")
        return f"{bare[:8]}-{bare[8:12]}-{bare[12:16]}-{bare[16:20]}-{bare[20:]}"
    bare = _SPACING.sub("", value).upper()
    if bare.isascii() and bare.isdigit() and len(bare) == 11:
        if not cpf_checks(bare):
            raise Unprocessable(say("pix: {key} is not a CPF: its two check digits do not match the nine before them",
                                    key=repr(value)))
        return bare
    if bare.isascii() and len(bare) == 14 and _CNPJ.fullmatch(bare):
        if not cnpj_checks(bare):
            raise Unprocessable(say("pix: {key} is not a CNPJ: its two check digits do not match the twelve "
                                    "characters before them", key=repr(value)))
        return bare
    raise Unprocessable(say("pix: {key} is not a PIX key: a key is a CPF (11 digits), a CNPJ (14), an e-mail "
                            "address, a mobile number written +55 with its area code, or a random key (a UUID)",
                            key=repr(value)))


def pix_kind(key: str) -> str:
    """Which of the Banco Central's forms a kept key is: cpf, cnpj, email, phone or random."""
    if "@" in key:
        return "email"
    if key.startswith("+"):
        return "phone"
    if "-" in key:
        return "random"
    return "cpf" if len(key) == 11 else "cnpj"


def _email(value: str) -> str:
    lowered = value.lower()
    if not lowered.isascii() or not _EMAIL.fullmatch(lowered):
        raise Unprocessable(say("pix: {key} is not an e-mail address a PIX key can be", key=repr(value)))
    if len(lowered) > EMAIL_LONGEST:
        raise Unprocessable(say("pix: an e-mail key is at most {most} characters, and this one has {length:d}",
                                most=EMAIL_LONGEST, length=len(lowered)))
    return lowered


def _mobile(value: str) -> str:
    bare = "+" + _SPACING.sub("", value[1:])
    if not re.fullmatch(r"\+55[0-9]{11}", bare) or bare[3:5] not in DDD or bare[5] != "9":
        raise Unprocessable(say("pix: {key} is not a PIX phone key: a phone key is +55, the two digits of a Brazilian "
                                "area code (DDD) and the nine digits of a mobile number, which begin with 9",
                                key=repr(value)))
    return bare


def cpf_checks(digits: str) -> bool:
    """A CPF's two check digits, each 11 minus the weighted sum's remainder by 11 (0 for 10
    or 11), over the nine digits before them and then ten; a CPF of one digit repeated is
    not issued."""
    if len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:n], range(n + 1, 1, -1), strict=True))
        if (total * 10) % 11 % 10 != int(digits[n]):
            return False
    return True


def cnpj_checks(value: str) -> bool:
    """A CNPJ's two check digits (mod 11, weights 2 to 9 from the right); a character counts
    as its code less 48, so the letters of the new alphanumeric CNPJ count as the Receita
    Federal says and a digit as itself."""
    if len(set(value)) == 1:
        return False
    for n in (12, 13):
        weights = [(i % 8) + 2 for i in range(n)][::-1]
        total = sum((ord(ch) - 48) * w for ch, w in zip(value[:n], weights, strict=True))
        rest = total % 11
        if (0 if rest < 2 else 11 - rest) != int(value[n]):
            return False
    return True


def blik(text: str) -> str:
    """A Polish phone number for BLIK: +48 and nine digits (typed with or without +48)."""
    bare = _SPACING.sub("", text.strip())
    if bare.startswith("0048"):
        bare = "+48" + bare[4:]
    elif re.fullmatch(r"[0-9]{9}", bare):
        bare = "+48" + bare
    if not re.fullmatch(r"\+48[1-9][0-9]{8}", bare):
        raise Unprocessable(say("blik: {phone} is not a Polish phone number: BLIK takes +48 and nine digits",
                                phone=repr(text.strip())))
    return bare


_READERS = {"iban": iban, "name": holder, "pix": pix, "blik": blik}
