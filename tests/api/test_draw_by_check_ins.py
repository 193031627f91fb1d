"""A draw nobody can arrange, whoever holds the server's key (API.md, "Members hold their own
keys", its last bullet, and "Drawing a round"), tried as an attacker would.

Whoever holds the server's key knows every round's secret before it is revealed
(service/draws.py derives them from the key), so under the first draw (seed = SHA-256(secret
|| the hash of the group's last event)) they could choose the seed by choosing the last event:
append a payment or a member, or draw a moment later. A tournament created now is drawn from
its players' check-ins instead: here the key holder predicts a round from the secret and the
entropies alone, then draws it in several futures of the same store (other events appended
between the last check-in and the draw, at other times), and every future gives the seed and
tables predicted, while any one player's entropy changes them. The draw waits for every
player or names who has not; the check-in is once, by a player, for the next round, and
signed by a player who holds a key (the operator who writes one into the store in a keyed
player's name is found by verify, replay and import); ``bitka draw --check``, export and
import, and replay re-run it from the log and find a forged entropy. Every seed and table is
computed here from API.md's words (tests/tournaments.py), never by the service's code.

What the check-ins do not close yet is a strict xfail at the end: the last player to check
in, if the key holder tells them the secret, still picks among as many draws as entropies
they try before sending one."""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from contextlib import closing

import pytest

from projections.projector import project
from service.app import create_app
from tests.command import run
from tests.conftest import Client
from tests.keys.devices import Device
from tests.tampering import append_forged, rechained, rewrite_log
from tests.tournaments import (NAMES, check_in, check_in_every, entropy, shuffled_by, their_check_in_shuffle,
                               their_seed, whole_hand)

PROBLEM = "application/problem+json"


def hall(client, players: int = 8) -> dict:
    """A points group of ``players`` members named as people are (so that a sentence naming
    them can be read), results counting at once, and a Kop tournament of them all."""
    made = client.post("/v1/groups", {"name": "Bytów", "currency": "points"}).json
    admin = client.as_(made["admin_token"])
    base = f"/v1/groups/{made['id']}"
    assert admin.call("PATCH", base, {"confirmations": "off"}).status_code == 200
    members = [admin.post(f"{base}/members", {"name": n}).json for n in NAMES[:players]]
    ids = [m["id"] for m in members]
    t = admin.post(f"{base}/tournaments", {"name": "Puchar", "game": "kop", "players": ids, "rounds": 2,
                                           "deals": 1})
    assert t.status_code == 201, t.json
    assert t.json["draw"] == 2 and t.json["checked_in"] == []
    return {"group": made["id"], "admin": admin, "base": base, "ids": ids, "client": client, "t": t.json,
            "x": f"{base}/tournaments/{t.json['id']}", "tokens": {m["id"]: m["token"] for m in members},
            "names": {m["id"]: m["name"] for m in members}}


def on_sqlite(app) -> bool:
    return not app.config["BITKA_DB"].startswith(("postgres", "postgresql"))


def version(h: dict) -> int:
    return h["admin"].get(h["base"]).json["version"]


def refused(r, h: dict, before: int, status: int) -> str:
    """A refusal as API.md says it: the status, problem+json, nothing appended; its detail."""
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:500])
    assert r.content_type.startswith(PROBLEM), r.content_type
    assert version(h) == before, "a refused request appended something"
    return r.json["detail"]


def everyone_in(h: dict, number: int, absent=()) -> dict[str, int]:
    return check_in_every(h["client"], h["base"], h["t"]["id"], number, h["tokens"],
                          [p for p in h["ids"] if p not in absent])


def predicted(h: dict, secret: bytes, absent=(), changed: dict | None = None) -> tuple[str, list[list[str]]]:
    """The seed and the tables of round 1 as the key holder works them out before the draw,
    from the secret and the entropies in the log (``changed``: some player's entropy otherwise)."""
    checked = {p: (changed or {}).get(p, entropy(p, 1)) for p in h["ids"] if p not in absent}
    order = their_check_in_shuffle(h["ids"], secret, checked)
    seed = their_seed(secret, [checked[p] for p in h["ids"] if p in checked]).hex()
    return seed, [order[0:4], order[4:8]]


