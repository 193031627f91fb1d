"""A log forged after the fact, with every hash recomputed, must not pass import (nor replay)
by what it means: a seat's cards logged by another member, a confirmation by someone who
does not pay, a correction whose differences were changed, a dispute by a stranger."""
from __future__ import annotations

import json

import pytest

from service.app import create_app
from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client
from tests.tampering import rechained


@pytest.fixture
def evening(tmp_path):
    """A group with a seat-by-seat hand, a confirmed result, and a corrected one, exported."""
    db = str(tmp_path / "club.db")
    app = create_app({"BITKA_DB": db, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Forge", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    phones = [client.as_(m["token"]) for m in members]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json["id"]
    hand = phones[0].post(f"{base}/tables/{table}/hands", {"deal": {"dealer": 0}}).json["id"]
    for seat, cards in enumerate(KOP_HANDS):
        assert phones[seat].post(f"{base}/hands/{hand}/cards", {"seat": seat, "cards": cards}).status_code == 201
    for trick in KOP_TRICKS:
        for card in trick:
            seat = next(s for s, h in enumerate(KOP_HANDS) if card in h)
            assert phones[seat].post(f"{base}/hands/{hand}/plays", {"seat": seat, "card": card}).status_code == 201
    win = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}
    second = admin.post(f"{base}/tables/{table}/hands", {"result": win}).json["id"]  # a seats table's sheet
    assert phones[2].post(f"{base}/hands/{second}/confirm").status_code == 201
    assert phones[0].post(f"{base}/hands/{second}/confirm").status_code == 201
    third = admin.post(f"{base}/tables/{table}/hands", {"result": win}).json["id"]
    assert phones[0].post(f"{base}/hands/{third}/dispute", {"reason": "40, not 70"}).status_code == 201
    fixed = admin.post(f"{base}/hands/{third}/correct", {"reason": "recounted",
                                                         "result": {**win, "points": 40, "tricks": 1}})
    assert fixed.status_code == 201, fixed.json
    app.extensions["bitka.store"].close()
    out = tmp_path / "club.jsonl"
    assert run("--db", db, "export", "--group", g["id"], "--out", str(out)).exit_code == 0
    return [json.loads(line) for line in out.read_text().splitlines()], [m["id"] for m in members]


def _imported(tmp_path, envelopes):
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in rechained(envelopes)))
    return run("--db", str(tmp_path / "forged.db"), "import", str(path))


def _first(envelopes, kind, **where):
    return next(i for i, e in enumerate(envelopes)
                if e["type"] == kind and all(e["data"].get(k) == v for k, v in where.items()))


def test_the_honest_evening_imports_and_replays(evening, tmp_path):
    envelopes, _ = evening
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 0, result.output
    assert run("--db", str(tmp_path / "forged.db"), "replay").exit_code == 0


def test_a_seats_cards_logged_by_another_member_are_refused(evening, tmp_path):
    envelopes, members = evening
    at = _first(envelopes, "seat_cards", seat=2)
    envelopes[at]["actor"] = members[1]
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and f"seq {envelopes[at]['seq']}" in result.output and "only" in result.output


def test_a_confirmation_by_a_member_who_is_paid_is_refused(evening, tmp_path):
    envelopes, members = evening
    at = _first(envelopes, "confirmation")
    envelopes[at]["actor"] = members[3]  # Dan is paid in that hand
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "without paying in it" in result.output, result.output


def test_a_correction_with_other_differences_is_refused(evening, tmp_path):
    envelopes, _ = evening
    at = _first(envelopes, "correction")
    [adjustment] = envelopes[at]["data"]["adjustments"]
    adjustment["payouts"] = [{**p, "amount": "0.00"} for p in adjustment["payouts"]]
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "no longer holds" in result.output, result.output


def test_a_dispute_by_a_member_without_a_seat_is_refused(evening, tmp_path):
    envelopes, _ = evening
    at = _first(envelopes, "dispute")
    envelopes[at]["actor"] = "admin"
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "without a seat at its table" in result.output, result.output


def test_a_waiting_result_forged_as_counted_at_once_is_refused(evening, tmp_path):
    """The second hand (a result the admin logged) waited for its payers; forged to say every
    seat logged and played its own cards, it would count without anyone's word."""
    envelopes, _ = evening
    at = next(i for i, e in enumerate(envelopes) if e["type"] == "settlement" and e["data"].get("confirmed") is False)
    envelopes[at]["data"] = {**envelopes[at]["data"], "confirmed": True,
                             "confirmed_because": "every seat logged and played its own cards"}
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "counted at once" in result.output, result.output


def test_a_confirmation_carrying_anything_is_refused(evening, tmp_path):
    envelopes, _ = evening
    at = _first(envelopes, "confirmation")
    envelopes[at]["data"] = {"amount": "1000.00"}
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "says nothing beside" in result.output, result.output


def test_a_confirmation_for_another_payer_is_refused(evening, tmp_path):
    """The second hand's two payers each confirmed; forged so that one of them confirmed twice
    (the other never did), it would count with one payer's word."""
    envelopes, members = evening
    at = [i for i, e in enumerate(envelopes) if e["type"] == "confirmation"]
    envelopes[at[1]]["actor"] = envelopes[at[0]]["actor"]
    result = _imported(tmp_path, envelopes)
    assert result.exit_code == 1 and "or twice" in result.output, result.output
