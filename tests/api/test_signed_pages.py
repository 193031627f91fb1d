"""The pages' forms that bind a member, signed on the member's phone (API.md, "Members hold their
own keys"; service/web/signed_form.py): a confirmation from the group page and from the hand's
page, a table's "confirm all", a dispute, an agreement to a correction, a result from the score
sheet, a card played at an ``entry: "seats"`` table, a seat's own cards, pay-to details, a
payment received. Each member's phone is a test Device (tests/keys/devices.py) whose key the
member registered; the statement is built here from API.md's words (the settlement's hash read
from the log), and the page's ``data-fields`` must say the same. Each is refused in words,
appending nothing, without a signature or with a signature over another hand. A member who
never had a key acts unsigned, as before keys."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS, Client, kop_group
from tests.keys.devices import Device
from tests.keys.table import keyed_group


class Forms(HTMLParser):
    """Every form of a page: its attributes, its hidden fields and its buttons' attributes."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": attrs, "hidden": {}, "buttons": []})
        elif self.forms and tag == "input" and attrs.get("type") == "hidden":
            self.forms[-1]["hidden"][attrs.get("name")] = attrs.get("value", "")
        elif self.forms and tag == "button":
            self.forms[-1]["buttons"].append(attrs)


def forms_of(page: str, action: str) -> list[dict]:
    parsed = Forms()
    parsed.feed(page)
    return [f for f in parsed.forms if f["attrs"].get("action", "").split("?")[0] == action]


def phone(app, g, member: str) -> Client:
    """A browser signed in as ``member`` (by its token, as an API user signs in)."""
    browser = Client(app.test_client())
    page = browser.http.get("/").get_data(as_text=True)
    form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1),
            "token": g.tokens[member].token}
    assert browser.http.post("/signin", data=form).status_code == 303
    return browser


def page(browser, path: str) -> str:
    answer = browser.http.get(path)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return answer.get_data(as_text=True)


def post(browser, path: str, form: dict, **extra):
    fields = {k: v for k, v in form["hidden"].items() if v is not None}
    fields.update(extra)
    return browser.http.post(path, data=fields)


def refused_in_words(answer, g, before: int, words: str = "signature") -> str:
    text = answer.get_data(as_text=True)
    assert answer.status_code == 403, (answer.status_code, text[:400])
    problem = re.search(r'<p class="problem" role="alert">(.*?)</p>', text, re.S)
    assert problem and words in problem.group(1), problem and problem.group(1)
    assert g.version() == before, "a refused form appended something"
    return problem.group(1)


def signed_event(g, kind: str, member: str) -> dict:
    """The last ``kind`` event of ``member``, as they read it (their own cards are sealed from the rest)."""
    events = g.tokens[member].get(f"/v1/groups/{g.id}/events?limit=1000").json["events"]
    found = [e for e in events if e["type"] == kind and e["actor"] == member]
    assert found, f"no {kind} by {member}"
    signed = found[-1]["data"]["signed"]
    assert signed["kid"] == g.devices[member].kid and len(signed["nonce"]) == 32
    return found[-1]


def fields_of(form: dict, element: dict | None = None) -> dict:
    return json.loads((element or form["attrs"])["data-fields"])


@pytest.fixture
def g(client):
    return keyed_group(client)