def draw(api: Client, h: dict, absent=None):
    return api.post(f"{h['x']}/rounds", {"absent": list(absent)} if absent is not None else None)


def not_yet(detail: str) -> list[str]:
    """The names a refused draw says have not checked in."""
    found = re.search(r"not yet: (.*?) \(", detail)
    assert found, detail
    return found.group(1).split(", ")


def test_the_key_holder_cannot_move_the_seed_with_the_last_event_or_the_time(client, app, tmp_path):
    h = hall(client)
    secret = app.extensions["bitka.draws"].secret(h["group"], h["t"]["id"], 1)  # what the key gives away
    assert hashlib.sha256(secret).hexdigest() == h["t"]["commitment"]
    seqs = everyone_in(h, 1)
    seed, tables = predicted(h, secret)

    # Each player's entropy moves the seed and the tables: no player's check-in is left out.
    for p in h["ids"]:
        other_seed, other_tables = predicted(h, secret, changed={p: hashlib.sha256(b"other " + p.encode()).hexdigest()})
        assert other_seed != seed and other_tables != tables, p

    # The key holder's tries: the group's last event before the draw made other (a payment, a
    # new member), at another time. Under the first draw each would seed another shuffle.
    futures = {}
    if on_sqlite(app):
        for name, act in (("as it is", None),
                          ("after a payment", ("payments", {"from": h["ids"][0], "to": h["ids"][1], "amount": "3"})),
                          ("after a new member", ("members", {"name": "Zenek"}))):
            futures[name] = _drawn_in_a_copy(app, h, tmp_path / f"{len(futures)}.db", act)
    assert h["admin"].post(f"{h['base']}/payments", {"from": h["ids"][2], "to": h["ids"][3], "amount": "1"}) \
        .status_code == 201
    assert h["admin"].post(f"{h['base']}/members", {"name": "Wiesia"}).status_code == 201
    last = h["admin"].get(f"{h['base']}/events?after={version(h) - 1}").json["events"][-1]
    d = draw(h["admin"], h)
    assert d.status_code == 201, d.json
    futures["here, after a payment and a member"] = (d.json["seed"], [t["seats"] for t in d.json["tables"]],
                                                     hashlib.sha256(secret + bytes.fromhex(last["hash"])).hexdigest())
    for name, (drawn_seed, drawn_tables, _old) in futures.items():
        assert (drawn_seed, drawn_tables) == (seed, tables), name
    assert len({old for _seed, _tables, old in futures.values()}) == len(futures)  # what the first draw would give
    assert d.json["after"] == max(seqs.values()) < last["seq"] and d.json["absent"] == []
    assert d.json["secret"] == secret.hex()


def _drawn_in_a_copy(app, h: dict, db, act) -> tuple[str, list[list[str]], str]:
    """The store copied, as the key holder can, and round 1 drawn in the copy after ``act`` (an
    event appended through the API first, or none), by a server with the same key: the seed,
    the tables, and the seed the first draw would have made of the event before it."""
    with closing(sqlite3.connect(app.config["BITKA_DB"])) as source, closing(sqlite3.connect(db)) as copy:
        source.backup(copy)
    other = create_app({"BITKA_DB": str(db), "BITKA_KEY": app.config["BITKA_KEY"], "TESTING": True})
    try:
        admin = Client(other.test_client(), h["admin"].token)
        if act is not None:
            assert admin.post(f"{h['base']}/{act[0]}", act[1]).status_code == 201
        last = admin.get(f"{h['base']}/events?after={admin.get(h['base']).json['version'] - 1}").json["events"][-1]
        d = draw(admin, h)
        assert d.status_code == 201, d.json
        secret = bytes.fromhex(d.json["secret"])
        return (d.json["seed"], [t["seats"] for t in d.json["tables"]],
                hashlib.sha256(secret + bytes.fromhex(last["hash"])).hexdigest())
    finally:
        other.extensions["bitka.store"].close()


