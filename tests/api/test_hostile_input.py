"""Bad input gets a clear 4xx problem and leaves the log as it was."""
import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS


def count_events(t):
    return len(t["admin"].get(f"{t['base']}/events?limit=1000").json["events"])


def test_deeply_nested_json_is_400_not_a_crash(client):
    r = client.http.post("/v1/groups", data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert r.status_code == 400 and "nested too deeply" in r.json["detail"]


def test_a_body_that_is_not_json_is_415(client):
    r = client.http.post("/v1/groups", data='{"name": "x", "currency": "PLN"}', content_type="text/plain")
    assert r.status_code == 415 and r.mimetype == "application/problem+json"


@pytest.mark.parametrize("name", ["a\x07b", "evil\u202eexe.jpg", "\u0085", "   ", "\ud800"])
def test_names_that_would_mislead_or_break_are_400(client, name):
    r = client.post("/v1/groups", {"name": name, "currency": "PLN"})
    assert r.status_code == 400 and "name" in r.json["errors"]


def test_ordinary_non_ascii_names_are_welcome(client):
    r = client.post("/v1/groups", {"name": "Łódź 🂡 Kop", "currency": "PLN"})
    assert r.status_code == 201 and r.json["name"] == "Łódź 🂡 Kop"


@pytest.mark.parametrize("query", ["after=99999999999999999999999", "after=-1", "limit=0", "after=x"])
def test_out_of_range_paging_is_400(kop_table, query):
    assert kop_table["member"].get(f"{kop_table['base']}/events?{query}").status_code == 400


@pytest.mark.parametrize("body", [
    {"deal": {"dealer": 0, "hands": KOP_HANDS[:3]}},
    {"deal": {"dealer": 0, "hands": [KOP_HANDS[0]] * 4}},
    {"deal": {"dealer": 9, "hands": KOP_HANDS}},
    {"deal": {"dealer": 0, "hands": KOP_HANDS, "table": []}},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": ["AH", "QH", "QS"]}]},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": ["ZZ", "QH", "QS", "JD"]}]},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": [{"seat": 7, "call": "kontra"}]},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": [{"seat": 0, "call": "kontra", "extra": 1}]},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "plays": [{"card": "AH", "capture": []}]},
    {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS * 2]},
    {"result": {"contract": "normal"}},
    {"deal": {"dealer": 2 ** 70, "hands": KOP_HANDS}},
    {"deal": "AH"},
])
def test_bad_hands_are_refused_and_append_nothing(kop_table, body):
    before = count_events(kop_table)
    r = kop_table["admin"].post(f"{kop_table['base']}/tables/{kop_table['table']}/hands", body)
    assert r.status_code in (400, 422) and r.mimetype == "application/problem+json", r.json
    assert r.json["detail"]
    assert count_events(kop_table) == before


def test_a_hand_that_would_pay_beyond_what_bitka_books_is_refused(client):
    g = client.post("/v1/groups", {"name": "Wild", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    ids = [admin.post(f"{base}/members", {"name": n}).json["id"] for n in "ABCD"]
    t = admin.post(f"{base}/tables", {"game": "kop", "seats": ids, "stake": "1000000.00",
                                      "rules": {"max_doubles": None}}).json
    names = ["kontra", "re", "bok", "slup"] + ["double"] * 40
    bids = [{"seat": i % 4, "call": c} for i, c in enumerate(names)]
    r = admin.post(f"{base}/tables/{t['id']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}, "bids": bids,
                                                      "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert r.status_code == 422 and "more than bitka can book" in r.json["detail"]


@pytest.mark.parametrize("stake", ["-1.00", "0", "0.00", "1.001", "1,50", "1e3", "abc", "", " 1.00", "1.00\n",
                                   "\u0661.00", "NaN", "Infinity", "9" * 40, 1.5, None, True])
def test_negative_zero_or_malformed_stakes_are_refused(kop_table, stake):
    t = kop_table
    ids = [m["id"] for m in t["members"]]
    before = count_events(t)
    r = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "seats": ids, "stake": stake})
    assert r.status_code in (400, 422) and r.mimetype == "application/problem+json" and r.json["detail"], r.json
    assert count_events(t) == before


@pytest.mark.parametrize("amount", ["-2.50", "0.00", "2.50 ", "2.505", "2,50", "1e2", "x", "9" * 40, 250, None])
def test_negative_zero_or_malformed_payment_amounts_are_refused(kop_table, amount):
    t = kop_table
    ids = [m["id"] for m in t["members"]]
    before = count_events(t)
    r = t["admin"].post(f"{t['base']}/payments", {"from": ids[0], "to": ids[1], "amount": amount})
    assert r.status_code in (400, 422) and r.mimetype == "application/problem+json" and r.json["detail"], r.json
    assert count_events(t) == before


def test_a_payment_to_oneself_or_a_stranger_is_refused(kop_table):
    t = kop_table
    ids = [m["id"] for m in t["members"]]
    before = count_events(t)
    for pair in ((ids[0], ids[0]), (ids[0], "m_nobody")):
        r = t["admin"].post(f"{t['base']}/payments", {"from": pair[0], "to": pair[1], "amount": "1.00"})
        assert r.status_code in (400, 404, 422) and r.json["detail"], r.json
    assert count_events(t) == before
