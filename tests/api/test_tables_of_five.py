"""Tables of five at Kop and Baśka over HTTP (API.md, "A table of five"): opened with
``rules: {}``, the dealer sits each hand out and the four others play it, the first after
the dealer calling and leading; a deal's hands are five lists, the dealer's []; the payouts
list all five seats, the dealer's "0.00" ("0" in points); the deal passes round all five
and a bok-runda is four hands. A hand played seat by seat shows the dealer's phone no card
before it is played. Bad tables and deals are refused with a sentence, appending nothing.

The hand most tests log is KOP_HANDS, a hand of four dealt by seat 0 that seats 1, 2, 3, 0
play in that order, given at five to seats 1, 2, 3, 4 (seat 0 deals): the same tricks.
"""
from __future__ import annotations

import re

import pytest

from games.kop import game as kop
from games.registry import GAMES
from service import game_schemas
from tests.api.test_evening_pages import _form, _invite, _join, _open_table, _start
from tests.api.test_openapi import _fits
from tests.api.test_pages import _sheet, _signed_in
from tests.api.test_seats import Seats, same_money, whole
from tests.backends import ON_SQLITE
from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS, agreed

NAMES = ("Ala", "Bob", "Cyd", "Dan", "Ela")
HANDS = [[], KOP_HANDS[1], KOP_HANDS[2], KOP_HANDS[3], KOP_HANDS[0]]  # seat 0 deals and sits out
TRICKS = [{"cards": cards} for cards in KOP_TRICKS]


def _five(client, currency="PLN") -> dict:
    """A group of five (Ala, Bob, Cyd, Dan, Ela), shaped as tests/conftest.py's kop_group."""
    g = client.post("/v1/groups", {"name": "Piątek w piątkę", "currency": currency}).json
    admin = client.as_(g["admin_token"])
    members = [admin.post(f"/v1/groups/{g['id']}/members", {"name": n}).json for n in NAMES]
    return {"group": g["id"], "admin": admin, "members": members, "member": client.as_(members[0]["token"]),
            "base": f"/v1/groups/{g['id']}"}


def _open(t, game="kop", rules=None, seats=5, stake="0.50"):
    return t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": {} if rules is None else rules,
                                                    "seats": [m["id"] for m in t["members"][:seats]], "stake": stake})


def _version(t) -> int:
    return t["admin"].get(t["base"]).json["version"]


def _paid(settlement) -> list[tuple[int, str]]:
    return [(p["seat"], p["amount"]) for p in settlement["payouts"]]


def test_a_table_of_five_opened_with_no_rules_seats_the_dealer_out_and_pays_all_five(client):
    t = _five(client)
    opened = _open(t)
    assert opened.status_code == 201, opened.json
    table = opened.json
    assert table["rules"]["players"] == 5 and [s["name"] for s in table["seats"]] == list(NAMES)
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": {"dealer": 0, "hands": HANDS}}).json
    assert (hand["phase"], hand["leader"], hand["turn"], hand["deal"][0]) == ("auction", 1, 1, [])
    done = t["member"].post(f"{t['base']}/hands/{hand['id']}/bids",
                            {"seat": 2, "call": "kontra"})
    assert done.status_code == 201, done.json
    for cards in KOP_TRICKS:
        r = t["member"].post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": cards})
        assert r.status_code == 201 and (r.json["leader"], r.json["winner"]) == (1, 1), r.json
    s = r.json["hand"]["settlement"]
    # rules/kop.md: stare (QC at seat 1, QS at seat 3) take every trick, młodzi (2, 4) bez
    # bitki: B x 3; młodzi's kontra doubles it: 0.50 x 3 x 2 = 3.00 each way; Ala dealt: 0.00.
    assert (s["outcome"], s["winner"], s["multiplier"]) == ("bez-bitki", "stare", 6)
    assert _paid(s) == [(0, "0.00"), (1, "3.00"), (2, "-3.00"), (3, "3.00"), (4, "-3.00")]
    assert [side["seats"] for side in s["sides"]] == [[1, 3], [2, 4]]
    agreed(t, r.json["hand"])
    balances = t["member"].get(f"{t['base']}/balances").json
    assert [b["balance"] for b in balances["balances"]] == ["0.00", "3.00", "-3.00", "3.00", "-3.00"]
    assert balances["total"] == "0.00"
    assert t["member"].get(f"{t['base']}/tables/{table['id']}").json["next_dealer"] == 1
    audit = t["member"].get(f"{t['base']}/hands/{hand['id']}/audit", headers={"Accept": "text/plain"})
    text = audit.get_data(as_text=True)
    assert "seat 0 (Ala) deals. seat 1 (Bob): AH 10H QC AD;" in text and "seat 0 (Ala):" not in text
    assert "seat 2 (Cyd) calls kontra" in text and "seat 1 (Bob) leads; cards AH QH QS JD; seat 1 (Bob) wins" in text
    assert "seats 1 and 3 hold QC and QS (stare) against seats 2 and 4 (młodzi)" in text
    assert "seat 0 (Ala) neither pays nor receives" in text and "seat 0 (Ala) receives" not in text
    assert "seat 1 (Bob) receives 3.00 PLN" in text and "seat 2 (Cyd) pays 3.00 PLN" in text