def test_a_draw_waits_for_every_player_and_names_who_has_not_checked_in(client):
    h = hall(client)
    names = h["names"]
    before = version(h)
    said = refused(draw(h["admin"], h), h, before, 422)
    assert not_yet(said) == [names[p] for p in h["ids"]] and "absent" in said
    here = h["ids"][:3] + h["ids"][5:]
    missing = h["ids"][3:5]
    check_in_every(h["client"], h["base"], h["t"]["id"], 1, h["tokens"], here)
    assert h["admin"].get(h["x"]).json["checked_in"] == here
    before = version(h)
    assert not_yet(refused(draw(h["admin"], h), h, before, 422)) == [names[p] for p in missing]
    assert not_yet(refused(draw(h["admin"], h, missing[:1]), h, before, 422)) == [names[missing[1]]]
    stranger = h["admin"].post(f"{h['base']}/members", {"name": "Zenek"}).json["id"]
    before = version(h)
    said = refused(draw(h["admin"], h, [*missing, stranger]), h, before, 422)
    assert stranger in said and "do not play" in said
    said = refused(draw(h["admin"], h, [*missing, here[0]]), h, before, 422)
    assert names[here[0]] in said and "checked in" in said and names[missing[0]] not in said
    assert refused(h["admin"].post(f"{h['x']}/rounds", {"absent": missing[0]}), h, before, 400)  # not a list
    assert refused(h["admin"].post(f"{h['x']}/rounds", {"absent": [], "extra": 1}), h, before, 400)
    member = h["client"].as_(h["tokens"][here[0]])
    assert refused(draw(member, h, missing), h, before, 403)  # the draw is the admin's

    last = max(e["seq"] for e in h["admin"].get(f"{h['base']}/events?limit=1000").json["events"]
               if e["type"] == "check_in")
    d = draw(h["admin"], h, missing[::-1])  # named in any order: said in the players' order
    assert d.status_code == 201, d.json
    secret = bytes.fromhex(d.json["secret"])
    assert d.json["absent"] == missing and d.json["after"] == last < before
    assert d.json["seed"] == their_seed(secret, [entropy(p, 1) for p in here]).hex()
    order = shuffled_by(h["ids"], bytes.fromhex(d.json["seed"]))
    assert [t["seats"] for t in d.json["tables"]] == [order[0:4], order[4:8]]  # the absent are still seated
    read = h["admin"].get(h["x"]).json
    assert read["drawn_rounds"][0] == d.json and read["checked_in"] == []


def test_a_round_nobody_checked_in_for_is_drawn_from_the_secret_alone_after_the_last_event(client):
    h = hall(client, 4)
    h["admin"].post(f"{h['base']}/members", {"name": "Zenek"})
    before = version(h)
    d = draw(h["admin"], h, h["ids"])
    assert d.status_code == 201, d.json
    secret = bytes.fromhex(d.json["secret"])
    assert d.json["absent"] == h["ids"] and d.json["after"] == before
    assert d.json["seed"] == hashlib.sha256(secret).hexdigest() == their_seed(secret, []).hex()
    assert d.json["tables"][0]["seats"] == shuffled_by(h["ids"], hashlib.sha256(secret).digest())


