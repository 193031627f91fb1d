"""Results the payers confirm, disputes, and corrections of any past hand, through the API:
who may do what, what the balances count, what the audit trail shows, and that a
correction settles the later hands of its table again as if the hand had been logged that
way from the start."""
from __future__ import annotations

import re

from service.web import group as group_page
from tests.conftest import without_confirmations
from tests.money import minor

# Bob (seat 1) and Dan (seat 3) held QC and QS and took 70 points in 3 tricks: they win,
# Ala and Cyd pay (wyjście, 1.00 each at a 1.00 stake).
STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}
STARE_LOSE = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 40, "tricks": 1}


def _as(t, seat):
    return t["member"].as_(t["members"][seat]["token"])


def _balances(t):
    shown = t["member"].get(f"{t['base']}/balances").json
    return [minor(b["balance"]) for b in shown["balances"]], shown["pending"]


def _result(t, who, result, table=None):
    r = who.post(f"{t['base']}/tables/{table or t['table']}/hands", {"result": result})
    assert r.status_code == 201, r.json
    return r.json


def test_a_result_paying_its_logger_waits_for_a_payer_a_dispute_keeps_it_out_and_a_correction_is_a_new_result(
        kop_table):
    t = kop_table
    bob, ala, cyd = _as(t, 1), _as(t, 0), _as(t, 2)
    hand = _result(t, bob, STARE_WIN)  # Bob logs a result that pays Bob
    assert hand["confirmation"]["state"] == "pending" and hand["settlement"]["confirmed"] is False
    balances, pending = _balances(t)
    assert balances == [0, 0, 0, 0]
    assert [(p["hand"], p["state"]) for p in pending] == [(hand["id"], "pending")]
    assert [minor(p["amount"]) for p in pending[0]["payouts"]] == [-100, 100, -100, 100]
    path = f"{t['base']}/hands/{hand['id']}"
    assert bob.post(f"{path}/confirm").status_code == 403  # he is paid, he does not confirm
    assert t["admin"].post(f"{path}/confirm").status_code == 403  # the admin is no member
    disputed = ala.post(f"{path}/dispute", {"reason": "Bob and Dan took 40, not 70"})
    assert disputed.status_code == 201 and disputed.json["confirmation"]["state"] == "disputed"
    assert _balances(t)[0] == [0, 0, 0, 0] and _balances(t)[1][0]["state"] == "disputed"
    assert t["member"].as_(t["members"][1]["token"]).post(f"{path}/correct", {"reason": "x", "void": True}) \
        .status_code == 403  # only the admin corrects
    fixed = t["admin"].post(f"{path}/correct", {"reason": "Ala counted again: 40 in one trick",
                                                "result": STARE_LOSE})
    assert fixed.status_code == 201, fixed.json
    correction = fixed.json["correction"]
    assert correction["hand"] == hand["id"] and correction["result"]["points"] == 40
    [adjustment] = correction["adjustments"]
    assert [minor(p["amount"]) for p in adjustment["payouts"]] == [200, -200, 200, -200]  # from -1 +1 to +1 -1
    assert sum(minor(p["amount"]) for p in adjustment["payouts"]) == 0
    # A correction of a hand that does not count yet is a new result: its payers (Bob and Dan now) confirm it.
    assert fixed.json["hand"]["confirmation"]["state"] == "pending"
    assert fixed.json["hand"]["confirmation"]["waiting_for"] == [t["members"][1]["id"], t["members"][3]["id"]]
    assert [minor(p["amount"]) for p in fixed.json["hand"]["settlement"]["payouts"]] == [100, -100, 100, -100]
    assert _balances(t)[0] == [0, 0, 0, 0] and _balances(t)[1][0]["state"] == "pending"
    assert ala.post(f"{path}/confirm").status_code == 403  # Ala no longer pays in it
    assert bob.post(f"{path}/confirm").status_code == 201
    assert _as(t, 3).post(f"{path}/confirm").status_code == 201
    assert _balances(t) == ([100, -100, 100, -100], [])  # counted as corrected, once its payers agreed
    again = cyd.post(f"{path}/dispute", {"reason": "too late"})
    assert again.status_code == 422 and "only corrected" in again.json["detail"]
    trail = t["member"].get(f"{path}/audit", headers={"Accept": "text/plain"}).get_data(as_text=True)
    assert "counts once every player who pays in it confirms it" in trail
    assert "Ala (" in trail and "disputes the settlement: Bob and Dan took 40, not 70" in trail
    assert "the admin corrects hand" in trail and "corrected by event" in trail