def test_a_payer_confirms_from_the_group_page_signed_over_the_settlement_it_shows(app, g):
    hand = g.hand()["id"]
    ala, cyd = g.members[0], g.members[2]
    browser = phone(app, g, ala)
    shown = page(browser, f"/g/{g.id}")
    [form] = forms_of(shown, f"/g/{g.id}/hands/{hand}/verdict")
    said = {"hand": hand, "settlement": g.settlement_hash(hand)}
    assert form["attrs"]["data-act"] == "confirm" and fields_of(form) == said
    assert form["attrs"]["data-keyed"] == "1" and g.devices[ala].kid in form["attrs"]["data-kids"].split()
    assert "inert" in form["attrs"]  # until the phone's script that signs is ready
    before = g.version()

    # Without a signature, with one over another hand, or by another key: refused in words.
    refused_in_words(post(browser, f"/g/{g.id}/hands/{hand}/verdict", form), g, before)
    other = g.devices[ala].signature("confirm", g.id, hand="h_other", settlement=said["settlement"])
    refused_in_words(post(browser, f"/g/{g.id}/hands/{hand}/verdict", form, **other), g, before)
    stranger = Device().signature("confirm", g.id, **said)
    refused_in_words(post(browser, f"/g/{g.id}/hands/{hand}/verdict", form, **stranger), g, before)
    bad = post(browser, f"/g/{g.id}/hands/{hand}/verdict", form, kid="x", nonce="y", sig="z")
    assert bad.status_code == 400 and "signature cannot be read" in bad.get_data(as_text=True)
    assert g.version() == before

    mine = g.devices[ala].signature("confirm", g.id, **said)
    done = post(browser, f"/g/{g.id}/hands/{hand}/verdict", form, **mine)
    assert done.status_code == 303, done.get_data(as_text=True)[:500]
    event = signed_event(g, "confirmation", ala)
    assert event["data"]["signed"]["nonce"] == mine["nonce"] and event["data"]["settlement"] == said["settlement"]
    # The same form again (a double tap, the same signature): logged once.
    again = post(browser, f"/g/{g.id}/hands/{hand}/verdict", form, **mine)
    assert again.status_code == 303 and "already=1" in again.headers["Location"]
    assert [e["actor"] for e in g.events() if e["type"] == "confirmation"] == [ala]

    # Cyd confirms on the hand's page, where the payouts it signs are said beside the button.
    cyd_browser = phone(app, g, cyd)
    shown = page(cyd_browser, f"/g/{g.id}/hands/{hand}")
    assert re.search(r"Confirming signs, with your own key, that this hand pays: Ala -[^,]*3\.00", shown)
    [form] = forms_of(shown, f"/g/{g.id}/hands/{hand}/verdict")[:1]
    assert fields_of(form) == said
    done = post(cyd_browser, f"/g/{g.id}/hands/{hand}/verdict", form,
                **g.devices[cyd].signature("confirm", g.id, **said))
    assert done.status_code == 303
    signed_event(g, "confirmation", cyd)
    assert g.admin.get(f"/v1/groups/{g.id}/hands/{hand}").json["confirmation"]["state"] == "counted"


def test_one_tap_confirms_every_result_of_a_table_each_signed(app, g):
    hands = [g.hand()["id"] for _ in range(3)]  # each waits for its dealer and the seat across: Cyd pays in two
    cyd = g.members[2]
    waiting = [hands[0], hands[2]]
    for hand in waiting:
        assert cyd in g.admin.get(f"/v1/groups/{g.id}/hands/{hand}").json["confirmation"]["waiting_for"]
    browser = phone(app, g, cyd)
    shown = page(browser, f"/g/{g.id}/tables/{g.table}")
    [form] = forms_of(shown, f"/g/{g.id}/tables/{g.table}/confirm")
    each = json.loads(form["attrs"]["data-each"])
    assert each == [{"hand": h, "settlement": g.settlement_hash(h)} for h in waiting]
    before = g.version()
    path = f"/g/{g.id}/tables/{g.table}/confirm"
    refused_in_words(post(browser, path, form), g, before)
    signatures = [{"hand": item["hand"], **g.devices[cyd].signature("confirm", g.id, **item)} for item in each]
    refused_in_words(post(browser, path, form, signatures=json.dumps(signatures[:1])), g, before)  # one missing
    swapped = [{**signatures[0], "hand": waiting[1]}, {**signatures[1], "hand": waiting[0]}]
    refused_in_words(post(browser, path, form, signatures=json.dumps(swapped)), g, before)
    done = post(browser, path, form, signatures=json.dumps(signatures))
    assert done.status_code == 303, done.get_data(as_text=True)[:500]
    confirmed = [e for e in g.events() if e["type"] == "confirmation" and e["actor"] == cyd]
    assert [e["hand"] for e in confirmed] == waiting
    assert [e["data"]["signed"]["nonce"] for e in confirmed] == [s["nonce"] for s in signatures]