def test_a_check_in_is_once_by_a_player_for_the_next_round(client):
    h = hall(client)
    x, first = h["t"]["id"], h["ids"][0]
    outsider = h["admin"].post(f"{h['base']}/members", {"name": "Zenek"}).json
    before = version(h)
    r = check_in(h["client"], h["base"], x, 1, outsider["id"], outsider["token"])
    assert "player" in refused(r, h, before, 403)
    r = h["admin"].post(f"{h['x']}/rounds/1/check-in", {"entropy": entropy("admin", 1)})
    refused(r, h, before, 403)  # the admin token is no player
    r = h["client"].post(f"{h['x']}/rounds/1/check-in", {"entropy": entropy(first, 1)})
    refused(r, h, before, 401)
    for number in (2, 0, 3):
        r = check_in(h["client"], h["base"], x, number, first, h["tokens"][first])
        assert "round 1" in refused(r, h, before, 422) or number == 0
    for sent in ("ab" * 31, "AB" * 32, "zz" * 32, "ab" * 33, ""):
        refused(check_in(h["client"], h["base"], x, 1, first, h["tokens"][first], sent=sent), h, before, 400)
    refused(h["client"].as_(h["tokens"][first]).post(f"{h['x']}/rounds/1/check-in", {}), h, before, 400)
    refused(h["client"].as_(h["tokens"][first]).post(f"{h['base']}/tournaments/x_none/rounds/1/check-in",
                                                     {"entropy": entropy(first, 1)}), h, before, 404)

    once = check_in(h["client"], h["base"], x, 1, first, h["tokens"][first])
    assert once.status_code == 201, once.json
    before = version(h)
    assert once.json["seq"] == before
    again = check_in(h["client"], h["base"], x, 1, first, h["tokens"][first], sent=entropy("again", 1))
    assert "already" in refused(again, h, before, 422)  # a second entropy would be a second try at the seed
    same = check_in(h["client"], h["base"], x, 1, first, h["tokens"][first])
    refused(same, h, before, 422)
    event = h["admin"].get(f"{h['base']}/events?after={before - 1}").json["events"][0]
    assert event["type"] == "check_in" and event["actor"] == first
    assert event["data"] == {"member": first, "tournament": x, "round": 1, "entropy": entropy(first, 1)}


def test_a_keyed_players_check_in_is_signed_by_their_own_device(client):
    h = hall(client)
    x = h["t"]["id"]
    keyed, plain = h["ids"][0], h["ids"][1]
    phone = Device()
    r = h["client"].as_(h["tokens"][keyed]).post(f"{h['base']}/members/{keyed}/devices", {"key": phone.key})
    assert r.status_code == 201, r.json
    path, sent = f"{h['x']}/rounds/1/check-in", entropy(keyed, 1)
    api = h["client"].as_(h["tokens"][keyed])
    fields = {"tournament": x, "round": 1, "entropy": sent}
    before = version(h)
    assert "check" in refused(api.post(path, {"entropy": sent}), h, before, 403)  # unsigned: the token is not enough
    for forged in (Device().header("check_in", h["group"], **fields),  # another device's key
                   phone.header("check_in", h["group"], **{**fields, "entropy": entropy("other", 1)}),
                   phone.header("check_in", h["group"], **{**fields, "round": 2}),
                   phone.header("check_in", h["group"], **{**fields, "tournament": "x_other"}),
                   phone.header("confirm", h["group"], **fields),
                   phone.header("check_in", "g_other", **fields)):
        r = api.post(path, {"entropy": sent}, headers=forged)
        refused(r, h, before, 403)
        assert r.json.get("statement", {}).get("act") == "check_in"
    nonce = "0f" * 16
    r = check_in(h["client"], h["base"], x, 1, keyed, h["tokens"][keyed], device=phone)
    assert r.status_code == 201, r.json
    event = h["admin"].get(f"{h['base']}/events?after={r.json['seq'] - 1}").json["events"][0]
    assert event["data"]["signed"]["kid"] == phone.kid and event["data"]["entropy"] == sent
    # a player who never had a key checks in as before keys; one whose nonce was used is refused
    r = check_in(h["client"], h["base"], x, 1, plain, h["tokens"][plain])
    assert r.status_code == 201, r.json
    other = h["ids"][2]
    their = Device()
    assert h["client"].as_(h["tokens"][other]).post(f"{h['base']}/members/{other}/devices",
                                                    {"key": their.key}).status_code == 201
    used = event["data"]["signed"]["nonce"]
    before = version(h)
    r = h["client"].as_(h["tokens"][other]).post(
        path, {"entropy": entropy(other, 1)},
        headers=their.header("check_in", h["group"], nonce=used, tournament=x, round=1, entropy=entropy(other, 1)))
    refused(r, h, before, 403)
    r = h["client"].as_(h["tokens"][other]).post(
        path, {"entropy": entropy(other, 1)},
        headers=their.header("check_in", h["group"], nonce=nonce, tournament=x, round=1, entropy=entropy(other, 1)))
    assert r.status_code == 201, r.json


