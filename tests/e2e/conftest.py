"""The real server process on 127.0.0.1 and the command line, shared by the end-to-end tests."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def bitka_command() -> list[str]:
    script = Path(sys.executable).parent / "bitka"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    db, port = tmp_path / "e2e.db", free_port()
    proc = subprocess.Popen([*bitka_command(), "--db", str(db), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/v1/openapi.json", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"bitka serve did not start: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)
    yield base, db
    proc.terminate()
    proc.wait(timeout=10)


def call(base, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def cli(db, *args):
    return subprocess.run([*bitka_command(), "--db", str(db), *args], capture_output=True, text=True, timeout=120)
