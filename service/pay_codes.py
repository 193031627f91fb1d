"""What a banking app scans to pay a member: the payloads of the payment codes, made from
what the member said of how they take money (events/pay_details.py). Pure functions: text
in, text out; the QR images are made from these by the pages (service/web/pay_shown.py).
Amounts come in as integer minor units (cents, grosze, centavos).

- ``epc``: the European Payments Council's QR code for a SEPA credit transfer (EPC069-12,
  version 002, the "GiroCode"): a line each, in this order: ``BCD``, ``002``, the character
  set (``1``: UTF-8), ``SCT``, the BIC (optional inside the EEA: left empty), the
  beneficiary's name (at most 70), the IBAN, ``EUR`` and the amount (0.01 to 999999999.99),
  the purpose (empty), the structured reference (empty) and the remittance text (at most
  140); at most 331 bytes in all. The EPC's code is for euros only.
- ``zbp``: the code Polish banking apps scan, after the Polish Bank Association's (ZBP)
  "Rekomendacja ... kodu dwuwymiarowego (2D)" of 2013: nine fields split by ``|``: the
  recipient's NIP (empty for a person), ``PL``, the 26 digits of the account (the IBAN
  without PL), the amount in grosze in (at least) six digits, the recipient's name (at
  most 20), the title (at most 32), then three fields left empty (a direct debit id, an
  Invoobill id, reserved).
- ``brcode``: the Banco Central do Brasil's static PIX code, "copia e cola" (the BR Code:
  EMV QRCPS merchant-presented TLV, each field its two-digit id, its two-digit length and
  its value): 00 payload format ``01``; 26 the merchant account, itself 00 ``br.gov.bcb.pix``,
  01 the key and 02 a short text for the receiver; 52 ``0000``; 53 ``986`` (the real); 54
  the amount (``10.50``); 58 ``BR``; 59 the receiver's name (at most 25); 60 a city (at
  most 15); 62 with 05 the transaction id (at most 25 letters and digits); and 63 the
  CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) in four capital hex digits,
  computed over the whole payload up to and including ``6304``.
"""
from __future__ import annotations

import re
import unicodedata

EPC_NAME = 70
EPC_TEXT = 140
EPC_BYTES = 331
EPC_MOST = 99_999_999_999  # 999,999,999.99 euros, in cents
ZBP_NAME = 20
ZBP_TITLE = 32
ZBP_MOST = 999_999  # six digits of grosze
PIX_GUI = "br.gov.bcb.pix"
PIX_NAME = 25
PIX_CITY = 15
PIX_TXID = 25
TLV_LONGEST = 99
_TXID = re.compile(r"[A-Za-z0-9]{1,25}|\*\*\*")


class CodeError(ValueError):
    """What a payment code cannot say (an amount out of its range, a field that cannot fit)."""


EPC_MOST_VERSION = 13  # EPC069-12: the QR code of a SEPA transfer is of version 13 at most


def check_epc_version(version: int) -> None:
    """An EPC code drawn at a larger QR version than the EPC allows is not one."""
    if version > EPC_MOST_VERSION:
        raise CodeError(f"an EPC code is at most of version {EPC_MOST_VERSION}, not {version}")


def epc(*, name: str, iban: str, amount: int, text: str, bic: str = "") -> str:
    """The EPC069-12 payload of a SEPA transfer of ``amount`` cents to ``name`` at ``iban``."""
    if not 1 <= amount <= EPC_MOST:
        raise CodeError(f"an EPC code takes 0.01 to 999999999.99 euros, not {amount} cents")
    name = _one_line(name)[:EPC_NAME].strip()
    text = _one_line(text)[:EPC_TEXT].strip()
    lines = ["BCD", "002", "1", "SCT", bic, name, iban, f"EUR{_decimal(amount)}", "", "", text]
    while len("\n".join(lines).encode("utf-8")) > EPC_BYTES and lines[-1]:
        lines[-1] = lines[-1][:-1].rstrip()  # a long name of many-byte letters: the text gives way
    payload = "\n".join(lines)
    if len(payload.encode("utf-8")) > EPC_BYTES:
        raise CodeError("the EPC payload is longer than 331 bytes")
    return payload


def zbp(*, iban: str, amount: int, name: str, title: str) -> str:
    """The ZBP 2D payload of a transfer of ``amount`` grosze to a person's Polish account."""
    if not (iban.startswith("PL") and len(iban) == 28 and iban[2:].isdigit()):
        raise CodeError("a ZBP code takes a Polish account: PL and 26 digits")
    if not 0 <= amount <= ZBP_MOST:
        raise CodeError(f"a ZBP code takes at most 9999.99 zloty, not {amount} grosze")
    fields = ["", "PL", iban[2:], f"{amount:06d}", _zbp_text(name, ZBP_NAME), _zbp_text(title, ZBP_TITLE), "", "", ""]
    return "|".join(fields)


def brcode(*, key: str, amount: int, name: str, city: str, txid: str = "***", info: str = "") -> str:
    """The PIX "copia e cola" of a transfer of ``amount`` centavos to ``key`` (0: no amount,
    the payer types it)."""
    if not _TXID.fullmatch(txid):
        raise CodeError("a PIX txid is 1 to 25 letters and digits, or ***")
    if amount < 0 or len(_decimal(amount)) > 13:
        raise CodeError(f"a PIX amount is at most 13 characters, not {amount} centavos")
    account = tlv("00", PIX_GUI) + tlv("01", key)
    room = brcode_info_room(key)
    info = ascii_text(info, room) if room > 0 else ""
    if info:
        account += tlv("02", info)
    payload = (tlv("00", "01") + tlv("26", account) + tlv("52", "0000") + tlv("53", "986")
               + (tlv("54", _decimal(amount)) if amount else "") + tlv("58", "BR")
               + tlv("59", ascii_text(name, PIX_NAME) or "PIX") + tlv("60", ascii_text(city, PIX_CITY) or "BRASIL")
               + tlv("62", tlv("05", txid)) + "6304")
    return payload + f"{crc16_ccitt_false(payload.encode('ascii')):04X}"


def brcode_info_room(key: str) -> int:
    """How many characters the short text for the receiver (26/02) may hold beside ``key``:
    the merchant account field holds 99 in all, the GUI's and the key's fields included."""
    return TLV_LONGEST - len(tlv("00", PIX_GUI) + tlv("01", key)) - 4


def tlv(tag: str, value: str) -> str:
    """One EMV field: its id, its length in two digits, its value."""
    if len(value) > TLV_LONGEST:
        raise CodeError(f"field {tag} holds at most 99 characters, not {len(value)}")
    return f"{tag}{len(value):02d}{value}"


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def ascii_text(text: str, most: int) -> str:
    """``text`` in the characters every EMV reader takes (printable ASCII): accents dropped,
    anything else left out, spaces collapsed, cut to ``most``."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", text) if " " <= ch <= "~")
    return " ".join(folded.split())[:most].strip()


def txid_of(date: str) -> str:
    """A PIX transaction id for the evening of ``date`` (YYYY-MM-DD): letters and digits only."""
    return "bitka" + re.sub(r"[^0-9]", "", date)[:8]


def _decimal(amount: int) -> str:
    return f"{amount // 100}.{amount % 100:02d}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _zbp_text(text: str, most: int) -> str:
    """A field of the ZBP code: no separator in it, on one line, cut to ``most``."""
    return _one_line(text.replace("|", " "))[:most].strip()