def _played_out(h: dict, drawn: dict) -> None:
    for table in drawn["tables"]:
        r = h["admin"].post(f"{h['base']}/tables/{table['id']}/hands", whole_hand(len(table["seats"]), 0))
        assert r.status_code == 201, r.json


def test_draw_check_export_import_and_replay_rerun_it_and_find_a_forged_entropy(client, app, tmp_path):
    h = hall(client)
    device = Device()  # one player holds a key: the log has a signed check-in too
    keyed = h["ids"][5]
    assert h["client"].as_(h["tokens"][keyed]).post(f"{h['base']}/members/{keyed}/devices",
                                                    {"key": device.key}).status_code == 201
    check_in_every(h["client"], h["base"], h["t"]["id"], 1, h["tokens"], h["ids"], devices={keyed: device})
    first = draw(h["admin"], h)
    assert first.status_code == 201, first.json
    _played_out(h, first.json)
    check_in_every(h["client"], h["base"], h["t"]["id"], 2, h["tokens"], [p for p in h["ids"] if p != h["ids"][6]],
                   devices={keyed: device})
    second = draw(h["admin"], h, [h["ids"][6]])
    assert second.status_code == 201 and second.json["absent"] == [h["ids"][6]], second.json

    db = app.config["BITKA_DB"]
    exported = tmp_path / "bytow.jsonl"
    assert run("--db", db, "export", "--group", h["group"], "--out", str(exported)).exit_code == 0
    checked = run("draw", "--check", "--log", str(exported))
    assert checked.exit_code == 0 and checked.output.count("ok: round") == 2, checked.output
    imported = run("--db", str(tmp_path / "copy.db"), "import", str(exported))
    assert imported.exit_code == 0, imported.output
    again = run("--db", str(tmp_path / "copy.db"), "draw", "--check", "--group", h["group"])
    assert again.exit_code == 0 and again.output.count("ok: round") == 2, again.output
    assert run("--db", str(tmp_path / "copy.db"), "replay").exit_code == 0
    if on_sqlite(app):
        assert run("--db", db, "replay").exit_code == 0
        assert run("--db", db, "draw", "--check", "--group", h["group"]).exit_code == 0

    # Whoever holds the log rewrites one player's entropy of round 1 (an unkeyed one, so that no
    # signature gives it away) and rehashes everything after it: the draw no longer comes from it.
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    victim = h["ids"][3]
    for env in lines:
        if env["type"] == "check_in" and env["data"]["member"] == victim and env["data"]["round"] == 1:
            env["data"]["entropy"] = entropy("forged", 1)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(rechained(lines)) + "\n")
    said = run("draw", "--check", "--log", str(forged))
    assert said.exit_code == 1 and "DIFFERS: round 1" in said.output and "entropy" in said.output, said.output
    assert "ok: round 2" in said.output
    refused_import = run("--db", str(tmp_path / "forged.db"), "import", str(forged))
    assert refused_import.exit_code != 0 and "nothing was imported" in refused_import.output

    # ... and a draw whose absent players are not those who had not checked in.
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    for env in lines:
        if env["type"] == "round_drawn" and env["data"]["round"] == 2:
            env["data"]["absent"] = []
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("\n".join(rechained(lines)) + "\n")
    said = run("draw", "--check", "--log", str(hidden))
    assert said.exit_code == 1 and "DIFFERS: round 2" in said.output, said.output

    if on_sqlite(app):  # the same rewrite in the store itself, rehashed behind bitka's back
        at = next(e["seq"] for e in h["admin"].get(f"{h['base']}/events?limit=1000").json["events"]
                  if e["type"] == "check_in" and e["data"]["member"] == victim)
        app.extensions["bitka.store"].close()
        rewrite_log(db, lambda seq, data: {**data, "entropy": entropy("forged", 1)} if seq == at else data)
        said = run("--db", db, "draw", "--check", "--group", h["group"])
        assert said.exit_code == 1 and "DIFFERS: round 1" in said.output, said.output
        assert run("--db", db, "replay").exit_code == 1


