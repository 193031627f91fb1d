"""``bitka verify --url`` against a server (or a proxy before it) that lies: damaged data, a
payment or correction served as "sealed", sealed cards of a hand that ended, balances the
log does not give, and answers that are not bitka's. Each is exit 1 with a sentence, never a
traceback and never "ok". The store-side ``bitka verify`` finds a moved balance too."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import urllib.parse
from email.message import Message

import click
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import merkle
from events.canonical import GENESIS
from events.checkpoint import published, sign
from cli.proofs import Remote, ServerSaidNonsense
from events.envelope import Envelope
from tests.command import demo_store, run
from tests.integration.test_verify_remote import Server

TOKEN = "a-member-or-the-admin"
KEY = Ed25519PrivateKey.generate()
AT = "2026-12-01T20:00:00.000000Z"
PAYS = [{"seat": 0, "member": "m_1", "amount": "2.00"}, {"seat": 1, "member": "m_2", "amount": "-2.00"}]
BACK = [{"seat": 0, "member": "m_1", "amount": "-1.00"}, {"seat": 1, "member": "m_2", "amount": "1.00"}]
EVENING = [  # (type, hand, data): the seq is the place in this list, from 1
    ("group_created", None, {"name": "G", "currency": "PLN"}),
    ("member_added", None, {"member": "m_1", "name": "Ana"}),
    ("member_added", None, {"member": "m_2", "name": "Bea"}),
    ("deal", "h_1", {"dealer": 0, "hands": [["AH"], ["AS"]]}),
    ("settlement", "h_1", {"outcome": "x", "payouts": PAYS, "confirmed": True}),
    ("payment", None, {"from": "m_2", "to": "m_1", "amount": "1.50"}),
    ("correction", None, {"hand": "h_1", "reason": "miscounted", "adjustments": [{"hand": "h_1", "payouts": BACK}],
                          "settlements": [{"hand": "h_1"}]}),
    ("deal", "h_2", {"dealer": 1, "hands": [["KH"], ["KS"]]}),
    ("settlement", "h_2", {"outcome": "x", "payouts": PAYS, "confirmed": False}),
    ("deal", "h_3", {"dealer": 0, "hands": [["QH"], ["QS"]]}),  # in play: sealed from the reader
]
HONEST_BALANCES = {  # written out by hand: what the evening above leaves
    "currency": "PLN", "total": "0.00",
    "balances": [{"member": "m_1", "name": "Ana", "balance": "-0.50"}, {"member": "m_2", "name": "Bea",
                                                                        "balance": "0.50"}],
    "pending": [{"hand": "h_2", "state": "pending", "table": "t_1", "payouts": PAYS, "waiting_for": ["m_2"],
                 "confirmed_by": []}]}


def served_log(kinds=EVENING, group="g_1", actor="m_1") -> tuple[list[dict], list[bytes]]:
    """The events as a server serves them to a member (the deal of the hand in play sealed),
    and their true Merkle leaves."""
    events, leaves, prev = [], [], GENESIS
    for seq, (kind, hand, data) in enumerate(kinds, 1):
        env = Envelope(0, group, seq, kind, hand, "t_1" if hand else None, data, actor, AT, prev, "")
        digest = hashlib.sha256(env.canonical()).hexdigest()
        leaves.append(merkle.leaf_hash(env.canonical()))
        events.append({**env.public(), "hash": digest})
        prev = digest
    events[-1] = sealed(events[-1], leaves[-1])
    return events, leaves


def sealed(event: dict, leaf: bytes) -> dict:
    return {**event, "data": {}, "sealed": True, "leaf": leaf.hex()}


class Fake:
    """A server answering from ``events`` (as served), ``leaves`` (what it signs) and
    ``balances``; ``override(path) -> answer | None`` lies on the paths it chooses."""

    def __init__(self, events, leaves, balances, group="g_1", override=lambda path: None):
        self.events, self.leaves, self.balances, self.group = events, leaves, balances, group
        self.override = override

    def __call__(self, path):
        lie = self.override(path)
        if lie is not None:
            return lie
        route, _, query = path.partition("?")
        asked = dict(urllib.parse.parse_qsl(query))
        if route == "/v1/keys":
            return answer({"keys": [published(KEY)]})
        if route == f"/v1/groups/{self.group}/balances":
            return answer(self.balances, etag=f'"{len(self.events)}"')
        if route == f"/v1/groups/{self.group}/checkpoint":
            size = int(asked.get("size", len(self.events)))
            return answer(sign(KEY, self.group, size, merkle.root(merkle.Leaves(self.leaves), size), AT))
        if route == f"/v1/groups/{self.group}/events":
            after = int(asked["after"])
            return answer({"events": self.events[after:after + int(asked["limit"])], "version": len(self.events)})
        return answer({"type": "about:blank", "status": 404}, status=404)


def answer(value, status=200, etag=None, raw=None):
    headers = {"Content-Type": "application/json", **({"ETag": etag} if etag else {})}
    return status, headers, raw if raw is not None else json.dumps(value).encode()


@pytest.fixture
def serve():
    made = []

    def start(fake):
        made.append(Server(fake))
        return made[-1].url
    yield start
    for s in made:
        s.close()


def verify(url, group="g_1"):
    return run("verify", "--url", url, "--group", group, "--token", TOKEN)


def refused(result, *said):
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert not result.output.startswith("ok"), result.output
    for words in said:
        assert words in result.output, result.output


def test_an_honest_server_passes_with_its_pending_settlement_and_its_sealed_cards(serve):
    events, leaves = served_log()
    result = verify(serve(Fake(events, leaves, HONEST_BALANCES)))
    assert result.exit_code == 0, result.output
    assert "the balances it serves are the ones its events give" in result.output
    assert "seq 7: the admin corrected hand h_1 (miscounted)" in result.output
    assert "1 event(s) are sealed from this token" in result.output


def test_damaged_data_names_the_event_instead_of_crashing_in_the_merkle_tree(serve):
    events, leaves = served_log()
    events[5] = {**events[5], "data": {**events[5]["data"], "amount": "150.00"}}  # the hash kept, the data not
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES))), "first bad seq 6", "do not match its hash")


@pytest.mark.parametrize("seq, kind", [(6, "payment"), (7, "correction"), (2, "member_added"), (5, "settlement")])
def test_an_event_that_is_never_sealed_served_sealed_with_its_true_leaf_is_refused(serve, seq, kind):
    events, leaves = served_log()
    events[seq - 1] = sealed(events[seq - 1], leaves[seq - 1])
    result = verify(serve(Fake(events, leaves, HONEST_BALANCES)))
    refused(result, f"first bad seq {seq}", f"a {kind} event is never sealed")
    assert "corrected" not in result.output or seq != 7


def test_the_cards_of_a_hand_that_ended_served_sealed_are_refused(serve):
    events, leaves = served_log()
    events[3] = sealed(events[3], leaves[3])  # h_1's deal; h_1 was settled at seq 5
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES))), "first bad seq 4", "its hand h_1 ended at seq 5",
            "nothing is sealed once its hand has ended")


def test_a_sealed_card_event_of_no_hand_is_refused(serve):
    kinds = [*EVENING[:-1], ("bid", None, {"seat": 0, "call": "pass"})]
    events, leaves = served_log(kinds)
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES))), "first bad seq 10", "belongs to no hand")


def _lying(**changes):
    return {**HONEST_BALANCES, **changes}


@pytest.mark.parametrize("balances, said", [
    (_lying(balances=[{"member": "m_1", "balance": "1000.00"}, {"member": "m_2", "balance": "-1000.00"}]),
     "member m_1's balance is 1000.00 in the server's balances, but the events it serves give -0.50"),
    (_lying(balances=[{"member": "m_1", "balance": "-0.50"}]), "member m_2 is missing from the server's balances"),
    (_lying(balances=[*HONEST_BALANCES["balances"], {"member": "m_9", "balance": "0.00"}]),
     "never add that member"),
    (_lying(pending=[]), "hand h_2's settlement is not pending"),
    (_lying(pending=[{**HONEST_BALANCES["pending"][0], "waiting_for": []}]), "hand h_2's settlement is pending"),
    (_lying(total="5.00"), "the server's balances total 5.00"),
])
def test_balances_that_the_events_do_not_give_are_named(serve, balances, said):
    events, leaves = served_log()
    refused(verify(serve(Fake(events, leaves, balances))), said)


def _only(route, value=None, raw=None, etag='"10"'):
    """A lie on one path (its query aside); the rest answered honestly."""
    return lambda path: answer(value, etag=etag, raw=raw) if path.partition("?")[0] == route else None


EVENTS, BALANCES = "/v1/groups/g_1/events", "/v1/groups/g_1/balances"
GARBAGE = [
    ("truncated events", _only(EVENTS, raw=b'{"events": [{"seq": 1, "type": "gro'), "did not answer with JSON"),
    ("deeply nested", _only(EVENTS, raw=b"[" * 100_000 + b"]" * 100_000), "did not answer with JSON"),
    ("events a string", _only(EVENTS, {"events": "all of them"}), "events stop at seq 0"),
    ("null seq", _only(EVENTS, {"events": [{"seq": None}]}), "another event where seq 1 should be"),
    ("true seq", _only(EVENTS, {"events": [{"seq": True}]}), "another event where seq 1 should be"),
    ("event a list", _only(EVENTS, {"events": [[1, 2]]}), "another event where seq 1 should be"),
    ("fields of the wrong type", _only(EVENTS, {"events": [{"seq": 1, "prev_hash": GENESIS, "type": ["x"]}]}),
     "not what bitka serves"),
    ("balances a string", _only(BALANCES, {"balances": "everyone is even"}), "not what bitka serves"),
    ("pending a number", _only(BALANCES, {**HONEST_BALANCES, "pending": 7}), "not what bitka serves"),
    ("balances without a version", _only(BALANCES, HONEST_BALANCES, etag=None), "do not say which version"),
    ("a huge version", _only(BALANCES, HONEST_BALANCES, etag='"' + "9" * 40 + '"'), "do not say which version"),
    ("keys a string", _only("/v1/keys", {"keys": "none"}), "not what bitka serves"),
    ("a huge size", _only("/v1/groups/g_1/checkpoint", {"group": "g_1", "size": 10 ** 40}),
     "not signed by the key it publishes"),
    ("a huge signed size", _only("/v1/groups/g_1/checkpoint", sign(KEY, "g_1", 10 ** 40, b"\0" * 32, AT)),
     "the server's checkpoint is of 1" + "0" * 40 + " events, not of the 10"),
    ("an infinite number", _only(EVENTS, raw=b'{"events": [{"seq": 1, "type": "group_created", "data": {"n": 1e999}, '
                                             b'"actor": "admin", "recorded_at": "x", "prev_hash": "' + GENESIS.encode()
                                             + b'", "hash": "00"}]}'), "not what bitka serves"),
    ("a huge number", _only(EVENTS, {"events": [{**served_log()[0][0], "data": {"n": 10 ** 400}}]}),
     "first bad seq 1"),
    ("a 500", lambda path: answer({"title": "damaged"}, status=500) if path.startswith(EVENTS) else None,
     "answered 500"),
]


@pytest.mark.parametrize("name, override, said", GARBAGE, ids=[g[0] for g in GARBAGE])
def test_answers_that_are_not_bitkas_are_a_sentence_never_a_traceback(serve, name, override, said):
    events, leaves = served_log()
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES, override=override))), said)


def test_another_groups_checkpoint_or_events_are_refused(serve):
    theirs, their_leaves = served_log(group="g_2")
    other = Fake(theirs, their_leaves, HONEST_BALANCES, group="g_2")
    events, leaves = served_log()
    checkpoint = _only("/v1/groups/g_1/checkpoint", json.loads(other("/v1/groups/g_2/checkpoint?size=10")[2]))
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES, override=checkpoint))), "checkpoint of group 'g_2'")
    refused(verify(serve(Fake(theirs, leaves, HONEST_BALANCES))), "first bad seq 1", "do not match its hash")


def test_a_signed_log_whose_events_do_not_fold_names_the_event(serve):
    kinds = [*EVENING[:5], ("payment", None, {"from": "m_2", "to": "m_9", "amount": "1.50"}), *EVENING[6:]]
    events, leaves = served_log(kinds)  # hashed and signed as the server's own: only the fold can tell
    refused(verify(serve(Fake(events, leaves, HONEST_BALANCES))), "first bad seq 6",
            "does not fold into the balances: it names 'm_9'")


@pytest.fixture
def moved(tmp_path):
    """A demo store whose balances row was changed in SQLite: 100.00 moved from one member
    to another, the sum kept."""
    db = str(tmp_path / "club.db")
    group = demo_store(db)
    conn = sqlite3.connect(db)
    (text,) = conn.execute("SELECT data FROM projection_rows WHERE name = 'balances' AND group_id = ?",
                           (group,)).fetchone()
    row = json.loads(text)
    first, second = list(row["members"])[:2]
    row["members"][first] += 10000
    row["members"][second] -= 10000
    conn.execute("UPDATE projection_rows SET data = ? WHERE name = 'balances' AND group_id = ?",
                 (json.dumps(row), group))
    conn.commit()
    conn.close()
    return db, group, first, second, row


def test_the_store_side_verify_finds_a_balance_moved_in_the_projection_row(moved):
    db, group, first, second, _ = moved
    result = run("--db", db, "verify")
    refused(result, f"group {group}: member {first}'s balance is", "in the stored balances row, but its events give")
    assert f"member {second}'s balance" in result.output


def test_verify_url_finds_the_balance_moved_in_the_servers_projection_row(moved, serve):
    from events.database import open_store
    from events.money import format_amount
    db, group, first, _, row = moved
    with open_store(db).reading() as r:
        envelopes = list(r.scan(group))
    events = [e.public() for e in envelopes]
    leaves = [merkle.leaf_hash(e.canonical()) for e in envelopes]
    served = {"balances": [{"member": m, "balance": format_amount(v, 2)} for m, v in row["members"].items()],
              "pending": [], "total": "0.00"}
    refused(verify(serve(Fake(events, leaves, served, group=group)), group), f"member {first}'s balance is")


def test_the_store_side_verify_says_a_stored_balances_row_that_is_not_bitkas(tmp_path):
    db = str(tmp_path / "club.db")
    group = demo_store(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE projection_rows SET data = ? WHERE name = 'balances' AND group_id = ?",
                 (json.dumps({"digits": 2, "members": "nobody"}), group))
    conn.commit()
    conn.close()
    refused(run("--db", db, "verify"), f"group {group}: the stored balances row is not one bitka writes")


class _Pages(Remote):
    """A server whose balances come in pages as ``pages`` (ETag version, body) say, in turn."""

    def __init__(self, pages):
        super().__init__("http://127.0.0.1:1", "t")
        self.pages, self.asked = list(pages), []

    def answer(self, path, **query):
        self.asked.append(query)
        version, body = self.pages.pop(0)
        message = Message()
        message["ETag"] = f'"{version}"'
        return body, message


def _entry(hand):
    return {"hand": hand, "state": "pending", "table": "t", "payouts": [], "waiting_for": []}


def test_verify_reads_every_page_of_what_waits_and_again_when_the_group_moved_on_between_pages():
    first = {"balances": [], "pending": [_entry("h1")], "pending_next": 5}
    pages = _Pages([(9, first), (10, {"pending": [_entry("h2")], "pending_next": None}),  # moved on: again
                    (10, {**first, "pending_next": 5}), (10, {"pending": [_entry("h2")], "pending_next": 7}),
                    (10, {"pending": [_entry("h3")], "pending_next": None})])
    served, version = pages.balances("g")
    assert version == 10 and [e["hand"] for e in served["pending"]] == ["h1", "h2", "h3"]
    assert pages.asked[1] == {"pending_after": 5, "pending_limit": 1000}
    endless = _Pages([(3, {"pending": [], "pending_next": "x"})])
    with pytest.raises(ServerSaidNonsense, match="pages on without end"):
        endless.balances("g")
    restless = _Pages([(v, {"pending": [], "pending_next": 1}) for v in range(1, 7)])
    with pytest.raises(click.ClickException, match="moved on while its balances were read, 3 times"):
        restless.balances("g")


def test_a_server_that_serves_a_confirmation_its_payer_never_signed_is_found(serve):
    """The server's own log, every hash and its checkpoint honest: Bea registered a key, then
    a confirmation in her name without her signature (what an operator with the store writes).
    A member's `verify --url` names it; the same confirmation signed by Bea's key passes."""
    from tests.keys.devices import Device
    bea = Device()

    def log(confirmation: dict) -> tuple[list[dict], list[bytes]]:
        kinds = [*EVENING[:3], ("device_added", None, {"member": "m_2", "key": bea.key, "kid": bea.kid,
                                                        "via": "token"}),
                 *EVENING[3:8], ("settlement", "h_2", {"outcome": "x", "payouts": PAYS, "confirmed": False})]
        events, leaves, prev = [], [], GENESIS
        for seq, (kind, hand, data) in enumerate([*kinds, ("confirmation", "h_2", confirmation)], 1):
            actor = "m_2" if kind in ("device_added", "confirmation") else "m_1"
            env = Envelope(0, "g_1", seq, kind, hand, "t_1" if hand else None, data, actor, AT, prev, "")
            prev = hashlib.sha256(env.canonical()).hexdigest()
            leaves.append(merkle.leaf_hash(env.canonical()))
            events.append({**env.public(), "hash": prev})
        return events, leaves

    counted = {**HONEST_BALANCES, "pending": [],
               "balances": [{"member": "m_1", "name": "Ana", "balance": "1.50"},
                            {"member": "m_2", "name": "Bea", "balance": "-1.50"}]}
    unsigned, leaves = log({})
    result = verify(serve(Fake(unsigned, leaves, counted)))
    assert result.exit_code == 1, result.output
    assert f"seq {len(unsigned)} (confirmation)" in result.output and "carries no signature" in result.output
    settled = next(e["hash"] for e in unsigned if e["type"] == "settlement" and e["hand"] == "h_2")
    signed, leaves = log({"settlement": settled, "signed": bea.signature("confirm", "g_1", hand="h_2",
                                                                         settlement=settled)})
    result = verify(serve(Fake(signed, leaves, counted)))
    assert result.exit_code == 0, result.output
