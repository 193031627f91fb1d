"""``GET /v1/groups/{g}/stats`` is read from rows the projector keeps (projections/member_stats.py),
not folded from the group's log: over random histories through the API (results at two tables,
payers who confirm, dispute or wait, voids of the latest hand, corrections of past hands by a
result or a void, some re-settling the later hands of their table by what changed in them,
and the members' word on them, payments counted at once and waiting for their receiver,
members added late and seated at a table of their own; hands played card by card and
corrected by their cards), its JSON is the one the log's fold (projections/ledger_views.py
``statistics``) gives, byte for byte, after every step, on both backends. A store from before
the rows were kept gets them from its log on its next start, the same; and replay finds a
row an operator changed."""
from __future__ import annotations

import json
import random
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from cli.main import bitka
from events import migrations
from events.database import open_store
from projections import kept, ledger_views, member_stats, replay
from projections.projector import project
from tests.backends import run_raw
from tests.round_trip import history

from .test_evening_kept import _group, _step
from games.registry import GAMES


def _folded(r, group: str) -> str:
    """The statistics as the log's fold gives them, as the API writes JSON."""
    names = {m["id"]: m["name"] for m in r.row("group", group, "")["members"]}
    return json.dumps(ledger_views.statistics(r.scan(group), names), ensure_ascii=False)


def _kept(r, group: str) -> str:
    names = {m["id"]: m["name"] for m in r.row("group", group, "")["members"]}
    return json.dumps(member_stats.statistics(r, group, names), ensure_ascii=False)


def _late(t, rng: random.Random) -> None:
    """A member added now; now and then a table of their own with three who were there."""
    base, admin = t["base"], t["admin"]
    made = admin.post(f"{base}/members", {"name": f"Late {len(t['phones'])}"}).json
    t["phones"][made["id"]] = admin.as_(made["token"])
    if rng.random() < 0.5:
        seats = [made["id"], *rng.sample([m for m in t["phones"] if m != made["id"]], 3)]
        rng.shuffle(seats)
        table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "0.20", "seats": seats}).json
        t["tables"].append(table["id"])


def _waiting_payment(t, rng: random.Random) -> None:
    """A payment its payer records: it waits for its receiver, who mostly signs for it."""
    src, dst = rng.sample(list(t["phones"]), 2)
    r = t["phones"][src].post(f"{t['base']}/payments", {"from": src, "to": dst,
                                                       "amount": f"{rng.randint(1, 900) / 100:.2f}"})
    assert r.status_code == 201 and r.json["pending"], r.json
    if rng.random() < 0.7:
        assert t["phones"][dst].post(f"{t['base']}/payments/{r.json['seq']}/confirm").status_code == 201


def _one_word(t, rng: random.Random) -> None:
    """One payer of a result that waits confirms it; it may wait for another still."""
    pending = [p for p in t["admin"].get(f"{t['base']}/balances").json["pending"]
               if p.get("hand") and p["waiting_for"]]
    if pending:
        hand = rng.choice(pending)
        r = t["phones"][hand["waiting_for"][0]].post(f"{t['base']}/hands/{hand['hand']}/confirm")
        assert r.status_code == 201, r.json


def _resettled(r, group: str) -> int:
    """How many later hands the corrections re-settled by what changed in them."""
    return sum("changed" in entry for env in r.scan(group) if env.type == "correction"
               for entry in env.data["settlements"])


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_stats_are_the_ones_the_log_folds_to(client, app, monkeypatch, seed):
    monkeypatch.setattr(member_stats, "CHUNK", 3)  # a member's points span rows
    rng, now = random.Random(seed), [datetime(2026, 12, 4, 17, 0, tzinfo=timezone.utc)]
    t = _group(client)
    store = app.extensions["bitka.store"]
    for step in range(70):
        draw = rng.random()
        if draw < 0.06:
            _late(t, rng)
        elif draw < 0.12:
            _waiting_payment(t, rng)
        elif draw < 0.25:
            _one_word(t, rng)
        else:
            _step(t, rng, now)
        answer = t["admin"].get(f"{t['base']}/stats")
        assert answer.status_code == 200
        with store.reading() as r:
            assert answer.get_data(as_text=True).rstrip("\n") == _folded(r, t["id"]), (seed, step)
    with store.reading() as r:
        shown = json.loads(_folded(r, t["id"]))["members"]
        assert sum(m["hands_played"] for m in shown) and max(len(m["balance_after"]) for m in shown) > 3


