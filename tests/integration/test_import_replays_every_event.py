"""`bitka import` keeps an event only if the API would have appended it: each event is put
to the ledger as the request its actor would have sent (service/reenact.py) and must come
back exactly as recorded. Every forged log below has every hash and link recomputed
(tests/tampering.py rechained), so only what it means can give it away.

What no import can catch, and no test here pretends to: an event dropped, or changed into
one its actor could have sent, when nothing later in the log depends on it. Below, a
payment changed or dropped is caught because the group agreed a balance after it."""
from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from events.database import open_store
from service import handlers
from service.app import create_app
from service.handlers import planning
from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client
from tests.tampering import rechained

WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """One evening through the API, exported: a scorer's table and a seats table, hands
    logged by a seated member and by the admin, confirmations, a dispute and a correction,
    a void of a hand that counted, payments recorded by their receiver and by the admin, and
    a balance the group agreed after them."""
    tmp = tmp_path_factory.mktemp("evening")
    db = str(tmp / "club.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Forge", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan", "Eve")]
    ids = [m["id"] for m in members]
    phones = {m["id"]: client.as_(m["token"]) for m in members}

    def ok(answer, status=201):
        assert answer.status_code == status, answer.json
        return answer.json

    def agreed(hand):
        for payer in hand["confirmation"]["waiting_for"]:
            hand = ok(phones[payer].post(f"{base}/hands/{hand['id']}/confirm"))
        return hand

    table = ok(admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00", "seats": ids[:4]}))["id"]
    whole = {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": t} for t in KOP_TRICKS]}
    agreed(ok(phones[ids[0]].post(f"{base}/tables/{table}/hands", whole)))  # logged by Ala, seated
    second = ok(admin.post(f"{base}/tables/{table}/hands", {"result": WIN}))
    assert len(second["confirmation"]["waiting_for"]) == 2
    agreed(second)
    third = ok(admin.post(f"{base}/tables/{table}/hands", {"result": WIN}))["id"]
    ok(phones[ids[0]].post(f"{base}/hands/{third}/dispute", {"reason": "40, not 70"}))
    ok(admin.post(f"{base}/hands/{third}/correct", {"reason": "recounted", "result": {**WIN, "points": 40,
                                                                                         "tricks": 1}}))
    ok(admin.call("PATCH", base, {"confirmations": "off"}), 200)
    fourth = ok(admin.post(f"{base}/tables/{table}/hands", {"result": WIN}))["id"]  # counts at once
    ok(admin.post(f"{base}/hands/{fourth}/void", {"reason": "wrong table"}))
    seats = ok(admin.post(f"{base}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "0.50",
                                             "seats": ids[:4]}))["id"]
    hand = ok(phones[ids[1]].post(f"{base}/tables/{seats}/hands", {"deal": {"dealer": 0}}))["id"]
    for seat, cards in enumerate(KOP_HANDS):
        ok(phones[ids[seat]].post(f"{base}/hands/{hand}/cards", {"seat": seat, "cards": cards}))
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s, h in enumerate(KOP_HANDS) if card in h)
            ok(phones[ids[seat]].post(f"{base}/hands/{hand}/plays", {"seat": seat, "card": card}))
    ok(phones[ids[0]].post(f"{base}/payments", {"from": ids[1], "to": ids[0], "amount": "3.00"}))  # by its receiver
    ok(admin.post(f"{base}/payments", {"from": ids[2], "to": ids[3], "amount": "2.00"}))
    balance = ok(client.as_(g["admin_token"]).get(f"{base}/balances"), 200)
    ala = next(b["balance"] for b in balance["balances"] if b["member"] == ids[0])
    ok(admin.post(f"{base}/assertions", {"member": ids[0], "balance": ala}))
    app.extensions["bitka.store"].close()
    out = tmp / "club.jsonl"
    assert run("--db", db, "export", "--group", g["id"], "--out", str(out)).exit_code == 0
    return [json.loads(line) for line in out.read_text().splitlines()], ids


@pytest.fixture
def log(evening):
    envelopes, ids = evening
    return copy.deepcopy(envelopes), ids


def _import(tmp_path, envelopes, target=None):
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in rechained(envelopes)))
    target = target or str(tmp_path / "forged.db")
    result = run("--db", target, "import", str(path))
    with open_store(target).reading() as r:
        left = r.count()
    return result, left


def _refused(tmp_path, envelopes, seq, *said, target=None):
    result, left = _import(tmp_path, envelopes, target)
    assert result.exit_code == 1, result.output
    assert f"seq {seq}: " in result.output and "nothing was imported" in result.output, result.output
    for words in said:
        assert words in result.output, result.output
    assert left == 0 and "Traceback" not in result.output


def _at(envelopes, kind, **where):
    return next(e for e in envelopes if e["type"] == kind and all(e["data"].get(k) == v for k, v in where.items()))


