"""A page form's one-time key that an API client used first (as its Idempotency-Key) is
answered with a page that says so, the form not carried out; never a 500 (issue 30:
``KeyError: 'location'`` in service/web/once.py). The other way round the API says the key
was used with another request."""
from __future__ import annotations

from tests.api.test_pages import _sheet, _signed_in


def _events(t) -> int:
    return t["admin"].get(f"{t['base']}/events").json["version"]


def test_a_form_whose_key_the_api_used_first_is_refused_in_words(client, kop_table):
    t = kop_table
    _signed_in(client, t["admin"].token)
    form = _sheet(client, f"/g/{t['group']}")
    ala, bob = t["members"][0]["id"], t["members"][1]["id"]
    paid = t["admin"].post(f"{t['base']}/payments", {"from": ala, "to": bob, "amount": "1.00"},
                           headers={"Idempotency-Key": form["once"]})
    assert paid.status_code == 201
    before = _events(t)
    sent = client.http.post(f"/g/{t['group']}/settings", data={**form, "confirmations": "off"})
    assert sent.status_code == 422 and sent.mimetype == "text/html"
    assert "one-time key was used already by another request" in sent.get_data(as_text=True)
    assert _events(t) == before and t["admin"].get(t["base"]).json["confirmations"] == "payers"
    again = client.http.post(f"/g/{t['group']}/payments", data={**form, "from": ala, "to": bob, "amount": "1.00"})
    assert again.status_code == 422 and _events(t) == before  # nor a form whose body is the API's


def test_an_api_request_with_a_key_a_form_used_is_a_422(client, kop_table):
    t = kop_table
    _signed_in(client, t["admin"].token)
    form = _sheet(client, f"/g/{t['group']}")
    assert client.http.post(f"/g/{t['group']}/settings", data={**form, "confirmations": "off"}).status_code == 303
    before = _events(t)
    ala, bob = t["members"][0]["id"], t["members"][1]["id"]
    paid = t["admin"].post(f"{t['base']}/payments", {"from": ala, "to": bob, "amount": "1.00"},
                           headers={"Idempotency-Key": form["once"]})
    assert paid.status_code == 422 and paid.mimetype == "application/problem+json"
    assert _events(t) == before


def test_a_card_sent_again_with_its_key_lands_where_the_first_went(client, kop_table):
    """A hand's move goes to the hand's live part (``#live``): the same tap sent again (its
    answer lost on the way back, a double tap) is told it was sent before, not refused."""
    t = kop_table
    seats = t["admin"].post(f"/v1/groups/{t['group']}/tables", {
        "game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": [m["id"] for m in t["members"]],
        "dealer": 3}).json
    hand = t["admin"].post(f"{t['base']}/tables/{seats['id']}/hands", {"deal": {"dealer": 3}}).json
    deal = [["QC", "QS", "AH", "10H"], ["JC", "AD", "10D", "QD"], ["JS", "JH", "JD", "AC"], ["10C", "AS", "10S", "QH"]]
    for seat, cards in enumerate(deal):
        sent = t["admin"].post(f"{t['base']}/hands/{hand['id']}/cards", {"seat": seat, "cards": cards})
        assert sent.status_code == 201
    _signed_in(client, t["members"][0]["token"])
    form = _sheet(client, f"/g/{t['group']}/hands/{hand['id']}")
    move = {**form, "action": "play", "card": "AH", "capture": ""}
    first = client.http.post(f"/g/{t['group']}/hands/{hand['id']}/move", data=move)
    assert first.status_code == 303 and first.headers["Location"].endswith("#live")
    before = _events(t)
    again = client.http.post(f"/g/{t['group']}/hands/{hand['id']}/move", data=move)
    assert again.status_code == 303 and again.headers["Location"].endswith("?already=1#live"), again.headers
    assert _events(t) == before
