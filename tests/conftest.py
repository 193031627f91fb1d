"""Fixtures shared by the integration, API and end-to-end tests."""
from __future__ import annotations

import pytest

from events.database import open_store
from projections.projector import project

from .backends import BACKENDS, drop_schema, fresh_schema_url, require_postgres

# A whole legal Kop hand (dealer 0, seat 1 leads; QC and QS split between seats 1 and 3).
KOP_HANDS = [["10D", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"],
             ["QS", "JS", "AC", "10S"]]
KOP_TRICKS = [["AH", "QH", "QS", "JD"], ["10H", "QD", "JS", "JH"], ["QC", "JC", "AC", "10D"],
              ["AD", "10C", "10S", "AS"]]


@pytest.fixture
def pg_url():
    """A PostgreSQL URL on a schema of its own, dropped after the test."""
    require_postgres()
    url, schema = fresh_schema_url()
    yield url
    drop_schema(schema)


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """The store URL of each backend in turn: the tests that take it run on both."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "bitka.db")


@pytest.fixture
def store(db_url):
    s = open_store(db_url, projector=project).setup()
    yield s
    s.close()


class Client:
    """The Flask test client with a token, JSON bodies and problem checks."""

    def __init__(self, flask_client, token=None):
        self.http = flask_client
        self.token = token

    def as_(self, token):
        return Client(self.http, token)

    def call(self, method, path, body=None, headers=None, **kw):
        h = dict(headers or {})
        if self.token:
            h.setdefault("Authorization", f"Bearer {self.token}")
        return self.http.open(path, method=method, json=body, headers=h, **kw)

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body, **kw)


@pytest.fixture
def app(db_url, tmp_path):
    from service.app import create_app
    app = create_app({"BITKA_DB": db_url, "BITKA_KEY": str(tmp_path / "bitka.key"), "TESTING": True})
    yield app
    app.extensions["bitka.store"].close()


@pytest.fixture
def client(app):
    return Client(app.test_client())


def without_confirmations(t) -> None:
    """Settlements count at once in this group: for the tests whose subject is not who
    confirms them (the confirmations' own tests are in api/test_confirmations.py)."""
    r = t["admin"].call("PATCH", t["base"], {"confirmations": "off"})
    assert r.status_code == 200, r.json


def agreed(t, hand: dict) -> dict:
    """Each payer the hand still waits for confirms it, so it counts: for the tests whose
    subject is not who confirms (the confirmations' own tests are in api/test_confirmations.py)."""
    tokens = {m["id"]: m["token"] for m in t["members"]}
    for member in (hand.get("confirmation") or {}).get("waiting_for", []):
        r = t["member"].as_(tokens[member]).post(f"{t['base']}/hands/{hand['id']}/confirm")
        assert r.status_code == 201, r.json
        hand = r.json
    return hand


@pytest.fixture
def kop_table(client):
    """A group with four members and a Kop table at 1.00 a stake."""
    return kop_group(client)


def kop_group(client) -> dict:
    """A group of four (Ala, Bob, Cyd, Dan) at a Kop table at 1.00 a stake, as the
    ``kop_table`` fixture gives it."""
    g = client.post("/v1/groups", {"name": "Czwartek", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    members = [admin.post(f"/v1/groups/{g['id']}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    table = admin.post(f"/v1/groups/{g['id']}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                                         "seats": [m["id"] for m in members]}).json
    return {"group": g["id"], "admin": admin, "members": members, "table": table["id"],
            "member": client.as_(members[0]["token"]), "base": f"/v1/groups/{g['id']}"}