@ON_SQLITE
def test_a_hand_of_five_card_by_card_each_seat_its_own_and_the_dealer_sees_no_unplayed_card(client, app, tmp_path):
    t = _five(client)
    table = Seats(t, app, "kop", {}, 5)
    assert table.table["rules"]["players"] == 5
    table.open(dealer=0)
    hand = f"{t['base']}/hands/{table.hand}"
    dealer = table.api[0]
    refused = dealer.post(f"{hand}/cards", {"seat": 0, "cards": KOP_HANDS[0]})
    assert refused.status_code == 422 and "seat 0 deals this hand and sits it out" in refused.json["detail"]
    for seat in (1, 2, 3, 4):
        table.post(seat, "cards", {"seat": seat, "cards": HANDS[seat]})
    seen = dealer.get(hand).json
    assert seen["deal"] == [[]] + [[None] * 4] * 4 and seen["held"] == [[]] + [[None] * 4] * 4
    assert (seen["phase"], seen["turn"]) == ("auction", 1)
    assert dealer.post(f"{hand}/bids", {"seat": 0, "call": "zolo"}).status_code == 422
    # The dealer sending every card of the pack as its own play learns nothing of anyone's.
    answers = {(r.status_code, r.json["detail"]) for r in (dealer.post(f"{hand}/plays", {"seat": 0, "card": card})
                                                           for card in sorted(kop.PACK))}
    assert answers == {(422, "seat 0 deals this hand and sits it out; the four others play it")}
    for i, cards in enumerate(KOP_TRICKS):
        for seat, card in zip((1, 2, 3, 4), cards, strict=True):
            if (i, seat) == (0, 4):  # AH led: Ela holds 10D JH JD, trumps, and may not play AS
                wrong = table.api[4].post(f"{hand}/plays", {"seat": 4, "card": "AS"})
                assert wrong.status_code == 422 and wrong.json["detail"] == (
                    "seat 4 holds 10D JH JD and must follow trumps"), wrong.json
            table.post(seat, "plays", {"seat": seat, "card": card})
            if (i, seat) == (0, 1):
                watched = dealer.get(hand).json
                assert watched["deal"][1] == ["AH", None, None, None] and watched["current"] == [
                    {"seat": 1, "card": "AH"}]
                assert watched["deal"][2:] == [[None] * 4] * 3
    settlement = table.done()
    assert _paid(settlement)[0] == (0, "0.00") and settlement["confirmed"] is True  # each seat its own: counts
    same_money(settlement, whole(t, "kop", {}, 5, {"deal": {"dealer": 0, "hands": HANDS}, "tricks": TRICKS}))
    assert table.reads > 500
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output
    out = tmp_path / "five.jsonl"  # and every event is one the API would append again (bitka import)
    assert run("--db", app.config["BITKA_DB"], "export", "--group", t["group"], "--out", str(out)).exit_code == 0
    imported = run("--db", str(tmp_path / "again.db"), "import", str(out))
    assert imported.exit_code == 0, imported.output


