"""The score sheet and opening a table, as the players feel them (issue 43), without a browser:
the sheet asks the contract first, then who, then the numbers, and says which contracts ask
each field and in what words (its script shows only those); every answer of a few values is
one tap; an impossible total comes back with the totals near it that can happen, one tap each,
every other answer kept; a hand that moves no money says so in words; the sheet leads back to
its table; a member seated at a table where each seat logs its own cards logs a result there,
signed; a table opens with its game's target and what its stake pays; two tables of one game
at one stake are named apart. Each in the four languages, where the structure is the same."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from games.engine.possible import nearest, pack_values, totals
from games.kop.pack import CARD_POINTS, PACK
from games.registry import GAMES
from service.http import store
from tests.api.test_evening_pages import _hidden, _open_table
from tests.api.test_page_papercuts import NAMES, _evening
from tests.api.test_signed_pages import forms_of, phone, refused_in_words, signed_event
from tests.keys.table import keyed_group

LANGUAGES = ("en", "pl", "it", "pt_BR")


class _Sheet(HTMLParser):
    """A score sheet as its script reads it: each field's box (its data-* attributes), the
    controls in it (name, type, value, checked), and the values offered after a refusal."""

    def __init__(self):
        super().__init__()
        self.fields: list[dict] = []
        self.offers: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "sheet-field" in (a.get("class") or "").split():
            self.fields.append({**{k: v for k, v in a.items() if k.startswith("data-")}, "controls": []})
        elif tag == "input" and self.fields and a.get("name"):
            self.fields[-1]["controls"].append((a["name"], a.get("type", "text"), a.get("value"), "checked" in a,
                                                a.get("inputmode")))
        elif tag == "button" and a.get("name") == "take":
            name, _colon, value = a["value"].partition(":")
            self.offers.setdefault(name, []).append(value)


def _sheet(page: str) -> _Sheet:
    parsed = _Sheet()
    parsed.feed(page)
    return parsed


def _text(answer) -> str:
    return answer.get_data(as_text=True)


def _form(page: str) -> dict:
    return {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once")}


def _structure(sheet: _Sheet) -> list[tuple]:
    """What a sheet asks, whatever the language: each field, its kind, the answers that ask it,
    the answers it has words for, and its controls."""
    return [(f["data-field"], f["data-kind"], f.get("data-applies"), sorted(re.findall(r'"([\w-]+)":', f.get(
        "data-labels", ""))), f["controls"]) for f in sheet.fields]


def test_the_totals_offered_are_those_the_pack_can_give_nearest_the_one_typed():
    one_trick = totals(pack_values(PACK, CARD_POINTS), 4)
    assert nearest(75, one_trick) == [41, 42, 43, 44] and 30 not in one_trick and nearest(30, one_trick, 2) == [28, 32]
    assert nearest(30, {28, 32, 35}, 1) == [28] and nearest(30, {29, 31, 35}, 3) == [29, 31, 35]  # the lower first
    [points, tricks] = [f for f in GAMES["kop"].forms.result_fields(GAMES["kop"].parse_rules({}))
                        if f.name in ("points", "tricks")]
    assert points.plausible({"tricks": "1"}) == one_trick and points.plausible({"tricks": ""}) is None
    assert tricks.plausible({"points": "75"}) == {2} and tricks.plausible({"points": "x"}) is None


def test_the_kop_sheet_asks_the_contract_then_who_then_the_numbers_each_only_where_the_contract_needs_it(app):
    admin, group, phones = _evening(app)
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    page = _text(phones[0].http.get(f"/g/{group}/tables/{kop}/result"))
    fields = {f["data-field"]: f for f in _sheet(page).fields}
    assert list(fields) == ["contract", "stare", "declarer", "partner", "doubles", "points", "tricks"]
    contract = fields["contract"]["controls"]
    assert [(value, kind, checked) for _name, kind, value, checked, _mode in contract] == [
        ("normal", "radio", True), ("cicha", "radio", False), ("wesele", "radio", False), ("zolo", "radio", False),
        ("zolo-du", "radio", False)]  # one tap each, the usual one chosen
    applies = {name: f.get("data-applies", "").split() for name, f in fields.items() if name != "contract"}
    assert applies == {"stare": ["normal"], "declarer": ["cicha", "wesele", "zolo", "zolo-du"], "partner": ["wesele"],
                       **{name: ["normal", "cicha", "wesele", "zolo", "zolo-du"] for name in ("doubles", "points",
                                                                                         "tricks")}}
    assert all(f.get("data-by") == "contract" for name, f in fields.items() if name != "contract")
    points = fields["points"]
    assert points["controls"] == [("points", "text", "", False, "numeric")]  # the keypad
    said = {c: w for c, w in re.findall(r'"([\w-]+)": "([^"]*)"', points["data-labels"])}
    assert "stare" in said["normal"] and "wesele pair" in said["wesele"]
    assert "alone" in said["zolo"] and "stare" not in said["zolo"] and "stare" not in said["cicha"]
    assert "Who called zolo?" in fields["declarer"]["data-labels"]
    tricks = fields["tricks"]["controls"]
    assert [(kind, value) for _name, kind, value, _checked, _mode in tricks] == [("radio", str(n)) for n in range(5)]
    assert 'data-ladder=\'["kontra", "re", "bok", "slup"]\'' in page and "/static/sheet.js" in page


def test_an_impossible_total_comes_back_with_the_totals_near_it_one_tap_each_and_nothing_else_lost(app):
    admin, group, phones = _evening(app)
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    path = f"/g/{group}/tables/{kop}/result"
    typed = {**_form(_text(phones[1].http.get(path))), "contract": "normal", "stare": ["1", "3"], "doubles": "2",
             "points": "75", "tricks": "1"}
    refused = phones[1].http.post(path, data={**typed, "confirm": "no"})
    page = _text(refused)
    assert refused.status_code == 422 and "75 card points in 1 trick is impossible" in page
    sheet = _sheet(page)
    assert sheet.offers == {"points": ["41", "42", "43", "44"], "tricks": ["2"]}
    kept = {name: value for f in sheet.fields for name, kind, value, checked, _mode in f["controls"]
            if checked or kind not in ("radio", "checkbox")}
    assert kept == {"contract": "normal", "stare": "3", "doubles": "2", "points": "75", "tricks": "1"}
    assert 'value="1" checked> Bob' in page and 'value="3" checked> Dan' in page
    taken = phones[1].http.post(path, data={**typed, "take": "tricks:2"})  # one tap
    shown = _text(taken)
    assert taken.status_code == 200 and "It would settle like this" in shown and 'class="problem"' not in shown
    assert 'name="tricks" value="2" checked' in shown and re.search(r'name="points"[^>]* value="75"', shown)
    logged = phones[1].http.post(path, data={**typed, "tricks": "2", "confirm": "yes",
                                             "previewed": _hidden(shown, "previewed")})
    assert logged.status_code == 303
    with app.app_context(), store().reading() as r:
        [result] = [e.data["result"] for e in r.table_events(group, kop) if e.type == "result"]
    assert result == {"contract": "normal", "stare": [1, 3], "doubles": [2], "points": 75, "tricks": 2}
    hand = logged.headers["Location"].split("/")[-1]
    correcting = _text(admin.http.get(f"/g/{group}/hands/{hand}/correct"))  # a correction draws the same sheet
    assert [f["data-field"] for f in _sheet(correcting).fields] == ["contract", "stare", "declarer", "partner",
                                                                     "doubles", "points", "tricks"]


def test_the_sheet_in_each_language_asks_the_same_and_offers_the_same(app):
    admin, group, phones = _evening(app)
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    path = f"/g/{group}/tables/{kop}/result"
    shapes, offers = {}, {}
    for language in LANGUAGES:
        assert phones[2].http.get(f"/language/{language}?next=/").status_code == 302
        page = _text(phones[2].http.get(path))
        shapes[language] = _structure(_sheet(page))
        refused = phones[2].http.post(path, data={**_form(page), "contract": "zolo", "declarer": "2", "points": "75",
                                                  "tricks": "1", "confirm": "no"})
        assert refused.status_code == 422, language
        offers[language] = _sheet(_text(refused)).offers
    assert all(shape == shapes["en"] for shape in shapes.values()), shapes
    assert all(offered == {"points": ["41", "42", "43", "44"], "tricks": ["2"]} for offered in offers.values()), offers


def test_a_scopa_sheet_leads_back_to_its_table_and_says_when_a_hand_pays_nothing(app):
    admin, group, phones = _evening(app)
    scopa = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    path = f"/g/{group}/tables/{scopa}/result"
    page = _text(phones[0].http.get(path))
    assert re.search(rf'<p><a href="/g/{group}/tables/{scopa}">← Scopa for two at PLN.0\.50</a></p>', page), page
    fields = {f["data-field"]: f["controls"] for f in _sheet(page).fields}
    assert [(value, kind) for _n, kind, value, _c, _m in fields["cards"]] == [("0", "radio"), ("1", "radio"),
                                                                             ("tie", "radio")]
    assert [(value, kind) for _n, kind, value, _c, _m in fields["settebello"]] == [("0", "radio"), ("1", "radio")]
    shown = phones[0].http.post(path, data={**_form(page), "cards": "0", "coins": "0", "primiera": "tie",
                                            "settebello": "0", "scopas0": "1", "scopas1": "0", "confirm": "no"})
    said = _text(shown)
    preview = said[said.index('id="preview-h"'):said.index("Log this result")]
    assert "game score: Ala 4, Bob 0 (to 11)" in preview
    assert "Nobody pays or receives anything for this hand." in preview and "<table" not in preview
    logged = phones[0].http.post(path, data={**_form(page), "cards": "0", "coins": "0", "primiera": "tie",
                                             "settebello": "0", "scopas0": "1", "scopas1": "0", "confirm": "yes",
                                             "previewed": _hidden(said, "previewed")})
    assert logged.status_code == 303


def test_a_member_seated_where_each_seat_logs_its_cards_logs_a_result_by_the_sheet_signed(app, client):
    g = keyed_group(client, seats=True)
    bob = g.members[1]
    browser = phone(app, g, bob)
    path = f"/g/{g.id}/tables/{g.table}/result"
    opened = browser.http.get(path)
    assert opened.status_code == 200
    [form] = forms_of(_text(opened), path)
    typed = {"contract": "zolo", "declarer": "1", "points": "60", "tricks": "2"}
    shown = _text(browser.http.post(path, data={**form["hidden"], **typed, "confirm": "no"}))
    [form] = forms_of(shown, path)
    [log] = [b for b in form["buttons"] if b.get("value") == "yes"]
    result = {"contract": "zolo", "declarer": 1, "doubles": [], "points": 60, "tricks": 2}
    said = {"table": g.table, "dealer": 0, "result": result}
    assert log["data-act"] == "result" and log["data-keyed"] == "1"
    sent = {**form["hidden"], **typed, "confirm": "yes"}
    refused_in_words(browser.http.post(path, data=sent), g, g.version())  # unsigned: nothing logged
    done = browser.http.post(path, data={**sent, **g.devices[bob].signature("result", g.id, **said)})
    assert done.status_code == 303, _text(done)[:600]
    event = signed_event(g, "result", bob)
    assert event["data"]["result"] == result and event["data"]["signed"]["kid"] == g.devices[bob].kid
    hand = done.headers["Location"].split("/")[-1]
    waits = g.admin.get(f"/v1/groups/{g.id}/hands/{hand}").json["confirmation"]
    assert waits["state"] == "pending" and sorted(waits["waiting_for"]) == sorted(m for m in g.members if m != bob)


def test_two_tables_of_one_game_at_one_stake_are_named_apart_by_their_players(app):
    admin, group, phones = _evening(app)
    first = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    second = _open_table(admin, group, "scopa:0", NAMES[2:], entry="scorer")
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    page = _text(phones[0].http.get(f"/g/{group}"))
    titles = re.findall(r'<h3><a href="/g/[^"]+/tables/[^"]+">([^<]+)</a></h3>', page)
    assert titles == ["Scopa for two (Ala and Bob) at PLN\xa00.50", "Scopa for two (Cyd and Dan) at PLN\xa00.50",
                      "Kop at PLN\xa00.50"], titles
    for table, players in ((first, "Ala and Bob"), (second, "Cyd and Dan")):
        shown = _text(phones[0].http.get(f"/g/{group}/tables/{table}"))
        assert f"Scopa for two ({players}) at PLN" in re.search(r"<h1>(.*?)</h1>", shown, re.S).group(1)
    assert "Kop at PLN" in _text(phones[0].http.get(f"/g/{group}/tables/{kop}/result"))
    for language in LANGUAGES[1:]:
        phones[0].http.get(f"/language/{language}?next=/")
        named = re.findall(r'<h3><a href="/g/[^"]+/tables/[^"]+">([^<]+)</a></h3>', _text(phones[0].http.get(
            f"/g/{group}")))
        assert len(set(named)) == 3 and "Cyd" in named[1] and "Cyd" not in named[0], (language, named)


def test_a_table_opens_with_its_games_target_and_what_its_stake_pays(app):
    admin, group = _evening(app)[:2]
    path = f"/g/{group}/tables/new"
    page = _text(admin.http.get(path))
    asked = {game: set(re.findall(rf'name="rule-{game}-(\w+)"', page)) for game in GAMES}
    assert {"target", "stake_per"} <= asked["scopa"], asked
    assert re.search(r'name="rule-scopa-target"[^>]* value="11"', page) and 'value="point"' in page
    members = dict((name, member) for member, name in re.findall(r'<option value="(m_[0-9a-f]+)">([^<]+)</option>',
                                                                 page))
    form = {**_form(page), "preset": "scopa:0", "stake": "0,50", "entry": "scorer", "dealer": "",
            "seat0": members["Ala"], "seat1": members["Bob"], "rule-scopa-stake_per": "point"}
    short = admin.http.post(path, data={**form, "rule-scopa-target": "7"})
    assert short.status_code == 422 and "arget must be a whole number of points from 11 to 61" in _text(short)
    assert re.search(r'name="rule-scopa-target"[^>]* value="7"', _text(short))  # kept as typed, to be put right
    opened = admin.http.post(path, data={**form, "rule-scopa-target": "21"})
    assert opened.status_code == 303, _text(opened)[:600]
    table = opened.headers["Location"].split("/")[-1]
    with app.app_context(), store().reading() as r:
        rules = r.row("table", group, table)["rules"]
    assert rules["target"] == 21 and rules["stake_per"] == "point" and rules["players"] == 2
    for language in LANGUAGES[1:]:  # the same questions, with the same answers, in each language
        admin.http.get(f"/language/{language}?next=/")
        shown = _text(admin.http.get(path))
        assert {game: set(re.findall(rf'name="rule-{game}-(\w+)"', shown)) for game in GAMES} == asked, language
        assert re.findall(r'name="rule-scopa-stake_per" value="(\w+)"', shown) == ["game", "point"], language
    for game in GAMES.values():  # the page shows each asked rule as the game's ways of playing all have it
        for f in (f for f in game.forms.rule_fields if f.asked):
            assert len({repr(game.parse_rules(p.rules).to_data()[f.name]) for p in game.words.presets}) == 1, game.name
            assert not f.options or len(f.said) == len(f.options), (game.name, f.name)
