"""A hand's deal or move is decided before the write lock, on a snapshot (service/http.py,
``ahead``), and appended under the lock only if the group is still at the snapshot's
version. When another write lands in between, the request is decided again under the
lock: the answer is the one a request decided there would get, never a move appended on
top of a hand that moved on."""
from __future__ import annotations

import pytest

from service import handlers
from service.handlers import planning
from service.commands import Play
from tests.conftest import KOP_HANDS, KOP_TRICKS


@pytest.fixture
def hand(kop_table):
    t = kop_table
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}})
    assert r.status_code == 201, r.json
    return r.json["id"]


def _racing(monkeypatch, app, group, hand, cards):
    """Make planning.decide let another member's trick land right after each decision."""
    decide = planning.decide
    landed = []

    def decide_then_race(command, reader):
        decided = decide(command, reader)
        if not landed:
            with app.extensions["bitka.store"].writing(group) as w:
                handlers.handle(Play(group, "admin", hand, "trick", {"cards": cards}), w)
            landed.append(True)
        return decided
    monkeypatch.setattr(planning, "decide", decide_then_race)
    return landed


def test_a_trick_decided_before_another_landed_is_decided_again(app, kop_table, hand, monkeypatch):
    t = kop_table
    landed = _racing(monkeypatch, app, t["group"], hand, KOP_TRICKS[0])
    r = t["member"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[0]})
    assert landed
    # The same trick again is not the hand's second trick: refused, not appended twice.
    assert r.status_code == 422, r.json
    state = t["admin"].get(f"{t['base']}/hands/{hand}").json
    assert len(state["tricks"]) == 1 and len(state["events"]) == 2


def test_the_next_trick_decided_before_the_first_landed_follows_it(app, kop_table, hand, monkeypatch):
    t = kop_table
    _racing(monkeypatch, app, t["group"], hand, KOP_TRICKS[0])
    r = t["member"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[1]})
    # Decided ahead, it was refused (the hand's first trick is not led so); under the lock,
    # after the first trick landed, it is the second trick.
    assert r.status_code == 201, r.json
    assert r.json["trick"] == 2
    state = t["admin"].get(f"{t['base']}/hands/{hand}").json
    assert [tr["cards"] for tr in state["tricks"]] == [KOP_TRICKS[0], KOP_TRICKS[1]]


def test_a_rotated_token_appends_nothing_though_its_move_was_decided(app, kop_table, hand, monkeypatch):
    t = kop_table
    member = t["members"][0]
    decide = planning.decide

    def decide_then_rotate(command, reader):
        decided = decide(command, reader)
        r = t["admin"].post(f"{t['base']}/members/{member['id']}/token")
        assert r.status_code in (200, 201), r.json
        return decided
    monkeypatch.setattr(planning, "decide", decide_then_rotate)
    r = t["member"].post(f"{t['base']}/hands/{hand}/tricks", {"cards": KOP_TRICKS[0]})
    assert r.status_code == 401, r.json
    assert t["admin"].get(f"{t['base']}/hands/{hand}").json["tricks"] == []
