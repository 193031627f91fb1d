"""The tournament pages without a browser's script (issue 34): the organizer makes a
tournament of a points group's members, one player added on the spot with an invitation
link and its QR code, draws round 1 (once, however often the form is sent) and reads the
seat plan with its draw re-run; a player's group page says "Your table: 3, seat 2"; the
standings page follows the tables; the watch page shows the standings and the tables without
signing in and no card, and answers 410 once the admin ends it; bad input is said on the
page in words, and nothing is appended."""
from __future__ import annotations

import html
import re

import pytest

from service.web.cards import face
from tests.conftest import Client
from tests.tournaments import NAMES, PLAYERS, dealt_only, whole_hand


def _hidden(text: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', text).group(1)


def _form(page: str, action: str) -> dict:
    """The hidden fields of the form posting to ``action`` on ``page``."""
    start = page.index(f'action="{action}"')
    chunk = page[start:page.index("</form>", start)]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', chunk))


def _signed_in(app, token: str) -> Client:
    browser = Client(app.test_client())
    page = browser.http.get("/?choose=1").get_data(as_text=True)
    done = browser.http.post("/signin", data={"signin_token": _hidden(page, "signin_token"), "token": token})
    assert done.status_code == 303, done.get_data(as_text=True)
    return browser


def _text(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


@pytest.fixture
def points(app):
    """A group that keeps points, every player but the last a member, results counting at once."""
    api = Client(app.test_client())
    made = api.post("/v1/groups", {"name": "Turniej w Bytowie", "currency": "points"}).json
    admin = api.as_(made["admin_token"])
    base = f"/v1/groups/{made['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in NAMES[:-1]]
    assert admin.call("PATCH", base, {"confirmations": "off"}).status_code == 200
    return {"group": made["id"], "base": base, "admin": admin, "members": members, "app": app,
            "browser": _signed_in(app, made["admin_token"])}


def _version(t) -> int:
    return t["admin"].get(f"{t['base']}/events").json["version"]


def _fresh_form(t) -> tuple[str, dict]:
    path = f"/g/{t['group']}/tournaments/new"
    page = t["browser"].http.get(path).get_data(as_text=True)
    return path, {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "title": "Bytów, 3 grudnia",
                  "preset": "kop:0", "rounds": "2", "deals": "2", "places": "5 3 1 0", "stake": "1",
                  "entry": "scorer"}


def _created(t) -> str:
    """The tournament made on the page: the members ticked, the last player added on the spot."""
    path, form = _fresh_form(t)
    added = t["browser"].http.post(path, data={**form, "players": [m["id"] for m in t["members"]], "action": "add",
                                               "player": NAMES[-1]})
    assert added.status_code == 303, _text(added)
    page = _text(t["browser"].http.get(added.headers["Location"]))
    assert f"{NAMES[-1]}'s invitation" in page and page.count('class="qr"') == 1
    assert 'value="Bytów, 3 grudnia"' in page  # the form as it was filled
    link = re.search(r'href="http://[^/"]+(/join/[^"]+)"', page).group(1)
    assert "sign me in on this phone" in _text(Client(t["app"].test_client()).http.get(link))
    ticked = re.findall(r'name="players" value="([^"]+)" checked', page)
    assert len(ticked) == PLAYERS
    created = t["browser"].http.post(path, data={**form, "once": _hidden(page, "once"), "players": ticked,
                                                 "added": re.findall(r'name="added" value="([^"]+)"', page),
                                                 "action": "create"})
    assert created.status_code == 303, _text(created)
    return created.headers["Location"].rsplit("/", 1)[-1]


def _draw(t, tournament: str, number: int):
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    action = f"/g/{t['group']}/tournaments/{tournament}/draw"
    return t["browser"].http.post(action, data=_form(page, action)), _form(page, action)


def _api(t, tournament: str) -> dict:
    return t["admin"].get(f"{t['base']}/tournaments/{tournament}").json


def test_the_organizer_makes_a_tournament_draws_once_and_reads_the_seat_plan(points):
    t = points
    tournament = _created(t)
    made = _api(t, tournament)
    names = {m["id"]: m["name"] for m in t["admin"].get(t["base"]).json["members"]}
    assert [names[p] for p in made["players"]] == list(NAMES) and made["rounds"] == 2 and made["deals"] == 2
    assert made["places"] == [5, 3, 1, 0] and made["stake"] == "1" and made["drawn"] == 0
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert made["commitment"] in page and "Draw round 1" in page

    drawn, form = _draw(t, tournament, 1)
    assert drawn.status_code == 303 and drawn.headers["Location"].endswith(f"/tournaments/{tournament}/rounds/1")
    again = t["browser"].http.post(f"/g/{t['group']}/tournaments/{tournament}/draw", data=form)  # a double tap
    assert again.status_code == 303 and again.headers["Location"].endswith("/rounds/1?already=1")
    events = t["admin"].get(f"{t['base']}/events?limit=1000").json["events"]
    assert [e["type"] for e in events].count("round_drawn") == 1 and _api(t, tournament)["drawn"] == 1

    plan = _text(t["browser"].http.get(drawn.headers["Location"]))
    answer = _api(t, tournament)["drawn_rounds"][0]
    for number, table in enumerate(answer["tables"], 1):
        shown = re.search(rf'<h2 id="plan-{number}">Table {number}</h2>(.*?)</ol>', plan, re.S).group(1)
        assert re.findall(r'class="plan-name">([^<]+)<', shown) == [names[m] for m in table["seats"]]
    for figure in (answer["secret"], answer["seed"], answer["commitment"], made["commitment"]):
        assert figure in plan
    assert "the shuffle gives these tables" in plan and "bitka draw --check" in plan


def test_a_player_sees_their_table_and_seat_and_the_table_how_far_it_is(points):
    t = points
    tournament = _created(t)
    _draw(t, tournament, 1)
    answer = _api(t, tournament)["drawn_rounds"][0]
    member = t["members"][3]
    number, table = next((n, x) for n, x in enumerate(answer["tables"], 1) if member["id"] in x["seats"])
    seat = table["seats"].index(member["id"]) + 1
    phone = _signed_in(t["app"], member["token"])
    group = _text(phone.http.get(f"/g/{t['group']}"))
    assert re.search(rf'<a href="/g/{t["group"]}/tables/{table["id"]}">Your table: {number}, seat {seat}</a>', group)
    at = f"/g/{t['group']}/tables/{table['id']}"
    assert f"round 1, table {number} · No deal yet (2 to play)" in re.sub(r"<[^>]+>", "", _text(phone.http.get(at)))
    hands = f"{t['base']}/tables/{table['id']}/hands"
    assert t["admin"].post(hands, whole_hand(len(table["seats"]), 0)).status_code == 201
    assert "Deal 1 of 2 played" in _text(phone.http.get(at))
    assert t["admin"].post(hands, dealt_only(len(table["seats"]), 1)).status_code == 201
    assert "Deal 2 of 2: being played" in _text(phone.http.get(at))
    mine = _text(phone.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert f"Your table: {number}, seat {seat}" in mine and "Draw round" not in mine  # the button is the admin's


def test_the_standings_follow_the_tables_and_the_next_round_is_drawn_once_they_are_done(points):
    t = points
    tournament = _created(t)
    _draw(t, tournament, 1)
    tables = _api(t, tournament)["drawn_rounds"][0]["tables"]
    path = f"/g/{t['group']}/tournaments/{tournament}/standings"
    assert "No standings yet" in _text(t["browser"].http.get(path))
    for number, table in enumerate(tables, 1):
        for dealer in range(2):
            hand = whole_hand(len(table["seats"]), dealer, kontra=dealer == 1 and number % 2 == 1)
            assert t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", hand).status_code == 201
    standings = t["admin"].get(f"{t['base']}/tournaments/{tournament}/standings").json
    page = _text(t["browser"].http.get(path))
    rows = re.findall(r'<td class="num place">(\d+)</td><th scope="row">([^<]+)</th>\s*'
                      r'<td class="num"><strong>([^<]+)</strong></td>\s*<td class="num (?:up|down)">([^<]+)</td>\s*'
                      r'<td class="num">(\d+)</td>', page)
    assert rows == [(str(p["place"]), p["name"], p["points"], p["small"], str(p["first_places"]))
                    for p in standings["players"]]
    for table in tables:  # each table's places shared by ties as the organizers' sheets share them
        small = {p["member"]: int(p["small"]) for p in standings["players"] if p["member"] in table["seats"]}
        ranked = sorted(small.values(), reverse=True)
        for p in standings["players"]:
            if p["member"] in small:
                covered = [i for i, v in enumerate(ranked) if v == small[p["member"]]]
                worth = sum(([5, 3, 1, 0, 0][i] for i in covered)) / len(covered)
                assert float(p["points"]) == pytest.approx(worth), (table, p)
    live = t["browser"].http.get(path + "/live")
    assert live.status_code == 200 and "1 round of 2 played out." in _text(live)
    assert t["browser"].http.get(path + "/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert page.count("All 2 deals played") == len(tables) and "Draw round 2" in page
    drawn, _form_sent = _draw(t, tournament, 2)
    assert drawn.status_code == 303 and drawn.headers["Location"].endswith("/rounds/2")
    assert "Draw round" not in _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    # the group's list of tables keeps the round in play and leaves the round played out to the tournament's page
    group_page = _text(t["browser"].http.get(f"/g/{t['group']}"))
    assert group_page.count(": round 2, table ") == len(tables) and ": round 1, table " not in group_page
    assert "The tables of tournament rounds played out are on each tournament’s page." in group_page
    its_page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert all(f"/tables/{table['id']}" in its_page for table in tables)  # still there, on the tournament's page


def test_the_watch_page_shows_standings_and_tables_and_no_card_then_410_once_ended(points):
    t = points
    tournament = _created(t)
    _draw(t, tournament, 1)
    tables = _api(t, tournament)["drawn_rounds"][0]["tables"]
    first, second = tables[0], tables[1]
    assert t["admin"].post(f"{t['base']}/tables/{first['id']}/hands", whole_hand(len(first["seats"]), 0)).status_code \
        == 201
    in_play = dealt_only(len(second["seats"]), 0)
    assert t["admin"].post(f"{t['base']}/tables/{second['id']}/hands", in_play).status_code == 201
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    action = f"/g/{t['group']}/tournaments/{tournament}/watch"
    opened = t["browser"].http.post(action, data={**_form(page, action), "action": "open"})
    assert opened.status_code == 303
    page = _text(t["browser"].http.get(opened.headers["Location"]))
    link = re.search(r'href="http://[^/"]+(/t/[^"]+)"', page).group(1)
    assert "the watch link as a QR code" in page and len(_api(t, tournament)["players"]) == PLAYERS

    stranger = Client(t["app"].test_client())  # signed in nowhere
    watched = stranger.http.get(link)
    shown = _text(watched)
    assert watched.status_code == 200 and "Signed in as" not in shown
    assert all(name in shown for name in NAMES) and "Table 1" in shown and "Deal 1 of 2: being played" in shown
    cards = {c for hand in in_play["deal"]["hands"] for c in hand}
    faces = {f"{face(c)['rank']}{face(c)['symbol']}" for c in cards}
    words = {face(c)["words"] for c in cards}
    assert not any(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", shown) for c in cards | faces), "a card shown"
    assert not any(w in shown for w in words)
    live = stranger.http.get(link + "/live")
    assert live.status_code == 200 and "Table 1" in _text(live)
    assert stranger.http.get(link + "/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304

    digest = re.search(r'name="watch" value="([0-9a-f]{64})"', page).group(1)
    ended = t["browser"].http.post(action, data={**_form(page, action), "action": "end", "watch": digest})
    assert ended.status_code == 303
    gone = stranger.http.get(link)
    assert gone.status_code == 410 and "This watch link was ended" in _text(gone)
    assert stranger.http.get(link + "/live").status_code == 410
    assert stranger.http.get(link[:-4] + "abcd").status_code == 404
    assert stranger.http.get("/t/no-such-link").status_code == 404


def test_bad_input_is_said_on_the_page_in_words_and_appends_nothing(points):
    t = points
    path, form = _fresh_form(t)
    before = _version(t)
    seven = t["browser"].http.post(path, data={**form, "players": [m["id"] for m in t["members"][:7]],
                                               "action": "create"})
    said = _text(seven)
    assert seven.status_code == 422 and "7 players cannot sit at tables of 4: tick" in said, said
    assert said.count('checked') >= 7  # the ticks kept
    zero = t["browser"].http.post(path, data={**form, "players": [m["id"] for m in t["members"][:8]], "rounds": "0",
                                              "action": "create"})
    assert zero.status_code == 400 and "The number of rounds must be from 1 to 100" in _text(zero)
    nameless = t["browser"].http.post(path, data={**form, "title": " ", "action": "create",
                                                  "players": [m["id"] for m in t["members"][:8]]})
    assert nameless.status_code == 400 and "Give the tournament a name" in _text(nameless)
    places = t["browser"].http.post(path, data={**form, "places": "1 3 5", "action": "create",
                                                "players": [m["id"] for m in t["members"][:8]]})
    assert places.status_code == 422 and "Places give the first place the most table points" in _text(places)
    assert _version(t) == before

    tournament = _created(t)
    _draw(t, tournament, 1)
    before = _version(t)
    refused, _form_sent = _draw(t, tournament, 2)
    said = _text(refused)
    assert refused.status_code == 422 and 'role="alert"' in said
    assert re.search(r"Round 1 is still being played at tables 1, 2,? and 3: every table plays its 2 deals", said)
    assert _version(t) == before
    phone = _signed_in(t["app"], t["members"][0]["token"])
    page = _text(phone.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    forged = phone.http.post(f"/g/{t['group']}/tournaments/{tournament}/draw",
                             data={"form_token": _hidden(page, "form_token"), "once": "web-" + "a" * 22, "round": "2"})
    assert forged.status_code == 403 and "Only the group's admin" in _text(forged) and _version(t) == before


def test_a_tournament_of_two_seat_tables_made_on_the_page_keeps_the_usual_places_its_tables_have(points):
    t = points
    path, form = _fresh_form(t)  # the places as the form first shows them: 5 3 1 0
    ticked = [m["id"] for m in t["members"]][:6]
    made = t["browser"].http.post(path, data={**form, "preset": "scopa:0", "players": ticked, "action": "create"})
    assert made.status_code == 303, _text(made)
    tournament = _api(t, made.headers["Location"].rsplit("/", 1)[-1])
    assert tournament["game"] == "scopa" and tournament["places"] == [5, 3]
    path, form = _fresh_form(t)
    typed = t["browser"].http.post(path, data={**form, "preset": "scopa:0", "players": ticked, "places": "3 1 0",
                                               "action": "create"})
    assert typed.status_code == 422 and "seats 2" in _text(typed)