def test_a_payer_confirms_and_then_it_counts_once(kop_table):
    t = kop_table
    hand = _result(t, _as(t, 1), STARE_WIN)
    path = f"{t['base']}/hands/{hand['id']}"
    version = t["member"].get(t["base"]).json["version"]
    ala, cyd = t["members"][0]["id"], t["members"][2]["id"]
    assert hand["confirmation"]["waiting_for"] == [ala, cyd]
    half = _as(t, 2).post(f"{path}/confirm")  # one payer of two: it still waits for Ala
    assert half.status_code == 201 and half.json["confirmation"]["state"] == "pending"
    assert half.json["confirmation"]["waiting_for"] == [ala] and half.json["confirmation"]["confirmed_by"] == [cyd]
    balances, pending = _balances(t)
    assert balances == [0, 0, 0, 0] and pending[0]["waiting_for"] == [ala]
    again = _as(t, 2).post(f"{path}/confirm")
    assert again.status_code == 422 and "agreed to hand" in again.json["detail"]
    done = _as(t, 0).post(f"{path}/confirm")
    assert done.status_code == 201 and done.json["confirmation"]["state"] == "counted"
    assert done.json["confirmation"]["waiting_for"] == [] and done.json["confirmation"]["confirmed_by"] == [cyd, ala]
    assert _balances(t) == ([-100, 100, -100, 100], [])
    twice = _as(t, 0).post(f"{path}/confirm")
    assert twice.status_code == 422 and "confirmed already" in twice.json["detail"]
    assert t["member"].get(t["base"]).json["version"] == version + 2
    late = _as(t, 0).post(f"{path}/dispute", {"reason": "no"})
    assert late.status_code == 422


def test_two_friends_cannot_make_the_others_pay(kop_table):
    """Bob logs "zolo by Dan, 70 points": Bob pays in it too, but his word binds only him; Dan,
    who wins, cannot confirm for the others; each of Ala and Cyd must agree before it counts."""
    t = kop_table
    ala, cyd = t["members"][0]["id"], t["members"][2]["id"]
    zolo = {"contract": "zolo", "declarer": 3, "doubles": [], "points": 70, "tricks": 3}
    hand = _result(t, _as(t, 1), zolo)
    path = f"{t['base']}/hands/{hand['id']}"
    assert hand["confirmation"]["state"] == "pending" and hand["confirmation"]["waiting_for"] == [ala, cyd]
    assert _as(t, 3).post(f"{path}/confirm").status_code == 403  # Dan wins: his word is no payer's
    assert _as(t, 1).post(f"{path}/confirm").status_code == 422  # Bob agreed by logging it
    assert _balances(t)[0] == [0, 0, 0, 0]
    assert _as(t, 0).post(f"{path}/confirm").json["confirmation"]["waiting_for"] == [cyd]
    assert _balances(t)[0] == [0, 0, 0, 0]  # Cyd has not agreed
    _as(t, 2).post(f"{path}/confirm")
    assert _balances(t)[0][3] > 0 and sum(_balances(t)[0]) == 0 and _balances(t)[1] == []


def test_a_settlement_counts_at_once_when_only_its_logger_pays_or_the_group_confirms_nothing(kop_table):
    t = kop_table
    ids = [m["id"] for m in t["members"]][:2]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "scopa", "rules": {"target": 11}, "stake": "1.00",
                                                     "seats": ids}).json["id"]
    eleven = {"cards": 1, "coins": 1, "primiera": 1, "settebello": 1, "scopas": [0, 7]}
    hand = _result(t, t["member"], eleven, table)  # Ala logs the game she loses: she alone pays
    assert hand["confirmation"] == {"state": "counted", "waiting_for": [], "confirmed_by": [], "disputes": [],
                                    "because": "nobody but its logger pays in it"}
    assert _balances(t) == ([-100, 100, 0, 0], [])
    mine = _result(t, _as(t, 0), STARE_WIN)  # Ala pays in it, and so does Cyd: it waits for Cyd
    assert mine["confirmation"]["state"] == "pending"
    assert mine["confirmation"]["waiting_for"] == [t["members"][2]["id"]]
    _as(t, 2).post(f"{t['base']}/hands/{mine['id']}/confirm")
    assert _balances(t) == ([-200, 200, -100, 100], [])
    without_confirmations(t)
    assert t["member"].get(t["base"]).json["confirmations"] == "off"
    hand = _result(t, _as(t, 1), STARE_WIN)
    assert hand["settlement"]["confirmed_because"] == "the group confirms nothing"
    assert _balances(t)[0] == [-300, 300, -200, 200]
    assert t["member"].call("PATCH", t["base"], {"confirmations": "off"}).status_code == 403  # the admin's


