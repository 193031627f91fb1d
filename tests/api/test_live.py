"""Reads that wait for news (service/live.py, events/bell.py): a phone's live part, asked with
the version it shows and ``Prefer: wait=N``, answers as soon as something it shows moved, from
this process's own write or from another process's (a second app on the same store, as
gunicorn's other workers and other servers are); a move elsewhere in the group leaves it
waiting and then answers 304 with the newer version; a server with no thread to spare
answers at once. Each test waits for a state (an answer), never for a time."""
from __future__ import annotations

import threading
import time

import pytest

from events.bell import Bell, Heard
from service.app import create_app
from tests.api.test_pages import _sign_in_form
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client, kop_group

STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


def _phone(app, token: str) -> Client:
    phone = Client(app.test_client())
    answer = phone.http.post("/signin", data={**_sign_in_form(phone), "token": token})
    assert answer.status_code == 303
    return phone


def _asked(phone: Client, path: str, version: int, wait: int, into: list) -> threading.Thread:
    """A phone's wait for news, in a thread of its own (the request blocks while it waits)."""
    def ask():
        into.append(phone.http.get(path, headers={"If-None-Match": f'"{version}"', "Prefer": f"wait={wait}"}))
    thread = threading.Thread(target=ask)
    thread.start()
    return thread


def _waiting(app, readers: int = 1) -> None:
    """Until the bell holds ``readers`` (the phones' requests have reached their wait)."""
    bell, deadline = app.extensions["bitka.bell"], time.monotonic() + 30
    while bell.held < readers and time.monotonic() < deadline:
        time.sleep(0.002)


def _version(t) -> int:
    return int(t["admin"].get(t["base"]).headers["ETag"].strip('"'))


@pytest.fixture
def hand(kop_table):
    t = kop_table
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}})
    assert r.status_code == 201, r.json
    return r.json["id"]


def test_a_trick_logged_answers_the_phone_waiting_on_its_hand_and_a_move_elsewhere_does_not(app, kop_table, hand):
    t = kop_table
    ala = _phone(app, t["members"][0]["token"])
    other = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]}).json
    path = f"/g/{t['group']}/hands/{hand}/live"
    before = _version(t)
    answers: list = []
    waiting = _asked(ala, path, before, 25, answers)
    _waiting(app)
    # Cards dealt and played at another table move the group, not this hand's part: the phone keeps waiting.
    elsewhere = t["admin"].post(f"{t['base']}/tables/{other['id']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}})
    assert elsewhere.status_code == 201, elsewhere.json
    r = t["admin"].post(f"{t['base']}/hands/{elsewhere.json['id']}/tricks", {"cards": KOP_TRICKS[0]})
    assert r.status_code == 201, r.json
    _waiting(app)
    assert not answers
    r = t["admin"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[0]})
    assert r.status_code == 201, r.json
    waiting.join(30)
    (answer,) = answers
    assert answer.status_code == 200
    assert int(answer.headers["ETag"].strip('"')) == _version(t) > before + 2
    assert "AH" in answer.get_data(as_text=True) or "A<span" in answer.get_data(as_text=True)
    # The other table's hand settles: a result of that table, said on this phone's next page (and
    # at once on the group's page), does not redraw a hand being played here.
    answers.clear()
    waiting = _asked(ala, path, _version(t), 1, answers)
    _waiting(app)
    for cards in KOP_TRICKS[1:]:
        assert t["admin"].post(f"{t['base']}/hands/{elsewhere.json['id']}/tricks", {"cards": cards}).status_code == 201
    waiting.join(30)
    assert [a.status_code for a in answers] == [304]


def test_a_wait_that_sees_only_other_tables_move_answers_304_with_the_newer_version(app, kop_table, hand):
    t = kop_table
    ala = _phone(app, t["members"][0]["token"])
    other = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]}).json
    before = _version(t)
    answers: list = []
    waiting = _asked(ala, f"/g/{t['group']}/hands/{hand}/live", before, 1, answers)
    _waiting(app)
    assert t["admin"].post(f"{t['base']}/tables/{other['id']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}
                           ).status_code == 201
    waiting.join(30)
    (answer,) = answers
    assert answer.status_code == 304
    assert answer.headers["Preference-Applied"] == "wait=1"
    assert int(answer.headers["ETag"].strip('"')) == _version(t) > before


