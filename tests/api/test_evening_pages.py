"""An evening in the pages without a browser's script: a group started on a page, players
invited by link (no token typed or shown), a table opened, a hand dealt seat by seat and
played from each phone, a result confirmed, the score table, the summary, settle-up paid;
and the pieces a phone's script uses (the live part, the witness's evidence)."""
from __future__ import annotations

import re

import pytest

from events import merkle
from events.canonical import canonical_bytes
from events.checkpoint import signature_holds
from service.web import witness
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client


def _hidden(text, name):
    return re.search(rf'name="{name}" value="([^"]*)"', text).group(1)


def _form(page: str, action: str) -> dict:
    """The hidden fields of the form posting to ``action`` on ``page``."""
    start = page.index(f'action="{action}"') if f'action="{action}"' in page else 0
    chunk = page[start:page.index("</form>", start)]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', chunk))


def _browser(app) -> Client:
    return Client(app.test_client())


def _start(app, name="Thursday cards"):
    admin = _browser(app)
    page = admin.http.get("/new").get_data(as_text=True)
    made = admin.http.post("/new", data={"signin_token": _hidden(page, "signin_token"), "name": name,
                                         "currency": "PLN", "confirmations": "payers"})
    assert made.status_code == 303 and "/welcome?link=" in made.headers["Location"]
    group = made.headers["Location"].split("/")[2]
    welcome = admin.http.get(made.headers["Location"]).get_data(as_text=True)
    assert "Keep your link" in welcome and "<svg" in welcome and "/join/" in welcome
    assert not re.search(r"[A-Za-z0-9_-]{43}", welcome.replace(made.headers["Location"], ""))  # no token shown
    return admin, group


def _invite(admin, group, name) -> str:
    page = admin.http.get(f"/g/{group}/members").get_data(as_text=True)
    done = admin.http.post(f"/g/{group}/members", data={"form_token": _hidden(page, "form_token"), "name": name})
    text = done.get_data(as_text=True)
    assert done.status_code == 200 and f"{name}'s invitation" in text, text
    return re.search(r'href="(http://localhost/join/[^"]+)"', text).group(1).removeprefix("http://localhost")


def _join(app, link) -> Client:
    phone = _browser(app)
    page = phone.http.get(link)
    assert page.status_code == 200 and "sign me in on this phone" in page.get_data(as_text=True)
    joined = phone.http.post(link, data={"signin_token": _hidden(page.get_data(as_text=True), "signin_token")})
    assert joined.status_code == 303
    return phone


@pytest.fixture
def evening(app):
    admin, group = _start(app)
    names = ["Ala", "Bob", "Cyd", "Dan"]
    links = [_invite(admin, group, n) for n in names]
    phones = [_join(app, link) for link in links]
    again = _browser(app).http.get(links[0])
    assert again.status_code == 410 and "used already" in again.get_data(as_text=True)
    return admin, group, phones, names


def _open_table(admin, group, preset, seats, entry="seats"):
    page = admin.http.get(f"/g/{group}/tables/new").get_data(as_text=True)
    ids = re.findall(r'<option value="(m_[0-9a-f]+)">([^<]+)</option>', page)
    by_name = {name: member for member, name in ids}
    data = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "preset": preset,
            "stake": "0,50", "entry": entry, "dealer": ""}
    data.update({f"seat{i}": by_name[n] for i, n in enumerate(seats)})
    opened = admin.http.post(f"/g/{group}/tables/new", data=data)
    assert opened.status_code == 303, opened.get_data(as_text=True)
    return opened.headers["Location"].split("/")[-1]