def test_a_dispute_is_signed_with_its_reason(app, g):
    hand = g.hand()["id"]
    ala = g.members[0]
    browser = phone(app, g, ala)
    shown = page(browser, f"/g/{g.id}/hands/{hand}")
    [form] = [f for f in forms_of(shown, f"/g/{g.id}/hands/{hand}/verdict") if f["hidden"]["action"] == "dispute"]
    assert form["attrs"]["data-act"] == "dispute" and form["attrs"]["data-pick"] == "reason"
    said = {"hand": hand, "settlement": g.settlement_hash(hand)}
    assert fields_of(form) == said
    path, reason = f"/g/{g.id}/hands/{hand}/verdict", "Bożena took that last trick"
    before = g.version()
    refused_in_words(post(browser, path, form, reason=reason), g, before)
    other = g.devices[ala].signature("dispute", g.id, **said, reason="something else")
    refused_in_words(post(browser, path, form, reason=reason, **other), g, before)
    done = post(browser, path, form, reason=reason, **g.devices[ala].signature("dispute", g.id, **said, reason=reason))
    assert done.status_code == 303, done.get_data(as_text=True)[:500]
    assert signed_event(g, "dispute", ala)["data"]["reason"] == reason


def test_at_a_seats_table_each_phone_signs_its_cards_and_each_card_it_plays(app, client):
    g = keyed_group(client, seats=True)
    dealer = g.admin.get(f"/v1/groups/{g.id}/tables/{g.table}").json["next_dealer"]
    hand = g.admin.post(f"/v1/groups/{g.id}/tables/{g.table}/hands", {"deal": {"dealer": dealer}}).json["id"]
    browsers = [phone(app, g, m) for m in g.members]
    move = f"/g/{g.id}/hands/{hand}/move"
    for seat, member in enumerate(g.members):
        cards = KOP_HANDS[(seat - dealer) % 4]
        shown = page(browsers[seat], f"/g/{g.id}/hands/{hand}")
        [form] = [f for f in forms_of(shown, move) if f["hidden"].get("action") == "cards"]
        assert form["attrs"]["data-pick"] == "cards" and fields_of(form) == {"hand": hand, "seat": seat}
        before = g.version()
        answer = browsers[seat].http.post(move, data={**form["hidden"], "card": cards})
        refused_in_words(answer, g, before)
        answer = browsers[seat].http.post(move, data={**form["hidden"], "card": cards, **g.devices[member].signature(
            "cards", g.id, hand=hand, seat=seat, cards=list(reversed(cards)))})  # signed in another order
        refused_in_words(answer, g, before)
        signature = g.devices[member].signature("cards", g.id, hand=hand, seat=seat, cards=cards)
        answer = browsers[seat].http.post(move, data={**form["hidden"], "card": cards, **signature})
        assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
        assert signed_event(g, "seat_cards", member)["data"]["signed"]["nonce"] == signature["nonce"]

    # The first card of the first trick, by the seat after the dealer, from its phone.
    card = KOP_TRICKS[0][0]
    seat = next(s for s in range(4) if card in KOP_HANDS[(s - dealer) % 4])
    member = g.members[seat]
    shown = page(browsers[seat], f"/g/{g.id}/hands/{hand}")
    [form] = [f for f in forms_of(shown, move) if f["hidden"].get("card") == card]
    said = {"hand": hand, "seat": seat, "card": card, "capture": None}
    assert form["attrs"]["data-act"] == "play" and fields_of(form) == said
    before = g.version()
    refused_in_words(post(browsers[seat], move, form), g, before)
    other = g.devices[member].signature("play", g.id, **{**said, "hand": "h_other"})
    refused_in_words(post(browsers[seat], move, form, **other), g, before)
    someone = g.devices[g.members[(seat + 1) % 4]].signature("play", g.id, **said)  # another member's key
    refused_in_words(post(browsers[seat], move, form, **someone), g, before)
    done = post(browsers[seat], move, form, **g.devices[member].signature("play", g.id, **said))
    assert done.status_code == 303, done.get_data(as_text=True)[:800]
    assert signed_event(g, "play", member)["data"]["card"] == card


