"""The evening to share is read from rows the projector keeps by when hands ended
(projections/evenings.py), not folded from the group's log: over random histories through
the API (results at two tables, payers who confirm, dispute or wait, voids of the latest hand,
corrections of past hands by a result or a void and the members' word on them, payments),
with a clock that moves by minutes, by hours near the eight-hour break, and by days, the kept
rows' evening is the one the log folded gives after every step, on both backends; and a store
from before the rows were kept gets them built from its log, the same."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from events import migrations, recorder
from events.database import open_store
from projections import evenings, kept
from projections.projector import project
from tests.command import run
from service.web.evening_results import last_evening
from tests.evening_fold import last_evening as folded_evening
from tests.oracles.results import random_kop_result
from tests.round_trip import history

from .test_evening_to_share import NAMES
from games.registry import GAMES


def _clock(monkeypatch) -> list[datetime]:
    now = [datetime(2026, 12, 4, 17, 0, tzinfo=timezone.utc)]
    monkeypatch.setattr(recorder, "utc_now", lambda: now[0].strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    return now


def _group(client) -> dict:
    g = client.post("/v1/groups", {"name": "Wieczór", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in (*NAMES, "Eve")]
    phones = {m["id"]: client.as_(m["token"]) for m in members}
    ids = [m["id"] for m in members]
    tables = [admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "0.50", "seats": seats}).json["id"]
              for seats in (ids[:4], ids[1:])]
    return {"id": g["id"], "base": base, "admin": admin, "phones": phones, "tables": tables, "hands": []}


def _word(t, hand: dict, rng: random.Random) -> None:
    """Each payer a result waits for confirms it, or one disputes it, or they leave it waiting."""
    waiting = (hand.get("confirmation") or {}).get("waiting_for", [])
    draw = rng.random()
    for payer in waiting if draw < 0.6 else waiting[:1] if draw < 0.7 else ():
        verb = "confirm" if draw < 0.6 else "dispute"
        r = t["phones"][payer].post(f"{t['base']}/hands/{hand['id']}/{verb}", {"reason": "not so"})
        assert r.status_code == 201, r.json


def _step(t, rng: random.Random, now: list[datetime]) -> None:
    draw, base, admin = rng.random(), t["base"], t["admin"]
    if draw < 0.25:
        now[0] += rng.choice([timedelta(minutes=rng.randint(1, 90)), timedelta(hours=rng.uniform(7.5, 8.5)),
                              timedelta(days=rng.randint(1, 8), minutes=rng.randint(0, 600))])
    elif draw < 0.65 or not t["hands"]:
        table = rng.choice(t["tables"])
        made = admin.post(f"{base}/tables/{table}/hands", {"result": random_kop_result(rng, "kop")})
        assert made.status_code == 201, made.json
        t["hands"].append(made.json["id"])
        _word(t, made.json, rng)
        if rng.random() < 0.1:  # the latest hand voided
            r = admin.post(f"{base}/hands/{made.json['id']}/void", {"reason": "misdeal"})
            assert r.status_code in (201, 409, 422), r.json
    elif draw < 0.85:
        hand = rng.choice(t["hands"])
        body = {"reason": "a misdeal", "void": True} if rng.random() < 0.3 else {
            "reason": "a wrong sheet", "result": random_kop_result(rng, "kop")}
        r = admin.post(f"{base}/hands/{hand}/correct", body)
        assert r.status_code in (201, 409, 422), r.json
        shown = admin.get(f"{base}/hands/{hand}").json
        for member in (shown.get("correction_waiting") or {}).get("waiting_for", []):
            if rng.random() < 0.9:
                assert t["phones"][member].post(f"{base}/hands/{hand}/agree").status_code == 201
        if r.status_code == 201:
            _word(t, shown, rng)
    else:
        src, dst = rng.sample(list(t["phones"]), 2)
        r = admin.post(f"{base}/payments", {"from": src, "to": dst, "amount": f"{rng.randint(1, 900) / 100:.2f}"})
        assert r.status_code == 201, r.json


def _evenings(app, group: str):
    with app.extensions["bitka.store"].reading() as r:
        grow = r.row("group", group, "")
        return last_evening(r, grow), folded_evening(r, grow), last_evening(r, grow, tables=False)


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_evening_is_the_one_the_log_folds_to(client, app, monkeypatch, seed):
    rng, now = random.Random(seed), _clock(monkeypatch)
    t = _group(client)
    assert _evenings(app, t["id"])[0] == _evenings(app, t["id"])[1]  # no hand yet
    for step in range(60):
        _step(t, rng, now)
        kept_rows, folded, picture = _evenings(app, t["id"])
        assert kept_rows == folded, (seed, step)
        assert (picture.results, picture.hands, picture.waiting, picture.first) == (
            folded.results, folded.hands, folded.waiting, folded.first)
    assert folded.first is not None
    replayed = run("--db", app.config["BITKA_DB"], "replay")  # the rows themselves are what the log makes
    assert replayed.exit_code == 0, replayed.output


def test_a_member_whose_hands_of_a_span_are_all_voided_keeps_no_row_of_it(client, app, monkeypatch):
    """The only hand of a table voided (and a hand taken out by a correction's void): the
    evening's rows are again those the log makes, which keep no member at 0 (replay rebuilds
    and compares them), and a store that kept such rows loses them when it is set up."""
    now, t = _clock(monkeypatch), _group(client)
    first = t["admin"].post(f"{t['base']}/tables/{t['tables'][0]}/hands", {"result": random_kop_result(
        random.Random(1), "kop")}).json
    _word(t, first, random.Random(0))
    assert t["admin"].post(f"{t['base']}/hands/{first['id']}/void", {"reason": "misdeal"}).status_code == 201
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output
    now[0] += timedelta(days=1)
    second = t["admin"].post(f"{t['base']}/tables/{t['tables'][1]}/hands", {"result": random_kop_result(
        random.Random(2), "kop")}).json
    _word(t, second, random.Random(0))
    store = app.extensions["bitka.store"]
    with store.writing() as w:  # a row of 0 as schema 10 (PostgreSQL 9) left one
        span = evenings.span_key(now[0].strftime("%Y-%m-%dT%H"))
        w.put_row(evenings.MEMBER, t["id"], f"{span}|{next(iter(t['phones']))}", {"result": 0})
        known = migrations.POSTGRES if store.backend.name == "postgresql" else migrations.SQLITE
        w.conn.execute("DELETE FROM schema_migrations WHERE version >= ?",
                       (next(m.version for m in known if m.carry is migrations.evening_members_at_zero),))
    assert run("--db", app.config["BITKA_DB"], "replay").exit_code == 1
    open_store(app.config["BITKA_DB"], projector=project).setup(kept.rebuild).close()
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_kept_evening_of_hands_played_card_by_card_and_corrected_by_their_cards(client, app, monkeypatch, game):
    """Every hand of one game played card by card, some corrected by their cards again or
    voided, then a tournament's tables (tests/round_trip.py), a day apart now and then."""
    rng, now = random.Random(44), _clock(monkeypatch)
    ticking = recorder.utc_now

    def tick() -> str:
        now[0] += timedelta(minutes=rng.choice([3, 3, 3, 500, 2000]))
        return ticking()
    monkeypatch.setattr(recorder, "utc_now", tick)
    group = history(client, game, rng, hands=10)
    kept_rows, folded, _picture = _evenings(app, group)
    assert kept_rows == folded and folded.first is not None


def test_a_store_from_before_the_evening_rows_gets_them_built_from_its_log(client, app, monkeypatch):
    rng, now = random.Random(7), _clock(monkeypatch)
    t = _group(client)
    for _ in range(40):
        _step(t, rng, now)
    store = app.extensions["bitka.store"]
    with store.writing() as w:
        made = {name: w.rows(name, t["id"]) for name in evenings.KEPT}
        w.conn.execute("DELETE FROM projection_rows WHERE name LIKE 'evening%'")
    with store.reading() as r:
        assert not r.rows(evenings.NAME, t["id"])
    with store.writing() as w:
        kept.rebuild(w, (evenings.NAME,))
    with store.reading() as r:
        assert {name: r.rows(name, t["id"]) for name in evenings.KEPT} == made
    kept_rows, folded, _picture = _evenings(app, t["id"])
    assert kept_rows == folded and folded.first is not None
