"""What a supervisor reads: ``GET /healthz``, ``GET /readyz`` and ``GET /metrics``.

These are operations endpoints, outside the API's ``/v1`` (and its OpenAPI document):

- ``/healthz`` answers 200 while the process answers at all (a liveness probe);
- ``/readyz`` answers 200 only when the store answers, its migrations are all applied, the
  signing key is loaded and, when backups are configured, the last good backup is fresh
  (at most twice the interval old, and no newer backup damaged on disk, dated in the future
  or not signed with the signing key); otherwise 503, its JSON body naming each check that
  is not ready and why;
- ``/metrics`` is Prometheus' text format (service/metrics.py); with ``BITKA_METRICS_TOKEN``
  set it needs ``Authorization: Bearer <that token>``. Served with ``--lan`` (a hall's
  network, plain HTTP), it answers only this machine (loopback), unless that token is set.

Backups are configured by ``BITKA_BACKUP_DIR`` and ``BITKA_BACKUP_EVERY`` (seconds, or
``1h``), which ``bitka serve --backup-dir`` sets.
"""
from __future__ import annotations

import hmac
import ipaddress
import os
import time

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import backups
from events.checkpoint import published
from events.errors import Refused
from events.sentences import say
from events.migrations import latest, pending
from .metrics import Metrics, instrument
from .problems import problem

bp = Blueprint("health", __name__)
_NO_STORE = {"Cache-Control": "no-store"}


def setup(app: Flask) -> None:
    """The endpoints, the metrics, and the backups the app reports on."""
    for name in ("BITKA_BACKUP_DIR", "BITKA_BACKUP_EVERY", "BITKA_METRICS_TOKEN"):
        if os.environ.get(name) and name not in app.config:
            app.config[name] = os.environ[name]
    if app.config.get("BITKA_BACKUP_DIR"):
        app.config["BITKA_BACKUP_EVERY"] = backups.seconds(app.config.get("BITKA_BACKUP_EVERY") or "1h")
    app.extensions["bitka.started"] = time.time()
    metrics = Metrics(BackupCollector(app))
    app.extensions["bitka.metrics"] = metrics
    instrument(app, metrics)
    app.register_blueprint(bp)


def backup_status(app: Flask) -> backups.Status | None:
    """How the app's backups stand (None: it has none configured)."""
    directory = app.config.get("BITKA_BACKUP_DIR")
    if not directory:
        return None
    since = app.config.get("BITKA_BACKUP_SINCE") or app.extensions.get("bitka.started")  # bitka serve's start
    key = app.extensions.get("bitka.key")  # a backup counts only when its manifest is signed with the server's key
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else None
    return backups.status(directory, app.config["BITKA_BACKUP_EVERY"], public, since=since)


def _check(ok: bool, detail: str) -> dict:
    return {"ok": ok, "detail": detail}


def _store_checks(app: Flask) -> dict:
    store = app.extensions["bitka.store"]
    try:
        with store.reading() as r:
            if not r.is_store():
                return {"store": _check(False, "the database answers, but holds no bitka store"),
                        "migrations": _check(False, "there is no store to migrate")}
            applied = {v for (v,) in r.conn.execute("SELECT version FROM schema_migrations")}
    except Exception as e:  # whatever the database says, the store is not ready
        said = " ".join(str(e).split())[:300] or type(e).__name__
        return {"store": _check(False, f"the store does not answer: {said}"),
                "migrations": _check(False, "unknown: the store does not answer")}
    known = latest(store.schema)
    missing = [m.version for m in pending(applied, store.schema)]
    wrong = [f"migration(s) {', '.join(map(str, missing))} of {known} are not applied"] if missing else []
    if applied and max(applied) > known:
        wrong.append(f"the store is at migration {max(applied)}, newer than this bitka knows ({known})")
    migrations = _check(False, "; ".join(wrong)) if wrong else _check(True, f"all {known} applied")
    return {"store": _check(True, "answers"), "migrations": migrations}


