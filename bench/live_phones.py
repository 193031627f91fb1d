"""The phones of bench/live.py: each one a page open on a live part, asking for it again and
again as the page's script does (``--mode wait``: long-polling with ``Prefer: wait``, asking
again at once after each answer, or 2 seconds after a 304 the server did not hold, one without
``Preference-Applied``; ``--mode poll``: every 2 seconds, as live.js did before issue 43), and
the ledger of which write each phone received, and when.
"""
from __future__ import annotations

import contextlib
import http.client
import re
import socket
import threading
import time

POLL_EVERY = 2.0  # live.js before issue 43: setInterval(refresh, 2000)
_TAG = re.compile(r'\s*(?:W/)?"(\d+)"\s*')
_FOLLOW = re.compile(r'<a [^>]*data-follow[^>]* href="([^"]+)"')


def seq_of(etag: str | None) -> int | None:
    found = _TAG.fullmatch(etag or "")
    return int(found.group(1)) if found else None


class Cut(Exception):
    """The request in flight was broken on purpose (``Link.cut``)."""


class Link:
    """One keep-alive connection, as a phone holds it: opened again after ``IDLE`` seconds
    unused (the server closes it at 5), and a GET the server closed it under is sent again."""

    IDLE = 4.0

    def __init__(self, port: int):
        self.port, self.conn, self.broken, self.used = port, None, False, 0.0

    def ask(self, method: str, path: str, headers: dict, body: bytes | None = None) -> tuple[int, dict, bytes]:
        if time.monotonic() - self.used > self.IDLE:
            self.close()
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=90)
            try:
                self.conn.request(method, path, body, headers)
                answer = self.conn.getresponse()
                found = answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
                self.used = time.monotonic()
                return found
            except (http.client.HTTPException, OSError):
                self.close()
                if self.broken:
                    self.broken = False
                    raise Cut from None
                if attempt == 2 or method != "GET":
                    raise
        raise AssertionError("unreachable")

    def cut(self) -> None:
        """Break the request in flight (from another thread): the phone turns to another part."""
        conn = self.conn
        if conn is not None and conn.sock is not None:
            self.broken = True
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None


class Ledger:
    """Every write expected on phones, and when each phone received it."""

    def __init__(self):
        self.lock = threading.Condition()
        self.delays: dict[str, list[float]] = {}  # kind of write -> seconds, one per phone that received it
        self.misses: dict[str, int] = {}
        self.early = 0  # received before the writer's answer arrived
        self.writes: dict[str, int] = {}

    def expect(self, kind: str, seq: int, answered: float, phones: list[Phone]) -> None:
        with self.lock:
            self.writes[kind] = self.writes.get(kind, 0) + 1
            for phone in phones:
                if phone.shows is not None and kind not in phone.shows:
                    continue  # nothing its part shows
                got = next((at for tag, at in phone.seen if tag >= seq), None)  # before the answer came
                if got is not None:
                    self._received(kind + phone.role, got - answered)
                else:
                    phone.pending.append((kind + phone.role, seq, answered))

    def _received(self, kind: str, delay: float) -> None:
        if delay < 0:
            self.early += 1
        self.delays.setdefault(kind, []).append(max(delay, 0.0))

    def arrived(self, phone: Phone, tag: int, at: float) -> None:
        """``phone`` received a 200 of its part at version ``tag``."""
        with self.lock:
            phone.seen = [*phone.seen[-63:], (tag, at)]
            left = []
            for kind, seq, answered in phone.pending:
                if tag >= seq:
                    self._received(kind, at - answered)
                else:
                    left.append((kind, seq, answered))
            phone.pending = left
            self.lock.notify_all()

    def missed(self, phone: Phone) -> None:
        """What ``phone`` was still to receive of its part: missed (it turns away, or time ran out)."""
        with self.lock:
            for kind, _, _ in phone.pending:
                self.misses[kind] = self.misses.get(kind, 0) + 1
            phone.pending, phone.seen = [], []

    def settle(self, phones: list[Phone], until: float) -> None:
        """Wait for ``phones`` to receive what they expect, until ``until`` (monotonic)."""
        with self.lock:
            while any(p.pending for p in phones) and (left := until - time.monotonic()) > 0:
                self.lock.wait(left)
        for phone in phones:
            self.missed(phone)