def _dropped(envelopes, *gone):
    """The log without the events ``gone``, every later seq moved down (the chain is
    recomputed after)."""
    seqs = {e["seq"] for e in gone}
    return [{**e, "seq": e["seq"] - sum(s < e["seq"] for s in seqs)} for e in envelopes if e["seq"] not in seqs]


def test_the_evening_imports_whole_and_exports_again_byte_for_byte(evening, tmp_path, db_url):
    envelopes, _ = evening
    result, left = _import(tmp_path, envelopes, db_url)
    assert result.exit_code == 0, result.output
    assert left == len(envelopes) and "new admin token" in result.output
    again = tmp_path / "again.jsonl"
    assert run("--db", db_url, "export", "--group", envelopes[0]["group"], "--out", str(again)).exit_code == 0
    assert again.read_text() == "".join(line + "\n" for line in rechained(envelopes))
    for command in ("verify", "replay"):
        checked = run("--db", db_url, command)
        assert checked.exit_code == 0, checked.output


def test_a_payment_of_3_made_300_is_refused_where_the_group_agreed_a_balance_after_it(log, tmp_path):
    envelopes, ids = log
    paid = _at(envelopes, "payment", amount="3.00")
    paid["data"]["amount"] = "300.00"
    _refused(tmp_path, envelopes, _at(envelopes, "assertion")["seq"], f"agreed balance of {ids[0]}")


def test_a_dropped_payment_is_refused_where_the_group_agreed_a_balance_after_it(log, tmp_path):
    envelopes, ids = log
    envelopes = _dropped(envelopes, _at(envelopes, "payment", amount="3.00"))
    _refused(tmp_path, envelopes, _at(envelopes, "assertion")["seq"], f"agreed balance of {ids[0]}")


def test_a_payment_with_payer_and_receiver_swapped_is_refused(log, tmp_path):
    """Recorded by Ala, who received it: swapped, Ala would have recorded her own payment,
    which the API keeps pending until its receiver says they got it."""
    envelopes, ids = log
    paid = _at(envelopes, "payment", amount="3.00")
    paid["data"] = {**paid["data"], "from": ids[0], "to": ids[1]}
    _refused(tmp_path, envelopes, paid["seq"], "the payment recorded is not the one the API makes", "(in pending)")


def test_a_payment_recorded_by_its_payer_that_counts_at_once_is_refused(log, tmp_path):
    """A payer may record what they paid, but it counts only once the receiver confirms it."""
    envelopes, ids = log
    paid = _at(envelopes, "payment", amount="3.00")
    paid["actor"] = ids[1]
    _refused(tmp_path, envelopes, paid["seq"], "the payment recorded is not the one the API makes", "(in pending)")


def test_a_confirmation_forged_in_another_payers_name_is_refused(log, tmp_path):
    """The second hand waited for two payers and each confirmed; forged so that the second
    confirmation is the first payer's, that payer agrees twice and the other never did."""
    envelopes, _ = log
    first, second = [e for e in envelopes if e["type"] == "confirmation"
                     and e["hand"] == _second_hand(envelopes)]
    second["actor"] = first["actor"]
    _refused(tmp_path, envelopes, second["seq"])


def test_a_confirmation_in_the_admins_name_is_refused(log, tmp_path):
    envelopes, _ = log
    confirmed = _at(envelopes, "confirmation")
    confirmed["actor"] = "admin"
    _refused(tmp_path, envelopes, confirmed["seq"])


def _second_hand(envelopes):
    return [e for e in envelopes if e["type"] == "result"][0]["hand"]


@pytest.mark.parametrize("kind", ["member_added", "table_opened", "correction", "hand_voided", "group_updated"])
def test_what_only_the_admin_does_forged_as_a_members_is_refused(log, tmp_path, kind):
    envelopes, ids = log
    done = _at(envelopes, kind) if kind != "member_added" else [e for e in envelopes if e["type"] == kind][-1]
    done["actor"] = ids[0]
    _refused(tmp_path, envelopes, done["seq"], "only the admin")


def test_a_member_added_by_a_member_is_refused_with_the_apis_403(log, tmp_path):
    envelopes, ids = log
    added = [e for e in envelopes if e["type"] == "member_added"][-1]
    added["actor"] = ids[0]
    _refused(tmp_path, envelopes, added["seq"], "the API refuses it (403)",
             f"{ids[0]} adds a member, which only the admin does")


def test_a_correction_whose_adjustments_were_edited_is_refused(log, tmp_path):
    envelopes, _ = log
    fixed = _at(envelopes, "correction")
    for adjustment in fixed["data"]["adjustments"]:
        adjustment["payouts"] = [{**p, "amount": "0.00"} for p in adjustment["payouts"]]
    _refused(tmp_path, envelopes, fixed["seq"], "adjustments")


def test_a_void_that_takes_back_other_amounts_is_refused(log, tmp_path):
    """The fourth hand counted at once and was voided: what the void takes back is the
    hand's payouts, not what a forger would rather have taken back."""
    envelopes, _ = log
    voided = _at(envelopes, "hand_voided")
    voided["data"]["reversed"] = [{**p, "amount": "0.00"} for p in voided["data"]["reversed"]]
    _refused(tmp_path, envelopes, voided["seq"], "the hand_voided recorded is not the one the API makes",
             "(in reversed)")


