"""Every status code of API.md, and every rejected write leaving the log as it was."""
import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS

PROBLEM = {"type", "title", "status", "detail"}


def events_of(t):
    return t["admin"].get(f"{t['base']}/events?limit=1000").json["events"]


def assert_problem(response, status, detail_part=""):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert PROBLEM <= set(body) and body["status"] == status
    assert detail_part in body["detail"], body["detail"]
    return body


def test_create_group_201_with_admin_token(client):
    r = client.post("/v1/groups", {"name": "Kop club", "currency": "PLN"})
    assert r.status_code == 201 and {"id", "name", "currency", "admin_token"} <= set(r.json)
    assert r.json["currency"] == "PLN"
    assert r.headers["ETag"] == '"1"'


@pytest.mark.parametrize("raw, detail", [
    (b"{oops", "not valid JSON"),
    (b"[]", "does not match the schema"),
])
def test_malformed_json_is_400(client, raw, detail):
    r = client.http.post("/v1/groups", data=raw, content_type="application/json")
    assert_problem(r, 400, detail)


@pytest.mark.parametrize("body, field", [
    ({"currency": "PLN"}, "name"),
    ({"name": "x", "currency": "PLN", "colour": "red"}, "colour"),
    ({"name": 5, "currency": "PLN"}, "name"),
    ({"name": "a\x00b", "currency": "PLN"}, "name"),
    ({"name": "x" * 101, "currency": "PLN"}, "name"),
    ({"name": "x", "currency": "ZZZ"}, "currency"),
    ({"name": "x", "currency": "pln"}, "currency"),
])
def test_schema_violations_are_400_with_errors_per_field(client, body, field):
    body = assert_problem(client.post("/v1/groups", body), 400)
    assert field in body["errors"]


def test_no_token_or_unknown_token_is_401(kop_table, client):
    r = client.get(f"{kop_table['base']}/balances")
    assert_problem(r, 401, "Authorization")
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.as_("not-a-token").get(f"{kop_table['base']}/balances"), 401, "not known")


def test_token_of_another_group_is_403(kop_table, client):
    other = client.post("/v1/groups", {"name": "Other", "currency": "EUR"}).json
    assert_problem(client.as_(other["admin_token"]).get(kop_table["base"]), 403, "another group")


def test_member_token_on_an_admin_action_is_403_and_appends_nothing(kop_table):
    before = events_of(kop_table)
    assert_problem(kop_table["member"].post(f"{kop_table['base']}/members", {"name": "Eve"}), 403, "admin")
    assert events_of(kop_table) == before


@pytest.mark.parametrize("path", ["/v1/groups/g_nope", "/v1/groups/{g}/hands/h_nope",
                                  "/v1/groups/{g}/tables/t_nope", "/v1/nothing-here"])
def test_unknown_resources_are_404(kop_table, path):
    assert_problem(kop_table["admin"].get(path.format(g=kop_table["group"])), 404)


def test_wrong_method_is_a_problem_too(kop_table):
    r = kop_table["admin"].call("DELETE", kop_table["base"])
    assert_problem(r, 405)
    assert "GET" in r.headers["Allow"]


def test_body_over_the_size_limit_is_413(kop_table):
    r = kop_table["admin"].post(f"{kop_table['base']}/members", {"name": "x" * 300_000})
    assert_problem(r, 413)


def test_stale_if_match_is_412_with_the_current_version_and_appends_nothing(kop_table):
    before = events_of(kop_table)
    version = len(before)
    m = kop_table["members"]
    body = {"from": m[0]["id"], "to": m[1]["id"], "amount": "1.00"}
    r = kop_table["admin"].post(f"{kop_table['base']}/payments", body, headers={"If-Match": f'"{version - 1}"'})
    assert assert_problem(r, 412)["version"] == version
    assert events_of(kop_table) == before
    r = kop_table["admin"].post(f"{kop_table['base']}/payments", body, headers={"If-Match": f'"{version}"'})
    assert r.status_code == 201 and r.headers["ETag"] == f'"{version + 1}"'


def test_malformed_if_match_is_400(kop_table):
    r = kop_table["admin"].post(f"{kop_table['base']}/members", {"name": "E"}, headers={"If-Match": "soon"})
    assert_problem(r, 400, "If-Match")