def test_an_evening_in_the_pages(app, evening):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    page = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    assert "Signed in as <strong>Ala</strong>" in page and "Ala deals next" in page
    start = f"/g/{group}/tables/{table}/play"
    started = phones[0].http.post(start, data=_form(page, start))
    hand = started.headers["Location"].split("/")[-1]
    for seat, cards in enumerate(KOP_HANDS):
        page = phones[seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        assert "Tap the 4 cards you picked up" in page
        sent = phones[seat].http.post(f"/g/{group}/hands/{hand}/move",
                                      data={**_form(page, f"/g/{group}/hands/{hand}/move"), "card": cards})
        assert sent.status_code == 303, sent.get_data(as_text=True)
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s, h in enumerate(KOP_HANDS) if card in h)
            page = phones[seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
            assert "Your turn" in page
            played = phones[seat].http.post(f"/g/{group}/hands/{hand}/move", data={
                **_form(page, f"/g/{group}/hands/{hand}/move"), "action": "play", "card": card})
            assert played.status_code == 303, played.get_data(as_text=True)
    done = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "This hand is over" in done and "Hand 1, Ala dealt" in done
    score = phones[2].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    assert "Ala dealt" in score and "1.50" in score  # bez bitki at 0.50: 3 units
    # A stale tap: Bob taps a card of a hand already over.
    late = phones[1].http.post(f"/g/{group}/hands/{hand}/move", data={
        "form_token": _hidden(done, "form_token"), "once": "web-late-tap-0001", "action": "play", "card": "AH"})
    assert late.status_code == 422 and "over" in late.get_data(as_text=True)


def test_a_result_waits_for_its_payer_who_confirms_with_one_tap_then_settle_up_is_marked_paid(app, evening):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "scopa:0", names[:2], entry="scorer")
    sheet = phones[1].http.get(f"/g/{group}/tables/{table}/result").get_data(as_text=True)
    values = {"form_token": _hidden(sheet, "form_token"), "once": _hidden(sheet, "once"), "cards": "1", "coins": "1",
              "primiera": "1", "settebello": "1", "scopas0": "0", "scopas1": "11"}  # Bob's side wins the game
    shown = phones[1].http.post(f"/g/{group}/tables/{table}/result", data={**values, "confirm": "no"})
    logged = phones[1].http.post(f"/g/{group}/tables/{table}/result", data={
        **values, "confirm": "yes", "previewed": _hidden(shown.get_data(as_text=True), "previewed")})
    assert logged.status_code == 303
    home = phones[0].http.get(f"/g/{group}").get_data(as_text=True)
    assert "Results that do not count yet" in home and "Hand 1 at Scopa for two at" in home and "(Ala and Bob)" in home
    assert "Everyone is square" in home  # nothing counts yet
    confirm = _form(home, f"/g/{group}/hands/{logged.headers['Location'].split('/')[-1]}/verdict")
    assert phones[0].http.post(f"/g/{group}/hands/{logged.headers['Location'].split('/')[-1]}/verdict",
                               data=confirm).status_code == 303
    home = phones[0].http.get(f"/g/{group}").get_data(as_text=True)
    assert "Results that do not count yet" not in home and "Ala</strong> pays <strong>Bob" in home
    receiver = phones[1].http.get(f"/g/{group}").get_data(as_text=True)
    paid = phones[1].http.post(f"/g/{group}/payments", data=_form(receiver, f"/g/{group}/payments"))
    assert paid.status_code == 303
    assert "Everyone is square" in phones[1].http.get(f"/g/{group}").get_data(as_text=True)
    summary = phones[2].http.get(f"/g/{group}/summary").get_data(as_text=True)
    assert "Played: Scopa for two, 1 hand" in summary and "<svg" in summary
    image = phones[2].http.get(f"/g/{group}/summary.svg?download=1")
    assert image.mimetype == "image/svg+xml" and "attachment" in image.headers["Content-Disposition"]


RAW = [r"\bNone\b", r"\b[Ss]ide \d\b", r"\(s\)", r"settlement: settlement", r"\b[Ss]eat \d\b", r"\bTrue\b",
       r"\bm_[0-9a-f]{12}\b", r"\{\{|\}\}"]


def test_no_page_shows_the_log_s_raw_words(app, evening):
    """Names, not seat numbers or ids; no "None win", "side 0", "1 run(s)"."""
    admin, group, phones, names = evening
    kop = _open_table(admin, group, "kop:0", names, entry="scorer")
    scopa = _open_table(admin, group, "scopa:2", names)
    page = phones[1].http.get(f"/g/{group}/tables/{kop}/result").get_data(as_text=True)
    result = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "contract": "normal",
              "stare": ["1", "3"], "doubles": "2 1", "points": "40", "tricks": "1"}
    shown = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data={**result, "confirm": "no"})
    done = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data={
        **result, "confirm": "yes", "previewed": _hidden(shown.get_data(as_text=True), "previewed")})
    hand = done.headers["Location"].split("/")[-1]
    page = phones[2].http.get(f"/g/{group}/tables/{scopa}/result").get_data(as_text=True)
    phones[2].http.post(f"/g/{group}/tables/{scopa}/result", data={
        "form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "cards": "tie", "coins": "0",
        "primiera": "1", "settebello": "0", "scopas0": "1", "scopas1": "0", "confirm": "no"})
    pages = {path: phones[0].http.get(path).get_data(as_text=True) for path in (
        f"/g/{group}", f"/g/{group}/hands/{hand}", f"/g/{group}/tables/{kop}", f"/g/{group}/tables/{scopa}",
        f"/g/{group}/summary", f"/g/{group}/tables/{kop}/result")}
    pages["preview"] = shown.get_data(as_text=True)
    for path, text in pages.items():
        visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", "", text, flags=re.S))
        for pattern in RAW:
            found = re.search(pattern, visible)
            around = visible[max(0, found.start() - 60):found.end() + 60] if found else ""
            assert found is None, f"{path} shows {found.group(0)!r}: ...{around}..."