def test_pay_to_details_are_the_members_own_signed_as_typed(app, g):
    bob = g.members[1]
    browser = phone(app, g, bob)
    path = f"/g/{g.id}/members/{bob}/pay-to"
    shown = page(browser, path)
    [form] = forms_of(shown, path)
    assert form["attrs"]["data-act"] == "pay_to" and form["attrs"]["data-pick"] == "pay_to"
    assert fields_of(form) == {"member": bob}
    typed = {"iban": "PL61 1090 1014 0000 0712 1981 2874", "name": "Bożena Nowak", "pix": "", "blik": "600 100 200"}
    said = {"member": bob, **{k: v or None for k, v in typed.items()}}
    before = g.version()
    refused_in_words(post(browser, path, form, **typed), g, before)
    other = g.devices[bob].signature("pay_to", g.id, **{**said, "iban": "PL27 1140 2004 0000 3002 0135 5387"})
    refused_in_words(post(browser, path, form, **typed, **other), g, before)
    done = post(browser, path, form, **typed, **g.devices[bob].signature("pay_to", g.id, **said))
    assert done.status_code == 303, done.get_data(as_text=True)[:800]
    assert signed_event(g, "pay_details", bob)["data"]["iban"].startswith("PL61")


def test_a_receiver_signs_for_a_payment_on_the_group_page(app, g):
    hand = g.hand()["id"]
    for seat in (0, 2):
        assert g.confirm(g.members[seat], hand).status_code == 201
    transfers = g.admin.get(f"/v1/groups/{g.id}/settle-up").json["transfers"]
    first = transfers[0]
    receiver = first["to"]
    browser = phone(app, g, receiver)
    shown = page(browser, f"/g/{g.id}")
    form = next(f for f in forms_of(shown, f"/g/{g.id}/payments") if f["hidden"]["from"] == first["from"])
    said = {"from": first["from"], "to": receiver, "amount": first["amount"]}
    assert form["attrs"]["data-act"] == "received" and fields_of(form) == said
    # Recorded by the admin instead: it waits for the receiver, who says they got it on the group page.
    recorded = g.admin.post(f"/v1/groups/{g.id}/payments", said)
    assert recorded.status_code == 201, recorded.json
    seq = recorded.json.get("seq") or next(e["seq"] for e in reversed(g.events()) if e["type"] == "payment")
    payment = next(e for e in g.events() if e["seq"] == seq)
    shown = page(browser, f"/g/{g.id}")
    [form] = forms_of(shown, f"/g/{g.id}/payments/{seq}/received")
    assert form["attrs"]["data-act"] == "confirm_payment" and fields_of(form) == {"payment": payment["hash"]}
    before = g.version()
    refused_in_words(post(browser, f"/g/{g.id}/payments/{seq}/received", form), g, before)
    done = post(browser, f"/g/{g.id}/payments/{seq}/received", form,
                **g.devices[receiver].signature("confirm_payment", g.id, payment=payment["hash"]))
    assert done.status_code == 303, done.get_data(as_text=True)[:800]
    assert signed_event(g, "payment_received", receiver)["data"]["payment"] == payment["hash"]


def test_the_admin_token_signs_nothing_and_is_offered_nothing_to_sign(app, g):
    g.hand()
    browser = Client(app.test_client())
    text = browser.http.get("/").get_data(as_text=True)
    form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', text).group(1),
            "token": g.admin.token}
    assert browser.http.post("/signin", data=form).status_code == 303
    assert "data-act=" not in page(browser, f"/g/{g.id}")


