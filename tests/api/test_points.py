"""A group that keeps points, not money (API.md "Points"): whole numbers in and out of the
API, every payout and balance a whole number summing to zero, a fraction refused with a
sentence and nothing appended, and the pages writing points as each language writes them."""
from __future__ import annotations

import re

from tests.api.test_pages import _signed_in
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client, without_confirmations

WHOLE = re.compile(r"-?[0-9]+")


def _points_group(client) -> dict:
    g = client.post("/v1/groups", {"name": "Turniej w Bytowie", "currency": "points"})
    assert g.status_code == 201 and g.json["currency"] == "points", g.json
    admin = client.as_(g.json["admin_token"])
    base = f"/v1/groups/{g.json['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1",
                                          "seats": [m["id"] for m in members]})
    assert table.status_code == 201, table.json
    t = {"group": g.json["id"], "base": base, "admin": admin, "members": members, "table": table.json["id"],
         "member": client.as_(members[0]["token"])}
    without_confirmations(t)
    return t


def test_a_points_group_pays_whole_points_that_sum_to_zero(client):
    t = _points_group(client)
    hand = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {
        "deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": [{"seat": 0, "call": "kontra"}],
        "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert hand.status_code == 201, hand.json
    payouts = [p["amount"] for p in hand.json["settlement"]["payouts"]]
    assert all(WHOLE.fullmatch(a) for a in payouts) and sum(map(int, payouts)) == 0, payouts
    assert payouts == ["-6", "6", "-6", "6"]  # bez bitki (x3), kontra (x2), at 1 point a stake
    balances = t["member"].get(f"{t['base']}/balances").json
    assert balances["currency"] == "points" and balances["total"] == "0"
    assert [b["balance"] for b in balances["balances"]] == ["-6", "6", "-6", "6"]
    transfers = t["member"].get(f"{t['base']}/settle-up").json["transfers"]
    assert transfers and all(WHOLE.fullmatch(x["amount"]) for x in transfers)
    paid = t["admin"].post(f"{t['base']}/payments", {"from": t["members"][0]["id"], "to": t["members"][1]["id"],
                                                     "amount": "6"})
    assert paid.status_code == 201, paid.json


def test_a_fraction_of_a_point_is_refused_with_a_sentence_and_appends_nothing(client):
    t = _points_group(client)
    before = t["member"].get(f"{t['base']}/events").json["version"]
    stake = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "stake": "0.50",
                                                    "seats": [m["id"] for m in t["members"]]})
    paid = t["admin"].post(f"{t['base']}/payments", {"from": t["members"][0]["id"], "to": t["members"][1]["id"],
                                                     "amount": "1.5"})
    for refused in (stake, paid):
        assert refused.status_code in (400, 422) and refused.mimetype == "application/problem+json", refused.json
        assert "decimal digits" in refused.json["detail"] or "points" in refused.json["detail"], refused.json
    assert t["member"].get(f"{t['base']}/events").json["version"] == before
    unknown = client.post("/v1/groups", {"name": "x", "currency": "chips"})
    assert unknown.status_code == 400


def test_the_pages_write_points_as_each_language_writes_them(client):
    t = _points_group(client)
    t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {
        "deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    _signed_in(client, t["members"][0]["token"])
    said = {"en": "3 points", "pl": "3 pkt", "it": "3 punti", "pt-BR": "3 pontos"}
    for language, three in said.items():
        page = client.http.get(f"/g/{t['group']}", headers={"Accept-Language": language}).get_data(as_text=True)
        text = re.sub(r"<[^>]+>", " ", page).replace("\xa0", " ")
        assert three in text, (language, three)
        assert not re.search(r"\b3[.,]00\b|\bpoints?\s*3\b|PLN|EUR", text), language
    admin = Client(client.http.application.test_client())  # the admin's own browser
    _signed_in(admin, t["admin"].token)
    form = admin.http.get(f"/g/{t['group']}/tables/new").get_data(as_text=True)
    assert 'placeholder="1"' in form  # a stake in points is whole: its example too