def test_illegal_card_is_422_naming_the_rule_and_appends_nothing(kop_table):
    admin, base = kop_table["admin"], kop_table["base"]
    hand = admin.post(f"{base}/tables/{kop_table['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    before = events_of(kop_table)
    r = admin.post(f"{base}/hands/{hand['id']}/tricks", {"cards": ["AH", "10C", "QS", "JD"]})
    assert_problem(r, 422, "seat 2 holds QH QD JC and must follow trumps")
    assert events_of(kop_table) == before


def test_a_bid_not_allowed_is_422(kop_table):
    admin, base = kop_table["admin"], kop_table["base"]
    hand = admin.post(f"{base}/tables/{kop_table['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    r = admin.post(f"{base}/hands/{hand['id']}/bids", {"seat": 1, "call": "wesele"})
    assert_problem(r, 422, "only the holder of both black queens may call wesele")


def test_whole_hand_is_atomic_a_bad_third_trick_appends_nothing(kop_table):
    admin, base = kop_table["admin"], kop_table["base"]
    before = events_of(kop_table)
    tricks = [{"cards": t} for t in KOP_TRICKS]
    tricks[2] = {"cards": ["QC", "AC", "JC", "10D"]}
    r = admin.post(f"{base}/tables/{kop_table['table']}/hands",
                   {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": tricks})
    assert_problem(r, 422, "tricks[2]: AC is held by seat 3")
    assert events_of(kop_table) == before
    assert admin.get(f"{base}/tables/{kop_table['table']}").json["hands"] == []


@pytest.mark.parametrize("body, status, detail", [
    ({"game": "whist", "seats": "{four}", "stake": "1.00"}, 422, "not a game bitka knows"),
    ({"game": "kop", "rules": {"ranking": "x"}, "seats": "{four}", "stake": "1.00"}, 422, "ranking must be"),
    ({"game": "kop", "seats": "{three}", "stake": "1.00"}, 422, "a table of four, or of five where the dealer sits "
                                                                 "each hand out; not of 3"),
    ({"game": "kop", "seats": "{dup}", "stake": "1.00"}, 422, "only one seat"),
    ({"game": "kop", "seats": ["m_ghost"] * 4, "stake": "1.00"}, 422, "not a member"),
    ({"game": "kop", "seats": "{four}", "stake": "0.00"}, 400, "more than zero"),
    ({"game": "kop", "seats": "{four}", "stake": "-1.00"}, 400, "negative"),
    ({"game": "kop", "seats": "{four}", "stake": "0.505"}, 400, "2 decimal digits"),
    ({"game": "kop", "seats": "{four}", "stake": 1.5}, 400, "stake"),
])
def test_bad_tables_are_refused_and_append_nothing(kop_table, body, status, detail):
    ids = [m["id"] for m in kop_table["members"]]
    seats = {"{four}": ids, "{three}": ids[:3], "{dup}": ids[:3] + ids[:1]}
    if isinstance(body["seats"], str):
        body = dict(body, seats=seats[body["seats"]])
    before = events_of(kop_table)
    assert_problem(kop_table["admin"].post(f"{kop_table['base']}/tables", body), status, detail)
    assert events_of(kop_table) == before


def test_the_dealer_must_be_the_tables_next_dealer(kop_table):
    r = kop_table["admin"].post(f"{kop_table['base']}/tables/{kop_table['table']}/hands",
                                {"deal": {"dealer": 2, "hands": KOP_HANDS}})
    assert_problem(r, 422, "it is seat 0's deal at this table")


def test_a_new_hand_waits_for_the_last_one_to_finish(kop_table):
    path = f"{kop_table['base']}/tables/{kop_table['table']}/hands"
    kop_table["admin"].post(path, {"deal": {"dealer": 0, "hands": KOP_HANDS}})
    assert_problem(kop_table["admin"].post(path, {"deal": {"dealer": 1, "hands": KOP_HANDS}}), 422,
                   "still being played")


def test_idempotency_key_replays_the_original_and_refuses_another_body(kop_table):
    m, admin, base = kop_table["members"], kop_table["admin"], kop_table["base"]
    body = {"from": m[0]["id"], "to": m[1]["id"], "amount": "2.50"}
    first = admin.post(f"{base}/payments", body, headers={"Idempotency-Key": "k1"})
    again = admin.post(f"{base}/payments", body, headers={"Idempotency-Key": "k1"})
    assert (first.status_code, first.json) == (again.status_code, again.json) == (201, first.json)
    other = admin.post(f"{base}/payments", dict(body, amount="3.00"), headers={"Idempotency-Key": "k1"})
    assert_problem(other, 422, "Idempotency-Key")
    assert sum(e["type"] == "payment" for e in events_of(kop_table)) == 1


def test_a_store_level_race_is_a_409(store):
    from events.errors import VersionConflict
    from events.store import NewEvent
    from service.problems import status_of
    with store.writing() as w:
        w.append("g1", [NewEvent("group_created", {"name": "x", "currency": "PLN"})], "admin")
    with pytest.raises(VersionConflict) as raised, store.writing() as w:
        w.append("g1", [NewEvent("member_added", {"member": "m1", "name": "a"})], "admin", expected_version=0)
    assert status_of(raised.value)[0] == 409 and raised.value.extra["version"] == 1
    with store.reading() as r:
        assert r.version("g1") == 1


def test_a_write_that_cannot_get_the_store_in_time_is_a_409_and_appends_nothing(tmp_path):
    import sqlite3

    from service.app import create_app
    from tests.conftest import Client
    db = tmp_path / "busy.db"
    client = Client(create_app({"BITKA_DB": str(db), "BITKA_BUSY_TIMEOUT_MS": 50}).test_client())
    g = client.post("/v1/groups", {"name": "Busy", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the store
    try:
        r = admin.post(f"/v1/groups/{g['id']}/members", {"name": "Ala"})
        body = assert_problem(r, 409, "may simply be sent again")
        assert body["status"] == 409
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert admin.post(f"/v1/groups/{g['id']}/members", {"name": "Ala"}).status_code == 201
    assert [e["seq"] for e in admin.get(f"/v1/groups/{g['id']}/events").json["events"]] == [1, 2]


def test_tokens_are_stored_only_as_hashes(kop_table, app):
    import hashlib

    from tests.backends import everything_stored
    raw = everything_stored(app.extensions["bitka.store"])
    tokens = [m["token"] for m in kop_table["members"]] + [kop_table["admin"].token]
    assert not [t for t in tokens if t.encode() in raw]
    assert all(hashlib.sha256(t.encode()).hexdigest().encode() in raw for t in tokens)


def test_rotating_a_members_token_stops_the_old_one_at_once(kop_table):
    t = kop_table
    member = t["members"][0]
    old = t["member"]
    assert old.get(t["base"]).status_code == 200
    other = old.as_(t["members"][1]["token"])
    assert other.post(f"{t['base']}/members/{member['id']}/token").status_code == 403  # not another member's
    r = t["admin"].post(f"{t['base']}/members/{member['id']}/token")
    assert r.status_code == 201 and r.json["token"] != member["token"]
    assert old.get(t["base"]).status_code == 401
    assert old.as_(r.json["token"]).get(t["base"]).status_code == 200
    assert t["admin"].post(f"{t['base']}/members/m_nobody/token").status_code == 404
    # A member rotates their own token (one they fear leaked): the old one stops at once.
    mine = old.as_(r.json["token"]).post(f"{t['base']}/members/{member['id']}/token")
    assert mine.status_code == 201 and old.as_(r.json["token"]).get(t["base"]).status_code == 401
    assert old.as_(mine.json["token"]).get(t["base"]).status_code == 200


def test_an_idempotent_member_creation_keeps_no_token(kop_table, app):
    from pathlib import Path
    t = kop_table
    first = t["admin"].post(f"{t['base']}/members", {"name": "Eve"}, headers={"Idempotency-Key": "eve"})
    again = t["admin"].post(f"{t['base']}/members", {"name": "Eve"}, headers={"Idempotency-Key": "eve"})
    assert first.status_code == again.status_code == 201 and again.json["id"] == first.json["id"]
    assert "token" not in again.json and again.json["token_withheld"] is True
    db = Path(app.config["BITKA_DB"])
    raw = b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())
    assert first.json["token"].encode() not in raw


def test_the_token_digest_is_compared_in_constant_time(kop_table, monkeypatch):
    import service.auth
    compared = []

    def refuse(a, b):
        compared.append((a, b))
        return False
    monkeypatch.setattr(service.auth.hmac, "compare_digest", refuse)
    r = kop_table["member"].get(kop_table["base"])
    assert r.status_code == 401 and compared  # the lookup alone does not let a token in
    assert compared[0][0] == compared[0][1]


def test_a_setup_token_when_configured_guards_group_creation(tmp_path):
    from service.app import create_app
    app = create_app({"BITKA_DB": str(tmp_path / "setup.db"), "TESTING": True, "BITKA_SETUP_TOKEN": "club-secret"})
    http = app.test_client()
    body = {"name": "Club", "currency": "PLN"}
    for headers in ({}, {"Authorization": "Bearer guess"}):
        r = http.post("/v1/groups", json=body, headers=headers)
        assert r.status_code == 401 and r.mimetype == "application/problem+json" and "setup token" in r.json["detail"]
    assert app.extensions["bitka.store"].connect().execute("SELECT count(*) FROM events").fetchone()[0] == 0
    r = http.post("/v1/groups", json=body, headers={"Authorization": "Bearer club-secret"})
    assert r.status_code == 201


def test_a_database_that_went_away_is_a_503_and_the_next_request_reconnects(pg_url, tmp_path):
    import psycopg

    from service.app import create_app
    from tests.conftest import Client
    app = create_app({"BITKA_DB": pg_url, "BITKA_KEY": str(tmp_path / "k.key"), "TESTING": True})
    client = Client(app.test_client())
    g = client.post("/v1/groups", {"name": "Gone", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    store = app.extensions["bitka.store"]
    pids = [conn.raw.info.backend_pid for conn in store._idle]
    assert pids
    with psycopg.connect(pg_url, autocommit=True) as dba:  # the database drops bitka's connections
        for pid in pids:
            dba.execute("SELECT pg_terminate_backend(%s)", (pid,))
    gone = admin.get(f"/v1/groups/{g['id']}")
    assert_problem(gone, 503, "database cannot be reached")
    assert gone.headers["Retry-After"] == "5"
    answers = [admin.get(f"/v1/groups/{g['id']}").status_code for _ in range(len(pids) + 1)]
    assert answers[-1] == 200  # each broken connection is dropped, and a new one made
    store = app.extensions["bitka.store"]
    store.close()
    store.url = "postgresql://postgres@127.0.0.1:1/none"  # now nothing answers at all
    assert_problem(admin.post(f"/v1/groups/{g['id']}/members", {"name": "Ala"}), 503, "nothing was appended")
