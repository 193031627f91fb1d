"""Papercuts of the pages, each as the page shows it: the members page keeps every link
nobody has used yet (and only for the browser that made them), the table and hand pages
lead to the game's words, a correction starts from the hand as it stands, a score sheet
starts with nothing chosen that its scorer has to answer, and a result that waits says
which table it is from."""
from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

from service import invitations
from service.http import store
from tests.api.test_evening_pages import _form as _hidden_fields, _hidden, _invite, _join, _open_table, _start
from tests.conftest import KOP_HANDS, KOP_TRICKS

NAMES = ("Ala", "Bob", "Cyd", "Dan")


def _text(answer) -> str:
    return answer.get_data(as_text=True)


def _links(page: str) -> set[str]:
    return set(re.findall(r'href="http://localhost(/join/[^"]+)"', page))


def test_the_members_page_shows_each_link_nobody_has_used_yet_with_its_code(app):
    admin, group = _start(app)
    links = {name: _invite(admin, group, name) for name in ("Ala", "Bob", "Cyd", "Dan")}
    page = _text(admin.http.get(f"/g/{group}/members"))
    assert _links(page) == set(links.values())
    for name in links:
        assert f"{name}'s invitation" in page and f"Scan to join as {name}." in page
    assert page.count('<svg') >= len(links)
    # Inviting a fifth shows the new link first, the four waiting below it.
    fifth = _invite(admin, group, "Eve")
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == {*links.values(), fifth}
    # A used link leaves the page; the others stay.
    _join(app, links["Bob"])
    page = _text(admin.http.get(f"/g/{group}/members"))
    assert _links(page) == {links["Ala"], links["Cyd"], links["Dan"], fifth}
    assert "Bob's invitation" not in page


def test_only_the_browser_that_made_a_link_is_shown_it_again_and_the_store_keeps_none(app, monkeypatch):
    admin, group = _start(app)
    link = _invite(admin, group, "Ala")
    page = _text(admin.http.get(f"/g/{group}/members"))
    made = admin.http.post(f"/g/{group}/admin-link", data={"form_token": _hidden(page, "form_token")})
    admin_link = _links(_text(admin.http.get(made.headers["Location"]))).pop()
    other = _join(app, admin_link)  # the admin on a second phone, by the admin's own link
    assert _links(_text(other.http.get(f"/g/{group}/members"))) == set()
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == {link}
    code = link.removeprefix("/join/")
    with app.app_context(), store().reading() as r:
        kept = [str(v) for row in r.conn.execute("SELECT * FROM invitations").fetchall() for v in row]
    assert kept and not any(code in v for v in kept)
    # Seven days on, the link has expired and leaves the page.
    later = invitations._now() + timedelta(days=7, minutes=1)
    monkeypatch.setattr(invitations, "_now", lambda: later)
    assert _links(_text(admin.http.get(f"/g/{group}/members"))) == set()


def _evening(app):
    """A group started on its page, with four players who took their links on their phones."""
    admin, group = _start(app)
    phones = [_join(app, _invite(admin, group, name)) for name in NAMES]
    return admin, group, phones


def _sheet_sent(phone, path: str, result: dict) -> str:
    """A score sheet (or a correction) shown with its settlement, then logged: the hand's id."""
    page = _text(phone.http.get(path))
    form = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), **result}
    shown = phone.http.post(path, data={**form, "confirm": "no"})
    assert shown.status_code == 200, _text(shown)
    logged = phone.http.post(path, data={**form, "confirm": "yes", "previewed": _hidden(_text(shown), "previewed")})
    assert logged.status_code == 303, _text(logged)
    return logged.headers["Location"].split("/")[-1]


SCOPA = {"cards": "1", "coins": "tie", "primiera": "0", "settebello": "1", "scopas0": "2", "scopas1": "0"}


def test_the_table_and_hand_pages_lead_to_the_games_own_words(app):
    admin, group, phones = _evening(app)
    table = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    hand = _sheet_sent(phones[0], f"/g/{group}/tables/{table}/result", SCOPA)
    for path in (f"/g/{group}/tables/{table}", f"/g/{group}/hands/{hand}"):
        page = _text(phones[1].http.get(path))
        assert re.search(r'<a href="/glossary/scopa">What the words of this game mean</a>', page), path
    assert "settebello" in _text(phones[1].http.get("/glossary/scopa"))


