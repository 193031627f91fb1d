"""The real server process on 127.0.0.1 and the command line, shared by the end-to-end tests."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


CHECKOUT = Path(__file__).resolve().parents[2]
BUSY = "BITKA_BUSY_E2E"  # CI sets it: the end-to-end tests run on a machine kept busy


@pytest.fixture(scope="package", autouse=True)
def busy_machine():
    """With ``$BITKA_BUSY_E2E`` set (as .ci/run sets it), a stress-ng worker keeps a third
    of a core busy while the end-to-end tests run, so that a test that waits for time instead
    of for a state fails in CI, not on a user's slow phone or a loaded server."""
    stress = shutil.which("stress-ng")
    if not os.environ.get(BUSY) or stress is None:
        yield
        return
    worker = subprocess.Popen([stress, "--cpu", "1", "--cpu-load", "35", "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        worker.terminate()
        worker.wait(timeout=10)


def bitka_command() -> list[str]:
    """The working tree's bitka, never a copy installed before the last edit: ``python -m
    cli`` run with the checkout first on the path (``working_tree``)."""
    return [sys.executable, "-m", "cli"]


def working_tree() -> dict[str, str]:
    """The environment a bitka process of the tests runs in: the checkout before any copy
    installed in site-packages."""
    rest = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(CHECKOUT), *([rest] if rest else [])])}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path | str, cwd: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """``bitka serve`` on a free loopback port, in its own process group (so that a test can
    kill the master and its workers at once); returns the process and the base URL."""
    port = free_port()
    log = open(cwd / f"serve-{port}.log", "wb")
    proc = subprocess.Popen([*bitka_command(), "--db", str(db), "serve", "--port", str(port), *options],
                            stdout=subprocess.DEVNULL, stderr=log, cwd=cwd, start_new_session=True, env=working_tree())
    log.close()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/v1/keys", timeout=2)
            return proc, base
        except OSError:  # refused, reset, or (on a busy machine) a read that timed out: not up yet
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_server(proc, signal.SIGKILL)
                pytest.fail(f"bitka serve did not start: {(cwd / f'serve-{port}.log').read_text()[-2000:]}")
            time.sleep(0.1)


def stop_server(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    proc.wait(timeout=20)


@pytest.fixture
def server(tmp_path, db_url):
    """``bitka serve`` on each backend in turn: (base URL, store URL)."""
    proc, base = start_server(db_url, tmp_path)
    yield base, db_url
    stop_server(proc)


@pytest.fixture
def sqlite_server(tmp_path):
    """``bitka serve`` on an SQLite file, for tests that handle the file itself."""
    db = tmp_path / "e2e.db"
    proc, base = start_server(db, tmp_path)
    yield base, db
    stop_server(proc)


def call(base, method, path, body=None, token=None, headers=None):
    headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def arrive(page, address: str) -> None:
    """A page goes to ``address``, where its live part may be taking it somewhere meanwhile (a
    phone follows a hand dealt or logged at its member's table): when that navigation cuts
    this one short, wait for it to end and go again, so that the page ends at ``address``
    whichever came first."""
    for _ in range(3):
        try:
            page.goto(address)
            return
        except Exception as cut:  # Playwright's Error; this module does not need Playwright
            if "interrupted by another navigation" not in str(cut):
                raise
            page.wait_for_load_state()
    page.goto(address)


def cli(db, *args):
    return subprocess.run([*bitka_command(), "--db", str(db), *args], capture_output=True, text=True, timeout=120,
                          env=working_tree())
