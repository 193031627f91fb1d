"""Paying up in one tap, without I/O: how a member takes money is read and checked as the
published forms say (an IBAN's ISO 13616 length and mod-97 check digits, the Banco
Central's PIX key forms, a Polish phone for BLIK), and each payment code is decoded back
and checked field by field against its published format: the EPC069-12 lines of a SEPA
transfer, the ZBP recommendation's fields, the BR Code's TLV fields with a CRC computed
here another way (binascii's CRC-CCITT). The QR codes are decoded from their modules by
zxing-cpp where it is installed; without it, each is checked against the same payload
encoded again."""
from __future__ import annotations

import binascii
import re

import pytest

from events import pay_details
from events.errors import Unprocessable
from service import pay_codes
from service.web import pay_shown

try:
    import numpy
    import zxingcpp
except ImportError:  # the QR codes are then checked by encoding their payloads again
    zxingcpp = None

# The Banco Central's static example (Manual de Padrões para Iniciação do Pix, 2.6.3).
BCB_STATIC = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
              "5913Fulano de Tal6008BRASILIA62070503***63041D3D")
# The ZBP recommendation's example of a transfer to a person ("2D dla Odbiorcy typ 2").
ZBP_PERSON = "|PL|92124012340001567890123456|001200|Odbiorca 1|Przelew ekspress|||"


def refused(field: str, value: str) -> str:
    with pytest.raises(Unprocessable) as e:
        pay_details.checked({field: value})
    return e.value.detail


# --- reading what a member typed ------------------------------------------------------------

def _mod97(iban: str) -> int:
    """ISO 7064 mod 97-10 the long way: a digit at a time, letters as two digits."""
    rest = 0
    for ch in iban[4:] + iban[:4]:
        for digit in str(ord(ch) - 55) if ch.isalpha() else ch:
            rest = (rest * 10 + int(digit)) % 97
    return rest


@pytest.mark.parametrize("typed, kept", [
    ("DE89 3704 0044 0532 0130 00", "DE89370400440532013000"),
    ("gb82 west 1234 5698 7654 32", "GB82WEST12345698765432"),
    ("PL61 1090 1014 0000 0712 1981 2874", "PL61109010140000071219812874"),
    ("FR14 2004 1010 0505 0001 3M02 606", "FR1420041010050500013M02606"),
    ("IBAN NO93 8601 1117 947", "NO9386011117947"),
    ("BR18 0036 0305 0000 1000 9795 493C 1", "BR1800360305000010009795493C1"),
])
def test_an_iban_is_kept_without_spaces_in_capitals_when_its_check_digits_hold(typed, kept):
    assert pay_details.checked({"iban": typed}) == {"iban": kept}
    assert _mod97(kept) == 1 and len(kept) == pay_details.IBAN_LENGTHS[kept[:2]]


def test_an_iban_whose_check_digits_do_not_hold_is_refused_naming_the_check():
    said = refused("iban", "DE89 3704 0044 0532 0130 01")
    assert _mod97("DE89370400440532013001") != 1
    assert said.startswith("iban: the check digits of DE89 3704 0044 0532 0130 01 do not match")
    assert "mod 97" in said
    assert "do not match" in refused("iban", "DE98 3704 0044 0532 0130 00")  # two digits swapped


def test_an_iban_of_the_wrong_length_for_its_country_is_refused_with_both_lengths():
    assert refused("iban", "DE89 3704 0044 0532 0130") == \
        "iban: an IBAN of DE has 22 characters, and DE89 3704 0044 0532 0130 has 20"
    assert "an IBAN of PL has 28 characters" in refused("iban", "PL61 1090 1014 0000 0712 1981 28745")


def test_what_is_no_iban_at_all_is_refused_saying_what_an_iban_is():
    assert refused("iban", "XX89 3704 0044") == "iban: XX is not a country that has IBANs"
    assert "is not an IBAN: an IBAN is the two letters of its country" in refused("iban", "12345678")
    assert "is not an IBAN" in refused("iban", "DE89 3704 0044 0532 0130 0Ä")