def test_a_settlement_stripped_of_its_confirmation_is_refused(log, tmp_path):
    """Without "confirmed" a settlement would count at once, as only settlements logged
    before confirmations did: the payers the second hand waited for would pay unasked."""
    envelopes, _ = log
    settled = next(e for e in envelopes if e["type"] == "settlement" and e["hand"] == _second_hand(envelopes))
    assert settled["data"].pop("confirmed") is False
    _refused(tmp_path, envelopes, settled["seq"], "(in confirmed)")


def test_a_hand_logged_by_a_member_not_seated_at_the_table_is_refused(log, tmp_path):
    """Eve sits at no table: the API answers her deal with a 403."""
    envelopes, ids = log
    dealt = _at(envelopes, "deal")
    for e in envelopes:
        if e.get("hand") == dealt["hand"] and e["type"] in ("deal", "trick", "settlement"):
            e["actor"] = ids[4]
    _refused(tmp_path, envelopes, dealt["seq"], "(403)", "only a member seated at this table, or the admin")


def test_a_whole_trick_logged_by_a_member_at_a_seats_table_is_refused(log, tmp_path):
    """At a seats table a member plays a card at a time; the log cannot turn four of them
    into a trick she logged whole."""
    envelopes, _ = log
    seats_table = [e for e in envelopes if e["type"] == "table_opened"][1]["data"]["table"]
    first_play = next(e for e in envelopes if e["type"] == "play" and e.get("table") == seats_table)
    trick = next(e for e in envelopes if e["type"] == "trick" and e.get("table") == seats_table)
    plays = [e for e in envelopes if e["type"] == "play" and first_play["seq"] <= e["seq"] < trick["seq"]]
    trick["actor"] = first_play["actor"]
    envelopes = _dropped(envelopes, *plays)
    _refused(tmp_path, envelopes, first_play["seq"], "(403)", "play a card at a time")


def test_the_trick_a_card_ends_is_appended_by_whoever_played_that_card(log, tmp_path):
    """The trick comes with its last card, in the same request: the log cannot give the card
    to the admin and leave the trick its member's."""
    envelopes, _ = log
    seats_table = [e for e in envelopes if e["type"] == "table_opened"][1]["data"]["table"]
    trick = next(e for e in envelopes if e["type"] == "trick" and e.get("table") == seats_table)
    last_play = next(e for e in envelopes if e["seq"] == trick["seq"] - 1)
    last_play["actor"] = "admin"
    _refused(tmp_path, envelopes, trick["seq"], f"the API records this trick as admin's, not {trick['actor']}'s")


def test_a_forgery_into_postgresql_leaves_nothing_there_either(log, tmp_path, pg_url):
    envelopes, ids = log
    paid = _at(envelopes, "payment", amount="3.00")
    paid["actor"] = ids[1]  # its payer, and counted at once: the API would have kept it pending
    _refused(tmp_path, envelopes, paid["seq"], "the payment recorded is not the one the API makes", "(in pending)",
             target=pg_url)


def test_hands_settled_under_older_rules_still_import(tmp_path, monkeypatch):
    """A log whose hands an older bitka settled under rules 1: their cards and calls are
    judged under the rules they record (replay lists what today's would say), who logged
    them and how they were agreed as today."""
    from games.baska import game as baska
    from projections import tables
    from projections.projector import project
    from service.commands import AddMember, CreateGroup, NewHand, OpenTable
    db = str(tmp_path / "old.db")
    store = open_store(db, projector=project).setup()
    with store.writing() as w:
        group = handlers.handle(CreateGroup("Stara", "PLN"), w).id
        seats = [handlers.handle(AddMember(group, "admin", n), w).id for n in ("Ala", "Bolek", "Cela", "Darek")]
        classic = handlers.handle(OpenTable(group, "admin", {"game": "baska", "rules": {"variant": "classic"},
                                                             "seats": seats, "stake": "1.00"}), w)["id"]
    old_terms = tables.terms
    monkeypatch.setattr(planning, "table_terms", lambda row, digits: replace(old_terms(row, digits), rules_version=1))
    monkeypatch.setattr(baska.BaskaRules, "declarer_may_double_first", lambda self, contract: contract == "wesele")
    with store.writing() as w:
        wesele = {"contract": "wesele", "declarer": 0, "partner": 2, "doubles": [0], "points": 60, "tricks": 2}
        handlers.handle(NewHand(group, "admin", classic, {"result": wesele}), w)
    monkeypatch.undo()
    store.close()
    out = tmp_path / "old.jsonl"
    assert run("--db", db, "export", "--group", group, "--out", str(out)).exit_code == 0
    result = run("--db", str(tmp_path / "copy.db"), "import", str(out))
    assert result.exit_code == 0, result.output
    assert "was settled under rules 1" in result.output
