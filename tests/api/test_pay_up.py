"""Paying up in one tap: a member says how they take money (PUT .../members/{m}/pay-to, or the
form on the group page), only they or the admin may change it, only the group reads it, and
it is an event of the log like any other. The group page's settle-up list then shows the
payer of each transfer the codes their bank scans, decoded here back to every field:
EPC069-12 for euros, ZBP 2D and the BLIK phone for zloty, a PIX copy-and-paste for reais."""
from __future__ import annotations

import html
from datetime import date
import json
import re

from service.app import create_app
from tests.api.test_pages import _sheet, _signed_in
from tests.command import run
from tests.conftest import Client
from tests.tampering import rechained
from tests.unit.test_pay_codes import crc_of, epc_fields, said_by, tlv_fields

DE_IBAN, PL_IBAN = "DE89 3704 0044 0532 0130 00", "PL61 1090 1014 0000 0712 1981 2874"


def _group(client, currency="EUR", name="Czwartek"):
    """A group of Ala, Bob and Cyd in which Bob owes Ala 12.50 (results count at once)."""
    g = client.post("/v1/groups", {"name": name, "currency": currency, "confirmations": "off"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    made = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd")]
    ala, bob, cyd = (m["id"] for m in made)
    assert admin.post(f"{base}/payments", {"from": ala, "to": bob, "amount": "12.50"}).status_code == 201
    return {"id": g["id"], "base": base, "admin": admin, "ala": ala, "bob": bob, "cyd": cyd,
            "phone": {m["id"]: client.as_(m["token"]) for m in made}, "tokens": {m["id"]: m["token"] for m in made}}


def _put(who, t, member, body, **kw):
    return who.call("PUT", f"{t['base']}/members/{member}/pay-to", body, **kw)


def _version(t) -> int:
    return t["admin"].get(f"{t['base']}/events").json["version"]


def _events(t, kind="pay_details") -> list[dict]:
    return [e for e in t["admin"].get(f"{t['base']}/events").json["events"] if e["type"] == kind]


def test_a_member_says_how_they_take_money_and_the_group_reads_it(client):
    t = _group(client)
    ala = t["phone"][t["ala"]]
    put = _put(ala, t, t["ala"], {"iban": "de89 3704 0044 0532 0130 00", "name": "Ala Müller", "pix": None,
                                  "blik": "600 700 800"})
    assert put.status_code == 200 and put.headers["ETag"] == f'"{_version(t)}"' and "Bitka-Checkpoint" in put.headers
    shown = {"member": t["ala"], "iban": "DE89370400440532013000", "name": "Ala Müller", "pix": None,
             "pix_kind": None, "blik": "+48600700800"}
    assert put.json == shown
    for reader in (t["phone"][t["bob"]], t["admin"]):
        got = reader.get(f"{t['base']}/members/{t['ala']}/pay-to")
        assert got.status_code == 200 and got.json == shown
    [event] = _events(t)
    assert event["actor"] == t["ala"] and event["data"] == {"member": t["ala"], "iban": "DE89370400440532013000",
                                                            "name": "Ala Müller", "blik": "+48600700800"}
    assert event["hash"] and event["prev_hash"]


def test_the_same_details_again_append_nothing_and_empty_ones_clear_them(client):
    t = _group(client)
    ala = t["phone"][t["ala"]]
    assert _put(ala, t, t["ala"], {"pix": "123.456.789-09"}).json["pix_kind"] == "cpf"
    before = _version(t)
    assert _put(ala, t, t["ala"], {"pix": "12345678909"}).status_code == 200 and _version(t) == before
    cleared = _put(ala, t, t["ala"], {"pix": "", "iban": None})
    assert cleared.status_code == 200 and cleared.json["pix"] is None and _version(t) == before + 1
    assert _events(t)[-1]["data"] == {"member": t["ala"]}
    assert _put(ala, t, t["ala"], {}).status_code == 200 and _version(t) == before + 1


def test_only_the_member_changes_them_not_another_member_nor_the_admin(client):
    t = _group(client)
    before = _version(t)
    refused = _put(t["phone"][t["bob"]], t, t["ala"], {"iban": DE_IBAN})
    assert refused.status_code == 403 and refused.mimetype == "application/problem+json"
    assert refused.json["detail"] == ("only the member themself may change how they take money (signed by one of "
                                      "their devices); not another member, nor the group's admin")
    by_admin = _put(t["admin"], t, t["ala"], {"iban": DE_IBAN})  # the admin would send Ala's winnings elsewhere
    assert by_admin.status_code == 403 and _version(t) == before


def test_another_groups_token_no_token_and_no_such_member_are_refused(client):
    t, other = _group(client), _group(client, name="Piątek")
    path = f"{t['base']}/members/{t['ala']}/pay-to"
    stranger = other["phone"][other["ala"]]
    assert stranger.get(path).status_code == 403
    assert _put(stranger, t, t["ala"], {"iban": DE_IBAN}).status_code == 403
    assert _put(other["admin"], t, t["ala"], {"iban": DE_IBAN}).status_code == 403
    assert client.get(path).status_code == 401
    assert t["admin"].get(f"{t['base']}/members/m_nobody/pay-to").status_code == 404
    assert _put(t["admin"], t, "m_nobody", {"iban": DE_IBAN}).status_code == 404
    assert not _events(t)


def test_a_wrong_iban_or_pix_key_is_a_422_with_a_sentence_and_appends_nothing(client):
    t = _group(client)
    ala, before = t["phone"][t["ala"]], _version(t)
    for body, said in [
        ({"iban": "DE89 3704 0044 0532 0130 01"}, "iban: the check digits of DE89 3704 0044 0532 0130 01 do not "
                                                  "match the rest of it (ISO 13616, mod 97)"),
        ({"iban": "DE89 3704 0044 0532 013"}, "iban: an IBAN of DE has 22 characters, and DE89 3704 0044 0532 013 "
                                              "has 19"),
        ({"pix": "123.456.789-00"}, "pix: '123.456.789-00' is not a CPF"),
        ({"pix": "Fulano"}, "pix: 'Fulano' is not a PIX key: a key is a CPF (11 digits), a CNPJ (14)"),
        ({"blik": "+49 600 700 800"}, "blik: '+49 600 700 800' is not a Polish phone number"),
        ({"iban": DE_IBAN, "pix": "00.038.166/0001-06"}, "is not a CNPJ"),
    ]:
        answer = _put(ala, t, t["ala"], body)
        assert answer.status_code == 422 and answer.mimetype == "application/problem+json", answer.json
        assert said in answer.json["detail"], answer.json["detail"]
    for body in ({"iban": 5}, {"bic": "DEUTDEFF"}, {"name": "x" * 101}):
        assert _put(ala, t, t["ala"], body).status_code == 400
    sent = ala.call("PUT", f"{t['base']}/members/{t['ala']}/pay-to", data="{\"iban\":", headers={
        "Content-Type": "application/json"})
    assert sent.status_code == 400
    assert _version(t) == before and not _events(t)


def test_a_put_with_a_stale_if_match_or_a_repeated_key_appends_nothing_more(client):
    t = _group(client)
    ala, before = t["phone"][t["ala"]], _version(t)
    assert _put(ala, t, t["ala"], {"iban": DE_IBAN}, headers={"If-Match": f'"{before - 1}"'}).status_code == 412
    once = {"Idempotency-Key": "pay-to-1"}
    first = _put(ala, t, t["ala"], {"iban": DE_IBAN}, headers=once)
    again = _put(ala, t, t["ala"], {"iban": DE_IBAN}, headers=once)
    assert first.status_code == again.status_code == 200 and first.json == again.json
    assert _put(ala, t, t["ala"], {"iban": PL_IBAN}, headers=once).status_code == 422
    assert _version(t) == before + 1


def test_the_openapi_document_describes_the_pay_to_operations(client):
    doc = client.get("/v1/openapi.json").json
    item = doc["paths"]["/v1/groups/{group}/members/{member}/pay-to"]
    assert item["get"]["operationId"] == "get_pay_to" and item["put"]["operationId"] == "put_pay_to"
    body = item["put"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(doc["components"]["schemas"][body]["properties"]) == {"iban", "name", "pix", "blik"}
    assert {"200", "400", "403", "404", "412", "422"} <= set(item["put"]["responses"])


# --- the group page --------------------------------------------------------------------------

def _evening(t) -> str:
    return t["admin"].get(f"{t['base']}/events").json["events"][-1]["recorded_at"][:10]


def _pay_up(client, t, reader="bob") -> str:
    """The settle-up part of the group page as ``reader`` sees it, in a browser of their own."""
    browser = Client(client.http.application.test_client())
    _signed_in(browser, t["tokens"][t[reader]])
    page = browser.http.get(f"/g/{t['id']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    return text[text.index('id="settle-h"'):text.index('id="tables-h"')]


def _svgs(part: str) -> list[str]:
    return re.findall(r"<svg.*?</svg>", part, re.S)


def test_a_euro_transfer_shows_the_sepa_code_of_the_receivers_iban(client):
    t = _group(client)
    _put(t["phone"][t["ala"]], t, t["ala"], {"iban": DE_IBAN, "name": "Ala Müller"})
    part = _pay_up(client, t)
    [svg] = _svgs(part)
    payload = said_by(svg, "epc", "").decode("utf-8")
    assert epc_fields(payload) == {
        "service": "BCD", "version": "002", "charset": "1", "identification": "SCT", "bic": "", "name": "Ala Müller",
        "iban": "DE89370400440532013000", "amount": "EUR12.50", "purpose": "", "reference": "",
        "text": f"Czwartek, evening of {_evening(t)}"}
    assert "a SEPA transfer of €12.50 to Ala Müller" in part
    assert 'data-copy="DE89370400440532013000"' in part and "DE89 3704 0044 0532 0130 00" in part
    # The page sets the code's width: it scales whole (a viewBox, no fixed size), never cut at its edge.
    assert re.search(r'viewBox="0 0 \d+ \d+"', svg) and not re.search(r"<svg[^>]* (width|height)=", svg)


def test_a_zloty_transfer_shows_the_polish_banks_code_and_the_blik_phone(client):
    t = _group(client, "PLN")
    _put(t["phone"][t["ala"]], t, t["ala"], {"iban": PL_IBAN, "blik": "+48 600 700 800"})
    part = _pay_up(client, t)
    [svg] = _svgs(part)
    nip, country, account, amount, name, title, *rest = said_by(svg, "zbp", "").decode("utf-8").split("|")
    assert (nip, country, account, amount, name, rest) == ("", "PL", "61109010140000071219812874", "001250", "Ala",
                                                           ["", "", ""])
    # In the Polish banks' language, whole words only, within the code's 32 characters.
    assert title == "Czwartek, wieczór " + date.fromisoformat(_evening(t)).strftime("%d.%m.%Y") and len(title) <= 32
    assert "BLIK to the phone number +48 600 700 800" in part and 'data-copy="+48600700800"' in part


def test_a_real_transfer_shows_the_pix_copy_and_paste_and_its_qr_code(client):
    t = _group(client, "BRL")
    _put(t["phone"][t["ala"]], t, t["ala"], {"pix": "+55 (61) 91234-5678", "name": "Alá da Silva"})
    part = _pay_up(client, t)
    text = html.unescape(re.search(r'<input id="pix-1"[^>]* value="([^"]*)"', part).group(1))
    fields = tlv_fields(text)
    assert fields["00"] == "01" and fields["26"]["00"] == "br.gov.bcb.pix" and fields["26"]["01"] == "+5561912345678"
    assert (fields["52"], fields["53"], fields["54"], fields["58"], fields["59"]) == ("0000", "986", "12.50", "BR",
                                                                                      "Ala da Silva")
    assert fields["60"] and fields["62"]["05"] == "bitka" + _evening(t).replace("-", "")
    assert fields["26"]["02"] == "Czwartek, noite de " + date.fromisoformat(_evening(t)).strftime("%d/%m/%Y")
    assert fields["63"] == crc_of(text)
    [svg] = _svgs(part)
    assert said_by(svg, "pix", text) == text.encode("ascii")
    assert f'data-copy="{html.escape(text)}"' in part


def test_a_receiver_without_details_or_with_none_the_currency_takes_shows_no_code(client):
    t = _group(client)
    assert "pay-up" not in _pay_up(client, t)
    _put(t["phone"][t["ala"]], t, t["ala"], {"pix": "pix@bcb.gov.br"})  # no PIX in euros
    assert "pay-up" in (part := _pay_up(client, t)) and not _svgs(part)
    p = _group(client, "PLN")
    _put(p["phone"][p["ala"]], p, p["ala"], {"iban": DE_IBAN})  # a German account: no ZBP code
    part = _pay_up(client, p)
    assert not _svgs(part) and "DE89 3704 0044 0532 0130 00" in part


def test_the_page_runs_the_copy_script_from_a_file_only(client):
    t = _group(client)
    _put(t["phone"][t["ala"]], t, t["ala"], {"iban": DE_IBAN})
    _signed_in(client, t["tokens"][t["bob"]])
    page = client.http.get(f"/g/{t['id']}").get_data(as_text=True)
    assert re.search(r'<script src="/static/copy.js" defer></script>', page)
    assert "script-src 'self'" in client.http.get(f"/g/{t['id']}").headers["Content-Security-Policy"]
    assert client.http.get("/static/copy.js").status_code == 200


# --- the form ----------------------------------------------------------------------------------

def _form_of(client, path, member_path):
    page = client.http.get(path).get_data(as_text=True)
    assert f'action="{member_path}"' in page
    return _sheet(client, path)


def test_a_member_saves_their_own_details_from_the_group_page(client):
    t = _group(client)
    _signed_in(client, t["tokens"][t["ala"]])
    target = f"/g/{t['id']}/members/{t['ala']}/pay-to"
    form = _form_of(client, f"/g/{t['id']}", target)
    sent = client.http.post(target, data={**form, "back": "group", "iban": DE_IBAN, "name": "Ala Müller", "pix": "",
                                          "blik": ""})
    assert sent.status_code == 303 and sent.headers["Location"] == f"/g/{t['id']}"
    assert t["admin"].get(f"{t['base']}/members/{t['ala']}/pay-to").json["iban"] == "DE89370400440532013000"
    assert _events(t)[-1]["actor"] == t["ala"]
    again = client.http.post(target, data={**form, "back": "group", "iban": DE_IBAN, "name": "Ala Müller"})
    assert again.status_code == 303 and "already=1" in again.headers["Location"] and len(_events(t)) == 1
    page = client.http.get(f"/g/{t['id']}").get_data(as_text=True)
    assert 'value="DE89 3704 0044 0532 0130 00"' in page  # the form shows what is kept


def test_a_bad_iban_in_the_form_is_said_on_the_page_and_logs_nothing(client):
    t = _group(client)
    _signed_in(client, t["tokens"][t["ala"]])
    target = f"/g/{t['id']}/members/{t['ala']}/pay-to"
    form = _form_of(client, f"/g/{t['id']}", target)
    before = _version(t)
    sent = client.http.post(target, data={**form, "back": "group", "iban": "DE89 3704 0044 0532 0130 01"})
    text = sent.get_data(as_text=True)
    assert sent.status_code == 422 and sent.mimetype == "text/html"
    assert "do not match the rest of it (ISO 13616, mod 97)" in html.unescape(text)
    assert 'value="DE89 3704 0044 0532 0130 01"' in text  # what was typed stays in the field
    assert _version(t) == before


def test_a_member_may_not_change_or_open_another_members_details_and_a_stranger_sees_none(client, app):
    t = _group(client)
    _signed_in(client, t["tokens"][t["ala"]])
    form = _sheet(client, f"/g/{t['id']}")
    theirs = f"/g/{t['id']}/members/{t['bob']}/pay-to"
    assert client.http.post(theirs, data={**form, "iban": DE_IBAN}).status_code == 403
    assert client.http.get(theirs).status_code == 403
    assert not _events(t)
    other = _group(client, name="Piątek")
    stranger = Client(app.test_client())
    _signed_in(stranger, other["tokens"][other["ala"]])
    assert stranger.http.get(f"/g/{t['id']}/members/{t['ala']}/pay-to").status_code == 403


def test_the_admin_has_no_way_to_change_a_members_details_from_the_pages(client):
    t = _group(client)
    _signed_in(client, t["admin"].token)
    target = f"/g/{t['id']}/members/{t['bob']}/pay-to"
    assert f'href="{target}"' not in client.http.get(f"/g/{t['id']}/members").get_data(as_text=True)
    assert client.http.get(target).status_code == 403
    form = _sheet(client, f"/g/{t['id']}")
    assert client.http.post(target, data={**form, "pix": "00.038.166/0001-05"}).status_code == 403
    assert not _events(t)


# --- the log holds it ------------------------------------------------------------------------

def test_an_exported_log_with_pay_details_imports_and_replays_and_a_forged_one_does_not(tmp_path):
    db = str(tmp_path / "club.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    t = _group(Client(app.test_client()), "PLN")
    assert _put(t["phone"][t["ala"]], t, t["ala"], {"iban": PL_IBAN, "blik": "600700800"}).status_code == 200
    assert _put(t["phone"][t["bob"]], t, t["bob"], {"pix": "pix@bcb.gov.br"}).status_code == 200
    app.extensions["bitka.store"].close()
    out = tmp_path / "club.jsonl"
    assert run("--db", db, "export", "--group", t["id"], "--out", str(out)).exit_code == 0
    envelopes = [json.loads(line) for line in out.read_text().splitlines()]
    for command in ("verify", "replay"):
        checked = run("--db", db, command)
        assert checked.exit_code == 0, checked.output
    whole = tmp_path / "whole.jsonl"
    whole.write_text("".join(line + "\n" for line in rechained(envelopes)))
    assert run("--db", str(tmp_path / "again.db"), "import", str(whole)).exit_code == 0
    forged = [dict(e) for e in envelopes]
    mine = next(e for e in forged if e["type"] == "pay_details" and e["data"]["member"] == t["ala"])
    mine["actor"] = t["bob"]  # Bob saying where Ala's money goes
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in rechained(forged)))
    result = run("--db", str(tmp_path / "forged.db"), "import", str(path))
    assert result.exit_code == 1 and f"seq {mine['seq']}: " in result.output and "Traceback" not in result.output