def test_the_live_part_answers_304_until_the_log_moves(app, evening):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    page = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    hand = phones[0].http.post(f"/g/{group}/tables/{table}/play",
                               data=_form(page, f"/g/{group}/tables/{table}/play")).headers["Location"].split("/")[-1]
    live = phones[1].http.get(f"/g/{group}/hands/{hand}/live")
    tag = live.headers["ETag"]
    assert live.status_code == 200 and "Waiting for the cards of Ala, Bob, Cyd, Dan." in live.get_data(as_text=True)
    assert phones[1].http.get(f"/g/{group}/hands/{hand}/live", headers={"If-None-Match": tag}).status_code == 304
    page = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    phones[0].http.post(f"/g/{group}/hands/{hand}/move", data={**_form(page, f"/g/{group}/hands/{hand}/move"),
                                                              "card": KOP_HANDS[0]})
    moved = phones[1].http.get(f"/g/{group}/hands/{hand}/live", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and "Waiting for the cards of Bob, Cyd, Dan." in moved.get_data(as_text=True)


def _leaf(event: dict, group: str) -> bytes:
    if event.get("sealed"):
        return bytes.fromhex(event["leaf"])
    body = {k: v for k, v in event.items() if k != "hash"}
    return merkle.leaf_hash(canonical_bytes({**body, "group": group}))


def test_every_phone_gets_what_it_needs_to_witness_the_log(app, evening, monkeypatch):
    admin, group, phones, names = evening
    first = phones[0].http.get(f"/g/{group}/witness.json").json
    assert signature_holds(first["checkpoint"], first["key"]["public_key"]) and first["next"] is None
    size = first["checkpoint"]["size"]
    assert [e["seq"] for e in first["events"]] == list(range(1, size + 1))
    # The phone's own tree, from the events it was served, has the signed root.
    assert merkle.streaming_root(_leaf(e, group) for e in first["events"])[0].hex() == first["checkpoint"]["root"]
    _invite(admin, group, "Eve")
    later = phones[0].http.get(f"/g/{group}/witness.json?after={size}").json
    assert [e["seq"] for e in later["events"]] == list(range(size + 1, later["checkpoint"]["size"] + 1))
    leaves = [_leaf(e, group) for e in first["events"] + later["events"]]
    assert merkle.streaming_root(leaves)[0].hex() == later["checkpoint"]["root"]
    # Page by page, each answer saying where to ask again; an odd "after" is read as 0 or the end.
    monkeypatch.setattr(witness, "PAGE", 3)
    paged = phones[0].http.get(f"/g/{group}/witness.json?after=0").json
    assert [e["seq"] for e in paged["events"]] == [1, 2, 3] and paged["next"] == 3
    for odd in ("-1", "x", "9" * 30, "99999"):
        answer = phones[0].http.get(f"/g/{group}/witness.json?after={odd}")
        assert answer.status_code == 200 and answer.json["events"] in ([], paged["events"]), odd


def test_several_groups_on_one_browser_with_a_switcher(app):
    admin, first = _start(app, "Thursday cards")
    page = admin.http.get("/new").get_data(as_text=True)
    made = admin.http.post("/new", data={"signin_token": _hidden(page, "signin_token"), "name": "Family",
                                         "currency": "EUR", "confirmations": "off"})
    second = made.headers["Location"].split("/")[2]
    both = admin.http.get(f"/g/{second}").get_data(as_text=True)
    assert "Your other groups" in both and "Thursday cards" in both
    assert admin.http.get(f"/g/{first}").status_code == 200
    chooser = admin.http.get("/?choose=1").get_data(as_text=True)
    assert "Thursday cards" in chooser and "Family" in chooser
    out = admin.http.post("/signout", data={"form_token": _hidden(both, "form_token"), "group": second})
    assert out.status_code == 303 and admin.http.get(f"/g/{second}").status_code == 403
    assert admin.http.get(f"/g/{first}").status_code == 200  # still in the first


def test_an_unknown_address_is_a_page_for_people_and_json_for_the_api(client):
    page = client.http.get("/nowhere", headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.mimetype == "text/html" and "Nothing here" in page.get_data(as_text=True)
    api = client.http.get("/v1/nowhere", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.mimetype == "application/problem+json"


def _move(phone, group, hand, action, **fields):
    page = phone.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    answer = phone.http.post(f"/g/{group}/hands/{hand}/move", data={
        **_form(page, f"/g/{group}/hands/{hand}/move"), "action": action, **fields})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return page


def test_scopa_captures_and_bisca_draws_on_the_phones(app, evening):
    """Scopa: the dealer turns up the table, each phone its cards and then plays, captures
    offered as buttons. Bisca: the trump card turned, each draw picked on the drawer's phone."""
    from games.bisca import game as bisca
    from games.scopa import game as scopa
    from games.engine.base import Command
    admin, group, phones, names = evening
    table = _open_table(admin, group, "scopa:0", names[:2])
    page = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    hand = phones[0].http.post(f"/g/{group}/tables/{table}/play", data=_form(
        page, f"/g/{group}/tables/{table}/play")).headers["Location"].split("/")[-1]
    deck = sorted(scopa.PACK)
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "table": deck[6:10], "stock": deck[10:]}
    page = _move(phones[0], group, hand, "table", card=deal["table"])
    assert "tap the 4 cards turned face up" in page
    for seat in (0, 1):
        _move(phones[seat], group, hand, "cards", card=deal["hands"][seat])
    state = scopa.new_hand(scopa.parse_rules({}), scopa.deal_event(scopa.parse_rules({}), deal).data)
    move = dict(scopa.GAME.moves.legal_plays(state)[-1])
    page = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "takes" in page or "takes nothing" in page  # each play says what it captures
    _move(phones[1], group, hand, "play", card=move["card"], capture=",".join(move["capture"]))
    assert "Your turn" in phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)  # Bob played

    table = _open_table(admin, group, "bisca:0", names[2:])
    page = phones[2].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    hand = phones[2].http.post(f"/g/{group}/tables/{table}/play", data=_form(
        page, f"/g/{group}/tables/{table}/play")).headers["Location"].split("/")[-1]
    deck = sorted(bisca.PACKS["full"])
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "trump": deck[-1], "stock": deck[6:-1]}
    assert "tap the card turned up for trumps" in _move(phones[2], group, hand, "trump", card=deal["trump"])
    for seat in (0, 1):
        _move(phones[2 + seat], group, hand, "cards", card=deal["hands"][seat])
    rules = bisca.parse_rules({})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    cards = []
    for i in range(2):
        seat = (state.leader + i) % 2
        cards.append(state.held[seat][0])
        _move(phones[2 + seat], group, hand, "play", card=cards[-1])
    [trick] = bisca.decide(state, Command("trick", {"cards": cards}))
    for seat, card in trick.data["draws"]:
        page = phones[2 + seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        assert "Tap the 1 card you drew" in page
        assert f'name="card" value="{deal["trump"]}"' not in page  # the face-up trump comes last, not now
        _move(phones[2 + seat], group, hand, "cards", card=card)
    assert "Your turn" in phones[2 + trick.data["winner"]].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    # ... and on to the end: each draw offered on the drawer's phone, the face-up trump card
    # too when the stock runs out (it is the stock's last card), until the hand is settled.
    while not bisca.GAME.is_terminal(state := bisca.evolve(state, trick)):
        cards = []
        for i in range(2):
            seat = (state.leader + i) % 2
            cards.append(state.held[seat][0])
            _move(phones[2 + seat], group, hand, "play", card=cards[-1])
        [trick] = bisca.decide(state, Command("trick", {"cards": cards}))
        for seat, card in trick.data.get("draws", []):
            page = phones[2 + seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
            assert f'name="card" value="{card}"' in page, (card, "the drawer's phone offers the card it drew")
            _move(phones[2 + seat], group, hand, "cards", card=card)
    done = phones[2].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "This hand is over" in done and "Why it paid what it paid" in done


def test_another_form_of_an_out_of_date_page_is_not_carried_out(app, evening):
    """Back to a page whose form was sent, then a different choice on it: nothing is logged
    and the page says it was out of date (the same form again says it was sent before)."""
    admin, group, phones, names = evening
    page = admin.http.get(f"/g/{group}").get_data(as_text=True)
    form = _form(page, f"/g/{group}/settings")
    first = admin.http.post(f"/g/{group}/settings", data={**form, "confirmations": "off"})
    assert first.status_code == 303 and "stale" not in first.headers["Location"]
    other = admin.http.post(f"/g/{group}/settings", data={**form, "confirmations": "payers"})
    assert other.status_code == 303 and "stale=1" in other.headers["Location"]
    shown = admin.http.get(other.headers["Location"]).get_data(as_text=True)
    assert "That page was out of date: nothing was logged from it" in shown
    assert re.search(r'value="off" checked', shown)  # the first choice stands
    again = admin.http.post(f"/g/{group}/settings", data={**form, "confirmations": "off"})
    assert "already=1" in again.headers["Location"]


def test_a_score_sheet_refusal_reads_as_a_sentence_in_names(app, evening):
    """An impossible result: the page says why as a sentence (a capital, no API field path,
    no "trick(s)"), in the reader's language too."""
    admin, group, phones, names = evening
    kop = _open_table(admin, group, "kop:0", names)
    page = phones[1].http.get(f"/g/{group}/tables/{kop}/result").get_data(as_text=True)
    result = {"form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "contract": "normal",
              "stare": ["1", "3"], "doubles": "", "points": "80", "tricks": "4", "confirm": "no"}
    refused = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data=result)
    said = re.search(r'<p class="problem" role="alert">([^<]+)</p>', refused.get_data(as_text=True)).group(1)
    assert refused.status_code == 422 and not said[0].islower() and "result:" not in said and "(s)" not in said, said
    phones[1].http.get("/language/pl?next=/")
    polish = phones[1].http.post(f"/g/{group}/tables/{kop}/result", data=result).get_data(as_text=True)
    said = re.search(r'<p class="problem" role="alert">([^<]+)</p>', polish).group(1)
    assert not said[0].islower() and "impossible" not in said and "trick" not in said, said


WESELE_DEAL = [["QC", "QS", "AH", "10H"], ["JC", "AD", "10D", "QD"], ["JS", "JH", "JD", "AC"],
               ["10C", "AS", "10S", "QH"]]


def _calls_offered(page: str) -> list[tuple[str, str]]:
    """Each call a phone's page offers: what it says it does, and the call its button makes."""
    section = page[page.index('class="my-calls"'):page.index("</section>", page.index('class="my-calls"'))] \
        if 'class="my-calls"' in page else ""
    return [(re.sub(r"\s+", " ", said).strip(), call) for said, call in re.findall(
        r'<details class="call">\s*<summary>(.*?)</summary>.*?name="call" value="([^"]+)"', section, re.S)]


def _deal_by_phones(phones, group, hand, hands):
    for seat, cards in enumerate(hands):
        page = phones[seat].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
        sent = phones[seat].http.post(f"/g/{group}/hands/{hand}/move",
                                      data={**_form(page, f"/g/{group}/hands/{hand}/move"), "card": cards})
        assert sent.status_code == 303, sent.get_data(as_text=True)


def _new_hand(phones, group, table) -> str:
    page = phones[0].http.get(f"/g/{group}/tables/{table}").get_data(as_text=True)
    start = f"/g/{group}/tables/{table}/play"
    return phones[0].http.post(start, data=_form(page, start)).headers["Location"].split("/")[-1]


def test_each_phone_offers_only_the_calls_its_seat_may_make_each_saying_what_it_does(app, evening):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    hand = _new_hand(phones, group, table)
    _deal_by_phones(phones, group, hand, WESELE_DEAL)
    pages = [p.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True) for p in phones]
    # Ala holds both black queens: wesele (with the holder of JC, Cyd) and the solo contracts;
    # she may not give the first double while she plays cicha.
    assert _calls_offered(pages[0]) == [
        ("Wesele: the holder of J♣ plays with you against the other two", "wesele"),
        ("Zolo: you play alone against three and win with 53 card points", "zolo"),
        ("Zolo-du: you play alone against three and must take all four tricks", "zolo-du")]
    for page in pages[1:]:
        assert [call for _, call in _calls_offered(page)] == ["zolo", "zolo-du", "kontra"]
        assert "Kontra: you double what this hand pays" in page
    for page in pages:
        calls = page[page.index('class="my-calls"'):]
        calls = calls[:calls.index("</section>")]
        assert "<select" not in calls and "selected" not in calls and "checked" not in calls
        assert "<details open" not in calls  # each call opens first, then a second tap makes it
        assert "just play your card" in calls
    # Bob's second tap makes a zolo; then he may only raise it, and the others may double it.
    move = f"/g/{group}/hands/{hand}/move"
    chunk = pages[1][pages[1].index('value="zolo"') - 600:]
    zolo = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', chunk[:chunk.index("</form>")]))
    assert zolo["call"] == "zolo" and zolo["action"] == "bid"
    assert phones[1].http.post(move, data=zolo).status_code == 303
    after = [p.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True) for p in phones]
    assert [call for _, call in _calls_offered(after[1])] == ["zolo-du"]
    for page in (after[0], after[2], after[3]):  # Ala's wesele no longer outranks it; she plays no cicha now
        assert [call for _, call in _calls_offered(page)] == ["zolo-du", "kontra"]
    # The first card closes the calls: no phone offers one any more.
    page = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    lead = phones[1].http.post(move, data={**_form(page, move), "action": "play", "card": "JC"})
    assert lead.status_code == 303, lead.get_data(as_text=True)
    for p in phones:
        assert _calls_offered(p.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)) == []