class Phone(threading.Thread):
    """A phone with a page open: asks for its live part again and again (``mode``)."""

    def __init__(self, bench, port: int, headers: dict, path: str, offset: float,
                 shows: frozenset[str] | None = None, role: str = ""):
        """``bench``: the run (bench/live.py), whose ``args``, ``ledger``, ``stopped``, ``phase``
        and ``fail`` the phone uses; ``shows``: the kinds of write its part shows (None: all);
        ``role`` names its receipts apart (" on the group page")."""
        self.shows, self.role = shows, role
        super().__init__(daemon=True)
        self.bench, self.link, self.headers, self.path, self.offset = bench, Link(port), headers, path, offset
        self.version: int | None = None
        self.pending: list[tuple[str, int, float]] = []  # (kind, seq, answered) expected on this part
        self.seen: list[tuple[int, float]] = []  # (version, time) of the 200s of this part
        self.follow: tuple[int, str] | None = None  # (deal's seq, the new hand's part): turn there once shown
        self.go: str | None = None  # a part to open now, as a tap on a link would
        self.turned, self.opened = threading.Event(), threading.Event()  # turned to a part; it answered once
        self.asked = {"play": 0, "idle": 0}
        self.errors = self.unheld = self.led = 0  # led: turned by the bench, its part never leading on

    def turn_to(self, path: str) -> None:
        """Open another part: what the old one still owed this phone is missed."""
        self.bench.ledger.missed(self)
        self.path, self.version, self.follow, self.go = path, None, None, None
        self.opened.clear()
        self.turned.set()

    def leads_on(self, body: bytes) -> bool:
        """Does this part lead to the next hand, as the page follows it (a link ``data-follow``
        to it; the API's hand has none: its version says it)?"""
        if self.bench.args.part == "api" or self.bench.args.mode == "poll":
            return True  # the API's hand has no link; the page before issue 43 had none: the player tapped
        found = _FOLLOW.search(body.decode("utf-8", "replace"))
        return found is not None and f"{found.group(1)}/live" == self.follow[1]

    def run(self) -> None:
        bench = self.bench
        if bench.args.mode == "poll":
            bench.stopped.wait(self.offset)  # the phones opened their pages at different moments
        while not bench.stopped.is_set():
            if self.go:
                self.turn_to(self.go)
            headers, path = dict(self.headers), self.path
            if self.version is not None:
                headers["If-None-Match"] = f'"{self.version}"'
                if bench.args.mode == "wait":
                    headers["Prefer"] = f"wait={bench.args.wait}"
            sent = time.monotonic()
            try:
                status, got, body = self.link.ask("GET", path, headers)
            except Cut:
                continue
            except (http.client.HTTPException, OSError):
                if not bench.stopped.is_set() and not self.go:
                    self.errors += 1
                    bench.stopped.wait(0.1)
                continue
            now, later = time.monotonic(), bench.args.mode == "poll"
            self.asked[bench.phase] += 1
            tag = seq_of(got.get("etag"))
            if status == 200 and tag is not None:
                self.version = tag
                bench.ledger.arrived(self, tag, now)
                self.opened.set()
                if self.follow and tag >= self.follow[0] and self.leads_on(body):  # the part shows the next deal
                    self.go = self.follow[1]
                    continue
            elif status == 304 and tag is not None:
                if bench.args.mode == "wait" and tag > (self.version or 0):
                    self.version = tag  # the version it may show from now on
                if bench.args.mode == "wait" and "preference-applied" not in got:
                    self.unheld += 1  # no thread to spare for waiting: asked again in 2 s, as live.js does
                    later, sent = True, now
            else:
                self.errors += 1
                bench.fail(f"{path}: {status} ETag {got.get('etag')!r} {body[:200]!r}")
            if later and not self.go:
                bench.stopped.wait(max(0.0, sent + POLL_EVERY - time.monotonic()))
