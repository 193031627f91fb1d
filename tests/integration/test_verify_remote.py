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
