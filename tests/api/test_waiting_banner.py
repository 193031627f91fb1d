"""What waits for a member's word, on every page of their group (service/web/waiting.py): the
results that wait for them at every table, the corrections that wait for them to agree, the
payments that wait for them to say they got the money, said by how many and where, with one
tap that says yes to all of them, each act signed by the member's own key; a result someone
disputed is said, not confirmed with the rest. Nothing for a member for whom nothing waits.
The banner is also its own fragment (``GET /g/<group>/waiting``), for a page's script to draw
it again."""
from __future__ import annotations

import html
import json
import re
from urllib.parse import urlsplit

from werkzeug.datastructures import MultiDict

from tests.api.test_signed_pages import forms_of, page, phone, refused_in_words
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client, kop_group
from tests.keys.table import KeyedGroup, keyed_group

STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}  # Ala and Cyd pay


def _hand_at(g: KeyedGroup, table: str) -> str:
    """A whole Kop hand at ``table``, logged by the admin: its dealer and the seat across pay."""
    dealer = g.admin.get(f"/v1/groups/{g.id}/tables/{table}").json["next_dealer"]
    body = {"deal": {"dealer": dealer, "hands": [KOP_HANDS[(seat - dealer) % 4] for seat in range(4)]},
            "tricks": [{"cards": t} for t in KOP_TRICKS]}
    answer = g.admin.post(f"/v1/groups/{g.id}/tables/{table}/hands", body)
    assert answer.status_code == 201, answer.json
    return answer.json["id"]


def _fields(page: str) -> list[tuple[str, str]]:
    """The banner form's hidden fields, each as often as the page gives it."""
    form = re.search(r'<form[^>]*action="/g/[^/"]+/waiting".*?</form>', page, re.S).group(0)
    return [(html.unescape(n), html.unescape(v)) for n, v in
            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)]


def post(browser, path: str, shown: str, **extra):
    """The banner's form as the page gives it, sent with ``extra`` fields."""
    return browser.http.post(path, data=MultiDict(_fields(shown) + list(extra.items())))


def _banner(text: str) -> str:
    found = re.search(r'<div id="waiting"[^>]*>(.*?)</div>', text, re.S)
    assert found, "no #waiting on the page"
    return found.group(1)


def _said(banner: str) -> list[str]:
    """The banner's lines, as read (tags dropped)."""
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", li)).strip()
            for li in re.findall(r"<li>(.*?)</li>", banner, re.S)]


