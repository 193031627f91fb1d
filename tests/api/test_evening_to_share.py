"""The evening to share, after the players settled up, in the four languages: the page and
its picture say what each player won or lost in the group's last evening of play (the
hands of last week's evening left out, the payments made since not taken in), at which
table and in how many hands, and what the evening covers; and the group page's chart,
while no balance has moved, says so in words instead of drawing an axis of made-up
amounts ("0,01 / -0,01")."""
from __future__ import annotations

import html
import re
from datetime import datetime, timedelta, timezone

import pytest
from babel.dates import format_time

from events import recorder
from events.money import format_amount, parse_amount
from service.i18n.languages import translations
from service.i18n.money import amount as said_amount, money
from tests.api.test_pages import _signed_in
from tests.conftest import Client

LANGUAGES = ("en", "pl", "it", "pt_BR")
NAMES = ("Ala", "Bob", "Cyd", "Dan")
RESULTS = [  # tonight's two hands at the table, after one of last week's
    {"contract": "normal", "stare": [1, 3], "doubles": [2, 1], "points": 70, "tricks": 3},
    {"contract": "normal", "stare": [0, 2], "doubles": [], "points": 40, "tricks": 1},
]
COVERS = ("It covers the last evening of play: %(num)d hand, which ended between %(start)s and %(end)s UTC (a break "
          "of more than %(hours)d hours starts another evening). Payments do not change it: it says what was played.")
LAST_WEEK = {"contract": "normal", "stare": [0, 1], "doubles": [3], "points": 80, "tricks": 3}


def _group(client, confirmations: str = "off") -> dict:
    g = client.post("/v1/groups", {"name": "Piątek u Ali", "currency": "PLN", "confirmations": confirmations}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in NAMES]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json["id"]
    return {"id": g["id"], "base": base, "admin": admin, "members": members, "table": table}


def _hand(t, result) -> dict:
    made = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"result": result})
    assert made.status_code == 201, made.json
    return made.json


def _won(hands, t) -> dict[str, int]:
    """What each member won (grosze) in these hands, as the API settled them."""
    won = {m["id"]: 0 for m in t["members"]}
    for hand in hands:
        for p in hand["settlement"]["payouts"]:
            won[p["member"]] += parse_amount(p["amount"], 2, allow_negative=True)
    return won


