"""The tournament pages without a browser's script (issue 34): the organizer makes a
tournament of a points group's members, one player added on the spot with an invitation
link and its QR code; the players check in for round 1 from their phones ("I am here": the
random bytes static/check_in.js would put in the form, signed as static/sign.js would for a
player who holds a key), the page says who is here and who is not, a draw before everyone
is here is refused naming them, and the organizer draws round 1 without the one who did not
come (once, however often the form is sent) and reads the seat plan with its draw re-run
from the check-ins and the absent player marked; a player's group page says "Your table: 3,
seat 2"; the standings page follows the tables; the watch page shows the standings and the
tables without signing in and no card, and answers 410 once the admin ends it; bad input is
said on the page in words, and nothing is appended. The organizer who plays checks in and
draws from one page; a tournament from before check-ins is drawn as before."""
from __future__ import annotations

import hashlib
import html
import json
import re

import pytest

from service.app import create_app
from service.web.cards import face
from tests.api.test_keys_pages import Phone, _member
from tests.command import run
from tests.conftest import Client
from tests.keys.devices import Device
from tests.tampering import rechained
from tests.tournaments import NAMES, PLAYERS, dealt_only, entropy, shuffled_by, their_seed, whole_hand


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


def _check_in_action(t, tournament: str, number: int) -> str:
    return f"/g/{t['group']}/tournaments/{tournament}/rounds/{number}/check-in"


def _check_in(t, tournament: str, number: int, member: dict, device: Device | None = None, phone=None):
    """``member`` taps "I am here" on the tournament's page on their phone: the form's hidden
    fields, the random bytes check_in.js puts in it (here: tests/tournaments.py's, so that the
    seed can be said beforehand) and, for a member who holds a key, the signature sign.js adds."""
    phone = phone or _signed_in(t["app"], member["token"])
    page = _text(phone.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    action = _check_in_action(t, tournament, number)
    form = {**_form(page, action), "entropy": entropy(member["id"], number)}
    if device is not None:
        form.update(device.signature("check_in", t["group"], tournament=tournament, round=number,
                                     entropy=form["entropy"]))
    return phone.http.post(action, data=form)


def _everyone_in(t, tournament: str, number: int) -> None:
    """Every member checks in for round ``number`` on their phone (the player added on the spot,
    who has not joined, does not)."""
    for member in t["members"]:
        answer = _check_in(t, tournament, number, member)
        assert answer.status_code == 303, _text(answer)


def _draw(t, tournament: str, number: int, absent: list[str] | None = None, check_in: bool = True):
    """The organizer's draw of round ``number`` after every member checked in, the players not
    checked in ticked to draw without (all of them, unless ``absent`` says which)."""
    if check_in:
        _everyone_in(t, tournament, number)
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    action = f"/g/{t['group']}/tournaments/{tournament}/draw"
    offered = _ticks(page, action)
    form = {**_form(page, action), "absent": offered if absent is None else absent}
    return t["browser"].http.post(action, data=form), form


def _ticks(page: str, action: str) -> list[str]:
    """The players the draw form offers to draw without (a box each)."""
    start = page.index(f'action="{action}"')
    return re.findall(r'name="absent" value="([^"]+)"', page[start:page.index("</form>", start)])


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
    assert made["commitment"] in page and "Draw round 1" in page and made["draw"] == 2
    assert "Who is here for round 1" in page and "Nobody has checked in yet." in page
    assert "I am here" not in page  # the admin plays no game
    action = f"/g/{t['group']}/tournaments/{tournament}/draw"
    assert _ticks(page, action) == made["players"] and "Draw without them" in page

    # Drawn before anyone is here, without ticking anyone: refused, every player named in words.
    before = _version(t)
    early, _sent = _draw(t, tournament, 1, absent=[], check_in=False)
    said = _text(early)
    assert early.status_code == 422 and 'role="alert"' in said and _version(t) == before
    listed = re.search(r"([^>]*) have not checked in for round 1: wait for them, or tick them to draw without "
                       r"them", said)
    assert listed and re.split(r", (?:and )?| and ", listed.group(1)) == list(NAMES), said

    # The members check in on their phones; the page says who is here and who is not.
    _everyone_in(t, tournament, 1)
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert f"Checked in, {PLAYERS - 1} of {PLAYERS}: " in page and f"Not checked in yet: {NAMES[-1]}." in page
    assert _ticks(page, action) == made["players"][-1:]  # only the one not checked in
    assert _api(t, tournament)["checked_in"] == made["players"][:-1]
    before = _version(t)
    waits, _sent = _draw(t, tournament, 1, absent=[], check_in=False)
    assert waits.status_code == 422 and _version(t) == before
    assert f"{NAMES[-1]} has not checked in for round 1: wait for them, or tick them" in _text(waits)

    drawn, form = _draw(t, tournament, 1, check_in=False)  # without the one who did not come
    assert drawn.status_code == 303 and drawn.headers["Location"].endswith(f"/tournaments/{tournament}/rounds/1")
    again = t["browser"].http.post(f"/g/{t['group']}/tournaments/{tournament}/draw", data=form)  # a double tap
    assert again.status_code == 303 and again.headers["Location"].endswith("/rounds/1?already=1")
    events = t["admin"].get(f"{t['base']}/events?limit=1000").json["events"]
    assert [e["type"] for e in events].count("round_drawn") == 1 and _api(t, tournament)["drawn"] == 1
    answer = _api(t, tournament)["drawn_rounds"][0]
    assert answer["absent"] == made["players"][-1:]
    seed = their_seed(bytes.fromhex(answer["secret"]), [entropy(p, 1) for p in made["players"][:-1]])
    assert answer["seed"] == seed.hex()
    order = shuffled_by(made["players"], seed)
    assert [m for table in answer["tables"] for m in table["seats"]] == order
    check_ins = [e for e in events if e["type"] == "check_in"]
    assert answer["after"] == check_ins[-1]["seq"] and [e["actor"] for e in check_ins] == made["players"][:-1]

    plan = _text(t["browser"].http.get(drawn.headers["Location"]))
    for number, table in enumerate(answer["tables"], 1):
        shown = re.search(rf'<h2 id="plan-{number}">Table {number}</h2>(.*?)</ol>', plan, re.S).group(1)
        assert re.findall(r'class="plan-name">([^<]+)<', shown) == [names[m] for m in table["seats"]]
        for seat in re.findall(r"<li>(.*?)</li>", shown, re.S):
            marked = "(drawn without their check-in)" in seat
            assert marked == (f'class="plan-name">{NAMES[-1]}<' in seat), seat
    assert plan.count("(drawn without their check-in)") == 1
    assert f"Drawn without their check-in: {NAMES[-1]}." in plan
    for figure in (answer["secret"], answer["seed"], answer["commitment"], made["commitment"]):
        assert figure in plan
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td class="num">(\d+)</td><td><code class="hash">([0-9a-f]{64})'
                      r'</code></td></tr>', plan)
    assert rows == [(names[e["actor"]], str(e["seq"]), e["data"]["entropy"]) for e in check_ins]
    assert "the shuffle gives these tables" in plan and "bitka draw --check" in plan
    page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert page.count("(drawn without their check-in)") == 1  # beside the absent player at their table
    assert "Who is here for round 2" in page and "Nobody has checked in yet." in page


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
    _everyone_in(t, tournament, 2)  # only the tables still playing hold round 2 back
    before = _version(t)
    refused, _form_sent = _draw(t, tournament, 2, check_in=False)
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