def test_who_may_confirm_or_dispute_and_when(kop_table):
    t = kop_table
    outsider = t["admin"].post(f"{t['base']}/members", {"name": "Eve"}).json
    eve = t["member"].as_(outsider["token"])
    table = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]}).json["id"]
    deal = t["member"].post(f"{t['base']}/tables/{table}/hands", {"deal": {
        "dealer": 0, "hands": [["10D", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"],
                               ["QS", "JS", "AC", "10S"]]}}).json
    path = f"{t['base']}/hands/{deal['id']}"
    unsettled = _as(t, 2).post(f"{path}/confirm")
    assert unsettled.status_code == 422 and "not settled yet" in unsettled.json["detail"]
    hand = _result(t, _as(t, 1), STARE_WIN)
    path = f"{t['base']}/hands/{hand['id']}"
    assert eve.post(f"{path}/dispute", {"reason": "I was not there"}).status_code == 403  # not seated
    assert eve.post(f"{path}/confirm").status_code == 403  # pays nothing in it
    assert _as(t, 3).post(f"{path}/confirm").status_code == 403  # Dan is paid
    assert _as(t, 2).post(f"{path}/dispute", {"reason": ""}).status_code == 400
    assert _as(t, 2).post(f"{path}/dispute", {"reason": "wrong"}).status_code == 201
    confirmed = _as(t, 2).post(f"{path}/confirm")  # a payer may still confirm a disputed hand
    assert confirmed.status_code == 201 and _balances(t)[1][0]["waiting_for"] == [t["members"][0]["id"]]
    assert _as(t, 0).post(f"{path}/confirm").status_code == 201 and _balances(t)[1] == []


def test_correcting_a_hand_while_another_is_in_play_or_with_a_bad_body_changes_nothing(kop_table):
    t = kop_table
    without_confirmations(t)
    hand = _result(t, t["member"], STARE_WIN)
    path = f"{t['base']}/hands/{hand['id']}/correct"
    for body, status in (({"reason": "x"}, 400), ({"reason": "x", "void": True, "result": STARE_LOSE}, 400),
                         ({"reason": "x", "void": False}, 400), ({"void": True}, 400),
                         ({"reason": "x", "result": {**STARE_LOSE, "points": 200}}, 422),
                         ({"reason": "x", "result": {"contract": "normal"}}, 400)):
        before = t["member"].get(t["base"]).json["version"]
        r = t["admin"].post(path, body)
        assert r.status_code == status, (body, r.json)
        assert t["member"].get(t["base"]).json["version"] == before
    t["member"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 1}})  # a hand in play
    busy = t["admin"].post(path, {"reason": "x", "void": True})
    assert busy.status_code == 422 and "still being played" in busy.json["detail"]


def test_voiding_the_latest_hand_by_a_correction_gives_the_deal_back_and_an_earlier_one_does_not(kop_table):
    t = kop_table
    without_confirmations(t)
    first = _result(t, t["member"], STARE_WIN)
    second = _result(t, t["member"], STARE_LOSE)
    table = f"{t['base']}/tables/{t['table']}"
    assert t["member"].get(table).json["next_dealer"] == 2
    t["admin"].post(f"{t['base']}/hands/{first['id']}/correct", {"reason": "never dealt", "void": True})
    assert t["member"].get(table).json["next_dealer"] == 2 and _balances(t)[0] == [100, -100, 100, -100]
    again = t["admin"].post(f"{t['base']}/hands/{first['id']}/correct", {"reason": "twice", "void": True})
    assert again.status_code == 422 and "never played" in again.json["detail"]
    t["admin"].post(f"{t['base']}/hands/{second['id']}/correct", {"reason": "misdeal", "void": True})
    assert t["member"].get(table).json["next_dealer"] == 1 and _balances(t)[0] == [0, 0, 0, 0]
    shown = t["member"].get(f"{t['base']}/hands/{second['id']}").json
    assert shown["phase"] == "voided" and shown["corrections"][0]["void"] is True
    back = t["admin"].post(f"{t['base']}/hands/{first['id']}/correct", {"reason": "it was played", "result":
                                                                        STARE_WIN})
    assert back.status_code == 201 and _balances(t)[0] == [-100, 100, -100, 100]  # a correction of a correction