@pytest.fixture
def settled(client, monkeypatch):
    """Last week's evening (one hand), tonight's (two hands), then everyone settled up."""
    t = _group(client)
    week_ago = datetime.now(timezone.utc) - timedelta(days=7)
    monkeypatch.setattr(recorder, "utc_now", lambda: week_ago.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    _hand(t, LAST_WEEK)
    monkeypatch.undo()
    tonight = [_hand(t, r) for r in RESULTS]
    for transfer in t["admin"].get(f"{t['base']}/settle-up").json["transfers"]:
        paid = t["admin"].post(f"{t['base']}/payments", {k: transfer[k] for k in ("from", "to", "amount")})
        assert paid.status_code == 201, paid.json
    balances = t["admin"].get(f"{t['base']}/balances").json["balances"]
    assert {b["balance"] for b in balances} == {"0.00"}  # everyone square: the balances say nothing of tonight
    return t, _won(tonight, t)


def _reader(client, t) -> Client:
    browser = Client(client.http.application.test_client())
    _signed_in(browser, t["members"][0]["token"])
    return browser


def test_after_settling_up_the_evening_to_share_still_says_what_each_player_won(client, settled):
    t, won = settled
    assert any(won.values()) and sum(won.values()) == 0
    ended = [datetime.fromisoformat(e["recorded_at"].replace("Z", "+00:00"))  # tonight's hands' settlements
             for e in t["admin"].get(f"{t['base']}/events").json["events"] if e["type"] == "settlement"][1:]
    ended = [ended[0], ended[-1]]
    browser = _reader(client, t)
    for language in LANGUAGES:
        assert browser.http.get(f"/language/{language}?next=/").status_code == 302
        said = translations(language)
        page = browser.http.get(f"/g/{t['id']}/summary").get_data(as_text=True)
        text = html.unescape(re.search(r'<textarea id="summary-text"[^>]*>(.*?)</textarea>', page, re.S).group(1))
        for member in t["members"]:
            value = said_amount(format_amount(won[member["id"]], 2), "PLN", language)
            line = f"  {member['name']}: {'+' if won[member['id']] > 0 else ''}{value}"
            assert line in text.splitlines(), (language, line, text)
        assert said.ngettext("%(game)s, %(num)d hand", "%(game)s, %(num)d hands", 2) % {"game": "Kop", "num": 2} \
            in text, (language, text)  # tonight's two hands, not last week's
        assert said.gettext("Everyone is square.") in text
        covers = html.unescape(re.search(r'<p class="help" id="summary-covers">(.*?)</p>', page, re.S).group(1))
        start, end = (format_time(moment, "short", tzinfo=timezone.utc, locale=language) for moment in ended)
        assert covers == said.ngettext(COVERS, COVERS.replace("hand,", "hands,"), 2) % {
            "num": 2, "start": start, "end": end, "hours": 8}, (language, covers)
        # The picture says the same amounts, a gain with its +.
        picture = html.unescape(re.search(r'<figure class="summary-image">(.*?)</figure>', page, re.S).group(1))
        image = browser.http.get(f"/g/{t['id']}/summary.svg").get_data(as_text=True)
        for svg in (picture, html.unescape(image)):
            amounts = re.findall(r'text-anchor="end"[^>]*>([^<]+)</text>', svg)
            assert sorted(amounts) == sorted(money(format_amount(v, 2), "PLN", language, signed=True)
                                             for v in won.values()), (language, amounts)
            assert said.ngettext("The evening of %(date)s: %(num)d hand", "The evening of %(date)s: %(num)d hands",
                                 2).split("%(date)s")[0] in svg


def test_the_evening_of_a_group_without_a_hand_says_there_is_none(client):
    t = _group(client)
    page = _reader(client, t).http.get(f"/g/{t['id']}/summary").get_data(as_text=True)
    assert "No hand has been played to a result yet" in page and "+" not in re.sub(r"<[^>]+>", "", page.split(
        '<figure class="summary-image">')[1].split("</figure>")[0])


def test_a_result_that_waits_is_counted_apart_and_the_chart_says_no_balance_moved(client):
    t = _group(client, confirmations="payers")
    _hand(t, RESULTS[0])  # it waits for its payers: no balance moves
    browser = _reader(client, t)
    for language in LANGUAGES:
        assert browser.http.get(f"/language/{language}?next=/").status_code == 302
        said = translations(language)
        page = browser.http.get(f"/g/{t['id']}").get_data(as_text=True)
        chart = page[page.index('id="chart-h"'):]
        chart = chart[:chart.index("</section>")]
        assert "<svg" not in chart and "0,01" not in chart and "0.01" not in chart, (language, chart)
        assert html.escape(said.gettext("No balance has moved yet: the chart starts with the first hand that counts, "
                                        "or the first payment."), quote=False) in chart, (language, chart)
        summary = html.unescape(browser.http.get(f"/g/{t['id']}/summary").get_data(as_text=True))
        assert said.ngettext("%(num)d result still waits for a payer's confirmation.",
                             "%(num)d results still wait for a payer's confirmation.", 1) % {"num": 1} in summary


def test_the_evening_says_how_many_of_its_hands_wait_beside_how_many_it_covers(client):
    """Hands waiting for a payer are among those the evening covers, and counted apart from
    what each player won: the page says how many wait, where it said a count of hands that
    the results below it did not add up to."""
    t = _group(client, "payers")
    for result in RESULTS:
        assert _hand(t, result)["confirmation"]["state"] == "pending"
    page = _reader(client, t).http.get(f"/g/{t['id']}/summary").get_data(as_text=True)
    covers = html.unescape(re.search(r'<p class="help" id="summary-covers">(.*?)</p>', page, re.S).group(1))
    assert "2 hands, which ended" in covers and covers.endswith("2 results still wait for a payer's confirmation.")