def test_a_member_a_correction_lowers_agrees_to_it_signed_on_the_hands_page(app, g):
    hand = g.hand()["id"]
    for payer in (g.members[0], g.members[2]):
        assert g.confirm(payer, hand).status_code == 201
    voided = g.admin.post(f"/v1/groups/{g.id}/hands/{hand}/correct", {"reason": "misdeal", "void": True})
    assert voided.status_code == 201, voided.json
    waiting = g.admin.get(f"/v1/groups/{g.id}/hands/{hand}").json["correction_waiting"]
    winners = [g.members[1], g.members[3]]  # the void lowers those it paid
    assert sorted(waiting["waiting_for"]) == sorted(winners), waiting
    correction = next(e for e in g.events() if e["type"] == "correction")
    assert "A correction of" not in page(phone(app, g, g.members[0]), f"/g/{g.id}/hands/{hand}")

    bob = winners[0]
    browser = phone(app, g, bob)
    shown = page(browser, f"/g/{g.id}/hands/{hand}")
    assert "A correction waits for Bożena, Dorota" in shown
    assert "a correction waits for Bożena, Dorota" in page(browser, f"/g/{g.id}")
    [form] = [f for f in forms_of(shown, f"/g/{g.id}/hands/{hand}/verdict") if f["hidden"]["action"] == "agree"]
    said = {"hand": hand, "correction": correction["hash"]}
    assert form["attrs"]["data-act"] == "agree" and fields_of(form) == said
    path, before = f"/g/{g.id}/hands/{hand}/verdict", g.version()
    refused_in_words(post(browser, path, form), g, before)
    other = g.devices[bob].signature("agree", g.id, hand=hand, correction=g.settlement_hash(hand) + "0")
    refused_in_words(post(browser, path, form, **other), g, before)
    done = post(browser, path, form, **g.devices[bob].signature("agree", g.id, **said))
    assert done.status_code == 303, done.get_data(as_text=True)[:800]
    assert signed_event(g, "agreement", bob)["data"]["correction"] == correction["hash"]
    assert "A correction waits for Dorota" in page(browser, f"/g/{g.id}/hands/{hand}")


def test_a_members_result_from_the_score_sheet_is_signed_as_previewed(app, g):
    bob = g.members[1]
    browser = phone(app, g, bob)
    path = f"/g/{g.id}/tables/{g.table}/result"
    opened = page(browser, path)
    [form] = forms_of(opened, path)
    typed = {"contract": "normal", "stare": ["1", "3"], "points": "70", "tricks": "3"}
    shown = browser.http.post(path, data={**form["hidden"], **typed, "confirm": "no"}).get_data(as_text=True)
    [form] = forms_of(shown, path)
    [button] = [b for b in form["buttons"] if b.get("value") == "yes"]
    dealer = g.admin.get(f"/v1/groups/{g.id}/tables/{g.table}").json["next_dealer"]
    result = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}
    said = {"table": g.table, "dealer": dealer, "result": result}
    assert button["data-act"] == "result" and fields_of(form, button) == said
    before = g.version()
    sent = {**form["hidden"], **typed, "confirm": "yes"}
    refused_in_words(browser.http.post(path, data=sent), g, before)
    other = g.devices[bob].signature("result", g.id, **{**said, "result": {**result, "points": 40, "tricks": 1}})
    refused_in_words(browser.http.post(path, data={**sent, **other}), g, before)
    done = browser.http.post(path, data={**sent, **g.devices[bob].signature("result", g.id, **said)})
    assert done.status_code == 303, done.get_data(as_text=True)[:800]
    assert signed_event(g, "result", bob)["data"]["result"]["points"] == 70


def test_a_member_before_keys_confirms_unsigned_as_before(app, client):
    t = kop_group(client)
    logged = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands",
                             {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert logged.status_code == 201, logged.json
    hand, ala = logged.json["id"], t["members"][0]
    browser = Client(app.test_client())
    text = browser.http.get("/").get_data(as_text=True)
    signin = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', text).group(1), "token": ala["token"]}
    assert browser.http.post("/signin", data=signin).status_code == 303
    [form] = forms_of(page(browser, f"/g/{t['group']}"), f"/g/{t['group']}/hands/{hand}/verdict")
    assert form["attrs"]["data-keyed"] == "0" and "inert" not in form["attrs"]
    done = post(browser, f"/g/{t['group']}/hands/{hand}/verdict", form)
    assert done.status_code == 303, done.get_data(as_text=True)[:500]
    events = t["admin"].get(f"{t['base']}/events?limit=1000").json["events"]
    [confirmed] = [e for e in events if e["type"] == "confirmation"]
    assert confirmed["actor"] == ala["id"] and "signed" not in confirmed["data"]