def test_the_hand_page_says_what_waits_and_shows_the_correction(client, kop_table):
    from tests.api.test_pages import _signed_in
    t = kop_table
    hand = _result(t, _as(t, 1), STARE_WIN)
    _signed_in(client, t["members"][0]["token"])
    page = client.http.get(f"/g/{t['group']}/hands/{hand['id']}").get_data(as_text=True)
    assert "Pending: it counts in the balances once every player who pays in it agrees" in page
    t["admin"].post(f"{t['base']}/hands/{hand['id']}/correct", {"reason": "counted again", "result": STARE_LOSE})
    page = client.http.get(f"/g/{t['group']}/hands/{hand['id']}").get_data(as_text=True)
    assert "Corrected: counted again" in page
    assert "Pending: it counts in the balances once every player who pays in it agrees" in page  # a new result
    assert "the admin corrects hand" in page  # the correction's own line in the log


def test_a_void_after_a_correction_stands_and_a_second_void_is_refused(kop_table):
    t = kop_table
    without_confirmations(t)
    _result(t, t["member"], STARE_WIN)
    second = _result(t, t["member"], STARE_WIN)
    path = f"{t['base']}/hands/{second['id']}"
    assert _balances(t)[0] == [-200, 200, -200, 200]
    t["admin"].post(f"{path}/correct", {"reason": "recount", "result": STARE_LOSE})
    assert _balances(t)[0] == [0, 0, 0, 0]
    assert t["admin"].post(f"{path}/void", {"reason": "misdeal"}).status_code == 201
    assert _balances(t)[0] == [-100, 100, -100, 100]
    shown = t["member"].get(path).json
    assert shown["phase"] == "voided" and shown["voided"]["reason"] == "misdeal" and shown["confirmation"] is None
    again = t["admin"].post(f"{path}/void", {"reason": "misdeal"})
    assert again.status_code == 422 and _balances(t)[0] == [-100, 100, -100, 100]
    assert t["admin"].post(f"{path}/correct", {"reason": "x", "void": "yes"}).status_code == 400  # JSON true only


def test_a_waiting_result_that_a_correction_makes_pay_nobody_counts_at_once_and_the_new_payer_agrees(kop_table):
    """Scopa to 11: Ala logs every hand; the fourth, which ends the game against Bob, waits
    for Bob. A correction of the second makes the game end a hand earlier and the fourth
    hand pay nobody: it counts at once instead of waiting for ever. The third hand, which
    counted, now makes Bob pay: that waits for Bob's word."""
    t = kop_table
    ids = [m["id"] for m in t["members"]][:2]
    table = t["admin"].post(f"{t['base']}/tables", {"game": "scopa", "rules": {"target": 11}, "stake": "1.00",
                                                     "seats": ids}).json["id"]
    five = {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [1, 0]}
    one = {"cards": None, "coins": None, "primiera": None, "settebello": 1, "scopas": [0, 0]}
    ala = t["member"]
    hands = [_result(t, ala, r, table)["id"] for r in (five, one, five, five)]
    balances, pending = _balances(t)
    assert [p["hand"] for p in pending] == [hands[3]] and balances == [0, 0, 0, 0]
    fixed = t["admin"].post(f"{t['base']}/hands/{hands[1]}/correct", {"reason": "side 0 swept", "result": five})
    assert fixed.json["correction"]["waits_for"] == [ids[1]]
    balances, pending = _balances(t)
    assert pending == [] and balances[:2] == [0, 0]  # the game ended at hand 3: Bob has still to agree
    assert t["member"].get(f"{t['base']}/hands/{hands[3]}").json["confirmation"]["state"] == "counted"
    waiting = t["member"].get(f"{t['base']}/hands/{hands[2]}").json["correction_waiting"]
    assert waiting["waiting_for"] == [ids[1]] and waiting["agreed"] == []
    assert _as(t, 0).post(f"{t['base']}/hands/{hands[2]}/agree").status_code == 403  # it does not lower Ala
    assert _as(t, 1).post(f"{t['base']}/hands/{hands[2]}/agree").status_code == 201
    assert _balances(t)[0][:2] == [100, -100]  # counted as corrected
    assert t["member"].get(f"{t['base']}/hands/{hands[2]}").json["correction_waiting"] is None