def test_the_kept_stats_when_a_correction_settles_the_later_hands_again(client, app):
    """A Scopa table played to 11 points: correcting an early hand moves where every later game
    ends, and the correction records each later hand by what changed in it. Payers confirm
    some results and leave others waiting; the corrections wait for the members they lower."""
    rng = random.Random(5)
    g = client.post("/v1/groups", {"name": "Scopa", "currency": "PLN"}).json
    admin, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    made = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob")]
    phones = {m["id"]: client.as_(m["token"]) for m in made}
    table = admin.post(f"{base}/tables", {"game": "scopa", "rules": {"target": 11, "stake_per": "point"},
                                          "stake": "1.00", "seats": list(phones)}).json["id"]
    store = app.extensions["bitka.store"]

    def same() -> None:
        with store.reading() as r:
            assert _kept(r, g["id"]) == _folded(r, g["id"])

    def sheet() -> dict:
        return {"cards": rng.choice([0, 1, None]), "coins": rng.choice([0, 1, None]),
                "primiera": rng.choice([0, 1, None]), "settebello": rng.randrange(2),
                "scopas": [rng.randint(0, 2), rng.randint(0, 2)]}
    hands = []
    for _ in range(16):
        hand = admin.post(f"{base}/tables/{table}/hands", {"result": sheet()}).json
        hands.append(hand["id"])
        if rng.random() < 0.7:
            for payer in (hand.get("confirmation") or {}).get("waiting_for", []):
                assert phones[payer].post(f"{base}/hands/{hand['id']}/confirm").status_code == 201
        same()
    for hand, body in ((hands[0], {"reason": "a scopa more", "result": sheet()}),
                       (hands[3], {"reason": "a misdeal", "void": True}),
                       (hands[3], {"reason": "it was played", "result": sheet()}),
                       (hands[1], {"reason": "the settebello", "result": sheet()})):
        r = admin.post(f"{base}/hands/{hand}/correct", body)
        assert r.status_code == 201, r.json
        same()
        shown = admin.get(f"{base}/hands/{hand}").json
        for member in (shown.get("correction_waiting") or {}).get("waiting_for", []):
            assert phones[member].post(f"{base}/hands/{hand}/agree").status_code == 201
            same()
        for payer in (shown.get("confirmation") or {}).get("waiting_for", []):
            assert phones[payer].post(f"{base}/hands/{hand}/confirm").status_code == 201
            same()
    with store.reading() as r:
        assert _resettled(r, g["id"])  # later hands recorded by what changed in them


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_kept_stats_of_hands_played_card_by_card_and_corrected_by_their_cards(client, app, game):
    group = history(client, game, random.Random(44), hands=10)
    with app.extensions["bitka.store"].reading() as r:
        assert _kept(r, group) == _folded(r, group)
        assert any(m["hands_played"] for m in json.loads(_kept(r, group))["members"])


def _migration(store) -> int:
    known = migrations.POSTGRES if store.backend.name == "postgresql" else migrations.SQLITE
    return next(m.version for m in known if member_stats.NAME in m.rebuilt)


def test_a_store_from_before_the_stats_rows_gets_them_built_from_its_log(client, app, db_url):
    rng, now = random.Random(9), [datetime(2026, 12, 4, 17, 0, tzinfo=timezone.utc)]
    t = _group(client)
    for _ in range(40):
        if rng.random() < 0.1:
            _late(t, rng)
        _step(t, rng, now)
    store = app.extensions["bitka.store"]
    with store.writing() as w:  # the store as the bitka before the rows left it
        made = {name: w.rows(name, t["id"]) for name in member_stats.KEPT}
        for name in member_stats.KEPT:
            w.conn.execute("DELETE FROM projection_rows WHERE name = ?", (name,))
        w.conn.execute("DELETE FROM schema_migrations WHERE version = ?", (_migration(store),))
        folded = _folded(w, t["id"])
    store.close()
    assert all(made.values())
    again = open_store(db_url, projector=project).setup(kept.rebuild)
    with again.reading() as r:
        assert {name: r.rows(name, t["id"]) for name in member_stats.KEPT} == made
        assert _kept(r, t["id"]) == folded
    again.close()


@pytest.mark.parametrize("name", member_stats.KEPT)
def test_a_changed_stats_row_is_found_by_replay(client, app, name):
    rng, now = random.Random(3), [datetime(2026, 12, 4, 17, 0, tzinfo=timezone.utc)]
    t = _group(client)
    for _ in range(25):
        _step(t, rng, now)
    store = app.extensions["bitka.store"]
    with store.reading() as r:
        stored = sorted(r.rows(name, t["id"]))
        assert not replay.replay(r.scan(), r).differences
    key = stored[-1][1]
    run_raw(store, f"UPDATE projection_rows SET data = '{{\"fresh\": [\"x\"]}}' "
                   f"WHERE name = '{name}' AND group_id = '{t['id']}' AND key = '{key}'")
    with store.reading() as r:
        found = replay.replay(r.scan(), r).differences
    assert found == [f"group {t['id']}: {name} row {key or '-'} is different"]


def test_bitka_replay_reports_a_changed_point(tmp_path):
    """The command an operator runs: a member's balance after a move, changed in the store."""
    db = str(tmp_path / "bitka.db")
    assert CliRunner().invoke(bitka, ["--db", db, "demo"]).exit_code == 0
    store = open_store(db, projector=project).setup(kept.rebuild)
    with store.reading() as r:
        group = next(iter(r.group_ids()))
        key, row = sorted((k, v) for (_g, k), v in r.rows(member_stats.POINTS, group).items())[0]
    store.close()
    seq, minor = row["points"][:2]  # seq, minor units, seq, ...
    changed = json.dumps({**row, "points": [seq, minor + 100, *row["points"][2:]]})
    run_raw(store, f"UPDATE projection_rows SET data = '{changed}' WHERE name = '{member_stats.POINTS}' "
                   f"AND key = '{key}'")
    result = CliRunner().invoke(bitka, ["--db", db, "replay"])
    assert result.exit_code == 1 and f"stats_points row {key} is different" in result.output, result.output
