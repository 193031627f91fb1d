"""``bitka verify --url`` against servers that lie or misbehave: the member's token never
leaves for another host, a listing that never ends is read only up to the signed
checkpoint, and an answer that is not bitka's is a sentence, not a traceback."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.checkpoint import published, sign
from tests.command import run

TOKEN = "member-token-not-for-strangers"


class Server:
    """A loopback HTTP server answering each path with ``answer(path) -> (status, headers, body)``;
    it records every request's path and Authorization header."""

    def __init__(self, answer):
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the name http.server calls
                seen.append((self.path, self.headers.get("Authorization")))
                status, headers, body = answer(self.path)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def servers():
    made = []
    yield lambda answer: made.append(Server(answer)) or made[-1]
    for s in made:
        s.close()


def _json(value, status=200):
    return status, {"Content-Type": "application/json"}, json.dumps(value).encode()


def _verify(url):
    return run("verify", "--url", url, "--group", "g_1", "--token", TOKEN)


def test_a_redirect_to_another_host_is_refused_and_the_token_stays_home(servers):
    elsewhere = servers(lambda path: _json({"keys": []}))
    home = servers(lambda path: (302, {"Location": elsewhere.url + path}, b""))
    result = _verify(home.url)
    assert result.exit_code == 1 and "redirected to" in result.output and "does not send your token" in result.output
    assert elsewhere.seen == [] and "Traceback" not in result.output


def test_a_listing_that_never_ends_is_read_only_up_to_the_signed_checkpoint(servers):
    key = Ed25519PrivateKey.generate()
    checkpoint = sign(key, "g_1", 3, b"\0" * 32, "2026-11-30T00:00:00.000000Z")

    def answer(path):
        if path == "/v1/keys":
            return _json({"keys": [published(key)]})
        if path.startswith("/v1/groups/g_1/checkpoint"):
            return _json(checkpoint)
        if path == "/v1/groups/g_1/balances":
            return 200, {"Content-Type": "application/json", "ETag": '"3"'}, json.dumps({"balances": []}).encode()
        after = int(path.split("after=")[1].split("&")[0])  # a page of 1,000 more, whatever was asked
        return _json({"events": [{"seq": after + i, "type": "payment", "data": {}, "actor": "admin",
                                  "recorded_at": "x", "prev_hash": "0" * 64, "hash": "0" * 64}
                                 for i in range(1, 1001)], "version": 10 ** 9})
    server = servers(answer)
    result = _verify(server.url)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert len([p for p, _ in server.seen if "/events" in p]) == 1  # three events asked for, one page read


@pytest.mark.parametrize("answer, said", [
    (lambda path: (200, {"Content-Type": "text/html"}, b"<html>welcome</html>"), "did not answer with JSON"),
    (lambda path: _json({"keys": [{"alg": "Ed25519"}]}), "are not what bitka serves"),
    (lambda path: _json([1, 2, 3]), "not a JSON object"),
])
def test_answers_that_are_not_bitkas_are_a_sentence(servers, answer, said):
    result = _verify(servers(answer).url)
    assert result.exit_code == 1 and said in result.output and "Traceback" not in result.output, result.output


def _sealed_log():
    """Three events as a server serves them to a member: the second sealed."""
    from events.canonical import GENESIS
    from events.envelope import Envelope
    from events import merkle
    import hashlib
    events, prev = [], GENESIS
    for seq, (kind, data) in enumerate([("group_created", {"name": "G", "currency": "PLN"}),
                                        ("deal", {"secret": True}), ("member_added", {"member": "m_1", "name": "A"})],
                                       1):
        hand = "h_1" if kind == "deal" else None
        env = Envelope(0, "g_1", seq, kind, hand, None, data, "admin", "2026-12-01T00:00:00Z", prev, "")
        digest = hashlib.sha256(env.canonical()).hexdigest()
        shown = {**env.public(), "hash": digest}
        if kind == "deal":
            shown = {**shown, "data": {}, "sealed": True, "leaf": merkle.leaf_hash(env.canonical()).hex()}
        events.append(shown)
        prev = digest
    return events


def test_a_sealed_events_link_and_leaf_are_checked_though_its_content_is_not_shown():
    from events import merkle
    from cli.proofs import chain_faults
    events = _sealed_log()
    leaves, sealed = [], []
    assert chain_faults(iter(events), "g_1", leaves, sealed) == [] and sealed == [2] and len(leaves) == 3
    good_root = merkle.root(merkle.Leaves(leaves), 3)
    relinked = [events[0], {**events[1], "prev_hash": "00" * 32}, events[2]]
    assert "prev_hash" in chain_faults(iter(relinked), "g_1", [], [])[0]
    lied, leaves = [events[0], {**events[1], "leaf": "11" * 32}, events[2]], []
    chain_faults(iter(lied), "g_1", leaves, [])
    assert merkle.root(merkle.Leaves(leaves), 3) != good_root  # a made-up leaf misses the signed root
    unsealed = {k: v for k, v in events[1].items() if k not in ("sealed", "leaf")}
    shown = [events[0], {**unsealed, "data": {"secret": False}}, events[2]]
    assert "do not match its hash" in chain_faults(iter(shown), "g_1", [], [])[0]  # data that is not the event's
    with pytest.raises(Exception, match="shows data"):  # sealed, yet showing data: not what bitka serves
        chain_faults(iter([events[0], {**events[1], "data": {"secret": True}}]), "g_1", [], [])
