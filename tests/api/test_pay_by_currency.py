"""Paying up in the group's currency: the pay-to form asks only for the ways the currency
takes (a zloty group is never offered a PIX key, a real group never BLIK, a points group no
form at all), from one table of methods by currency; and each payment code titles its
transfer in the language of the payer's bank's country, whatever language the page is
read in, in whole words that fit the code's field: for a group named "Piątek u Ali" on
5 December 2026 the Polish banks' code says "Piątek u Ali, wieczór 05.12.2026" (its 32
characters), a SEPA code to an Italian account "Piątek u Ali, serata del 05/12/2026", to a
German one "Piątek u Ali, evening of 2026-12-05", the PIX code "Piatek u Ali, noite de
05/12/2026"."""
from __future__ import annotations

import html
import re
from datetime import date

import pytest

from events.money import POINTS
from service import pay_codes
from service.web import pay_methods
from service.web.pay_methods import title
from tests.api.test_pages import _signed_in
from tests.api.test_pay_up import PL_IBAN, _put, _svgs
from tests.conftest import Client
from tests.unit.test_pay_codes import said_by, tlv_fields

LANGUAGES = ("en", "pl", "it", "pt_BR")
GROUP = "Piątek u Ali"
EVENING = date(2026, 12, 5)
IT_IBAN = "IT60 X054 2811 1010 0000 0123 456"
PT_IBAN = "PT50 0002 0123 1234 5678 9015 4"
OFFERED = {"PLN": {"iban", "name", "blik"}, "EUR": {"iban", "name"}, "BRL": {"pix", "name"},
           "GBP": {"iban", "name"}, POINTS: set()}


@pytest.mark.parametrize("code, most, iban, said", [
    ("zbp", pay_codes.ZBP_TITLE, "", "Piątek u Ali, wieczór 05.12.2026"),
    ("epc", pay_codes.EPC_TEXT, "IT60X0542811101000000123456", "Piątek u Ali, serata del 05/12/2026"),
    ("epc", pay_codes.EPC_TEXT, "PT50000201231234567890154", "Piątek u Ali, noite de 05/12/2026"),
    ("epc", pay_codes.EPC_TEXT, "DE89370400440532013000", "Piątek u Ali, evening of 2026-12-05"),
    ("pix", pay_codes.brcode_info_room("+5561912345678"), "", "Piatek u Ali, noite de 05/12/2026"),
])
def test_each_codes_title_is_in_its_payers_banks_language(code, most, iban, said):
    assert title(code, GROUP, EVENING, most, iban=iban) == said and len(said) <= most


def test_a_title_keeps_whole_words_of_the_groups_name_and_the_date_always():
    long = "Czwartkowe karty u Bartłomieja"
    assert title("zbp", long, EVENING, pay_codes.ZBP_TITLE) == "Czwartkowe, wieczór 05.12.2026"
    one_word = title("zbp", "Supercalifragilisticexpialidocious", EVENING, pay_codes.ZBP_TITLE)
    assert one_word.endswith("05.12.2026") and "Supercal" not in one_word and len(one_word) <= pay_codes.ZBP_TITLE
    assert title("pix", GROUP, EVENING, 12) == "05/12/2026"  # a long PIX key leaves room for the date alone


def test_the_methods_by_currency_say_what_each_form_asks_for():
    assert {c: set(pay_methods.fields(c)) for c in OFFERED} == OFFERED
    assert [m.code for m in pay_methods.methods("PLN")] == ["zbp", None]
    assert not pay_methods.methods("PLN")[0].codes("DE89370400440532013000")  # a German account: no Polish code


