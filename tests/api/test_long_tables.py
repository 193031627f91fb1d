"""A table of many hands played card by card (issue 44): its page and its live part list the
last ``SHOWN_ROWS`` hands, the totals running over every one, and read each hand's outcome,
not its cards; a correction there reads the cards only of the hand it corrects and of the
hands after it that one request may settle again, and decides exactly what reading every
card decides."""
from __future__ import annotations

import random
import re

import pytest

from events import limits
from events.recorder import EventLog
from games.engine.autoplay import hand_at_random
from games.registry import GAMES
from projections import corrections
from service.handlers import verdicts
from service.web.table_shown import SHOWN_ROWS
from tests.api.every_page import BROWSER
from tests.api.test_tournament_pages import _signed_in, _text

SCOPA = GAMES["scopa"]


def _table(client, rules: dict) -> dict:
    g = client.post("/v1/groups", {"name": "Bar", "currency": "PLN", "confirmations": "off"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    seats = [admin.post(f"{base}/members", {"name": n}).json["id"] for n in ("Ada", "Bea")]
    table = admin.post(f"{base}/tables", {"game": "scopa", "rules": rules, "seats": seats, "stake": "0.10"}).json
    return {"group": g["id"], "admin": admin, "base": base, "table": table["id"], "token": g["admin_token"],
            "rules": SCOPA.parse_rules(table["rules"]), "hands": []}


def _play(t: dict, count: int, rng: random.Random, void_every: int = 0) -> None:
    """``count`` whole hands played card by card at the table, every ``void_every``-th voided."""
    for n in range(count):
        at = t["admin"].get(f"{t['base']}/tables/{t['table']}").json
        made = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands",
                               hand_at_random(SCOPA, t["rules"], rng, at["next_dealer"]))
        assert made.status_code == 201, made.json
        t["hands"].append(made.json["id"])
        if void_every and n % void_every == void_every - 1:
            voided = t["admin"].post(f"{t['base']}/hands/{made.json['id']}/void", {"reason": "misdeal"})
            assert voided.status_code == 201, voided.json


def test_a_long_tables_page_lists_its_last_hands_and_reads_no_card(client, app, monkeypatch):
    t = _table(client, {"target": 11})
    _play(t, SHOWN_ROWS + 4, random.Random(3))
    read = []
    original = EventLog.table_events

    def recorded(self, *args, **kw):
        found = original(self, *args, **kw)
        read.extend(env.type for env in found)
        return found
    monkeypatch.setattr(EventLog, "table_events", recorded)
    browser, page = _signed_in(app, t["token"]), f"/g/{t['group']}/tables/{t['table']}"
    short, live = _text(browser.http.get(page, headers=BROWSER)), _text(browser.http.get(f"{page}/live"))
    assert read and not set(read) & corrections.CARDS, sorted(set(read))
    whole = _text(browser.http.get(f"{page}?every=1", headers=BROWSER))
    rows = re.compile(r'<tr class="(?:settled|pending|disputed|voided|playing)">')
    assert len(rows.findall(short)) == len(rows.findall(live)) == SHOWN_ROWS
    assert len(rows.findall(whole)) == SHOWN_ROWS + 4
    assert "The 4 hands before these count in the totals" in short and "every=1" in short
    assert "hands before these" not in whole and f"/tables/{t['table']}/live?every=1" in whole
    last = short[short.rindex('<tr class="settled">'):]
    assert last[:last.index("</tr>")] in whole  # the last row's totals are the same, run over every hand


@pytest.mark.parametrize("target", range(0, 12, 3))
def test_a_correction_reads_the_cards_it_may_use_and_decides_what_every_card_decides(client, app, monkeypatch, target):
    """At a Scopa table played to 11 by the point (a game's end moves every later hand's
    settlement), with a hand voided now and then, and one request allowed to settle only 3
    later hands again: voiding each hand in turn decides the same settlements, or the same
    refusal, from the correction's own reading as from every card of the table."""
    monkeypatch.setattr(limits, "MOST_SETTLED_AGAIN", 3)
    t = _table(client, {"target": 11, "stake_per": "point"})
    _play(t, 14, random.Random(target), void_every=5)
    store = app.extensions["bitka.store"]
    with store.reading() as r:
        every_card = corrections.history(r.table_events(t["group"], t["table"]))
        windowed = verdicts._past(r, t["group"], t["table"], t["hands"][target])
    assert [h.id for h in windowed] == [h.id for h in every_card]
    in_window = [h for h in windowed if h.events and len(h.events) > 1]
    assert len(in_window) < len(every_card)  # the cards of the hands past its reach are not read

    def decided(past):
        try:
            return corrections.corrected(SCOPA, t["rules"], 1, ["a", "b"], 2, past, t["hands"][target], None,
                                         most=limits.MOST_SETTLED_AGAIN)
        except Exception as e:  # the refusal of too many hands, said the same way
            return type(e).__name__, str(e)
    assert decided(windowed) == decided(every_card)
    answer = t["admin"].post(f"{t['base']}/hands/{t['hands'][target]}/correct", {"reason": "a misdeal", "void": True})
    assert answer.status_code in (201, 409, 422), answer.json