def _key_check(app: Flask) -> dict:
    key = app.extensions.get("bitka.key")
    if not isinstance(key, Ed25519PrivateKey):
        return _check(False, "no signing key is loaded")
    return _check(True, f"key {published(key)['id']}")


def _backup_check(app: Flask) -> dict:
    state = backup_status(app)
    if state is None:
        return _check(True, "no backups are configured (bitka serve --backup-dir)")
    ok = state.fresh and not state.damaged  # a failed attempt is said, but a fresh backup is still there
    if state.problems:
        return _check(ok, "; ".join(state.problems))
    if state.last_good is None:
        return _check(True, f"the first backup is due (every {state.every} s)")
    return _check(True, f"the last good backup, {state.last_good.name}, is {int(state.age)} s old (every "
                        f"{state.every} s)")


def readiness(app: Flask) -> dict:
    return {**_store_checks(app), "key": _key_check(app), "backups": _backup_check(app)}


@bp.get("/healthz")
def healthz():
    """200 while the process answers."""
    return jsonify({"status": "ok"}), 200, _NO_STORE


@bp.get("/readyz")
def readyz():
    """200 when every check holds, else 503 naming those that do not. Served with ``--lan``,
    a phone of the hall learns only that much: what each check says (the store's path, the
    key's id, the backups' directory) is for this machine."""
    checks = readiness(current_app)
    not_ready = [name for name, check in checks.items() if not check["ok"]]
    body = {"ready": not not_ready, "not_ready": not_ready}
    if not current_app.config.get("BITKA_LAN") or _loopback(request.remote_addr):
        body["checks"] = checks
    return jsonify(body), 503 if not_ready else 200, _NO_STORE


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


@bp.get("/metrics")
def metrics():
    token = current_app.config.get("BITKA_METRICS_TOKEN")
    if current_app.config.get("BITKA_LAN") and not token and not _loopback(request.remote_addr):
        raise Refused(say("served with --lan, the metrics answer only this machine: scrape them from it, or set "
                          "BITKA_METRICS_TOKEN and send it as a Bearer token"))
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            answer = problem(401, "Unauthorized", "the metrics need the metrics token (BITKA_METRICS_TOKEN)",
                             "unauthorized")
            answer.headers["WWW-Authenticate"] = 'Bearer realm="bitka metrics"'
            return answer
    from prometheus_client import CONTENT_TYPE_LATEST
    return Response(current_app.extensions["bitka.metrics"].scrape(), 200,
                    {"Content-Type": CONTENT_TYPE_LATEST, **_NO_STORE})


class BackupCollector:
    """The backups' gauges, read from their directory when the metrics are scraped."""

    def __init__(self, app: Flask):
        self.app = app

    def describe(self):
        return []

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily
        state = backup_status(self.app)
        if state is None:
            return
        age = GaugeMetricFamily("bitka_backup_age_seconds", "Age of the last good backup (absent: none yet)")
        last = GaugeMetricFamily("bitka_backup_last_good_timestamp_seconds",
                                 "When the last good backup was made (seconds since the epoch)")
        if state.last_good is not None:
            age.add_metric([], state.age)
            last.add_metric([], state.last_good.made_at)
        yield age
        yield last
        yield GaugeMetricFamily("bitka_backup_interval_seconds", "How often a backup is due", value=state.every)
        fresh = state.fresh and not state.damaged
        yield GaugeMetricFamily("bitka_backup_fresh", "1 while the last good backup is at most twice the interval "
                                "old and none newer is damaged, dated in the future or unsigned",
                                value=1 if fresh else 0)
        yield GaugeMetricFamily("bitka_backups_damaged", "Backups newer than the last good one that do not count: "
                                "damaged on disk, dated in the future, or not signed with the signing key",
                                value=len(state.damaged))
        yield GaugeMetricFamily("bitka_backups_in_the_future", "Backups whose manifests are dated in the future "
                                "(never counted as the last good one)", value=state.ahead)
