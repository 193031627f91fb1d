"""The pages without a browser: who may see what, the cookie, the forms' guard, and that a
page can do nothing the API would refuse."""
import hashlib
import json
import html
import re

import pytest

from events import merkle
from service.web.chart import aligned, balance_chart
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.money import minor


def _sign_in_form(client):
    page = client.http.get("/").get_data(as_text=True)
    return {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1)}


def _signed_in(client, token):
    answer = client.http.post("/signin", data={**_sign_in_form(client), "token": token})
    assert answer.status_code == 303
    return answer


def _hidden(text, name):
    return re.search(rf'name="{name}" value="([^"]*)"', text).group(1)


def _sheet(client, path):
    """A form opened afresh: its session token and its one-time key."""
    page = client.http.get(path).get_data(as_text=True)
    return {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once")}


def test_sign_in_keeps_a_session_in_a_strict_http_only_cookie(client, kop_table):
    answer = _signed_in(client, kop_table["members"][0]["token"])
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=Strict" in cookie
    assert answer.headers["Location"] == f"/g/{kop_table['group']}"
    page = client.http.get(f"/g/{kop_table['group']}")
    assert page.status_code == 200 and "Who is up, who is down" in page.get_data(as_text=True)


def test_a_stranger_is_sent_to_sign_in_and_a_member_sees_only_their_group(client, kop_table):
    gid = kop_table["group"]
    away = client.http.get(f"/g/{gid}")
    assert away.status_code == 302 and away.headers["Location"].startswith("/?next=")
    wrong = client.http.post("/signin", data={**_sign_in_form(client), "token": "guess"})
    assert wrong.status_code == 401 and "not known here" in wrong.get_data(as_text=True)
    other = client.post("/v1/groups", {"name": "Other", "currency": "PLN"}).json
    _signed_in(client, other["admin_token"])
    refused = client.http.get(f"/g/{gid}")  # signed in to Other only
    assert refused.status_code == 403 and "not signed in to that group" in refused.get_data(as_text=True)
    assert client.http.get(f"/g/{gid}/hands/h_x/evidence.json").status_code == 403


def test_a_form_without_the_sessions_token_changes_nothing(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    before = kop_table["admin"].get(f"/v1/groups/{gid}").json["version"]
    forged = client.http.post(f"/g/{gid}/tables/{table}/deal",
                              data={f"seat{i}": " ".join(h) for i, h in enumerate(KOP_HANDS)})
    assert forged.status_code == 403 and "not from your session" in forged.get_data(as_text=True)
    assert kop_table["admin"].get(f"/v1/groups/{gid}").json["version"] == before


def test_a_deal_against_the_rules_shows_the_422_beside_the_seat_and_appends_nothing(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/deal"
    hands = [list(h) for h in KOP_HANDS]
    hands[2][0] = hands[1][0]  # one card dealt twice
    answer = client.http.post(path, data={**_sheet(client, path),
                                          **{f"seat{i}": " ".join(h) for i, h in enumerate(hands)}})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and 'aria-invalid="true"' in text and "AH" in text
    assert kop_table["admin"].get(f"/v1/groups/{gid}/tables/{table}").json["hands"] == []


def test_cards_tapped_one_by_one_make_the_trick_the_api_would_take(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/deal"
    dealt = client.http.post(path, data={**_sheet(client, path),
                                         **{f"seat{i}": " ".join(h) for i, h in enumerate(KOP_HANDS)}})
    play = dealt.headers["Location"]
    hand = play.split("/")[-2]
    page = client.http.get(play + "?cards=AH").get_data(as_text=True)
    assert "Cyd plays" in page and "not playable now" in page  # seat 2 must follow, and cannot play all
    stale = client.http.get(play + "?cards=AH,10C").get_data(as_text=True)
    assert "cannot be Cyd&#39;s card here" in stale
    for trick in KOP_TRICKS:
        posted = client.http.post(play, data={**_sheet(client, f"{play}?cards={','.join(trick[:3])}"),
                                              "cards": ",".join(trick)})
        assert posted.status_code == 303
    done = kop_table["admin"].get(f"/v1/groups/{gid}/hands/{hand}").json
    assert done["phase"] == "done" and done["settlement"]["payouts"][1]["amount"] == "3.00"
    assert client.http.get(play).status_code == 302  # a finished hand's page is the hand itself


def test_the_score_sheet_preview_appends_nothing_and_only_the_previewed_result_is_logged(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][1]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    form = {**_sheet(client, path), "contract": "normal", "stare": ["1", "3"], "points": "70", "tricks": "3",
            "confirm": "no"}
    before = kop_table["admin"].get(f"/v1/groups/{gid}").json["version"]
    shown = client.http.post(path, data=form).get_data(as_text=True)
    assert "It would settle like this" in shown
    assert kop_table["admin"].get(f"/v1/groups/{gid}").json["version"] == before
    previewed = _hidden(shown, "previewed")
    edited = client.http.post(path, data={**form, "points": "60", "confirm": "yes", "previewed": previewed})
    assert edited.status_code == 200 and "It would settle like this" in edited.get_data(as_text=True)
    assert kop_table["admin"].get(f"/v1/groups/{gid}").json["version"] == before  # shown again, not logged
    logged = client.http.post(path, data={**form, "confirm": "yes", "previewed": previewed})
    assert logged.status_code == 303
    events = kop_table["admin"].get(f"/v1/groups/{gid}/events").json["events"]
    assert [e["type"] for e in events][-2:] == ["result", "settlement"] and events[-2]["data"]["result"]["points"] == 70


def test_doubles_are_tapped_by_name_in_order_and_logged_as_seats(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    form = {**_sheet(client, path), "contract": "normal", "stare": ["1", "3"], "points": "29", "tricks": "2"}
    for seat in ("2", "1", "0"):  # Cyd kontra, Bob re, Ala bok
        page = client.http.post(path, data={**form, "double": seat}).get_data(as_text=True)
        form["doubles"] = _hidden(page, "doubles")
    assert form["doubles"] == "2 1 0" and "Ala: bok" in page and "Dan: slup" in page
    page = client.http.post(path, data={**form, "undo": "1"}).get_data(as_text=True)
    assert _hidden(page, "doubles") == "2 1"
    form["doubles"] = "2 1"
    shown = client.http.post(path, data={**form, "confirm": "no"}).get_data(as_text=True)
    assert "multiplier 4" in shown, shown  # młodzi kontra, stare re: two runs
    done = client.http.post(path, data={**form, "confirm": "yes", "previewed": _hidden(shown, "previewed")})
    assert done.status_code == 303
    result = kop_table["admin"].get(f"/v1/groups/{gid}/events").json["events"][-2]["data"]["result"]
    assert result["doubles"] == [2, 1] and result["stare"] == [1, 3]


def test_a_tampered_double_or_a_form_without_its_key_is_a_400_and_names_nobody(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    form = {**_sheet(client, path), "contract": "normal", "stare": ["1", "3"], "points": "29", "tricks": "2"}
    tampered = client.http.post(path, data={**form, "double": "-3"})
    page = tampered.get_data(as_text=True)
    assert tampered.status_code == 400 and "not seat -3" in page, page
    assert 'class="doubles"' not in page  # no name shown for a seat that is not at the table
    forged = client.http.post(path, data={**form, "doubles": "-3 9"})
    assert forged.status_code == 422 and 'class="doubles"' not in forged.get_data(as_text=True)
    shown = client.http.post(path, data={**form, "doubles": "", "confirm": "no"}).get_data(as_text=True)
    keyless = {k: v for k, v in form.items() if k != "once"}
    lost = client.http.post(path, data={**keyless, "doubles": "", "confirm": "yes",
                                        "previewed": _hidden(shown, "previewed")})
    assert lost.status_code == 400 and "lost its one-time key" in lost.get_data(as_text=True)
    assert kop_table["admin"].get(f"/v1/groups/{gid}/events").json["events"][-1]["type"] == "table_opened"


def test_a_score_sheet_sent_twice_logs_one_hand_and_answers_the_second_with_the_first(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    form = {**_sheet(client, path), "contract": "zolo", "declarer": "2", "points": "60", "tricks": "2"}
    shown = client.http.post(path, data={**form, "confirm": "no"}).get_data(as_text=True)
    sent = {**form, "confirm": "yes", "previewed": _hidden(shown, "previewed")}
    first = client.http.post(path, data=sent)
    version = kop_table["admin"].get(f"/v1/groups/{gid}").json["version"]
    again = client.http.post(path, data=sent)  # Back, and "Log this result" once more
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"] + "?already=1"
    assert kop_table["admin"].get(f"/v1/groups/{gid}").json["version"] == version
    assert "That form was sent before: nothing more was logged" in client.http.get(again.headers["Location"]).get_data(
        as_text=True)


def test_the_evidence_behind_the_verify_button_proves_each_event_against_the_signed_root(client, kop_table, app):
    from events.canonical import canonical_bytes
    from events.checkpoint import signature_holds
    gid, table = kop_table["group"], kop_table["table"]
    hand = kop_table["admin"].post(f"/v1/groups/{gid}/tables/{table}/hands",
                                   {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                    "tricks": [{"cards": t} for t in KOP_TRICKS]}).json
    _signed_in(client, kop_table["members"][2]["token"])
    evidence = client.http.get(f"/g/{gid}/hands/{hand['id']}/evidence.json").json
    assert signature_holds(evidence["checkpoint"], evidence["key"]["public_key"])
    root = bytes.fromhex(evidence["checkpoint"]["root"])
    for event in evidence["events"]:
        body = {k: v for k, v in event.items() if k not in ("hash", "proof")} | {"group": gid}
        raw = canonical_bytes(body)
        assert hashlib.sha256(raw).hexdigest() == event["hash"]
        path = [bytes.fromhex(p) for p in event["proof"]]
        assert merkle.verify_inclusion(merkle.leaf_hash(raw), event["seq"] - 1, evidence["size"], path, root)
    assert len(evidence["events"]) == 6 and json.dumps(evidence)


def test_the_chart_draws_one_line_per_member_and_names_itself():
    svg = balance_chart(["Ala", "Bob"], aligned({"a": [(7, 300), (9, -150)], "b": [(7, -300), (9, 150)]}, ["a", "b"]),
                        2, "PLN")
    assert svg.count("<polyline") == 2 and 'role="img"' in svg and "<title id=\"chart-title\">" in svg
    assert aligned({"a": [(7, 300)], "b": []}, ["a", "b"]) == [[0, 300], [0, 0]]
    assert "3.00" in svg and "-3.00" in svg  # the axis shows the highest and lowest balance


def test_the_chart_counts_hands_on_its_axis_and_its_labels_stay_readable_on_a_phone():
    from service.web import chart
    series = aligned({"a": [(1, 100), (2, 100), (3, 50)], "b": [(1, -100), (2, -100), (3, -50)]}, ["a", "b"])
    svg = balance_chart(["Ala", "Bob"], series, 2, "PLN", hands=[True, False, True])  # hand, payment, hand
    numbers = re.findall(r'text-anchor="middle">(\d+)</text>', svg)
    assert numbers == ["1", "2"] and ">hands</text>" in svg  # the payment between has no number
    assert chart.FONT * 330 / chart.WIDTH >= 12  # a 360 px phone shows the chart 330 px wide
    assert "<circle" in svg and "<rect" in svg  # each line its marker, beside its colour and dash


@pytest.mark.parametrize("path", ["/static/bitka.css", "/static/verify.js"])
def test_the_pages_files_are_served(client, path):
    assert client.http.get(path).status_code == 200


def _table(kop_table, game, rules, players):
    gid = kop_table["group"]
    seats = [m["id"] for m in kop_table["members"][:players]]
    return kop_table["admin"].post(f"/v1/groups/{gid}/tables", {"game": game, "rules": rules, "stake": "1.00",
                                                                 "seats": seats}).json["id"]


@pytest.mark.parametrize("game, rules, form, bad, field", [
    ("scopa", {}, {"cards": "0", "coins": "tie", "primiera": "1", "settebello": "0", "scopas0": "2", "scopas1": "0"},
     {"scopas0": "40"}, "scopas"),
    ("bisca", {"variant": "nove"}, {"points0": "70", "points1": "50", "tricks0": "12", "tricks1": "8"},
     {"points1": "51"}, "points"),
])
def test_the_score_sheet_offers_each_games_own_choices(client, kop_table, game, rules, form, bad, field):
    gid = kop_table["group"]
    table = _table(kop_table, game, rules, 2)
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    token = _sheet(client, path)
    wrong = client.http.post(path, data={**token, **form, **bad, "confirm": "no"})
    assert wrong.status_code == 422 and f'id="{field}-error"' in wrong.get_data(as_text=True)
    shown = client.http.post(path, data={**token, **form, "confirm": "no"}).get_data(as_text=True)
    previewed = re.search(r'name="previewed" value="([0-9a-f]+)"', shown).group(1)
    logged = client.http.post(path, data={**token, **form, "confirm": "yes", "previewed": previewed})
    assert logged.status_code == 303
    hand = logged.headers["Location"].rsplit("/", 1)[1]
    settled = kop_table["admin"].get(f"/v1/groups/{gid}/hands/{hand}").json
    assert settled["phase"] == "done" and sum(minor(p["amount"]) for p in settled["settlement"]["payouts"]) == 0
    page = client.http.get(f"/g/{gid}/hands/{hand}").get_data(as_text=True)
    assert "the cards were not logged" in page and "Why it paid what it paid" in page


def test_a_bisca_hand_dealt_through_the_api_is_tapped_in_card_by_card_to_its_end(client, kop_table):
    import random

    from games.bisca import game as bisca
    from games.engine.autoplay import play_out
    gid = kop_table["group"]
    table = _table(kop_table, "bisca", {"variant": "nove"}, 2)
    deck = sorted(bisca.PACKS["full"])
    random.Random(5).shuffle(deck)
    deal = {"dealer": 0, "hands": [deck[0:9], deck[9:18]], "trump": deck[-1], "stock": deck[18:-1]}
    # The scorer logs the deal, so the cards are not sealed from the scorer's phone.
    hand = kop_table["member"].post(f"/v1/groups/{gid}/tables/{table}/hands", {"deal": deal}).json["id"]
    rules = bisca.parse_rules({"variant": "nove"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    _, tricks = play_out(bisca, state, lambda legal: legal[-1])
    _signed_in(client, kop_table["members"][0]["token"])
    play = f"/g/{gid}/hands/{hand}/play"
    assert client.http.get(f"/g/{gid}/tables/{table}/deal").status_code == 404  # its stock comes by the API
    for trick in tricks:
        page = client.http.get(f"{play}?cards={trick[0]}").get_data(as_text=True)
        assert "and log the trick" in page  # two players: the second tap logs it
        form = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once")}
        assert client.http.post(play, data={**form, "cards": ",".join(trick)}).status_code == 303
    done = kop_table["admin"].get(f"/v1/groups/{gid}/hands/{hand}").json
    assert done["phase"] == "done" and len(done["tricks"]) == 20
    page = client.http.get(f"/g/{gid}/hands/{hand}")
    assert page.status_code == 200 and page.get_data(as_text=True).count('class="card ') >= 40


def test_a_scopa_hand_shows_its_plays_and_captures(client, kop_table):
    from games.scopa import game as scopa
    from games.engine.autoplay import play_by_plays
    gid = kop_table["group"]
    table = _table(kop_table, "scopa", {}, 2)
    deck = sorted(scopa.PACK)
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "table": deck[6:10], "stock": deck[10:]}
    state, plays = play_by_plays(scopa, scopa.new_hand(scopa.parse_rules({}), deal))
    hand = kop_table["admin"].post(f"/v1/groups/{gid}/tables/{table}/hands", {"deal": deal, "plays": plays}).json
    _signed_in(client, kop_table["members"][1]["token"])
    page = client.http.get(f"/g/{gid}/hands/{hand['id']}").get_data(as_text=True)
    assert '<h2 id="plays-h">Plays</h2>' in page and page.count('<li><span class="trick-cards">') == len(plays)
    assert any(p["capture"] for p in plays) and " takes " in page


def test_calls_before_the_first_trick_are_logged_from_the_card_page(client, kop_table):
    gid, table = kop_table["group"], kop_table["table"]
    rotated = [KOP_HANDS[3], KOP_HANDS[0], KOP_HANDS[1], KOP_HANDS[2]]  # dealer 0 again; seat 2 holds QC
    hand = kop_table["admin"].post(f"/v1/groups/{gid}/tables/{table}/hands",
                                   {"deal": {"dealer": 0, "hands": rotated}}).json["id"]
    _signed_in(client, kop_table["members"][0]["token"])
    play = f"/g/{gid}/hands/{hand}/play"
    page = client.http.get(play).get_data(as_text=True)
    assert "Before the first trick: a call" in page and '<option value="zolo">' in page
    form = _sheet(client, play)
    refused = client.http.post(play, data={**form, "seat": "0", "call": "grand slam"})
    assert refused.status_code == 422 and "is not a call of this game" in refused.get_data(as_text=True)
    assert client.http.post(play, data={**form, "seat": "1", "call": "zolo"}).status_code == 303
    assert [c["call"] for c in kop_table["admin"].get(f"/v1/groups/{gid}/hands/{hand}").json["calls"]] == ["zolo"]


def test_a_score_sheet_with_made_up_fields_is_an_error_not_a_crash(client, kop_table):
    gid = kop_table["group"]
    table = _table(kop_table, "scopa", {}, 2)
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    answer = client.http.post(path, data={**_sheet(client, path), "scopasX": "1", "points9": "x",
                                          "cards": "seven", "confirm": "no"})
    assert answer.status_code == 400 and "cards must be a whole number" in answer.get_data(as_text=True)


def test_sign_in_and_sign_out_refuse_a_form_from_another_site(client, kop_table):
    """Login CSRF: another site's form could sign this browser in to the stranger's group."""
    stranger = client.post("/v1/groups", {"name": "Stranger", "currency": "PLN"}).json
    forged = client.http.post("/signin", data={"token": stranger["admin_token"]})
    assert forged.status_code == 403 and "not from this browser" in forged.get_data(as_text=True)
    assert "bitka_session" not in forged.headers.get("Set-Cookie", "")
    _signed_in(client, kop_table["members"][0]["token"])
    kept = client.http.post("/signout", data={})  # no form token: someone else's button
    assert kept.status_code == 403 and client.http.get(f"/g/{kop_table['group']}").status_code == 200
    page = client.http.get(f"/g/{kop_table['group']}").get_data(as_text=True)
    out = client.http.post("/signout", data={"form_token": _hidden(page, "form_token"),
                                             "group": kop_table["group"]})
    assert out.status_code == 303 and client.http.get(f"/g/{kop_table['group']}").status_code == 302


def test_a_pair_games_score_sheet_names_each_side_by_its_players(client, kop_table):
    """Sueca's sides are pairs: a refusal of the sheet names the pair ("Ala and Cyd"), as the
    hand's page does, never "side 0"."""
    gid = kop_table["group"]
    table = _table(kop_table, "sueca", {}, 4)
    _signed_in(client, kop_table["members"][0]["token"])
    path = f"/g/{gid}/tables/{table}/result"
    token = _sheet(client, path)
    names = [m["name"] for m in kop_table["admin"].get(f"/v1/groups/{gid}").json["members"]]
    refused = client.http.post(path, data={**token, "points0": "120", "points1": "0", "tricks0": "1",
                                           "tricks1": "9", "confirm": "no"})
    said = html.unescape(re.sub(r"<[^>]+>", " ", refused.get_data(as_text=True)))
    assert refused.status_code == 422
    seated = [m["name"] for m in kop_table["members"]]
    assert f"{seated[0]} and {seated[2]}" in said and "side 0" not in said.lower(), said
    assert set(seated) <= set(names)


def test_a_match_won_by_a_pair_names_both_players_in_the_score_table(client, kop_table):
    """A match's winners are a side: at Briscola for four the score table names the pair."""
    gid = kop_table["group"]
    table = _table(kop_table, "briscola", {"players": 4, "match_to": 1}, 4)
    logged = kop_table["admin"].post(f"/v1/groups/{gid}/tables/{table}/hands",
                                     {"result": {"points": [70, 50], "tricks": [6, 4]}})
    assert logged.status_code == 201, logged.json
    _signed_in(client, kop_table["members"][0]["token"])
    page = html.unescape(client.http.get(f"/g/{gid}/tables/{table}").get_data(as_text=True))
    seated = [m["name"] for m in kop_table["members"]]
    assert f"game over at 1–0: {seated[0]} and {seated[2]} win" in page
