"""The store is checked, not trusted: with the server stopped, one settlement's amounts are
changed in the database (the append-only trigger dropped and put back, no hash
recomputed). Served again, nothing that needs that event shows it: the API answers 500
damaged-store naming its seq, the pages say so in words in the reader's language, writes to
the group are refused, and the other groups are served as before. ``bitka serve`` finds it
before it serves."""
import re

import pytest

from cli import server
from events.damage import DamagedGroups
from events.database import open_store
from events.errors import Damaged
from service.app import create_app
from tests.backends import drop_trigger, run_raw
from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client
from tests.tampering import REFUSE_UPDATE

FORGED = "47.00"  # the amount the attacker writes into the settlement
BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}
PG_REFUSE_UPDATE = ("CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events "
                    "FOR EACH ROW EXECUTE FUNCTION bitka_refuse_change()")


def _config(db_url, tmp_path, **more) -> dict:
    return {"BITKA_DB": db_url, "BITKA_KEY": str(tmp_path / "bitka.key"), "TESTING": True, **more}


def _group_with_a_settled_hand(client) -> dict:
    g = client.post("/v1/groups", {"name": "Czwartek", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json
    hand = admin.post(f"{base}/tables/{table['id']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                                            "tricks": [{"cards": t} for t in KOP_TRICKS]})
    assert hand.status_code == 201, hand.json
    settlement = next(e for e in admin.get(f"{base}/events").json["events"] if e["type"] == "settlement")
    return {"group": g["id"], "base": base, "admin": g["admin_token"], "members": members, "table": table["id"],
            "hand": hand.json["id"], "seq": settlement["seq"]}


def _forge_the_settlement(db_url: str, group: str) -> None:
    """What whoever holds the database can do while the server is stopped."""
    store = open_store(db_url)
    restore = PG_REFUSE_UPDATE if store.backend.name == "postgresql" else REFUSE_UPDATE
    run_raw(store, drop_trigger(store, "events_refuse_update"),
            "UPDATE events SET data = replace(replace(data, '\"amount\":\"-3.00\"', '\"amount\":\"-" + FORGED + "\"'), "
            "'\"amount\":\"3.00\"', '\"amount\":\"" + FORGED + "\"') "
            f"WHERE group_id = '{group}' AND type = 'settlement'",
            restore)
    with store.reading() as r:  # the command line's reader shows the log as it is: the forgery is in it
        assert any(p["amount"] == FORGED for e in r.scan(group) if e.type == "settlement" for p in e.data["payouts"])
        assert not r.missing_triggers()
    store.close()


@pytest.fixture
def evening(db_url, tmp_path):
    """Two groups played; then, the server stopped, one settlement of the first forged."""
    before = create_app(_config(db_url, tmp_path))
    client = Client(before.test_client())
    damaged, whole = _group_with_a_settled_hand(client), _group_with_a_settled_hand(client)
    before.extensions["bitka.store"].close()
    _forge_the_settlement(db_url, damaged["group"])
    return damaged, whole


@pytest.fixture
def served(evening, db_url, tmp_path):
    """The store served again, by a server that knows nothing of the forgery yet."""
    app = create_app(_config(db_url, tmp_path))
    yield Client(app.test_client()), *evening
    app.extensions["bitka.store"].close()


def _damaged_store(response, t) -> dict:
    assert response.status_code == 500, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["type"] == "urn:bitka:problem:damaged-store" and body["title"] == "Damaged store"
    assert body["seq"] == t["seq"]
    assert f"group {t['group']}" in body["detail"] and f"seq {t['seq']}" in body["detail"]
    assert FORGED not in response.get_data(as_text=True)
    return body


def test_every_api_read_that_needs_the_forged_settlement_answers_damaged_store(served):
    client, t, _ = served
    admin = client.as_(t["admin"])
    for path in (f"{t['base']}/hands/{t['hand']}", f"{t['base']}/hands/{t['hand']}/audit", f"{t['base']}/events"):
        _damaged_store(admin.get(path), t)
    member = client.as_(t["members"][1]["token"])
    _damaged_store(member.get(f"{t['base']}/hands/{t['hand']}"), t)


def test_a_write_to_the_damaged_group_is_refused_and_appends_nothing(served, db_url):
    client, t, _ = served
    admin = client.as_(t["admin"])
    with open_store(db_url).reading() as r:
        version = r.version(t["group"])
    # the next hand at the table is decided from the table's events, the forged one among them
    deal = admin.post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 1, "hands": KOP_HANDS}})
    _damaged_store(deal, t)
    # and, once the damage is known, a payment that reads no hand is refused the same way
    paid = admin.post(f"{t['base']}/payments", {"from": t["members"][0]["id"], "to": t["members"][1]["id"],
                                                "amount": "1.00"})
    _damaged_store(paid, t)
    with open_store(db_url).reading() as r:
        assert r.version(t["group"]) == version