def test_another_process_writing_wakes_this_one(app, kop_table, hand, tmp_path):
    """Two apps on one store, as two gunicorn workers (or two servers on one PostgreSQL): the
    write of one reaches a phone waiting on the other through the bell's watcher."""
    t = kop_table
    second = create_app({"BITKA_DB": app.config["BITKA_DB"], "BITKA_KEY": app.config["BITKA_KEY"], "TESTING": True})
    try:
        ala = _phone(app, t["members"][0]["token"])
        answers: list = []
        waiting = _asked(ala, f"/g/{t['group']}/tables/{t['table']}/live", _version(t), 25, answers)
        _waiting(app)
        elsewhere = Client(second.test_client()).as_(t["admin"].token)
        assert elsewhere.post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[0]}).status_code == 201
        waiting.join(30)
        assert [a.status_code for a in answers] == [200]
    finally:
        second.extensions["bitka.store"].close()


def test_the_api_read_waits_too_and_a_server_with_no_thread_to_spare_answers_at_once(app, kop_table, hand, tmp_path):
    t = kop_table
    answers: list = []
    version = _version(t)
    reader = Client(app.test_client()).as_(t["members"][1]["token"])

    def ask():
        answers.append(reader.http.get(f"{t['base']}/hands/{hand}", headers={
            "If-None-Match": f'"{version}"', "Prefer": "wait=25", "Authorization": f"Bearer {reader.token}"}))
    thread = threading.Thread(target=ask)
    thread.start()
    _waiting(app)
    assert t["admin"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[0]}).status_code == 201
    thread.join(30)
    assert answers[0].status_code == 200 and answers[0].get_json()["tricks"]

    full = create_app({"BITKA_DB": app.config["BITKA_DB"], "BITKA_KEY": app.config["BITKA_KEY"], "TESTING": True,
                       "BITKA_LIVE_HOLDS": 0})
    try:
        now = _version(t)
        r = full.test_client().get(f"{t['base']}/hands/{hand}", headers={
            "If-None-Match": f'"{now}"', "Prefer": "wait=25", "Authorization": f"Bearer {reader.token}"})
        assert r.status_code == 304 and "Preference-Applied" not in r.headers
    finally:
        full.extensions["bitka.store"].close()


def test_a_phone_not_signed_in_to_the_group_is_refused_before_it_waits(app, kop_table, hand, client):
    t, stranger_group = kop_table, kop_group(client)
    stranger = _phone(app, stranger_group["members"][0]["token"])
    for path in (f"/g/{t['group']}/hands/{hand}/live", f"/g/{t['group']}/tables/{t['table']}/live",
                 f"/g/{t['group']}/live"):
        r = stranger.http.get(path, headers={"If-None-Match": '"1"', "Prefer": "wait=25"})
        assert r.status_code == 403, path
    assert app.extensions["bitka.bell"].held == 0


def test_the_group_page_waits_through_cards_played_and_answers_a_result(app, kop_table, hand):
    t = kop_table
    ala = _phone(app, t["members"][0]["token"])
    answers: list = []
    waiting = _asked(ala, f"/g/{t['group']}/live", _version(t), 25, answers)
    _waiting(app)
    for cards in KOP_TRICKS[:3]:  # the group's page shows no card: it keeps waiting
        assert t["admin"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": cards}).status_code == 201
        _waiting(app)
    assert not answers
    assert t["admin"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[3]}).status_code == 201
    waiting.join(30)  # the hand settled: a result waits for its payers, the page shows it
    assert [a.status_code for a in answers] == [200]
    assert "waiting-h" in answers[0].get_data(as_text=True)


