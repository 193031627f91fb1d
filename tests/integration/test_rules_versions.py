"""Rules change, stores stay: a settlement records the rules it was derived under; replay
re-derives it under those rules (a difference there is a fault, exit 1) and lists the hands
today's rules would settle otherwise (a report, exit 0)."""
from dataclasses import replace

import pytest

from events.database import open_store
from games.baska import game as baska
from games.engine.base import RULES_VERSION
from projections import tables
from projections.projector import project
from service import handlers
from service.handlers import planning
from service.commands import AddMember, CreateGroup, NewHand, OpenTable
from service.views import hand_view
from tests.command import run
from tests.tampering import rewrite_log

OLD_BYTOW = {"contract": "normal", "stare": [0, 2], "doubles": [1, 0, 3, 2], "points": 0, "tricks": 0}
OLD_GRAN_TIE = {"contract": "gran", "declarer": 1, "doubles": [], "points": 52, "tricks": 2}
OLD_CLASSIC_WESELE = {"contract": "wesele", "declarer": 0, "partner": 2, "doubles": [0], "points": 60, "tricks": 2}


def _group(w, name):
    group = handlers.handle(CreateGroup(name, "PLN"), w).id
    return group, [handlers.handle(AddMember(group, "admin", n), w).id for n in ("Ala", "Bolek", "Cela", "Darek")]


@pytest.fixture
def old_store(tmp_path, monkeypatch):
    """A store whose hands an older bitka settled under rules 1: the Bytów ceiling, no
    bok-runda after a gran 52-52, and a classic wesele caller's first double."""
    db = str(tmp_path / "old.db")
    store = open_store(db, projector=project).setup()
    with store.writing() as w:
        group, seats = _group(w, "Stara")
        bytow = handlers.handle(OpenTable(group, "admin", {"game": "baska", "rules": {}, "seats": seats,
                                                           "stake": "1.00"}), w)
        classic = handlers.handle(OpenTable(group, "admin", {"game": "baska", "rules": {"variant": "classic"},
                                                             "seats": seats, "stake": "1.00"}), w)
    old_terms = tables.terms
    monkeypatch.setattr(planning, "table_terms", lambda row, digits: replace(old_terms(row, digits), rules_version=1))
    monkeypatch.setattr(baska.BaskaRules, "declarer_may_double_first", lambda self, contract: contract == "wesele")
    hands = {}
    with store.writing() as w:
        for name, table, result in (("ceiling", bytow, OLD_BYTOW), ("tie", bytow, OLD_GRAN_TIE),
                                    ("wesele", classic, OLD_CLASSIC_WESELE)):
            hands[name] = hand_view(handlers.handle(NewHand(group, "admin", table["id"], {"result": result}), w).hand)
    monkeypatch.undo()
    store.close()
    return db, group, hands


def test_old_settlements_replay_clean_and_each_is_listed_with_what_todays_rules_say(old_store):
    db, group, hands = old_store
    assert [p["amount"] for p in hands["ceiling"]["settlement"]["payouts"]] == ["-128.00", "128.00", "-128.00",
                                                                                  "128.00"]
    assert "rules_version" not in hands["ceiling"]["settlement"]
    result = run("--db", db, "replay")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    ceiling = next(line for line in lines if hands["ceiling"]["id"] in line)
    assert "was settled under rules 1; today's rules pay" in ceiling and "-192.00" in ceiling and "-128.00" in ceiling
    tie = next(line for line in lines if hands["tie"]["id"] in line)
    assert "today's rules make a doubled round due" in tie
    wesele = next(line for line in lines if hands["wesele"]["id"] in line)
    assert "gave the first double (kontra), which today's rules refuse" in wesele
    assert lines[-1].startswith("ok: ") and "3 hand(s) settled under older rules" in lines[-1]


def test_a_settlement_that_claims_older_rules_it_was_not_derived_under_is_still_a_fault(old_store):
    db, group, hands = old_store
    ceiling = hands["ceiling"]["id"]

    def today_amounts_under_the_old_label(seq, data):  # 192s, still saying nothing of its rules
        if data.get("payouts") and data.get("units") == 2 and data.get("multiplier") == 64:
            return {**data, "multiplier": 96, "payouts": [{**p, "amount": p["amount"].replace("128", "192")}
                                                          for p in data["payouts"]]}
        return data
    rewrite_log(db, today_amounts_under_the_old_label)
    result = run("--db", db, "replay")
    assert result.exit_code == 1 and f"the settlement of hand {ceiling} differs" in result.output


def test_a_settlement_made_today_records_its_rules_and_replays_without_a_note(tmp_path):
    db = str(tmp_path / "new.db")
    store = open_store(db, projector=project).setup()
    with store.writing() as w:
        group, seats = _group(w, "Nowa")
        table = handlers.handle(OpenTable(group, "admin", {"game": "baska", "rules": {}, "seats": seats,
                                                           "stake": "1.00"}), w)
        hand = hand_view(handlers.handle(NewHand(group, "admin", table["id"], {"result": OLD_BYTOW}), w).hand)
    store.close()
    assert hand["settlement"]["rules_version"] == RULES_VERSION
    result = run("--db", db, "replay")
    assert result.exit_code == 0 and "older rules" not in result.output and "settled under" not in result.output