def test_the_banner_lists_what_waits_for_the_reader_and_one_tap_says_yes_to_all_of_it_signed(app, client):
    g = keyed_group(client)
    ala, bozena, cyprian, dorota = g.members
    # Kop at 1.00: a result Ala and Cyprian pay in waits; one they won was confirmed, then voided:
    # the void lowers them, and waits for their word.
    waits_a = g.hand()["id"]
    won = g.hand()["id"]
    for payer in (bozena, dorota):
        assert g.confirm(payer, won).status_code == 201
    voided = g.admin.post(f"/v1/groups/{g.id}/hands/{won}/correct", {"reason": "misdeal", "void": True})
    assert voided.status_code == 201, voided.json
    correction = next(e for e in g.events() if e["type"] == "correction")
    # Kop at 2.00: a result Ala and Cyprian pay in; one Bożena and Dorota pay in, confirmed; one
    # Cyprian pays in that Ala disputed.
    other = g.admin.post(f"/v1/groups/{g.id}/tables", {"game": "kop", "rules": {}, "seats": g.members,
                                                       "stake": "2.00"}).json["id"]
    waits_b = _hand_at(g, other)
    counted = _hand_at(g, other)
    for payer in (bozena, dorota):
        assert g.confirm(payer, counted).status_code == 201
    disputed = _hand_at(g, other)
    said = {"hand": disputed, "settlement": g.settlement_hash(disputed), "reason": "a card was missing"}
    answer = g.tokens[ala].post(f"/v1/groups/{g.id}/hands/{disputed}/dispute", {"reason": said["reason"]},
                                headers=g.devices[ala].header("dispute", g.id, **said))
    assert answer.status_code == 201, answer.json
    # Bożena's payment to Cyprian, recorded by the admin: it counts once Cyprian says he got it.
    paid = g.admin.post(f"/v1/groups/{g.id}/payments", {"from": bozena, "to": cyprian, "amount": "1.50"})
    assert paid.status_code == 201, paid.json
    payment = next(e for e in reversed(g.events()) if e["type"] == "payment")

    browser = phone(app, g, cyprian)
    hand_page = f"/g/{g.id}/hands/{counted}"  # a page with nothing of its own waiting for him
    shown = page(browser, hand_page)
    banner = _banner(shown)
    lines = _said(banner)
    assert lines[:4] == ["1 result at Kop at PLN 1.00", "1 result at Kop at PLN 2.00",
                         "1 correction to agree to at Kop at PLN 1.00", "1 payment from Bożena (PLN 1.50)"], lines
    assert len(lines) == 5 and lines[4].endswith("is disputed: say what you think on its page."), lines
    assert f'href="/g/{g.id}/tables/{other}"' in banner and f'href="/g/{g.id}/hands/{disputed}"' in banner
    [form] = forms_of(shown, f"/g/{g.id}/waiting")
    items = [{"act": "confirm", "of": waits_a, "fields": {"hand": waits_a, "settlement": g.settlement_hash(waits_a)}},
             {"act": "confirm", "of": waits_b, "fields": {"hand": waits_b, "settlement": g.settlement_hash(waits_b)}},
             {"act": "agree", "of": won, "fields": {"hand": won, "correction": correction["hash"]}},
             {"act": "confirm_payment", "of": str(payment["seq"]), "fields": {"payment": payment["hash"]}}]
    assert json.loads(form["attrs"]["data-sign-all"]) == items  # the disputed result is not among them
    assert form["attrs"]["data-keyed"] == "1" and g.devices[cyprian].kid in form["attrs"]["data-kids"].split()
    assert form["hidden"]["back"] == hand_page
    # The same drawing of the page: the banner's tap and the page's own forms share one key.
    assert {f["hidden"]["once"] for f in forms_of(shown, f"/g/{g.id}/hands/{counted}/verdict")} <= \
        {form["hidden"]["once"]}
    assert "Yes to all 4" in banner

    # Nothing waits for Dorota: no banner, and an empty fragment.
    quiet = phone(app, g, dorota)
    assert _banner(page(quiet, f"/g/{g.id}")).strip() == ""
    fragment = quiet.http.get(f"/g/{g.id}/waiting")
    assert fragment.status_code == 200 and fragment.get_data(as_text=True).strip() == ""
    # The fragment for Cyprian is the banner itself; a browser not signed in to the group gets a 403.
    refresh = html.unescape(re.search(r'<div id="waiting" data-refresh="([^"]+)"', shown).group(1))
    again = browser.http.get(refresh)
    assert again.status_code == 200 and _said(again.get_data(as_text=True)) == lines
    assert _fields(again.get_data(as_text=True)) == _fields(shown)  # the same form: the page's key, back to its page
    assert Client(app.test_client()).http.get(f"/g/{g.id}/waiting").status_code == 403

    # Without his signatures, or with one missing: refused in words, nothing logged.
    before = g.version()
    path = f"/g/{g.id}/waiting"
    refused_in_words(post(browser, path, shown), g, before)
    signatures = [{"act": i["act"], "of": i["of"], **g.devices[cyprian].signature(i["act"], g.id, **i["fields"])}
                  for i in items]
    refused_in_words(post(browser, path, shown, signatures=json.dumps(signatures[1:])), g, before)

    # One tap, each act signed: back on the hand's page, everything listed said, the disputed result not.
    done = post(browser, path, shown, signatures=json.dumps(signatures))
    assert done.status_code == 303 and urlsplit(done.headers["Location"]).path == hand_page, \
        done.get_data(as_text=True)[:800]
    after = g.events()[len([e for e in g.events() if e["seq"] <= before]):]
    assert [(e["type"], e.get("hand") or e["data"].get("seq")) for e in after] == [
        ("confirmation", waits_a), ("confirmation", waits_b), ("agreement", won),
        ("payment_received", payment["seq"])]
    assert all(e["actor"] == cyprian for e in after)
    assert [e["data"]["signed"]["nonce"] for e in after] == [s["nonce"] for s in signatures]
    # A double tap, or Back and the tap again: nothing more is logged.
    version = g.version()
    twice = post(browser, path, shown, signatures=json.dumps(signatures))
    assert twice.status_code == 303 and "already=1" in twice.headers["Location"] and g.version() == version
    assert _said(_banner(page(browser, hand_page))) == [lines[4]]  # only the disputed result still waits for him


def test_a_member_before_keys_says_yes_to_all_unsigned_and_a_list_that_moved_on_logs_nothing(app, client):
    t = kop_group(client)
    logged = [t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"result": STARE_WIN}).json["id"]
              for _ in range(2)]
    ala = t["members"][0]  # pays in both
    browser = Client(app.test_client())
    text = browser.http.get("/").get_data(as_text=True)
    signin = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', text).group(1), "token": ala["token"]}
    assert browser.http.post("/signin", data=signin).status_code == 303
    shown = page(browser, f"/g/{t['group']}/tables/{t['table']}")
    assert _said(_banner(shown)) == ["2 results at Kop at PLN 1.00"]
    [form] = forms_of(shown, f"/g/{t['group']}/waiting")
    assert form["attrs"]["data-keyed"] == "0" and "inert" not in _banner(shown)  # nothing to sign: no script waited for

    # The admin corrects one of them meanwhile: Ala still pays in it, but not what the banner showed.
    fixed = t["admin"].post(f"{t['base']}/hands/{logged[1]}/correct", {"reason": "52, doubled", "result": {
        **STARE_WIN, "doubles": [0], "points": 52, "tricks": 2}})
    assert fixed.status_code == 201, fixed.json
    version = t["admin"].get(t["base"]).json["version"]
    stale = post(browser, f"/g/{t['group']}/waiting", shown)
    assert stale.status_code == 422 and "changed since this page was drawn" in stale.get_data(as_text=True)
    assert t["admin"].get(t["base"]).json["version"] == version

    shown = page(browser, f"/g/{t['group']}/tables/{t['table']}")
    [form] = forms_of(shown, f"/g/{t['group']}/waiting")
    done = post(browser, f"/g/{t['group']}/waiting", shown)
    assert done.status_code == 303 and urlsplit(done.headers["Location"]).path == f"/g/{t['group']}/tables/{t['table']}"
    events = t["admin"].get(f"{t['base']}/events?limit=1000").json["events"]
    confirmed = [e for e in events if e["type"] == "confirmation"]
    assert [e["hand"] for e in confirmed] == logged and all("signed" not in e["data"] for e in confirmed)
    assert _banner(page(browser, f"/g/{t['group']}")).strip() == ""