def test_a_table_of_five_its_deal_and_its_result_fit_the_openapi_document(client):
    doc = client.get("/v1/openapi.json").json
    t = _five(client)
    for game, rules in (("kop", {}), ("baska", {"variant": "classic"})):
        table = _open(t, game, rules).json
        assert _fits(doc, "Table", table), table
        assert [g.name for g in GAMES.values()
                if _fits(doc, game_schemas.component(g, "Rules"), table["rules"])] == [game]
        assert _fits(doc, game_schemas.component(GAMES[game], "RulesIn"), {"players": 5})
    assert _fits(doc, "KopDeal", {"dealer": 0, "hands": HANDS})
    assert _fits(doc, "KopResult", {"contract": "zolo", "declarer": 4, "doubles": [], "points": 60, "tricks": 3})


def test_a_points_group_pays_the_dealer_0_at_a_table_of_five(client):
    t = _five(client, currency="points")
    table = _open(t, stake="1").json
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands",
                         {"deal": {"dealer": 0, "hands": HANDS}, "tricks": TRICKS})
    assert r.status_code == 201, r.json
    assert _paid(r.json["settlement"]) == [(0, "0"), (1, "3"), (2, "-3"), (3, "3"), (4, "-3")]


def test_a_table_of_four_opened_with_no_rules_is_as_it_was(client):
    t = _five(client)
    opened = _open(t, seats=4)
    assert opened.status_code == 201 and "players" not in opened.json["rules"], opened.json
    r = t["member"].post(f"{t['base']}/tables/{opened.json['id']}/hands",
                         {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": TRICKS})
    assert r.status_code == 201 and r.json["leader"] is None
    assert _paid(r.json["settlement"]) == [(0, "-1.50"), (1, "1.50"), (2, "-1.50"), (3, "1.50")]
    assert t["member"].get(f"{t['base']}/tables/{opened.json['id']}").json["next_dealer"] == 1


@pytest.mark.parametrize("body, status, said", [
    ({"game": "kop", "rules": {}, "seats": 6}, 422, "kop is played at a table of four, or of five where the "
                                                    "dealer sits each hand out; not of 6"),
    ({"game": "baska", "rules": {}, "seats": 3}, 422, "baska is played at a table of four, or of five"),
    ({"game": "kop", "rules": {"players": 4}, "seats": 5}, 422, "these kop rules say players 4: a table of 5 says "
                                                                "players 5, or leaves players out"),
    ({"game": "kop", "rules": {"players": 7}, "seats": 5}, 422, "players must be 4, or 5"),
    ({"game": "kop", "rules": {"players": "five"}, "seats": 5}, 422, "players must be 4, or 5"),
    ({"game": "kop", "rules": {}, "seats": 9}, 400, ""),
])
def test_a_table_of_another_size_is_refused_and_appends_nothing(client, body, status, said):
    t = _five(client)
    t["members"] += [t["admin"].post(f"{t['base']}/members", {"name": n}).json for n in ("Fil", "Gaja", "Hela",
                                                                                          "Iza")]
    before = _version(t)
    r = _open(t, body["game"], body["rules"], body["seats"])
    assert r.status_code == status and r.mimetype == "application/problem+json", r.json
    assert said in r.json["detail"]
    assert _version(t) == before


@pytest.mark.parametrize("body, said", [
    ({"deal": {"dealer": 0, "hands": [KOP_HANDS[0], KOP_HANDS[1], KOP_HANDS[2], KOP_HANDS[3], []]}},
     "seat 0 deals this hand and sits it out: its hand is [], and every other seat is dealt 4 cards"),
    ({"deal": {"dealer": 0, "hands": KOP_HANDS}}, "hands must list 5 hands"),
    ({"deal": {"dealer": 0, "hands": HANDS}, "bids": [{"seat": 0, "call": "zolo"}]},
     "seat 0 deals this hand and sits it out; the four others play it"),
    ({"deal": {"dealer": 0, "hands": HANDS}, "tricks": [{"cards": [*KOP_TRICKS[0], "AC"]}]}, "a trick is 4 cards"),
    ({"result": {"contract": "zolo", "declarer": 0, "doubles": [], "points": 60, "tricks": 3}},
     "declarer names seat 0, who dealt this hand and sat it out: a result names only the four who played it"),
    ({"result": {"contract": "normal", "stare": [1, 3], "doubles": [0], "points": 60, "tricks": 3}},
     "doubles names seat 0, who dealt this hand and sat it out"),
    ({"result": {"contract": "zolo", "declarer": 5, "doubles": [], "points": 60, "tricks": 3}},
     "declarer must be a seat from 0 to 4"),
])
def test_a_hand_of_five_against_the_rules_is_refused_and_appends_nothing(client, body, said):
    t = _five(client)
    table = _open(t).json
    before = _version(t)
    r = t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", body)
    assert r.status_code == 422 and r.mimetype == "application/problem+json", r.json
    assert said in r.json["detail"], r.json
    assert _version(t) == before


def test_at_five_the_deal_passes_round_all_five_and_a_bok_runda_is_four_hands(client):
    t = _five(client)
    table = _open(t, "baska", {"variant": "bytow-2005"}, stake="1.00").json
    path = f"{t['base']}/tables/{table['id']}"

    def result(dealer, points):
        stare = [(dealer + 1) % 5, (dealer + 3) % 5]  # the first and third after the dealer
        r = t["admin"].post(f"{path}/hands", {"dealer": dealer, "result": {
            "contract": "normal", "stare": stare, "doubles": [], "points": points, "tricks": 2}})
        assert r.status_code == 201, r.json
        return stare, r.json["settlement"]

    stare, tie = result(0, 52)  # 52-52: młodzi win, starzy pay 4 each, and a bok-runda falls due
    assert dict(_paid(tie)) == {0: "0.00", 1: "-4.00", 2: "4.00", 3: "-4.00", 4: "4.00"} and tie["bok_due"]
    assert t["admin"].get(path).json["bok"] == {"running": True, "hands_left": 4, "queued": 0}
    dealers = []
    for dealer in (1, 2, 3, 4):  # the four hands of the bok-runda, each dealt by the next seat
        dealers.append(t["admin"].get(path).json["next_dealer"])
        stare, s = result(dealer, 60)
        # Starzy win, młodzi lose with wyjście: 2 each, doubled in the bok-runda: 4.00.
        paid = dict(_paid(s))
        assert s["bok_runda"] and paid[dealer] == "0.00" and [paid[seat] for seat in stare] == ["4.00", "4.00"]
    assert dealers == [1, 2, 3, 4]
    table_now = t["admin"].get(path).json
    assert table_now["next_dealer"] == 0 and table_now["bok"] == {"running": False, "hands_left": 0, "queued": 0}
    stare, after = result(0, 60)
    assert not after["bok_runda"] and dict(_paid(after))[stare[0]] == "2.00"


def test_an_evening_of_five_on_the_phones_the_dealer_watching(app):
    admin, group = _start(app, "Piątka")
    phones = [_join(app, _invite(admin, group, name)) for name in NAMES]
    table = _open_table(admin, group, "kop:2", list(NAMES))  # "Kop for five", each seat its own cards
    page = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    start = f"/g/{group}/tables/{table}/play"
    hand = phones[0].http.post(start, data=_form(page, start)).headers["Location"].split("/")[-1]
    move = f"/g/{group}/hands/{hand}/move"
    watching = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "You sit this hand out: you see each card as it is played." in watching
    assert "Tap the 4 cards you picked up" not in watching
    for seat in (1, 2, 3, 4):
        page = phones[seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        assert "Tap the 4 cards you picked up" in page
        sent = phones[seat].http.post(move, data={**_form(page, move), "card": HANDS[seat]})
        assert sent.status_code == 303, sent.get_data(as_text=True)
    for cards in KOP_TRICKS:
        for seat, card in zip((1, 2, 3, 4), cards, strict=True):
            page = phones[seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
            assert "Your turn" in page
            played = phones[seat].http.post(move, data={**_form(page, move), "action": "play", "card": card})
            assert played.status_code == 303, played.get_data(as_text=True)
            watched = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
            assert "Your turn" not in watched and "Yes, call" not in watched and 'value="claim"' not in watched
    done = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    assert "1.50" in done  # bez bitki at 0.50: 3 units; Ala dealt and paid nothing


def test_the_deal_page_of_a_table_of_five_asks_no_cards_of_the_dealer(client):
    t = _five(client)
    table = _open(t).json
    _signed_in(client, t["members"][1]["token"])
    path = f"/g/{t['group']}/tables/{table['id']}/deal"
    page = client.http.get(path).get_data(as_text=True)
    assert "Seat 0: Ala deals and sits this hand out." in page and not re.search(r'id="seat0"', page)
    dealt = client.http.post(path, data={**_sheet(client, path), "seat0": "",
                                         **{f"seat{i}": " ".join(h) for i, h in enumerate(HANDS) if i}})
    assert dealt.status_code == 303, dealt.get_data(as_text=True)
    play = dealt.headers["Location"]
    tapped = client.http.get(play + "?cards=AH,QH,QS").get_data(as_text=True)
    assert "Ela plays" in tapped  # the fourth card of the trick is seat 4's, not the dealer's
    for cards in KOP_TRICKS:
        posted = client.http.post(play, data={**_sheet(client, f"{play}?cards={','.join(cards[:3])}"),
                                              "cards": ",".join(cards)})
        assert posted.status_code == 303
    done = t["admin"].get(f"{t['base']}/hands/{play.split('/')[-2]}").json
    assert _paid(done["settlement"]) == [(0, "0.00"), (1, "1.50"), (2, "-1.50"), (3, "1.50"), (4, "-1.50")]


def test_a_hand_of_five_is_corrected_by_its_cards_and_a_result_by_a_result_never_naming_the_dealer(client):
    t = _five(client)
    t["admin"].call("PATCH", t["base"], {"confirmations": "off"})
    table = _open(t).json
    hand = t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": {"dealer": 0, "hands": HANDS},
                                                                      "tricks": TRICKS}).json
    path = f"{t['base']}/hands/{hand['id']}/correct"
    # Cyd (seat 2, młodzi) said kontra, which nobody logged: bez bitki doubled, 3.00 each way,
    # so the hand now owes 1.50 more each way; the dealer's 0.00 moves by nothing.
    again = {"deal": {"dealer": 0, "hands": HANDS}, "bids": [{"seat": 2, "call": "kontra"}], "tricks": TRICKS}
    wrong = {**again, "bids": [{"seat": 0, "call": "kontra"}]}
    before = _version(t)
    refused = t["admin"].post(path, {"reason": "Ala said kontra", "cards": wrong})
    assert refused.status_code == 422 and "seat 0 deals this hand and sits it out" in refused.json["detail"]
    assert _version(t) == before
    fixed = t["admin"].post(path, {"reason": "Cyd said kontra", "cards": again})
    assert fixed.status_code == 201, fixed.json
    [adjusted] = fixed.json["correction"]["adjustments"]
    assert _paid(adjusted) == [(0, "0.00"), (1, "1.50"), (2, "-1.50"), (3, "1.50"), (4, "-1.50")]
    balances = t["admin"].get(f"{t['base']}/balances").json["balances"]
    assert [b["balance"] for b in balances] == ["0.00", "3.00", "-3.00", "3.00", "-3.00"]
    # The next hand, dealt by Bob (seat 1), logged by its result and corrected by one.
    zolo = {"contract": "zolo", "declarer": 3, "doubles": [], "points": 70, "tricks": 3}
    second = t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", {"result": zolo}).json
    path = f"{t['base']}/hands/{second['id']}/correct"
    refused = t["admin"].post(path, {"reason": "Bob played it", "result": {**zolo, "declarer": 1}})
    assert refused.status_code == 422 and "declarer names seat 1, who dealt this hand" in refused.json["detail"]
    fixed = t["admin"].post(path, {"reason": "Ela played it", "result": {**zolo, "declarer": 4}})
    assert fixed.status_code == 201, fixed.json
    # Zolo won pays 5 x 0.50 = 2.50 from each of the three others: Dan's +7.50 becomes Ela's.
    [adjusted] = fixed.json["correction"]["adjustments"]
    assert _paid(adjusted) == [(0, "0.00"), (1, "0.00"), (2, "0.00"), (3, "-10.00"), (4, "10.00")]
