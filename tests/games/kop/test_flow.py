"""Kop over HTTP: a hand call by call and trick by trick, settled by bitka, then money."""
import hashlib
import json

from tests.conftest import KOP_HANDS, KOP_TRICKS, agreed, without_confirmations
from tests.money import minor


def new_hand(t, body=None):
    body = body or {"deal": {"dealer": 0, "hands": KOP_HANDS}}
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", body)
    assert r.status_code == 201, r.json
    assert r.headers["Location"] == f"{t['base']}/hands/{r.json['id']}"
    return r.json


def test_a_hand_logged_trick_by_trick_settles_itself_on_the_last_trick(kop_table):
    t = kop_table
    hand = new_hand(t)
    assert (hand["phase"], hand["leader"], hand["turn"], hand["contract"]) == ("auction", 1, 1, "normal")
    member = t["member"]  # any member of the group may log play
    r = member.post(f"{t['base']}/hands/{hand['id']}/bids", {"seat": 0, "call": "kontra"})
    assert r.status_code == 201 and r.json["doubles"] == [{"seat": 0, "call": "kontra"}]
    for i, cards in enumerate(KOP_TRICKS, 1):
        r = member.post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": cards})
        assert r.status_code == 201
        assert (r.json["trick"], r.json["winner"]) == (i, 1)
    done = r.json["hand"]
    s = done["settlement"]
    assert done["phase"] == "done" and s["outcome"] == "bez-bitki" and done["points"] == [0, 104, 0, 0]
    # stare (1, 3) win, młodzi took no trick: 3 stakes, and młodzi's kontra doubles: 6.00 each
    assert [(p["seat"], p["amount"]) for p in s["payouts"]] == [(0, "-6.00"), (1, "6.00"), (2, "-6.00"), (3, "6.00")]
    assert s["multiplier"] == 6 and s["winner"] == "stare"
    agreed(t, done)  # Ala and Cyd pay: each confirms
    balances = member.get(f"{t['base']}/balances").json
    assert [b["balance"] for b in balances["balances"]] == ["-6.00", "6.00", "-6.00", "6.00"]
    assert balances["total"] == "0.00"
    table = member.get(f"{t['base']}/tables/{t['table']}").json
    assert table["next_dealer"] == 1 and table["hands"] == [hand["id"]]
    assert table["latest_hand"]["status"] == "settled"


def test_a_trick_after_the_hand_is_over_is_refused(kop_table):
    hand = new_hand(kop_table, {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                "tricks": [{"cards": c} for c in KOP_TRICKS]})
    r = kop_table["admin"].post(f"{kop_table['base']}/hands/{hand['id']}/tricks", {"cards": KOP_TRICKS[0]})
    assert r.status_code == 422 and "over" in r.json["detail"]