def test_a_refusal_names_the_card_the_player_tapped_and_no_other_seats_card(app, evening):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    hand = _new_hand(phones, group, table)
    move = f"/g/{group}/hands/{hand}/move"
    page = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert phones[0].http.post(move, data={**_form(page, move), "card": WESELE_DEAL[0]}).status_code == 303
    # Bob taps QC, which Ala logged: he is told of his own tap, and of nothing Ala holds.
    page = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    refused = phones[1].http.post(move, data={**_form(page, move), "card": ["QC", "AD", "10D", "QD"]})
    text = refused.get_data(as_text=True)
    problem = re.search(r'<p class="problem" role="alert">(.*?)</p>', text, re.S).group(1)
    assert refused.status_code == 422 and "Q♣" in problem and "?" not in problem, problem
    for other in ("QS", "AH", "10H"):
        assert other not in problem


@pytest.mark.parametrize("language, zolo, yes", [
    ("pl", "Zolo: grasz sam przeciw trzem i wygrywasz z 53 punktami z kart", "Tak, zapowiadam: zolo"),
    ("it", "Zolo: giochi da solo contro tre e vinci con 53 punti di carte", "Sì, chiamo zolo"),
    ("pt_BR", "Zolo: você joga sozinho contra três e ganha com 53 pontos de cartas", "Sim, chamar zolo")])
