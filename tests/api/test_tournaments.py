"""Tournaments over HTTP, as API.md "Points, tables of five, tournaments and seasons" says and
as an organizer and its players would try them: every draw run again here from what the API
and the log show (a second reading of the algorithm, written another way: the seed from the
secret and each player's check-in, "A draw nobody can arrange, whoever holds the server's
key"), every standing counted again from the hands' own payouts, and bad input, a race and a
forged draw refused with nothing appended. What an attacker tries against the check-ins is in
test_draw_by_check_ins.py."""
from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from contextlib import closing
from fractions import Fraction

import pytest

from events import migrations
from events.database import open_store
from games.engine.autoplay import hand_at_random
from games.registry import GAMES
from projections import kept, tournament_cards
from projections.projector import project
from tests.api.every_page import BROWSER
from tests.api.test_tournament_pages import _signed_in, _text
from tests.command import run
from tests.concurrency import failures_in_threads
from tests.conftest import agreed
from tests.tampering import rechained
from tests.tournaments import check_in_every, entropy, shuffled_by, their_seed

KOP = GAMES["kop"]
RULES = KOP.parse_rules({})


def club(client, players: int, currency: str = "points", confirmations: str = "off") -> dict:
    g = client.post("/v1/groups", {"name": "Bytów", "currency": currency}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    assert admin.call("PATCH", base, {"confirmations": confirmations}).status_code in (200, 201)
    members = [admin.post(f"{base}/members", {"name": f"Gracz {i + 1}"}).json for i in range(players)]
    return {"group": g["id"], "admin": admin, "base": base, "members": members, "client": client,
            "ids": [m["id"] for m in members], "tokens": {m["id"]: m["token"] for m in members}}


def create(c: dict, **body) -> dict:
    r = c["admin"].post(f"{c['base']}/tournaments", {"name": "Puchar", "game": "kop", "players": c["ids"],
                                                      "rounds": 2, "deals": 2, **body})
    assert r.status_code == 201, r.json
    return r.json


def version(c: dict) -> int:
    return c["admin"].get(c["base"]).json["version"]


def play_round(c: dict, drawn: dict, deals: int, chance: random.Random) -> list[dict]:
    """Every table of the round plays its deals (whole random legal hands logged by the admin)."""
    hands = []
    for table in drawn["tables"]:
        for _ in range(deals):
            at = c["admin"].get(f"{c['base']}/tables/{table['id']}").json  # a table of five's rules say so
            r = c["admin"].post(f"{c['base']}/tables/{table['id']}/hands",
                                hand_at_random(KOP, KOP.parse_rules(at["rules"]), chance, at["next_dealer"]))
            assert r.status_code == 201, r.json
            hands.append(r.json)
    return hands


def their_draw(players: list[str], seed: bytes) -> list[list[str]]:
    """API.md's draw as a reader would write it (tests/tournaments.py), cut into fours with
    the last ones of five."""
    order = shuffled_by(players, seed)
    fives = next(b for b in range(len(order) // 5 + 1) if (len(order) - 5 * b) % 4 == 0)
    sizes = [4] * ((len(order) - 5 * fives) // 4) + [5] * fives
    return [order[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]


def event_hash(c: dict, seq: int) -> str:
    r = c["admin"].get(f"{c['base']}/events?after={seq - 1}&limit=1")
    return r.json["events"][0]["hash"]


def check_in(c: dict, t: dict, number: int, absent=(), order: list[str] | None = None) -> dict[str, int]:
    """Every player of ``t`` but the ``absent`` checks in for round ``number`` from their own
    token (in ``order``, else the tournament's): each one's check-in seq."""
    return check_in_every(c["client"], c["base"], t["id"], number, c["tokens"],
                          [p for p in (order or t["players"]) if p not in absent])


def drawn_as_said(c: dict, t: dict, d: dict, seqs: dict[str, int], absent=()) -> dict:
    """The draw ``d`` of a round the players in ``seqs`` checked in for is the one API.md
    says: its secret is the one committed to, its seed SHA-256(secret || each checked-in
    player's entropy, in the tournament's player order), ``after`` the last check-in's seq,
    ``absent`` those drawn without theirs, and its tables the players shuffled by that seed."""
    secret = bytes.fromhex(d["secret"])
    committed = t["commitment"] if d["round"] == 1 else c["admin"].get(
        f"{c['base']}/tournaments/{t['id']}").json["drawn_rounds"][d["round"] - 2]["commitment"]
    assert hashlib.sha256(secret).hexdigest() == committed
    seed = their_seed(secret, [entropy(p, d["round"]) for p in t["players"] if p in seqs])
    assert d["seed"] == seed.hex()
    assert d["after"] == max(seqs.values()) and d["absent"] == [p for p in t["players"] if p in absent]
    assert [table["seats"] for table in d["tables"]] == their_draw(t["players"], seed)
    return d


def draw(c: dict, t: dict, number: int, absent=()) -> dict:
    """Round ``number`` drawn by the admin once every player but the ``absent`` has checked in
    (those drawn without their check-in), checked against API.md: the draw's answer."""
    seqs = check_in(c, t, number, absent)
    r = c["admin"].post(f"{c['base']}/tournaments/{t['id']}/rounds", {"absent": list(absent)} if absent else None)
    assert r.status_code == 201, r.json
    return drawn_as_said(c, t, r.json, seqs, absent)


def their_standings(c: dict, tournament: dict, places=(5, 3, 1, 0)) -> dict[str, tuple[Fraction, int, int]]:
    """Each player's (table points, small points, first places), counted from every counted
    hand's payouts as the API serves them, placed by hand."""
    out = {m: [Fraction(0), 0, 0] for m in tournament["players"]}
    for drawn in c["admin"].get(f"{c['base']}/tournaments/{tournament['id']}").json["drawn_rounds"]:
        for table in drawn["tables"]:
            small = {m: 0 for m in table["seats"]}
            hands = c["admin"].get(f"{c['base']}/tables/{table['id']}").json["hands"]
            for hand in hands:
                h = c["admin"].get(f"{c['base']}/hands/{hand}").json
                if h.get("settlement") and (h.get("confirmation") or {}).get("state") == "counted":
                    for p in h["settlement"]["payouts"]:
                        small[p["member"]] += int(p["amount"])
            if not hands:
                continue
            ranked = sorted(small, key=lambda m: -small[m])
            for m in ranked:
                tied = [i for i, o in enumerate(ranked) if small[o] == small[m]]
                share = sum(Fraction(places[i]) if i < len(places) else Fraction(0) for i in tied) / len(tied)
                out[m][0] += share
                out[m][1] += small[m]
                out[m][2] += tied[0] == 0
    return {m: tuple(v) for m, v in out.items()}


def test_a_tournament_is_created_with_a_commitment_and_read_back(client):
    c = club(client, 8)
    t = create(c, places=[4, 3, 2, 1], stake="2")
    assert {k: t[k] for k in ("name", "game", "players", "rounds", "deals", "places", "stake", "drawn", "draw",
                              "checked_in")} == {
        "name": "Puchar", "game": "kop", "players": c["ids"], "rounds": 2, "deals": 2, "places": [4, 3, 2, 1],
        "stake": "2", "drawn": 0, "draw": 2, "checked_in": []}
    assert len(t["commitment"]) == 64 and int(t["commitment"], 16) >= 0
    read = c["admin"].get(f"{c['base']}/tournaments/{t['id']}").json
    assert read == {**t, "drawn_rounds": []}
    assert c["admin"].as_(c["members"][0]["token"]).get(f"{c['base']}/tournaments/{t['id']}").status_code == 200


def test_each_draw_is_the_one_its_committed_secret_and_the_players_check_ins_make(client):
    c = club(client, 13)
    t = create(c, rounds=3, deals=1)
    chance = random.Random(13)
    committed = t["commitment"]
    x = f"{c['base']}/tournaments/{t['id']}"
    for number in (1, 2, 3):
        order = chance.sample(c["ids"], len(c["ids"]))  # they arrive in any order: the seed takes the players'
        seqs = {}
        for k, member in enumerate(order):
            seqs.update(check_in_every(c["client"], c["base"], t["id"], number, c["tokens"], [member]))
            read = c["admin"].get(x).json
            assert read["checked_in"] == [p for p in c["ids"] if p in order[:k + 1]]  # in the players' order
            assert read["commitment"] == committed and read["drawn"] == number - 1
        log = c["admin"].get(f"{c['base']}/events?after={min(seqs.values()) - 1}").json["events"]
        assert [(e["type"], e["actor"], e["data"]["member"], e["data"]["round"], e["data"]["entropy"])
                for e in log] == [("check_in", m, m, number, entropy(m, number)) for m in order]
        assert version(c) == max(seqs.values())
        drawn = c["admin"].post(f"{x}/rounds")
        assert drawn.status_code == 201, drawn.json
        d = drawn.json
        assert d["round"] == number and d["after"] == seqs[order[-1]] and d["absent"] == []
        assert hashlib.sha256(bytes.fromhex(d["secret"])).hexdigest() == committed
        secret = bytes.fromhex(d["secret"])
        seed = hashlib.sha256(secret + b"".join(bytes.fromhex(entropy(p, number)) for p in c["ids"])).digest()
        assert d["seed"] == seed.hex() == their_seed(secret, [entropy(p, number) for p in c["ids"]]).hex()
        assert [table["seats"] for table in d["tables"]] == their_draw(c["ids"], seed)
        assert [len(table["seats"]) for table in d["tables"]] == [4, 4, 5]
        assert c["admin"].get(x).json["checked_in"] == []  # the next round's check-ins start afresh
        for table in d["tables"]:  # ordinary tables of the round
            row = c["admin"].get(f"{c['base']}/tables/{table['id']}").json
            assert (row["tournament"], row["round"], row["deals"]) == (t["id"], number, 1)
            assert [s["member"] for s in row["seats"]] == table["seats"]
        committed = d["commitment"]
        play_round(c, d, 1, chance)
    assert committed is None
    read = c["admin"].get(f"{c['base']}/tournaments/{t['id']}").json
    assert read["drawn"] == 3 and read["commitment"] is None and len(read["drawn_rounds"]) == 3
    again = c["admin"].post(f"{c['base']}/tournaments/{t['id']}/rounds")
    assert again.status_code == 422 and "every round" in again.json["detail"]
    before = version(c)  # a check-in once every round is drawn is for no round
    late = c["client"].as_(c["tokens"][c["ids"][0]]).post(f"{x}/rounds/4/check-in", {"entropy": entropy("late", 4)})
    assert late.status_code == 422 and "every round is drawn" in late.json["detail"] and version(c) == before


def test_standings_are_what_the_hands_give_and_a_correction_moves_them(client):
    c = club(client, 8)
    t = create(c, rounds=2, deals=3)
    chance = random.Random(8)
    drawn = draw(c, t, 1)
    hands = play_round(c, drawn, 3, chance)
    standing = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    assert standing["rounds_played"] == 1
    theirs = their_standings(c, t)
    assert {p["member"]: (Fraction(p["points"]), int(p["small"]), p["first_places"])
            for p in standing["players"]} == theirs
    keys = [(-Fraction(p["points"]), -int(p["small"]), -p["first_places"]) for p in standing["players"]]
    assert keys == sorted(keys)
    assert sum(Fraction(p["points"]) for p in standing["players"]) == 2 * (5 + 3 + 1 + 0)

    first = hands[0]  # the first hand of the first table, corrected to a void after the round
    r = c["admin"].post(f"{c['base']}/hands/{first['id']}/correct", {"reason": "misdeal", "void": True})
    assert r.status_code == 201, r.json
    after = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    assert {p["member"]: (Fraction(p["points"]), int(p["small"]), p["first_places"])
            for p in after["players"]} == their_standings(c, t)
    table = drawn["tables"][0]
    moved = {p["member"]: p["small"] for p in after["players"] if p["member"] in table["seats"]}
    assert moved != {p["member"]: p["small"] for p in standing["players"] if p["member"] in table["seats"]}
    assert after["rounds_played"] == 0  # the voided hand counts as never played: the table owes a deal
    at = c["admin"].get(f"{c['base']}/tables/{table['id']}").json
    assert c["admin"].post(f"{c['base']}/tables/{table['id']}/hands",
                           hand_at_random(KOP, RULES, chance, at["next_dealer"])).status_code == 201
    assert c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json["rounds_played"] == 1


def test_a_hand_that_waits_for_its_payers_counts_in_the_standings_once_they_confirm(client):
    c = club(client, 4, confirmations="payers")
    t = create(c, rounds=1, deals=1)
    drawn = draw(c, t, 1)
    [hand] = play_round(c, drawn, 1, random.Random(4))
    assert hand["confirmation"]["state"] == "pending"
    waiting = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    assert {p["small"] for p in waiting["players"]} == {"0"} and waiting["rounds_played"] == 1
    agreed({"base": c["base"], "members": c["members"], "member": c["admin"]}, hand)
    counted = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    paid = {p["member"]: p["amount"] for p in hand["settlement"]["payouts"]}
    assert {p["member"]: p["small"] for p in counted["players"]} == paid


def test_a_table_takes_exactly_its_deals_and_the_next_round_waits_for_every_table(client):
    c = club(client, 8)
    t = create(c, deals=2)
    drawn = draw(c, t, 1)
    chance = random.Random(2)
    check_in(c, t, 2)  # everyone is here for round 2: only the tables still playing hold it back
    early = c["admin"].post(f"{c['base']}/tournaments/{t['id']}/rounds")
    assert early.status_code == 422
    assert all(table["id"] in early.json["detail"] for table in drawn["tables"])
    play_round(c, {"tables": drawn["tables"][:1]}, 2, chance)
    before = version(c)
    full = drawn["tables"][0]["id"]
    at = c["admin"].get(f"{c['base']}/tables/{full}").json
    beyond = c["admin"].post(f"{c['base']}/tables/{full}/hands", hand_at_random(KOP, RULES, chance, at["next_dealer"]))
    assert beyond.status_code == 422 and "2" in beyond.json["detail"]
    still = c["admin"].post(f"{c['base']}/tournaments/{t['id']}/rounds")
    assert still.status_code == 422 and drawn["tables"][1]["id"] in still.json["detail"] and full not in still.json[
        "detail"]
    assert version(c) == before


@pytest.mark.parametrize("body, status", [
    ({"players": "SEVEN"}, 400),
    ({"rounds": 0}, 400),
    ({"deals": "32"}, 400),
    ({"rounds": 2.5}, 400),
    ({"places": [5, -1]}, 400),
    ({"game": "chess"}, 422),
    ({"rules": {"ranking": "nonsense"}}, 422),
    ({"places": [1, 3, 5, 0]}, 422),
    ({"places": [5, 3, 1, 0, 0, 0]}, 422),
    ({"stake": "0"}, 400),
    ({"stake": "0.5"}, 400),
])
def test_a_tournament_against_the_contract_is_refused_and_appends_nothing(client, body, status):
    c = club(client, 8)
    before = version(c)
    r = c["admin"].post(f"{c['base']}/tournaments", {"name": "Puchar", "game": "kop", "players": c["ids"],
                                                      "rounds": 2, "deals": 2, **body})
    assert r.status_code == status, r.json
    assert r.headers["Content-Type"].startswith("application/problem+json") and r.json["detail"]
    assert version(c) == before


def test_players_no_tables_fit_a_stranger_or_a_player_twice_are_refused_in_words(client):
    c = club(client, 8)
    other = club(client, 1)
    before = version(c)
    for players, words in ((c["ids"][:7], "7 players fit no tables"), (c["ids"][:3], "3 players fit no tables"),
                           (c["ids"][:7] + other["ids"], "not members"), (c["ids"][:7] + c["ids"][:1], "twice")):
        r = c["admin"].post(f"{c['base']}/tournaments", {"name": "P", "game": "kop", "players": players,
                                                          "rounds": 1, "deals": 1})
        assert r.status_code == 422 and words in r.json["detail"], r.json
    assert version(c) == before


def test_only_the_admin_creates_draws_and_opens_watch_links(client):
    c = club(client, 4)
    t = create(c)
    member = c["admin"].as_(c["members"][0]["token"])
    before = version(c)
    assert member.post(f"{c['base']}/tournaments", {"name": "P", "game": "kop", "players": c["ids"], "rounds": 1,
                                                     "deals": 1}).status_code == 403
    assert member.post(f"{c['base']}/tournaments/{t['id']}/rounds").status_code == 403
    assert member.post(f"{c['base']}/tournaments/{t['id']}/watch").status_code == 403
    assert c["admin"].as_(None).post(f"{c['base']}/tournaments/{t['id']}/rounds").status_code == 401
    assert c["admin"].post(f"{c['base']}/tournaments/x_nothere/rounds").status_code == 404
    assert version(c) == before


def test_two_draws_racing_draw_one_round(client):
    c = club(client, 8)
    t = create(c)
    check_in(c, t, 1)
    answers = []
    errors = failures_in_threads(lambda: answers.append(
        c["admin"].post(f"{c['base']}/tournaments/{t['id']}/rounds")), 6)
    assert not errors
    statuses = [r.status_code for r in answers]
    assert statuses.count(201) == 1 and set(statuses) <= {201, 409, 422}, statuses
    assert c["admin"].get(f"{c['base']}/tournaments/{t['id']}").json["drawn"] == 1


def test_a_season_counts_each_players_best_tournaments(client):
    c = club(client, 4)
    chance = random.Random(5)
    made = []
    for _ in range(3):
        t = create(c, rounds=1, deals=2)
        play_round(c, draw(c, t, 1), 2, chance)
        made.append(t["id"])
    each = {x: {p["member"]: p for p in c["admin"].get(f"{c['base']}/tournaments/{x}/standings").json["players"]}
            for x in made}
    season = c["admin"].get(f"{c['base']}/standings?tournaments={','.join(made)}&best=2")
    assert season.status_code == 200, season.json
    for player in season.json["players"]:
        mine = sorted(((Fraction(each[x][player["member"]]["points"]), int(each[x][player["member"]]["small"]), x)
                       for x in made), reverse=True)
        best = mine[:2]
        assert Fraction(player["points"]) == sum(p for p, _s, _x in best)
        assert int(player["small"]) == sum(s for _p, s, _x in best)
        assert {e["id"] for e in player["tournaments"] if e["counted"]} == {x for _p, _s, x in best}
        assert len(player["tournaments"]) == 3
    assert c["admin"].get(f"{c['base']}/standings?tournaments=x_none&best=2").status_code == 404
    assert c["admin"].get(f"{c['base']}/standings?tournaments={made[0]}&best=zero").status_code == 400


def test_a_watch_link_is_absolute_ends_once_and_then_is_gone(client):
    c = club(client, 4)
    t = create(c)
    r = c["admin"].post(f"{c['base']}/tournaments/{t['id']}/watch")
    assert r.status_code == 201 and r.json["url"].endswith(f"/t/{r.json['code']}")
    assert r.json["url"].startswith("http")
    ended = c["admin"].call("DELETE", f"{c['base']}/tournaments/{t['id']}/watch/{r.json['code']}")
    assert ended.status_code == 204 and ended.data == b""
    assert c["admin"].call("DELETE", f"{c['base']}/tournaments/{t['id']}/watch/{r.json['code']}").status_code == 410
    assert c["admin"].call("DELETE", f"{c['base']}/tournaments/{t['id']}/watch/nothing").status_code == 404
    events = c["admin"].get(f"{c['base']}/events").json["events"]
    assert r.json["code"] not in json.dumps(events)  # only its hash is kept


def test_the_log_of_a_tournament_replays_imports_and_draws_again(client, app, tmp_path):
    c = club(client, 8)
    t = create(c, deals=1)
    drawn = draw(c, t, 1)
    play_round(c, drawn, 1, random.Random(3))
    draw(c, t, 2, absent=c["ids"][2:3])  # one player is drawn without their check-in
    db = app.config["BITKA_DB"]
    if not db.startswith(("postgres", "postgresql")):
        assert run("--db", db, "replay").exit_code == 0
    exported = tmp_path / "club.jsonl"
    assert run("--db", db, "export", "--group", c["group"], "--out", str(exported)).exit_code == 0
    checked = run("draw", "--check", "--log", str(exported))
    assert checked.exit_code == 0 and checked.output.count("ok: round") == 2, checked.output
    assert run("--db", str(tmp_path / "copy.db"), "import", str(exported)).exit_code == 0

    # The organizer's laptop rewrites round 1 to seat two players otherwise, every hash recomputed.
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    for env in lines:
        if env["type"] == "round_drawn" and env["data"]["round"] == 1:
            tables = env["data"]["tables"]
            tables[0]["seats"][0], tables[1]["seats"][0] = tables[1]["seats"][0], tables[0]["seats"][0]
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(rechained(lines)) + "\n")
    said = run("draw", "--check", "--log", str(forged))
    assert said.exit_code == 1 and "DIFFERS: round 1" in said.output, said.output
    refused = run("--db", str(tmp_path / "forged.db"), "import", str(forged))
    assert refused.exit_code != 0 and "nothing was imported" in refused.output

    # A log whose round 1 opens its two tables under one id (the second table's events moved
    # onto the first's): import names the draw that seats two tables under one id.
    twins = [json.loads(line) for line in exported.read_text().splitlines()]
    drawn_ids = next(env["data"]["tables"] for env in twins if env["type"] == "round_drawn")
    first, second = drawn_ids[0]["id"], drawn_ids[1]["id"]
    twinned = rechained([json.loads(json.dumps(env).replace(second, first)) for env in twins])
    (tmp_path / "twins.jsonl").write_text("\n".join(twinned) + "\n")
    refused = run("--db", str(tmp_path / "twins.db"), "import", str(tmp_path / "twins.jsonl"))
    assert refused.exit_code != 0 and "two of its tables share one id" in refused.output, refused.output

    # A forger who breaks the tournament's creation itself gets a finding, never a traceback.
    for env in lines:
        if env["type"] == "tournament_created":
            env["data"]["rules"] = "none"
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(rechained(lines)) + "\n")
    said = run("draw", "--check", "--log", str(broken))
    assert said.exit_code == 1 and "not as bitka writes them" in said.output and "Traceback" not in said.output


def test_the_standings_rows_are_checked_by_replay_and_a_store_without_them_still_answers(client, app):
    """The standings are kept in rows of their own (projections/standings_row.py): replay builds
    them from the log and finds one edited behind the server's back; a store that has none (as
    one from before they were kept) answers the same standings, and --rebuild writes them."""
    db = app.config["BITKA_DB"]
    if db.startswith(("postgres", "postgresql")):
        pytest.skip("the store is edited with SQLite's own tools here")
    c = club(client, 8)
    t = create(c, rounds=2, deals=2)
    drawn = draw(c, t, 1)
    play_round(c, drawn, 2, random.Random(11))
    url = f"{c['base']}/tournaments/{t['id']}/standings"
    honest = c["admin"].get(url).json
    assert honest["players"][0]["place"] == 1 and run("--db", db, "replay").exit_code == 0

    conn = sqlite3.connect(db)
    last = honest["players"][-1]["member"]
    conn.execute("UPDATE projection_rows SET data = json_set(data, '$.players[0].member', ?) "
                 "WHERE name = 'standings' AND key = ?", (last, t["id"]))
    conn.commit()
    said = run("--db", db, "replay")
    assert said.exit_code == 1 and f"standings row {t['id']} is different" in said.output, said.output

    conn.execute("DELETE FROM projection_rows WHERE name = 'standings'")
    conn.commit()
    conn.close()
    assert c["admin"].get(url).json == honest  # made from the tables' rows on the spot
    said = run("--db", db, "replay")
    assert said.exit_code == 1 and f"standings row {t['id']} is missing from the store" in said.output
    assert run("--db", db, "replay", "--rebuild").exit_code == 0
    assert run("--db", db, "replay").exit_code == 0 and c["admin"].get(url).json == honest

    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DELETE FROM projection_rows WHERE name = 'standings'")
    # the next change at one of its tables (here: round 2's opened) makes every row anew
    draw(c, t, 2)
    assert run("--db", db, "replay").exit_code == 0
    assert c["admin"].get(url).json["players"] == honest["players"]


def test_a_tournament_of_two_seat_tables_takes_the_usual_places_as_far_as_its_tables_go(client):
    c = club(client, 6)
    body = {"name": "Scopa", "game": "scopa", "players": c["ids"], "rounds": 1, "deals": 1}
    r = c["admin"].post(f"{c['base']}/tournaments", body)
    assert r.status_code == 201, r.json
    assert r.json["places"] == [5, 3]
    seqs = check_in(c, r.json, 1)
    drawn = c["admin"].post(f"{c['base']}/tournaments/{r.json['id']}/rounds").json
    assert [len(t["seats"]) for t in drawn["tables"]] == [2, 2, 2]
    seed = their_seed(bytes.fromhex(drawn["secret"]), [entropy(p, 1) for p in c["ids"]])
    assert drawn["seed"] == seed.hex() and drawn["after"] == max(seqs.values())
    order = shuffled_by(c["ids"], seed)
    assert [t["seats"] for t in drawn["tables"]] == [order[0:2], order[2:4], order[4:6]]
    before = version(c)
    refused = c["admin"].post(f"{c['base']}/tournaments", {**body, "places": [5, 3, 1, 0]})
    assert refused.status_code == 422 and "seats 2" in refused.json["detail"] and version(c) == before


def test_a_tournament_that_says_four_players_is_never_seated_five_to_a_table(client):
    """Kop seats five where its rules leave the number of players open (the dealer sits out):
    a tournament whose rules say ``players: 4``, the default value said, keeps tables of four."""
    c = club(client, 5)
    said = c["admin"].post(f"{c['base']}/tournaments", {"name": "Czwórki", "game": "kop", "players": c["ids"],
                                                          "rounds": 1, "deals": 1, "rules": {"players": 4}})
    assert said.status_code == 422 and "a table seats 4" in said.json["detail"], said.json
    left_open = create(c, rounds=1, deals=1)  # left open: five players are one table of five
    assert [len(t["seats"]) for t in draw(c, left_open, 1)["tables"]] == [5]


def test_the_pages_that_list_tournaments_read_cards_kept_true_by_replay_and_built_for_an_older_store(client, app):
    """What the group's pages show of a tournament comes from its card and its players' seats
    (projections/tournament_cards.py), kept as the tournament goes: the group's page names
    where each player sits in the round drawn last and, once the rounds are played out, leaves
    their tables out of its tables (an evening's table opened before them still shows); a
    table's page names its number in its round. A store from before the cards were kept gets
    them built when it is set up, the rows its appends would have made; replay finds one edited."""
    c = club(client, 8)
    evening = c["admin"].post(f"{c['base']}/tables", {"game": "kop", "seats": c["ids"][:4], "stake": "1"}).json
    t = create(c, rounds=2, deals=1)
    first = draw(c, t, 1)
    page, admin = f"/g/{c['group']}", _signed_in(app, c["admin"].token)
    for member, token in c["tokens"].items():
        shown = _text(_signed_in(app, token).http.get(page, headers=BROWSER))
        number, table = next((n, d) for n, d in enumerate(first["tables"], 1) if member in d["seats"])
        assert f"Your table: {number}, seat {table['seats'].index(member) + 1}" in shown, shown
        assert f"/tables/{table['id']}" in shown
    for number, table in enumerate(first["tables"], 1):
        assert f"round 1, table {number}" in _text(admin.http.get(f"{page}/tables/{table['id']}", headers=BROWSER))
    play_round(c, first, 1, random.Random(5))
    play_round(c, draw(c, t, 2), 1, random.Random(6))
    over = _text(admin.http.get(page, headers=BROWSER))
    assert "Your table" not in over and f"/tables/{evening['id']}" in over and "over: all 2 rounds" in over
    assert not any(f"/tables/{table['id']}" in over for table in first["tables"])
    assert "The tables of tournament rounds played out" in over

    store = app.extensions["bitka.store"]
    with store.reading() as r:
        made = {name: r.rows(name, c["group"]) for name in tournament_cards.NAMES}
    assert made[tournament_cards.CARD][c["group"], t["id"]]["finished"] == [1, 2]
    assert len(made[tournament_cards.SEAT]) == 2 * len(c["ids"])
    with store.writing() as w:  # the store as schema 9 (PostgreSQL 8) left it
        known = migrations.POSTGRES if store.backend.name == "postgresql" else migrations.SQLITE
        since = next(m.version for m in known if tournament_cards.CARD in m.rebuilt)
        w.conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (since,))
        for name in tournament_cards.NAMES:
            w.conn.execute("DELETE FROM projection_rows WHERE name = ?", (name,))
    again = open_store(app.config["BITKA_DB"], projector=project).setup(kept.rebuild)
    with again.reading() as r:
        assert {name: r.rows(name, c["group"]) for name in tournament_cards.NAMES} == made
    again.close()
    assert run("--db", app.config["BITKA_DB"], "replay").exit_code == 0
    with store.writing() as w:
        w.put_row(tournament_cards.CARD, c["group"], t["id"], {**made[tournament_cards.CARD][c["group"], t["id"]],
                                                                "finished": [1]})
    said = run("--db", app.config["BITKA_DB"], "replay")
    assert said.exit_code == 1 and f"tournament_card row {t['id']} is different" in said.output, said.output