@pytest.mark.parametrize("typed, kept, kind", [
    ("123.456.789-09", "12345678909", "cpf"),
    ("00.038.166/0001-05", "00038166000105", "cnpj"),  # the Banco Central's own CNPJ
    ("12.ABC.345/01DE-35", "12ABC34501DE35", "cnpj"),  # the Receita Federal's alphanumeric example
    ("Pix@BCB.gov.br", "pix@bcb.gov.br", "email"),
    ("+55 (61) 91234-5678", "+5561912345678", "phone"),
    ("123E4567-E12B-12D1-A456-426655440000", "123e4567-e12b-12d1-a456-426655440000", "random"),
    ("123e4567e12b12d1a456426655440000", "123e4567-e12b-12d1-a456-426655440000", "random"),
])
def test_a_pix_key_of_each_form_is_kept_as_the_banco_centrals_directory_writes_it(typed, kept, kind):
    assert pay_details.checked({"pix": typed}) == {"pix": kept}
    assert pay_details.pix_kind(kept) == kind


def _cpf_digit(digits: str) -> int:
    total = sum(int(d) * w for d, w in zip(digits, range(len(digits) + 1, 1, -1), strict=True))
    return 0 if total % 11 < 2 else 11 - total % 11


def test_a_cpf_or_cnpj_whose_check_digits_do_not_hold_is_refused_saying_so():
    assert _cpf_digit("123456789") == 0 and _cpf_digit("1234567890") == 9  # 123.456.789-09 holds
    assert refused("pix", "123.456.789-00") == \
        "pix: '123.456.789-00' is not a CPF: its two check digits do not match the nine before them"
    assert "is not a CPF" in refused("pix", "111.111.111-11")  # a digit repeated is never issued
    assert "is not a CNPJ: its two check digits do not match" in refused("pix", "00.038.166/0001-06")
    assert "is not a CNPJ" in refused("pix", "12ABC34501DE36")


@pytest.mark.parametrize("typed", ["abc", "12345", "+1 415 555 2671", "+55 20 98889-9345", "+55 73 3281-1234",
                                   "fulano@gmail", "a b@c.de", "123e4567-e12b-12d1-a456-42665544000"])
def test_anything_else_is_no_pix_key_and_is_refused_with_what_a_key_is(typed):
    said = refused("pix", typed)
    assert said.startswith("pix: ") and ("is not a PIX" in said or "is not an e-mail" in said), said


def test_a_blik_phone_is_polish_plus_48_and_nine_digits():
    assert pay_details.checked({"blik": "600 700 800"}) == {"blik": "+48600700800"}
    assert pay_details.checked({"blik": "+48 600-700-800"}) == {"blik": "+48600700800"}
    assert pay_details.checked({"blik": "0048600700800"}) == {"blik": "+48600700800"}
    for typed in ("+49 600700800", "60070080", "+48 6007008001", "+48 060070080"):
        assert refused("blik", typed).endswith("is not a Polish phone number: BLIK takes +48 and nine digits")


def test_empty_fields_are_cleared_and_a_name_is_one_line_a_bank_prints():
    assert pay_details.checked({"iban": "", "name": "  ", "pix": None}) == {}
    assert pay_details.checked({"name": " Ala   Nowak "}) == {"name": "Ala Nowak"}
    assert "without control characters" in refused("name", "Ala\u0000")
    assert "at most 70 characters" in refused("name", "A" * 71)
    with pytest.raises(Unprocessable, match="iban: must be text"):
        pay_details.checked({"iban": 5})
    with pytest.raises(Unprocessable, match="at most 100 characters"):
        pay_details.checked({"pix": "x" * 101})


# --- decoding what the codes say --------------------------------------------------------------