def test_the_calls_say_what_they_do_in_the_players_language(app, evening, language, zolo, yes):
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    hand = _new_hand(phones, group, table)
    _deal_by_phones(phones, group, hand, WESELE_DEAL)
    assert phones[1].http.get(f"/language/{language}?next=/").status_code in (302, 303)
    page = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert zolo in page and yes in page, page[page.find("my-calls"):][:1500]


def test_the_capixaba_dealer_may_knock_from_the_phone_instead_of_turning_a_trump(app, evening):
    """What a dealer may log instead of turning a card is the game's to offer (a knock for
    hearts in Capixaba), each a button saying what it means; a made-up choice is refused."""
    admin, group, phones, names = evening
    table = _open_table(admin, group, "bisca:3", names)
    hand = _new_hand(phones, group, table)
    move = f"/g/{group}/hands/{hand}/move"
    page = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "The cutter knocked: hearts are trumps" in page
    assert "knocked" not in phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert '<input type="hidden" name="action" value="instead">' in page
    form = {**_form(page, move), "action": "instead", "offer": "0"}
    made_up = phones[0].http.post(move, data={**form, "offer": "7", "once": "web-made-up-choice-0001"})
    assert made_up.status_code == 422
    knocked = phones[0].http.post(move, data=form)
    assert knocked.status_code == 303, knocked.get_data(as_text=True)
    shown = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert "The cutter knocked" not in shown and "Trumps: hearts." in shown
