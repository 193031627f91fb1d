"""The service's own ceiling on this machine: a Flask endpoint that only inserts one event row.

Served by ``bench/run.py`` under gunicorn with the same workers, threads and SQLite settings
as ``bitka serve`` (WAL, ``synchronous = FULL``, one ``BEGIN IMMEDIATE`` per request), so
the gap between the two is what bitka's own work costs: checking the card, chaining,
projections, Merkle nodes and the signed checkpoint.

    BENCH_MINIMAL_DB=/tmp/m.db gunicorn -w 2 --threads 4 bench.minimal_app:app
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading

from flask import Flask, request

app = Flask("minimal")
_local = threading.local()


def _conn() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(os.environ["BENCH_MINIMAL_DB"], isolation_level=None, timeout=10)
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA synchronous = FULL")
        _local.conn = conn
    return conn


def setup(path: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, group_id, type, data)")
    conn.close()


@app.post("/insert/<group>")
def insert(group):
    body = request.get_json()
    conn = _conn()
    conn.execute("BEGIN IMMEDIATE")
    cur = conn.execute("INSERT INTO t (group_id, type, data) VALUES (?, 'trick', ?)", (group, json.dumps(body)))
    conn.execute("COMMIT")
    return {"id": cur.lastrowid}, 201