class _Fields(HTMLParser):
    """A page's form fields as a browser would send them untouched: a ticked box or radio
    only, a list's selected option (else its first), and which fields are required."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self.required: set[str] = set()
        self._select, self._chosen = None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            if "required" in a:
                self.required.add(a["name"])
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.values.setdefault(a["name"], []).append(a.get("value") or "")
        elif tag == "select":
            self._select, self._chosen = a["name"], False
            if "required" in a:
                self.required.add(a["name"])
        elif tag == "option" and self._select:
            if "selected" in a and not self._chosen:
                self.values[self._select], self._chosen = [a.get("value") or ""], True
            self.values.setdefault(self._select, [a.get("value") or ""])

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def _fields(page: str) -> _Fields:
    parser = _Fields()
    parser.feed(page)
    return parser


def test_a_score_sheet_starts_with_nothing_chosen_that_its_scorer_has_to_answer(app):
    admin, group, phones = _evening(app)
    scopa = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    sheet = _fields(_text(phones[0].http.get(f"/g/{group}/tables/{scopa}/result")))
    for name in ("cards", "coins", "primiera", "settebello"):
        assert name not in sheet.values and name in sheet.required, name  # one tap each, none ticked yet
    assert sheet.values["scopas0"] == sheet.values["scopas1"] == ["0"]  # the game's own default stays
    assert not {"scopas0", "scopas1"} & sheet.required
    # Sent without an answer (a browser that does not check), nothing is taken for a tie.
    page = _text(phones[0].http.get(f"/g/{group}/tables/{scopa}/result"))
    unanswered = phones[0].http.post(f"/g/{group}/tables/{scopa}/result", data={
        "form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), **SCOPA, "cards": "",
        "confirm": "no"})
    assert unanswered.status_code == 400 and "It would settle like this" not in _text(unanswered)
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    sheet = _fields(_text(phones[0].http.get(f"/g/{group}/tables/{kop}/result")))
    assert sheet.values["contract"] == ["normal"]  # declared by the game: kept
    assert "points" not in sheet.required  # asked only for some contracts: the browser cannot know which
    page = _text(phones[0].http.get(f"/g/{group}/tables/{kop}/result"))
    assert 'name="double" value="0" formaction' in page and "formnovalidate" in page  # a tap needs no answers yet


def test_a_correction_starts_from_the_result_as_it_stands(app):
    admin, group, phones = _evening(app)
    scopa = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    hand = _sheet_sent(phones[0], f"/g/{group}/tables/{scopa}/result", SCOPA)
    path = f"/g/{group}/hands/{hand}/correct"
    form = _fields(_text(admin.http.get(path))).values
    assert {k: form[k] for k in SCOPA} == {k: [v] for k, v in SCOPA.items()}
    assert form["reason"] == [""]
    # Sent as it starts, it changes nothing; corrected, the form starts from the correction.
    page = _text(admin.http.get(path))
    assert _fields(page).required == {"reason"}  # a correction may void the hand: no result is forced
    same = admin.http.post(path, data={**{k: v[0] for k, v in form.items()}, "reason": "checking", "confirm": "no"})
    assert same.status_code == 200 and "Nobody would pay more or less." in _text(same), _text(same)
    fixed = {**SCOPA, "coins": "0", "scopas1": "1"}
    _sheet_sent(admin, path, {**fixed, "reason": "the coins were Ala's"})
    form = _fields(_text(admin.http.get(path))).values
    assert {k: form[k] for k in SCOPA} == {k: [v] for k, v in fixed.items()}
    kop = _open_table(admin, group, "kop:0", NAMES, entry="scorer")
    result = {"contract": "normal", "stare": ["1", "3"], "doubles": "2 1", "points": "40", "tricks": "1"}
    hand = _sheet_sent(phones[0], f"/g/{group}/tables/{kop}/result", result)
    form = _fields(_text(admin.http.get(f"/g/{group}/hands/{hand}/correct"))).values
    assert form["contract"] == ["normal"] and form["stare"] == ["1", "3"] and form["doubles"] == ["2 1"]
    assert form["points"] == ["40"] and form["tricks"] == ["1"] and "declarer" not in form


def test_a_correction_of_a_hand_played_card_by_card_starts_from_its_cards(app):
    admin, group, phones = _evening(app)
    table = _open_table(admin, group, "kop:0", NAMES)
    page = _text(phones[0].http.get(f"/g/{group}/tables/{table}"))
    start = f"/g/{group}/tables/{table}/play"
    hand = phones[0].http.post(start, data=_hidden_fields(page, start)).headers["Location"].split("/")[-1]
    move = f"/g/{group}/hands/{hand}/move"
    for seat, cards in enumerate(KOP_HANDS):
        page = _text(phones[seat].http.get(f"/g/{group}/hands/{hand}"))
        assert phones[seat].http.post(move, data={**_hidden_fields(page, move), "card": cards}).status_code == 303
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s, held in enumerate(KOP_HANDS) if card in held)
            page = _text(phones[seat].http.get(f"/g/{group}/hands/{hand}"))
            played = phones[seat].http.post(move, data={**_hidden_fields(page, move), "action": "play", "card": card})
            assert played.status_code == 303
    form = _fields(_text(admin.http.get(f"/g/{group}/hands/{hand}/correct"))).values
    assert [form[f"deal-hands-{seat}"] for seat in range(4)] == [[" ".join(cards)] for cards in KOP_HANDS]
    assert [form[f"trick-{i}"] for i in range(4)] == [[" ".join(trick)] for trick in KOP_TRICKS]


GAME_WON = {"cards": "1", "coins": "1", "primiera": "1", "settebello": "1", "scopas0": "0", "scopas1": "11"}


def test_a_result_that_waits_says_which_table_it_is_from(app):
    admin, group, phones = _evening(app)
    first = _open_table(admin, group, "scopa:0", NAMES[:2], entry="scorer")
    second = _open_table(admin, group, "scopa:0", NAMES[2:], entry="scorer")
    _sheet_sent(phones[1], f"/g/{group}/tables/{first}/result", GAME_WON)  # Bob wins: Ala pays, once she agrees
    _sheet_sent(phones[3], f"/g/{group}/tables/{second}/result", GAME_WON)
    home = re.sub(r"\s+", " ", _text(phones[0].http.get(f"/g/{group}")))
    waiting = home[home.index("Results that do not count yet"):]
    waiting = waiting[:waiting.index("</section>")]
    titles = re.findall(r'<li><a href="/g/[^"]+/hands/[^"]+">([^<]+)</a>', waiting)
    assert sorted(titles) == ["Hand 1 at Scopa for two at PLN 0.50 (Ala and Bob)",
                              "Hand 1 at Scopa for two at PLN 0.50 (Cyd and Dan)"], titles