def _pay_group(client, currency: str, name: str = "Czwartek") -> dict:
    """A group of Ala, Bob and Cyd in which Bob owes Ala 12.50 (12 points)."""
    g = client.post("/v1/groups", {"name": name, "currency": currency, "confirmations": "off"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    made = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd")]
    ala, bob = made[0]["id"], made[1]["id"]
    paid = admin.post(f"{base}/payments", {"from": ala, "to": bob, "amount": "12" if currency == POINTS else "12.50"})
    assert paid.status_code == 201, paid.json
    return {"id": g["id"], "base": base, "admin": admin, "ala": ala, "bob": bob,
            "phone": {m["id"]: client.as_(m["token"]) for m in made}, "tokens": {m["id"]: m["token"] for m in made}}


def _browser(client, token, language) -> Client:
    browser = Client(client.http.application.test_client())
    _signed_in(browser, token)
    assert browser.http.get(f"/language/{language}?next=/").status_code == 302
    return browser


def _group_page(client, t, reader, language) -> str:
    return _browser(client, t["tokens"][t[reader]], language).http.get(f"/g/{t['id']}").get_data(as_text=True)


@pytest.mark.parametrize("currency", sorted(OFFERED))
def test_the_pay_to_form_asks_only_for_the_ways_the_currency_takes(client, currency):
    t = _pay_group(client, currency)
    for language in LANGUAGES:
        page = _group_page(client, t, "ala", language)
        asked = set(re.findall(r'<input id="pay-\w+" name="(\w+)"', page))
        assert asked == OFFERED[currency], (currency, language, asked)
        if currency == POINTS:
            assert 'id="pay-to-h"' not in page
            continue
        summary = html.unescape(re.search(r'<section aria-labelledby="pay-to-h">.*?<summary>(.*?)</summary>',
                                          page, re.S).group(1))
        assert ("PIX" in summary) == (currency == "BRL") and ("BLIK" in summary) == (currency == "PLN"), summary
        assert ("IBAN" in summary) == ("iban" in OFFERED[currency]), summary
    own = _browser(client, t["tokens"][t["ala"]], "en").http.get(f"/g/{t['id']}/members/{t['ala']}/pay-to")
    assert own.status_code == (404 if currency == POINTS else 200)
    assert set(re.findall(r'<input id="pay-\w+" name="(\w+)"', own.get_data(as_text=True))) == OFFERED[currency]


def _settle_part(page: str) -> str:
    return page[page.index('id="settle-h"'):page.index('id="tables-h"')]


def test_the_codes_title_is_the_payers_banks_whatever_the_pages_language(client):
    zloty, reais, euros = _pay_group(client, "PLN", GROUP), _pay_group(client, "BRL", GROUP), \
        _pay_group(client, "EUR", GROUP)
    _put(zloty["phone"][zloty["ala"]], zloty, zloty["ala"], {"iban": PL_IBAN, "pix": "pix@bcb.gov.br"})
    _put(reais["phone"][reais["ala"]], reais, reais["ala"], {"pix": "+55 (61) 91234-5678", "blik": "600700800"})
    _put(euros["phone"][euros["ala"]], euros, euros["ala"], {"iban": IT_IBAN})
    for language in LANGUAGES:
        part = _settle_part(_group_page(client, zloty, "bob", language))
        [svg] = _svgs(part)
        fields = said_by(svg, "zbp", "").decode("utf-8").split("|")
        day = date.fromisoformat(zloty["admin"].get(f"{zloty['base']}/events").json["events"][-1]["recorded_at"][:10])
        assert fields[5] == title("zbp", GROUP, day, pay_codes.ZBP_TITLE), (language, fields)
        assert fields[5].startswith("Piątek u Ali, wieczór ") and len(fields[5]) <= pay_codes.ZBP_TITLE
        assert "pix" not in part.lower()  # the PIX key a zloty member once gave is not shown to pay in zloty

        part = _settle_part(_group_page(client, reais, "bob", language))
        text = html.unescape(re.search(r'<input id="pix-1"[^>]* value="([^"]*)"', part).group(1))
        assert tlv_fields(text)["26"]["02"].startswith("Piatek u Ali, noite de "), (language, text)
        assert "BLIK" not in part

        part = _settle_part(_group_page(client, euros, "bob", language))
        [svg] = _svgs(part)
        assert said_by(svg, "epc", "").decode("utf-8").split("\n")[-1].startswith("Piątek u Ali, serata del ")