def test_only_members_seated_at_the_table_log_there(kop_table):
    t = kop_table
    eve = t["member"].as_(t["admin"].post(f"{t['base']}/members", {"name": "Eve"}).json["token"])
    before = t["member"].get(t["base"]).json["version"]
    r = eve.post(f"{t['base']}/tables/{t['table']}/hands", {"result": STARE_WIN})
    assert r.status_code == 403 and "seated" in r.json["detail"]
    r = eve.post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0}})
    assert r.status_code == 403
    hand = t["member"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0}}).json
    r = eve.post(f"{t['base']}/hands/{hand['id']}/bids", {"seat": 1, "call": "wesele"})
    assert r.status_code == 403
    assert t["member"].get(t["base"]).json["version"] == before + 1  # only Ala's deal


def test_at_a_seats_table_a_seated_members_result_waits_for_every_other_payer(kop_table):
    t = kop_table
    table = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]}).json["id"]
    by_bob = _as(t, 1).post(f"{t['base']}/tables/{table}/hands", {"result": STARE_WIN})
    assert by_bob.status_code == 201, by_bob.json
    assert by_bob.json["confirmation"]["waiting_for"] == [t["members"][0]["id"], t["members"][2]["id"]]
    _as(t, 0).post(f"{t['base']}/hands/{by_bob.json['id']}/confirm")
    _as(t, 2).post(f"{t['base']}/hands/{by_bob.json['id']}/confirm")
    hand = _result(t, t["admin"], STARE_WIN, table)
    assert hand["confirmation"]["waiting_for"] == [t["members"][0]["id"], t["members"][2]["id"]]


def test_one_tap_confirms_every_result_at_the_table_that_waits_for_me(kop_table):
    t = kop_table
    logged = [_result(t, _as(t, 1), r)["id"] for r in (STARE_WIN, STARE_WIN, STARE_LOSE)]
    confirm = f"{t['base']}/tables/{t['table']}/confirm"
    assert t["admin"].post(confirm).status_code == 403
    done = _as(t, 0).post(confirm)  # Ala pays in the first two
    assert done.status_code == 201 and done.json == {"confirmed": logged[:2]}
    assert _as(t, 0).post(confirm).json == {"confirmed": []}  # nothing more waits for her
    assert _balances(t)[0] == [0, 0, 0, 0]  # they wait for Cyd too
    assert _as(t, 2).post(confirm).json == {"confirmed": logged[:2]}
    balances, pending = _balances(t)
    assert balances == [-200, 200, -200, 200] and [p["hand"] for p in pending] == [logged[2]]
    assert pending[0]["waiting_for"] == [t["members"][3]["id"]]  # Bob pays in the third, and Dan


def test_the_table_page_says_who_sees_what_and_confirms_my_results_in_one_tap(client, kop_table):
    """As a player does it: Bob logged two results Ala pays in; her table page offers one
    button for both, the hand page says who still has to agree, and the page says who can
    see which cards at this table."""
    from tests.api.test_pages import _hidden, _signed_in
    t = kop_table
    first = _result(t, _as(t, 1), STARE_WIN)
    _result(t, _as(t, 1), STARE_WIN)
    _signed_in(client, t["members"][0]["token"])
    page = client.http.get(f"/g/{t['group']}/tables/{t['table']}").get_data(as_text=True)
    assert "the admin and whoever types in the deal see every card" in page
    assert "Confirm my 2 results at this table" in page
    hand_page = client.http.get(f"/g/{t['group']}/hands/{first['id']}").get_data(as_text=True)
    assert "Still to agree: Ala, Cyd." in hand_page
    form = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once")}
    done = client.http.post(f"/g/{t['group']}/tables/{t['table']}/confirm", data=form)
    assert done.status_code == 303
    again = client.http.post(f"/g/{t['group']}/tables/{t['table']}/confirm", data=form)  # a double tap
    assert again.status_code == 303
    pending = _balances(t)[1]
    assert [p["waiting_for"] for p in pending] == [[t["members"][2]["id"]]] * 2
    page = client.http.get(f"/g/{t['group']}/tables/{t['table']}").get_data(as_text=True)
    assert "Confirm my" not in page
    seats = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]}).json["id"]
    page = client.http.get(f"/g/{t['group']}/tables/{seats}").get_data(as_text=True)
    assert "nobody sees another player’s hand, the admin included" in page