def test_a_player_checks_in_on_their_phone_signed_by_their_key_once_and_not_without_the_script(points):
    t = points
    tournament = _created(t)
    keyed, plain = t["members"][0], t["members"][1]
    phone = Device()  # Ala's phone holds her key: her check-in is signed, as sign.js signs it
    r = t["admin"].as_(keyed["token"]).post(f"{t['base']}/members/{keyed['id']}/devices", {"key": phone.key})
    assert r.status_code == 201, r.json
    browser = _signed_in(t["app"], keyed["token"])
    raw = browser.http.get(f"/g/{t['group']}/tournaments/{tournament}").get_data(as_text=True)
    page = html.unescape(raw)
    action = _check_in_action(t, tournament, 1)
    start = raw.index(f'action="{action}"')
    tag = raw[raw.rindex("<form", 0, start):raw.index(">", start)]
    attrs = {k: html.unescape(v) for k, v in re.findall(r'(data-[a-z-]+)="([^"]*)"', tag)}
    start = page.index(f'action="{action}"')
    assert "data-check-in" in tag and attrs["data-act"] == "check_in" and attrs["data-keyed"] == "1"
    assert attrs["data-member"] == keyed["id"] and phone.kid in attrs["data-kids"].split()
    assert json.loads(attrs["data-fields"]) == {"tournament": tournament, "round": 1}  # check_in.js adds the entropy
    assert _form(page, action)["entropy"] == ""  # made on the phone, never by the server
    form_part = page[start:page.index("</form>", start)]
    assert re.search(r"<button type=\"submit\" disabled>I am here: check in for round 1</button>", form_part)
    assert "<noscript>" in form_part and "Checking in needs this phone's browser to run the page's script" in form_part
    assert "/static/check_in.js" in page

    before = _version(t)
    unsigned = _check_in(t, tournament, 1, keyed, phone=browser)
    assert unsigned.status_code == 403 and "it needs your signature" in _text(unsigned) and _version(t) == before
    other = Device()
    forged = _check_in(t, tournament, 1, keyed, device=other, phone=browser)
    assert forged.status_code == 403 and "does not hold" in _text(forged) and _version(t) == before
    fields = {**_form(page, action), "entropy": ""}  # sent without the script: no random bytes
    bare = browser.http.post(action, data=fields)
    said = _text(bare)
    assert bare.status_code == 400 and "Checking in needs this phone's browser to make 32 random bytes" in said
    assert _version(t) == before

    signed = _check_in(t, tournament, 1, keyed, device=phone, phone=browser)
    assert signed.status_code == 303 and signed.headers["Location"].endswith(f"/tournaments/{tournament}#draw-h")
    event = t["admin"].get(f"{t['base']}/events?after={before}").json["events"][0]
    assert event["type"] == "check_in" and event["actor"] == keyed["id"]
    assert event["data"]["entropy"] == entropy(keyed["id"], 1) and event["data"]["signed"]["kid"] == phone.kid
    page = _text(browser.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert "You have checked in for round 1." in page and action not in page and "check_in.js" not in page
    assert f"Checked in, 1 of {PLAYERS}: {NAMES[0]}." in page

    # A member who never had a key checks in unsigned; the same tap sent twice is one check-in, a
    # second check-in (another page, other bytes) is refused in words.
    plain_phone = _signed_in(t["app"], plain["token"])
    shown = _text(plain_phone.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    sent = {**_form(shown, action), "entropy": entropy(plain["id"], 1)}
    assert plain_phone.http.post(action, data=sent).status_code == 303
    twice = plain_phone.http.post(action, data=sent)
    assert twice.status_code == 303 and twice.headers["Location"].endswith("?already=1#draw-h")
    before = _version(t)
    again = plain_phone.http.post(action, data={**sent, "once": "web-" + "b" * 22,
                                                "entropy": hashlib.sha256(b"other").hexdigest()})
    assert again.status_code == 422 and "checked in for round 1 already" in _text(again) and _version(t) == before
    assert _api(t, tournament)["checked_in"] == [keyed["id"], plain["id"]]

    # Nobody checks in for another: the admin has no "I am here", and a member who does not play
    # is refused in words.
    admin_page = _text(t["browser"].http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert action not in admin_page
    outsider = t["admin"].post(f"{t['base']}/members", {"name": "Zenek"}).json
    outside = _signed_in(t["app"], outsider["token"])
    shown = _text(outside.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
    assert action not in shown and "Who is here for round 1" in shown
    before = _version(t)
    refused = outside.http.post(action, data={"form_token": _hidden(shown, "form_token"), "once": "web-" + "c" * 22,
                                              "entropy": entropy(outsider["id"], 1)})
    assert refused.status_code == 403 and "Only a player of the tournament checks in" in _text(refused)
    assert _version(t) == before


def test_the_organizer_who_plays_checks_in_and_draws_from_one_page_and_one_sign_in(app):
    """Ola started the group as its organizer with her phone's key: on the tournament's page
    she is a player who checks in (signed by her key) and the admin who draws, at once."""
    ola = Phone(app)
    group = ola.start_group()
    for name in ("Bożena", "Cyd", "Dan"):
        ola.link(group, name)
    players = [_member(app, group, name) for name in ("Ola", "Bożena", "Cyd", "Dan")]
    path = f"/g/{group}/tournaments/new"
    made = ola.post(path, {**ola.form(path), "title": "Czwartek", "preset": "kop:0", "rounds": "1", "deals": "1",
                           "places": "5 3 1 0", "stake": "1.00", "entry": "scorer", "players": players,
                           "action": "create"})
    assert made.status_code == 303, made.get_data(as_text=True)
    tournament = made.headers["Location"].rsplit("/", 1)[-1]
    page = ola.text(f"/g/{group}/tournaments/{tournament}")
    action = f"/g/{group}/tournaments/{tournament}/rounds/1/check-in"
    assert "I am here: check in for round 1" in page and "Draw round 1" in page and "Make a watch link" in page
    sent = {**_form(page, action), "entropy": entropy(players[0], 1),
            **ola.device.signature("check_in", group, tournament=tournament, round=1, entropy=entropy(players[0], 1))}
    checked = ola.post(action, sent)
    assert checked.status_code == 303, checked.get_data(as_text=True)
    page = ola.text(f"/g/{group}/tournaments/{tournament}")
    draw = f"/g/{group}/tournaments/{tournament}/draw"
    assert "You have checked in for round 1." in page and _ticks(page, draw) == players[1:]
    drawn = ola.post(draw, {**_form(page, draw), "absent": players[1:]})
    assert drawn.status_code == 303 and drawn.headers["Location"].endswith(f"/tournaments/{tournament}/rounds/1")
    plan = ola.text(drawn.headers["Location"])
    assert plan.count("(drawn without their check-in)") == 3 and "Drawn without their check-in: Bożena, Cyd" in plan
    assert entropy(players[0], 1) in plan and "the shuffle gives these tables" in plan


def test_a_tournament_from_before_check_ins_is_drawn_as_before_on_its_pages(points, tmp_path):
    """A store from before check-ins (its tournament created without ``"draw": 2``, here made by
    rewriting an export and importing it, on a server with the same key): no "I am here", no
    one to draw without, and the round drawn from the hash of the group's last event, as the
    seat plan says and draws again."""
    t = points
    path, form = _fresh_form(t)
    made = t["browser"].http.post(path, data={**form, "players": [m["id"] for m in t["members"][:8]],
                                              "action": "create"})
    assert made.status_code == 303, _text(made)
    tournament = made.headers["Location"].rsplit("/", 1)[-1]
    exported = tmp_path / "old.jsonl"
    assert run("--db", t["app"].config["BITKA_DB"], "export", "--group", t["group"], "--out",
               str(exported)).exit_code == 0
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    for env in lines:
        if env["type"] == "tournament_created":
            assert env["data"].pop("draw") == 2
    exported.write_text("\n".join(rechained(lines)) + "\n")
    old_db = tmp_path / "old.db"
    imported = run("--db", str(old_db), "import", str(exported))
    assert imported.exit_code == 0, imported.output
    token = re.search(r"its new admin token: (\S+)", imported.output).group(1)  # tokens are not in the log
    ala = t["members"][0]
    rotated = run("--db", str(old_db), "rotate-token", "--group", t["group"], "--member", ala["id"])
    assert rotated.exit_code == 0, rotated.output
    ala_token = rotated.output.strip().rsplit(" ", 1)[-1]
    old = create_app({"BITKA_DB": str(old_db), "BITKA_KEY": t["app"].config["BITKA_KEY"], "TESTING": True})
    try:
        admin = Client(old.test_client(), token)
        read = admin.get(f"{t['base']}/tournaments/{tournament}").json
        assert read["draw"] == 1 and "checked_in" not in read
        browser = _signed_in(old, token)
        page = _text(browser.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
        assert "the hash of the group's last event before the draw" in page and "Who is here" not in page
        assert "Draw without them" not in page and "Draw round 1" in page
        member = _signed_in(old, ala_token)
        assert "I am here" not in _text(member.http.get(f"/g/{t['group']}/tournaments/{tournament}"))
        refused = admin.as_(ala_token).post(f"{t['base']}/tournaments/{tournament}/rounds/1/check-in",
                                            {"entropy": entropy(ala["id"], 1)})
        assert refused.status_code == 422 and "without check-ins" in refused.json["detail"]

        action = f"/g/{t['group']}/tournaments/{tournament}/draw"
        last = admin.get(f"{t['base']}/events?limit=1000").json["events"][-1]
        drawn = browser.http.post(action, data=_form(page, action))
        assert drawn.status_code == 303, _text(drawn)
        answer = admin.get(f"{t['base']}/tournaments/{tournament}").json["drawn_rounds"][0]
        assert answer["after"] == last["seq"] and "absent" not in answer
        seed = hashlib.sha256(bytes.fromhex(answer["secret"]) + bytes.fromhex(last["hash"])).digest()
        assert answer["seed"] == seed.hex()
        assert [m for table in answer["tables"] for m in table["seats"]] == shuffled_by(read["players"], seed)
        plan = _text(browser.http.get(drawn.headers["Location"]))
        assert f"It drew the round right after the group's event {last['seq']}, whose hash" in plan
        assert last["hash"] in plan and "the shuffle gives these tables" in plan and "check-in" not in plan
    finally:
        old.extensions["bitka.store"].close()