def test_the_table_page_counts_only_what_counts_and_moves_on_to_the_next_hand(app, kop_table):
    t = kop_table
    bob = Client(app.test_client()).as_(t["members"][1]["token"])
    r = bob.post(f"{t['base']}/tables/{t['table']}/hands", {"result": STARE_WIN})  # pays Bob: waits for its payers
    assert r.status_code == 201 and r.json["confirmation"]["state"] == "pending"
    ala = _phone(app, t["members"][0]["token"])
    page = ala.http.get(f"/g/{t['group']}/tables/{t['table']}").get_data(as_text=True)
    totals = [c for c in page.split('class="total">')[1:]]
    assert totals and all(c.startswith("0") for c in totals), "a result still waiting is out of the running totals"
    assert 'id="live"' in page and f"/g/{t['group']}/tables/{t['table']}/live" in page


def test_a_finished_hand_leads_to_the_next_and_two_phones_dealing_at_once_make_one_hand(app, client):
    g = client.post("/v1/groups", {"name": "Piątek", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    admin.call("PATCH", base, {"confirmations": "off"})
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json
    phones = [_phone(app, m["token"]) for m in members]
    first = admin.post(f"{base}/tables/{table['id']}/hands", {"deal": {"dealer": 0}}).json["id"]
    api = [client.as_(m["token"]) for m in members]
    for seat, cards in enumerate(KOP_HANDS):
        assert api[seat].post(f"{base}/hands/{first}/cards", {"seat": seat, "cards": cards}).status_code == 201
    for trick in KOP_TRICKS:
        leader = next(s for s in range(4) if KOP_HANDS[s].count(trick[0]))
        for k in range(4):
            seat = (leader + k) % 4
            card = next(c for c in trick if c in KOP_HANDS[seat])
            r = api[seat].post(f"{base}/hands/{first}/plays", {"card": card})
            assert r.status_code == 201, r.json
    over = phones[2].http.get(f"/g/{g['id']}/hands/{first}/live").get_data(as_text=True)
    assert "/play" in over and "data-follow" not in over  # the tap that deals the next hand
    deal = over.split('action="')[1].split('"')[0]
    forms = []
    for phone in (phones[1], phones[3]):  # two phones show "Deal the next hand", and both tap it
        page = phone.http.get(f"/g/{g['id']}/hands/{first}").get_data(as_text=True)
        forms.append({"form_token": page.split('name="form_token" value="')[1].split('"')[0],
                      "once": page.split('name="once" value="')[1].split('"')[0]})
    answers = [phone.http.post(deal, data=form) for phone, form in zip((phones[1], phones[3]), forms, strict=True)]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    with app.extensions["bitka.store"].reading() as r:
        assert len(r.table_hands(g["id"], table["id"])) == 2
    followed = phones[2].http.get(f"/g/{g['id']}/hands/{first}/live").get_data(as_text=True)
    assert "data-follow" in followed and answers[0].headers["Location"].split("#")[0] in followed


def test_the_bell_wakes_its_waiters_for_what_concerns_them_keeps_its_limit_and_stops():
    log = [Heard("g", 1, None, "group_created"), Heard("g", 2, "t1", "table_opened"), Heard("g", 3, "t2", "play")]
    bell = Bell(lambda groups: {"g": log[-1].seq} if "g" in groups else {},
                lambda group, after: [e for e in log if e.seq > after], limit=1, every=0.01)
    of_t1 = lambda event: event.table in (None, "t1")  # noqa: E731 - a reader of table t1's part
    bell.rang(log)
    assert bell.wait("g", 1, 5, of_t1) == (True, 3)  # t1 opened after version 1: at once
    woke: list = []
    thread = threading.Thread(target=lambda: woke.append(bell.wait("g", 3, 30, of_t1)))
    thread.start()
    while not bell.held:
        time.sleep(0.001)
    assert not bell.room() and bell.wait("h", 0, 30, of_t1) == (False, 0)  # the one place is taken: at once
    log.append(Heard("g", 4, "t2", "play"))  # another process's write at another table: heard, not news
    log.append(Heard("g", 5, "t1", "play"))  # ... and then one at t1
    thread.join(30)
    assert woke == [(True, 5)]
    thread = threading.Thread(target=lambda: woke.append(bell.wait("g", 5, 30, of_t1)))
    thread.start()
    while not bell.held:
        time.sleep(0.001)
    bell.stop()
    thread.join(30)
    assert woke == [(True, 5), (False, 5)] and not bell.room()


def test_a_waiter_after_the_watcher_went_idle_gets_a_watcher_of_its_own():
    """The watcher ends once nobody has waited for a while (it says so under the bell's lock,
    so that a reader who comes as it ends starts another): each later reader has one, and
    hears another process's write at once rather than at its wait's end."""
    log = [Heard("g", 1, None, "group_created")]
    bell = Bell(lambda groups: {"g": log[-1].seq}, lambda group, after: [e for e in log if e.seq > after],
                limit=4, every=0.001)
    for _ in range(20):  # waits that end at once, each as the last watcher may be ending
        assert bell.wait("g", log[-1].seq, 0.06, lambda event: True)[0] is False
        while bell._watcher is not None:  # noqa: SLF001 - until it has ended
            time.sleep(0.001)
    woke: list = []
    thread = threading.Thread(target=lambda: woke.append(bell.wait("g", 1, 30, lambda event: True)))
    thread.start()
    while not bell.held:
        time.sleep(0.001)
    log.append(Heard("g", 2, "t", "play"))  # another process's write
    thread.join(30)
    assert woke == [(True, 2)]



def test_a_write_rung_past_a_hole_waits_in_the_bell_until_the_watcher_hears_the_hole():
    """Another process's write at t1 (seq 2) is not heard yet when this process's write at t2
    (seq 3) rings: the bell must not take 3 as all it needs to know. The phone of t1 is woken
    as soon as the watcher, hurried by the hole, has heard seq 2; not at the watcher's next
    turn (30 s here), and not at the next write at its table."""
    log = [Heard("g", 1, None, "group_created")]
    bell = Bell(lambda groups: {"g": log[-1].seq}, lambda group, after: [e for e in log if e.seq > after],
                limit=4, every=30)
    bell.rang(log)
    woke: list = []
    thread = threading.Thread(target=lambda: woke.append(bell.wait("g", 1, 60, lambda e: e.table in (None, "t1"))))
    thread.start()
    while not bell.held:
        time.sleep(0.001)
    log += [Heard("g", 2, "t1", "play"), Heard("g", 3, "t2", "play")]
    bell.rang([log[-1]])
    thread.join(20)
    bell.stop()
    assert woke == [(True, 3)]


def test_a_reader_ahead_of_the_bell_wakes_only_the_waiters_its_news_concerns():
    """A reader that read a version the bell has not heard of yet (another process's write
    at t2) makes the bell hear it: t2's phone is woken, t1's waits on (before, every phone of
    the group was woken to draw its part again)."""
    log = [Heard("g", 1, None, "group_created")]
    bell = Bell(lambda groups: {"g": log[-1].seq}, lambda group, after: [e for e in log if e.seq > after],
                limit=4, every=30)
    bell.rang(log)
    woke: dict = {}
    at = {table: threading.Thread(target=lambda t=table: woke.setdefault(
        t, bell.wait("g", 1, 60, lambda e: e.table in (None, t)))) for table in ("t1", "t2")}
    for thread in at.values():
        thread.start()
    while bell.held < 2:
        time.sleep(0.001)
    log.append(Heard("g", 2, "t2", "play"))
    assert bell.wait("g", 2, 0.01, lambda e: e.table in (None, "t3")) == (False, 2)
    at["t2"].join(20)
    assert woke == {"t2": (True, 2)} and bell.held == 1
    log.append(Heard("g", 3, "t1", "play"))
    bell.rang([log[-1]])
    at["t1"].join(20)
    bell.stop()
    assert woke == {"t2": (True, 2), "t1": (True, 3)}