def test_the_statistics_count_a_hand_only_once_every_payer_agreed(kop_table):
    """A red team's find: one payer's confirmation made the hand count in /stats while the
    balances still waited for the other."""
    t = kop_table
    _result(t, _as(t, 1), STARE_WIN)  # Bob logs it; Ala and Cyd pay

    def played():
        shown = t["member"].get(f"{t['base']}/stats").json["members"]
        return {m["name"]: m["hands_played"] for m in shown}
    assert _as(t, 0).post(f"{t['base']}/tables/{t['table']}/confirm").status_code == 201
    assert set(played().values()) == {0} and _balances(t)[0] == [0, 0, 0, 0]
    assert _as(t, 2).post(f"{t['base']}/tables/{t['table']}/confirm").status_code == 201
    assert set(played().values()) == {1} and _balances(t)[0] != [0, 0, 0, 0]


def test_what_waits_is_listed_in_log_order_a_page_at_a_time_and_the_balances_row_never_holds_it(kop_table, client):
    t = kop_table
    bob = _as(t, 1)
    hands = [_result(t, bob, STARE_WIN)["id"] for _ in range(7)]
    first = t["member"].get(f"{t['base']}/balances?pending_limit=3").json
    assert [p["hand"] for p in first["pending"]] == hands[:3]
    assert first["pending_total"] == 7 and isinstance(first["pending_next"], int)
    seen, after = [p["hand"] for p in first["pending"]], first["pending_next"]
    while after is not None:
        page = t["member"].get(f"{t['base']}/balances?pending_limit=3&pending_after={after}").json
        assert page["balances"] == first["balances"] and page["pending_total"] == 7
        seen += [p["hand"] for p in page["pending"]]
        after = page["pending_next"]
    assert seen == hands  # every one once, as they were logged
    whole = t["member"].get(f"{t['base']}/balances").json
    assert [p["hand"] for p in whole["pending"]] == hands and whole["pending_next"] is None
    for bad in ("pending_limit=0", "pending_limit=1001", "pending_after=-1", "pending_limit=x"):
        refused = t["member"].get(f"{t['base']}/balances?{bad}")
        assert refused.status_code in (400, 422) and refused.mimetype == "application/problem+json", bad
    store = client.http.application.extensions["bitka.store"]
    with store.reading() as r:  # what waits is in rows of its own, not in the group's balances row
        assert "pending" not in r.row("balances", t["group"], "")
        assert [hand for hand, _ in r.pending_entries(t["group"])] == hands
    _as(t, 0).post(f"{t['base']}/tables/{t['table']}/confirm")  # Ala agrees to all at once; Cyd still waits
    _as(t, 2).post(f"{t['base']}/tables/{t['table']}/confirm")
    after = t["member"].get(f"{t['base']}/balances").json
    assert after["pending"] == [] and after["pending_total"] == 0 and after["pending_next"] is None
    assert [minor(b["balance"]) for b in after["balances"]] == [-700, 700, -700, 700]
    with store.reading() as r:
        assert r.pending_entries(t["group"]) == []


def test_the_group_page_lists_the_first_results_that_wait_and_says_how_many_more(kop_table, client, monkeypatch):
    t = kop_table
    monkeypatch.setattr(group_page, "SHOWN_WAITING", 2)
    for _ in range(5):
        _result(t, _as(t, 1), STARE_WIN)
    page = client.http.get("/").get_data(as_text=True)
    form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1),
            "token": t["members"][0]["token"]}
    assert client.http.post("/signin", data=form).status_code == 303
    home = client.http.get(f"/g/{t['group']}").get_data(as_text=True)
    assert home.count("Hand 1 at Kop at ") == 1 and "Hand 2 at Kop at " in home
    assert "Hand 3 at Kop at " not in home
    assert "And 3 more results: each table's page shows those of its hands." in home
    polish = client.http.get(f"/g/{t['group']}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "I jeszcze 3 wyniki" in polish