def epc_fields(payload: str) -> dict:
    """The EPC069-12 lines of a SEPA transfer, by name."""
    names = ["service", "version", "charset", "identification", "bic", "name", "iban", "amount", "purpose",
             "reference", "text", "information"]
    lines = payload.split("\n")
    assert 11 <= len(lines) <= 12
    return dict(zip(names, lines, strict=False))


def tlv_fields(text: str) -> dict:
    """The EMV fields of a BR Code: {id: value}, those of 26 and 62 read as fields too."""
    fields, at = {}, 0
    while at < len(text):
        tag, size = text[at:at + 2], int(text[at + 2:at + 4])
        value = text[at + 4:at + 4 + size]
        assert len(value) == size, f"field {tag} is cut short"
        fields[tag] = tlv_fields(value) if tag in ("26", "62") else value
        at += 4 + size
    return fields


def crc_of(payload: str) -> str:
    """The CRC of a BR Code, computed here with binascii's CRC-CCITT (0x1021) from 0xFFFF."""
    return f"{binascii.crc_hqx(payload[:-4].encode('ascii'), 0xFFFF):04X}"


def test_the_crc_is_ccitt_false_as_its_check_value_and_the_banco_centrals_example_say():
    assert pay_codes.crc16_ccitt_false(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE's check value
    assert crc_of(BCB_STATIC) == "1D3D" == BCB_STATIC[-4:]
    made = pay_codes.brcode(key="123e4567-e12b-12d1-a456-426655440000", amount=0, name="Fulano de Tal",
                            city="BRASILIA")
    assert made == BCB_STATIC  # byte for byte, with no amount (the payer types it)


def test_a_pix_copy_and_paste_has_every_field_the_br_code_asks_for():
    payload = pay_codes.brcode(key="+5561912345678", amount=1250, name="Alá da Conceição Ferreira Souza",
                               city="São Paulo", txid="bitka20261203", info="Czwartek, evening of 2026-12-03")
    fields = tlv_fields(payload)
    assert list(fields) == ["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]
    assert fields["00"] == "01"
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": "+5561912345678", "02": "Czwartek, evening of 2026-12-03"}
    assert (fields["52"], fields["53"], fields["54"], fields["58"]) == ("0000", "986", "12.50", "BR")
    assert fields["59"] == "Ala da Conceicao Ferreira"  # printable ASCII, at most 25
    assert fields["60"] == "Sao Paulo"
    assert fields["62"] == {"05": "bitka20261203"}
    assert payload[-8:-4] == "6304" and fields["63"] == crc_of(payload)
    assert re.fullmatch(r"[ -~]+", payload)


def test_a_long_pix_key_leaves_the_text_only_what_fits_in_field_26():
    key = "a" * 67 + "@gmail.com"
    fields = tlv_fields(pay_codes.brcode(key=key, amount=1, name="X", city="Y", info="a long title"))
    assert fields["26"]["01"] == key and len(pay_codes.tlv("00", "br.gov.bcb.pix") + pay_codes.tlv("01", key)) == 99
    assert "02" not in fields["26"]  # the key fills the 99 characters: no room for a text
    with pytest.raises(pay_codes.CodeError):
        pay_codes.brcode(key="k", amount=1, name="X", city="Y", txid="pedido-12")


def test_a_sepa_code_is_the_epc_lines_in_order():
    payload = pay_codes.epc(name="Ala Müller", iban="DE89370400440532013000", amount=1250,
                            text="Czwartek, evening of 2026-12-03")
    fields = epc_fields(payload)
    assert fields == {"service": "BCD", "version": "002", "charset": "1", "identification": "SCT", "bic": "",
                      "name": "Ala Müller", "iban": "DE89370400440532013000", "amount": "EUR12.50", "purpose": "",
                      "reference": "", "text": "Czwartek, evening of 2026-12-03"}
    assert re.fullmatch(r"EUR[0-9]{1,9}\.[0-9]{2}", fields["amount"])
    assert len(payload.encode("utf-8")) <= 331


def test_a_sepa_code_keeps_within_its_limits_and_refuses_what_it_cannot_say():
    payload = pay_codes.epc(name="Ż" * 90, iban="DE89370400440532013000", amount=1, text="ł" * 200)
    fields = epc_fields(payload)
    assert len(fields["name"]) == 70 and len(fields["text"]) <= 140 and len(payload.encode("utf-8")) <= 331
    assert fields["amount"] == "EUR0.01"
    for amount in (0, 100_000_000_000):
        with pytest.raises(pay_codes.CodeError):
            pay_codes.epc(name="A", iban="DE89370400440532013000", amount=amount, text="t")


def test_a_polish_code_is_the_zbp_fields_and_matches_the_recommendations_example():
    assert pay_codes.zbp(iban="PL92124012340001567890123456", amount=1200, name="Odbiorca 1",
                         title="Przelew ekspress") == ZBP_PERSON
    payload = pay_codes.zbp(iban="PL61109010140000071219812874", amount=1250, name="Małgorzata Wiśniewska-Kowal",
                            title="Czwartek | a very long title of the evening 2026-12-03")
    nip, country, account, amount, name, title, *rest = payload.split("|")
    assert (nip, country, account, amount) == ("", "PL", "61109010140000071219812874", "001250")
    assert name == "Małgorzata Wiśniewsk" and len(name) == 20
    assert "|" not in title and len(title) <= 32 and rest == ["", "", ""]
    with pytest.raises(pay_codes.CodeError):
        pay_codes.zbp(iban="PL61109010140000071219812874", amount=1_000_000, name="A", title="t")
    with pytest.raises(pay_codes.CodeError):
        pay_codes.zbp(iban="DE89370400440532013000", amount=1, name="A", title="t")


# --- the QR codes say exactly the payload ---------------------------------------------------

def decoded(modules: list[list[bool]]) -> tuple[bytes, str]:
    """What a QR code's dark modules say, read by zxing-cpp: its bytes and error level."""
    dark = [[False] * 4 + list(row) + [False] * 4 for row in modules]
    blank = [[False] * len(dark[0])] * 4
    image = numpy.array([[0 if v else 255 for v in row for _ in range(4)] for row in blank + dark + blank
                         for _ in range(4)], dtype=numpy.uint8)
    [found] = zxingcpp.read_barcodes(image)
    return found.bytes, found.ec_level


def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules an SVG of segno's draws: a path of runs (``M x y``, ``m dx dy``,
    ``h n``), each y at the middle of its row."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1)) // int(re.search(r"scale\((\d+)\)", svg).group(1))
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", re.search(r' d="([^"]+)"', svg).group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = True
            x += float(a)
    return grid


def said_by(svg: str, kind: str, payload: str) -> bytes:
    """What the QR code of an SVG says (checked against the payload encoded again without zxing)."""
    modules = svg_modules(svg)
    if zxingcpp is None:
        again = pay_shown.qr_code(kind, payload)
        assert modules == [[bool(v) for v in row] for row in again.matrix_iter(border=4)]
        return payload.encode("utf-8")
    data, level = decoded(modules)
    assert level == ("L" if kind == "zbp" else "M")
    return data


@pytest.mark.parametrize("kind, payload", [
    ("epc", "BCD\n002\n1\nSCT\n\nAla Müller\nDE89370400440532013000\nEUR12.50\n\n\nCzwartek, evening of 2026-12-03"),
    ("zbp", ZBP_PERSON.replace("Odbiorca 1", "Żaneta Łódź")),
    ("pix", BCB_STATIC),
])
def test_each_qr_code_says_its_payload_byte_for_byte(kind, payload):
    code = pay_shown.qr_code(kind, payload)
    assert said_by(pay_shown.svg(code, "label"), kind, payload) == payload.encode("utf-8")
    if kind == "epc":
        assert code.version <= 13