def test_the_operator_cannot_check_in_for_a_player_who_holds_a_key(client, app, tmp_path):
    """Whoever runs the server writes a check-in into the store in a keyed player's name, with
    bytes of their choosing and every hash and link made as bitka makes them, and draws from
    it: verify, replay and import name it, as an act without its member's signature."""
    if not on_sqlite(app):
        pytest.skip("the store file is SQLite's: the operator's rows are written with sqlite3")
    h = hall(client)
    keyed = h["ids"][0]
    phone = Device()
    assert h["client"].as_(h["tokens"][keyed]).post(f"{h['base']}/members/{keyed}/devices",
                                                    {"key": phone.key}).status_code == 201
    everyone_in(h, 1, absent=[keyed])
    db = app.config["BITKA_DB"]
    chosen = hashlib.sha256(b"the operator's choice").hexdigest()
    seq = append_forged(db, h["group"], "check_in", {"member": keyed, "tournament": h["t"]["id"], "round": 1,
                                                      "entropy": chosen}, keyed, projector=project)
    assert h["admin"].get(h["x"]).json["checked_in"] == h["ids"]  # the server's rows believe it
    d = draw(h["admin"], h)
    assert d.status_code == 201 and d.json["after"] == seq, d.json
    secret = bytes.fromhex(d.json["secret"])
    assert d.json["seed"] == their_seed(secret, [chosen, *(entropy(p, 1) for p in h["ids"][1:])]).hex()
    verify, replay = run("--db", db, "verify"), run("--db", db, "replay")
    assert verify.exit_code == 1 and f"seq {seq}" in verify.output, verify.output
    assert replay.exit_code == 1 and f"seq {seq}" in replay.output, replay.output
    out = tmp_path / "log.jsonl"
    assert run("--db", db, "export", "--group", h["group"], "--out", str(out)).exit_code == 0
    imported = run("--db", str(tmp_path / "imported.db"), "import", str(out))
    assert imported.exit_code == 1 and f"seq {seq}" in imported.output, imported.output


@pytest.mark.xfail(strict=True, reason="the last player to check in, told the round's secret by whoever holds the "
                                       "server's key, still chooses among as many draws as entropies they try: "
                                       "closing it needs the players to commit to their entropy before any is "
                                       "shown (or the secret revealed only after the entropies)")
def test_the_last_player_to_check_in_cannot_choose_the_tables_even_knowing_the_secret(client, app):
    h = hall(client)
    secret = app.extensions["bitka.draws"].secret(h["group"], h["t"]["id"], 1)  # the key holder tells a friend
    friend, partner = h["ids"][-1], h["ids"][0]
    everyone_in(h, 1, absent=[friend])  # every other entropy is in the log for all to read
    checked = {p: entropy(p, 1) for p in h["ids"] if p != friend}
    chosen = None
    for attempt in range(200):  # the friend tries entropies on their laptop until one seats them with the partner
        tried = hashlib.sha256(f"try {attempt}".encode()).hexdigest()
        order = their_check_in_shuffle(h["ids"], secret, {**checked, friend: tried})
        if any(friend in table and partner in table for table in (order[0:4], order[4:8])):
            chosen = tried
            break
    assert chosen is None, "the friend found an entropy that seats them with the partner"