def test_events_carry_the_envelope_and_a_verifiable_hash_chain(kop_table):
    new_hand(kop_table, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    page = kop_table["member"].get(f"{kop_table['base']}/events?limit=1000").json
    prev = "0" * 64
    for seq, e in enumerate(page["events"], 1):
        view = {k: v for k, v in e.items() if k != "hash"}
        view["group"] = kop_table["group"]
        digest = hashlib.sha256(json.dumps(view, sort_keys=True, separators=(",", ":"),
                                           ensure_ascii=False).encode()).hexdigest()
        assert (e["seq"], e["prev_hash"], e["hash"]) == (seq, prev, digest)
        assert e["recorded_at"].endswith("Z")
        prev = e["hash"]
    kinds = [e["type"] for e in page["events"]]
    assert kinds[:6] == ["group_created"] + ["member_added"] * 4 + ["table_opened"]
    assert kinds[6:] == ["deal", "trick", "trick", "trick", "trick", "settlement"]
    assert page["events"][6]["hand"] and page["events"][6]["table"] == kop_table["table"]
    assert page["events"][1]["actor"] == "admin"
    assert page["version"] == 12


def test_events_are_paged_with_a_link_to_the_next_page(kop_table):
    base, member = kop_table["base"], kop_table["member"]
    r = member.get(f"{base}/events?after=2&limit=2")
    assert [e["seq"] for e in r.json["events"]] == [3, 4]
    assert 'after=4' in r.headers["Link"] and 'rel="next"' in r.headers["Link"]
    last = member.get(f"{base}/events?after=4&limit=100")
    assert [e["seq"] for e in last.json["events"]] == [5, 6] and "Link" not in last.headers
    assert member.get(f"{base}/events?limit=0").status_code == 400
    assert member.get(f"{base}/events?limit=5000").status_code == 200


def test_etag_is_the_group_version_on_reads_and_writes(kop_table):
    r = kop_table["member"].get(kop_table["base"])
    assert r.headers["ETag"] == f'"{r.json["version"]}"' == '"6"'
    w = kop_table["admin"].post(f"{kop_table['base']}/members", {"name": "Eve"})
    assert w.headers["ETag"] == '"7"'


def test_payments_move_balances_and_settle_up_zeroes_them(kop_table):
    t = kop_table
    without_confirmations(t)
    new_hand(t, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    ids = [m["id"] for m in t["members"]]
    transfers = t["member"].get(f"{t['base']}/settle-up").json["transfers"]
    assert sum(minor(x["amount"]) for x in transfers) == 600 and len(transfers) == 2
    for x in transfers:
        receiver = t["admin"].as_(next(m["token"] for m in t["members"] if m["id"] == x["to"]))
        r = receiver.post(f"{t['base']}/payments", {"from": x["from"], "to": x["to"], "amount": x["amount"]})
        assert r.status_code == 201
    after = t["member"].get(f"{t['base']}/balances").json
    assert [b["balance"] for b in after["balances"]] == ["0.00"] * 4
    assert t["member"].get(f"{t['base']}/settle-up").json["transfers"] == []
    # a member may not record a payment between two others; one they made waits for its receiver
    r = t["member"].post(f"{t['base']}/payments", {"from": ids[2], "to": ids[1], "amount": "1.00"})
    assert r.status_code == 403
    r = t["member"].post(f"{t['base']}/payments", {"from": ids[0], "to": ids[1], "amount": "1.00"})
    assert r.status_code == 201 and r.json["pending"] is True
    waiting = t["member"].get(f"{t['base']}/balances").json
    assert [b["balance"] for b in waiting["balances"]] == ["0.00"] * 4
    assert [(p["payment"], p["waiting_for"]) for p in waiting["pending"]] == [(r.json["seq"], [ids[1]])]


def test_payment_raises_the_payers_balance(kop_table):
    ids = [m["id"] for m in kop_table["members"]]
    kop_table["admin"].post(f"{kop_table['base']}/payments", {"from": ids[0], "to": ids[1], "amount": "2.50"})
    b = kop_table["member"].get(f"{kop_table['base']}/balances").json["balances"]
    assert [x["balance"] for x in b] == ["2.50", "-2.50", "0.00", "0.00"]


def test_voiding_the_latest_hand_takes_its_payouts_back_and_returns_the_deal(kop_table):
    t = kop_table
    hand = new_hand(t, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert t["member"].post(f"{t['base']}/hands/{hand['id']}/void", {"reason": "x"}).status_code == 403
    r = t["admin"].post(f"{t['base']}/hands/{hand['id']}/void", {"reason": "cards were misdealt"})
    assert r.status_code == 201 and r.json["phase"] == "voided"
    assert [b["balance"] for b in t["member"].get(f"{t['base']}/balances").json["balances"]] == ["0.00"] * 4
    assert t["member"].get(f"{t['base']}/tables/{t['table']}").json["next_dealer"] == 0
    assert t["admin"].post(f"{t['base']}/hands/{hand['id']}/void", {"reason": "again"}).status_code == 422


def test_only_the_tables_latest_hand_may_be_voided(kop_table):
    t = kop_table
    first = new_hand(t, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    hands = [KOP_HANDS[3], KOP_HANDS[0], KOP_HANDS[1], KOP_HANDS[2]]  # dealt by seat 1 this time
    new_hand(t, {"deal": {"dealer": 1, "hands": hands}})
    r = t["admin"].post(f"{t['base']}/hands/{first['id']}/void", {"reason": "late"})
    assert r.status_code == 422 and "latest hand" in r.json["detail"]


def test_audit_trail_explains_the_settlement_in_json_and_text(kop_table):
    t = kop_table
    hand = new_hand(t, {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    trail = t["member"].get(f"{t['base']}/hands/{hand['id']}/audit").json
    assert [e["type"] for e in trail["events"]] == ["deal", "trick", "trick", "trick", "trick", "settlement"]
    assert all(len(e["hash"]) == 64 and e["actor"] == "admin" for e in trail["events"])
    text = "\n".join(trail["explanation"])
    assert "seats 1 and 3 hold QC and QS" in text and "took no trick" in text
    assert "seat 0 (Ala) pays 3.00 PLN" in text
    r = t["member"].get(f"{t['base']}/hands/{hand['id']}/audit", headers={"Accept": "text/plain"})
    assert r.mimetype == "text/plain" and "How the settlement was reached" in r.get_data(as_text=True)


def test_group_lists_members_and_tables(kop_table):
    g = kop_table["member"].get(kop_table["base"]).json
    assert [m["name"] for m in g["members"]] == ["Ala", "Bob", "Cyd", "Dan"]
    assert g["tables"][0]["id"] == kop_table["table"] and g["currency"] == "PLN"


def test_openapi_document_names_every_path_of_the_contract(client):
    doc = client.get("/v1/openapi.json").json
    for path in ["/v1/groups", "/v1/groups/{group}/tables/{table}/hands", "/v1/groups/{group}/hands/{hand}/tricks",
                 "/v1/groups/{group}/settle-up", "/v1/groups/{group}/events", "/v1/groups/{group}/hands/{hand}/audit"]:
        assert path in doc["paths"]
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


def test_zero_digit_currency_amounts_have_no_decimals(client):
    g = client.post("/v1/groups", {"name": "Tokyo", "currency": "JPY"}).json
    admin = client.as_(g["admin_token"])
    ms = [admin.post(f"/v1/groups/{g['id']}/members", {"name": n}).json["id"] for n in "ABCD"]
    t = admin.post(f"/v1/groups/{g['id']}/tables", {"game": "kop", "seats": ms, "stake": "150"}).json
    assert t["stake"] == "150"
    h = admin.post(f"/v1/groups/{g['id']}/tables/{t['id']}/hands",
                   {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]}).json
    assert [p["amount"] for p in h["settlement"]["payouts"]] == ["-450", "450", "-450", "450"]
    assert admin.get(f"/v1/groups/{g['id']}/balances").json["total"] == "0"


def test_a_read_with_the_current_etag_in_if_none_match_is_304(kop_table):
    first = kop_table["member"].get(kop_table["base"])
    same = kop_table["member"].get(kop_table["base"], headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and same.headers["ETag"] == first.headers["ETag"] and not same.data
    kop_table["admin"].post(f"{kop_table['base']}/members", {"name": "Eve"})
    changed = kop_table["member"].get(kop_table["base"], headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and len(changed.json["members"]) == 5


THROWABLE = [["AD", "AH", "JH", "JS"], ["10H", "10S", "AS", "QH"], ["JC", "JD", "QC", "QD"], ["10C", "10D", "AC", "QS"]]


def test_throwing_in_settles_the_hand_in_the_same_request_and_a_refused_claim_appends_nothing(kop_table, app):
    from tests.command import run
    t = kop_table
    hand = t["member"].post(f"{t['base']}/tables/{t['table']}/hands", {
        "deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": KOP_TRICKS[0]}]}).json["id"]
    version = t["member"].get(t["base"]).json["version"]
    refused = t["member"].post(f"{t['base']}/hands/{hand}/claims", {"seat": 1})
    assert refused.status_code == 422 and refused.json["detail"].startswith("throwing in is refused")
    assert t["member"].get(t["base"]).json["version"] == version
    t["admin"].post(f"{t['base']}/hands/{hand}/void", {"reason": "dealt again to show a throw-in"})
    hand = t["member"].post(f"{t['base']}/tables/{t['table']}/hands", {
        "deal": {"dealer": 0, "hands": THROWABLE},
        "tricks": [{"cards": ["10H", "JC", "10D", "AH"]}, {"cards": ["AD", "QH", "QC", "QS"]}]}).json["id"]
    thrown = t["member"].post(f"{t['base']}/hands/{hand}/claims", {"seat": 1})
    assert thrown.status_code == 201, thrown.json
    state = thrown.json["hand"]
    assert state["phase"] == "done" and state["thrown_in_by"] == 1 and state["settlement"] is not None
    assert [tr.get("played", True) for tr in state["tricks"]] == [True, True, False, False]
    events = t["member"].get(f"{t['base']}/events?after={version}").json["events"]
    assert [e["type"] for e in events][-2:] == ["claim", "settlement"]
    trail = t["member"].get(f"{t['base']}/hands/{hand}/audit").json
    assert "throws in" in trail["events"][-2]["summary"] and "threw in after 2 trick(s)" in trail["explanation"][1]
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output