def test_the_groups_that_are_whole_are_served_as_before(served):
    client, t, whole = served
    _damaged_store(client.as_(t["admin"]).get(f"{t['base']}/hands/{t['hand']}"), t)
    admin = client.as_(whole["admin"])
    assert admin.get(f"{whole['base']}/hands/{whole['hand']}").status_code == 200
    assert admin.get(f"{whole['base']}/hands/{whole['hand']}/audit").status_code == 200
    assert len(admin.get(f"{whole['base']}/events").json["events"]) == whole["seq"]
    paid = admin.post(f"{whole['base']}/payments", {"from": whole["members"][0]["id"], "to": whole["members"][1]["id"],
                                                    "amount": "1.00"})
    assert paid.status_code == 201, paid.json


def _signed_in(client, token) -> None:
    page = client.http.get("/").get_data(as_text=True)
    form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1), "token": token}
    assert client.http.post("/signin", data=form).status_code == 303


@pytest.mark.parametrize("language, title, said", [
    ("en", "Damaged store", "is damaged at seq {seq}"),
    ("pl", "Uszkodzony dziennik", "jest uszkodzony przy seq {seq}"),
    ("it", "Registro danneggiato", "è danneggiato al n. {seq}"),
    ("pt-BR", "Registro danificado", "está danificado no seq {seq}"),
])
def test_the_hand_and_group_pages_say_the_store_is_damaged_in_the_readers_language(served, language, title, said):
    client, t, _ = served
    _signed_in(client, t["members"][0]["token"])
    for path in (f"/g/{t['group']}/hands/{t['hand']}", f"/g/{t['group']}"):
        page = client.http.get(path, headers={**BROWSER, "Accept-Language": language})
        text = page.get_data(as_text=True)
        assert page.status_code == 500 and page.mimetype == "text/html", (path, text[:300])
        assert f"<h1>{title}</h1>" in text and said.format(seq=t["seq"]) in text and t["group"] in text
        assert FORGED not in text


def test_serve_checks_the_whole_store_first_prints_the_bad_seq_and_refuses_that_group_from_the_start(
        evening, db_url, tmp_path, monkeypatch):
    t, whole = evening
    started = []
    monkeypatch.setattr(server, "run_gunicorn", lambda db, host, port, workers, threads, key, damaged, *rest, **kw:
                        started.append(damaged))
    result = run("--db", db_url, "serve", "--port", "8123")
    assert result.exit_code == 0 and started, result.output
    assert f"group {t['group']}: first bad seq {t['seq']}" in result.output
    assert whole["group"] not in result.output
    [damaged] = started
    assert [(f.group, f.seq) for f in damaged] == [(t["group"], t["seq"])]
    app = create_app(_config(db_url, tmp_path, BITKA_DAMAGED=damaged))  # what each worker builds
    client = Client(app.test_client())
    # refused before any event of the group is read: its row, its balances, a write
    _damaged_store(client.as_(t["admin"]).get(t["base"]), t)
    _damaged_store(client.as_(t["admin"]).post(f"{t['base']}/members", {"name": "Eve"}), t)
    assert client.as_(whole["admin"]).get(whole["base"]).status_code == 200
    app.extensions["bitka.store"].close()


def test_the_check_before_serving_finds_nothing_in_a_whole_store(db_url, tmp_path, capsys):
    app = create_app(_config(db_url, tmp_path))
    _group_with_a_settled_hand(Client(app.test_client()))
    app.extensions["bitka.store"].close()
    assert server.checked_before_serving(db_url) == []


def test_what_one_worker_finds_damaged_every_worker_refuses_even_a_read_that_reads_no_event(
        evening, db_url, tmp_path):
    """gunicorn's workers are processes of their own, each app with its own store: the one
    that meets the forged event tells the others through the notes file ``bitka serve``
    gives them all, so the other refuses the group too, even for a read that asks only
    what is new (a phone's witness on its next visit), which meets no event's data."""
    t, whole = evening
    notes = str(tmp_path / "damage-notes")
    first, second = (create_app(_config(db_url, tmp_path, BITKA_DAMAGE_NOTES=notes)) for _ in range(2))
    one, other = Client(first.test_client()), Client(second.test_client())
    version = other.as_(t["admin"]).get(f"{t['base']}/events?after=1000000")
    assert version.status_code == 200  # nothing read, nothing known yet
    _damaged_store(one.as_(t["admin"]).get(f"{t['base']}/hands/{t['hand']}"), t)  # the first meets it
    _damaged_store(other.as_(t["admin"]).get(f"{t['base']}/events?after=1000000"), t)
    _damaged_store(other.as_(t["admin"]).get(t["base"]), t)
    assert other.as_(whole["admin"]).get(whole["base"]).status_code == 200
    for app in (first, second):
        app.extensions["bitka.store"].close()


def test_notes_of_damage_another_process_is_still_writing_or_that_are_not_bitkas_are_read_safely(tmp_path):
    notes = tmp_path / "notes"
    notes.write_bytes(b'not json\n{"group": 3, "seq": "x"}\n{"group": "g_a", "seq": 7}\n{"group": "g_b", "se')
    groups = DamagedGroups(shared=str(notes))
    assert "g_a" in groups and "g_b" not in groups
    with notes.open("ab") as f:
        f.write(b'q": 2}\n{"group": "g_a", "seq": 4}\n')
    assert "g_b" in groups
    with pytest.raises(Damaged) as refused:
        groups.refuse("g_a")
    assert refused.value.seq == 4  # the lowest seq found wins
