"""What a supervisor reads: /healthz while the process answers, /readyz only when the store,
its migrations, the key and the backups are, and /metrics in Prometheus' text format."""
from __future__ import annotations

import re
import time
import urllib.request

import pytest

from cli.backups import into_directory
from tests.backends import run_raw
from tests.command import demo_store

HOUR = 3600


def _ready(client):
    answer = client.get("/readyz")
    return answer.status_code, answer.json


def test_healthz_answers_while_the_process_does(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json == {"status": "ok"}
    assert answer.headers["Cache-Control"] == "no-store"


def test_readyz_is_ready_when_the_store_migrations_and_key_are(client):
    status, body = _ready(client)
    assert status == 200 and body["ready"] is True and body["not_ready"] == []
    assert set(body["checks"]) == {"store", "migrations", "key", "backups"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["migrations"]["detail"].startswith("all ")
    assert "no backups are configured" in body["checks"]["backups"]["detail"]


def test_readyz_is_503_naming_the_store_when_it_does_not_answer_and_the_failure_is_counted(app, client, tmp_path):
    store = app.extensions["bitka.store"]
    url = store.url
    store.close()  # no connection kept from before
    store.url = ("postgresql://postgres@127.0.0.1:1/test" if url.startswith("postgresql")
                 else str(tmp_path / "no" / "such" / "dir" / "bitka.db"))
    try:
        status, body = _ready(client)
        assert status == 503 and body["ready"] is False
        assert body["not_ready"] == ["store", "migrations"]
        assert body["checks"]["store"]["detail"].startswith("the store does not answer")
        assert body["checks"]["key"]["ok"]
        assert client.get("/v1/groups/g_000000000000").status_code in (500, 503)
        metrics = client.get("/metrics").get_data(as_text=True)
        assert 'bitka_store_errors_total{kind="unavailable"} 1.0' in metrics
    finally:
        store.close()
        store.url = url
    assert _ready(client)[0] == 200  # and ready again once it answers


def test_readyz_is_503_when_a_migration_is_missing_or_the_store_is_newer_than_this_bitka(app, client):
    store = app.extensions["bitka.store"]
    run_raw(store, "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)")
    status, body = _ready(client)
    assert status == 503 and body["not_ready"] == ["migrations"]
    assert re.search(r"migration\(s\) \d+ of \d+ are not applied", body["checks"]["migrations"]["detail"])
    run_raw(store, "INSERT INTO schema_migrations (version, what, applied_at) VALUES (999, 'later', 'now')")
    status, body = _ready(client)
    assert status == 503 and "newer than this bitka knows" in body["checks"]["migrations"]["detail"]


def test_readyz_is_503_without_the_signing_key(app, client):
    app.extensions["bitka.key"] = None
    status, body = _ready(client)
    assert status == 503 and body["not_ready"] == ["key"]
    assert body["checks"]["key"]["detail"] == "no signing key is loaded"


@pytest.fixture
def backed_up(tmp_path):
    """An SQLite store with a demo group, and an app that backs it up every hour into a directory."""
    from service.app import create_app
    db, where = str(tmp_path / "club.db"), tmp_path / "backups"
    demo_store(db)
    app = create_app({"BITKA_DB": db, "BITKA_KEY": db + ".key", "TESTING": True,  # the key backups are signed with
                      "BITKA_BACKUP_DIR": str(where), "BITKA_BACKUP_EVERY": "1h"})
    yield app, db, where
    app.extensions["bitka.store"].close()


def test_readyz_is_503_when_the_last_good_backup_is_older_than_twice_the_interval(backed_up):
    app, db, where = backed_up
    client = app.test_client()
    status, body = _ready(client)  # none yet, but the server only just started: the first is due, not late
    assert status == 200 and "the first backup is due" in body["checks"]["backups"]["detail"]
    app.extensions["bitka.started"] -= 3 * HOUR  # three hours on, still none
    status, body = _ready(client)
    assert status == 503 and body["not_ready"] == ["backups"]
    assert f"there is no good backup in {where}" in body["checks"]["backups"]["detail"]
    made = into_directory(db, where, 48, time.time() - 2.5 * HOUR)
    status, body = _ready(client)
    assert status == 503 and "older than twice the interval (3600 s)" in body["checks"]["backups"]["detail"]
    assert made.file.name in body["checks"]["backups"]["detail"]
    into_directory(db, where, 48, time.time() - 1800)
    status, body = _ready(client)
    assert status == 200 and re.search(r"is 18\d\d s old \(every 3600 s\)", body["checks"]["backups"]["detail"])
    metrics = client.get("/metrics").get_data(as_text=True)
    age = float(re.search(r"^bitka_backup_age_seconds (\S+)$", metrics, re.M).group(1))
    assert 1800 <= age < 1900 and "bitka_backup_fresh 1.0" in metrics
    assert "bitka_backup_interval_seconds 3600.0" in metrics


def _count(metrics: str, name: str, **labels) -> float:
    """The value of one series in Prometheus' text format (0 when it is absent)."""
    for line in metrics.splitlines():
        if not line.startswith(name + "{") and line.split(" ")[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
        if found == labels:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_requests_by_route_template_and_status_with_their_latency(app, client, kop_table):
    t = kop_table
    for _ in range(3):
        assert t["member"].get(t["base"]).status_code == 200
    assert t["member"].get(f"{t['base']}/hands/h_000000000000").status_code == 404
    assert t["admin"].post(f"{t['base']}/members", {"name": "Eve"}).status_code == 201
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/plain; version=")
    metrics = answer.get_data(as_text=True)
    assert _count(metrics, "bitka_http_requests_total", method="GET", route="/v1/groups/<group>", status="200") == 3
    assert _count(metrics, "bitka_http_requests_total", method="GET", route="/v1/groups/<group>/hands/<hand>",
                  status="404") == 1
    assert _count(metrics, "bitka_http_requests_total", method="POST", route="/v1/groups/<group>/members",
                  status="201") == 5  # four members of the fixture and Eve
    assert _count(metrics, "bitka_http_request_duration_seconds_count", method="GET", route="/v1/groups/<group>") == 3
    assert _count(metrics, "bitka_http_request_duration_seconds_bucket", le="+Inf", method="GET",
                  route="/v1/groups/<group>") == 3
    assert t["group"] not in metrics  # ids never make series of their own
    for kind in ("unavailable", "contention", "damaged", "database"):
        assert f'bitka_store_errors_total{{kind="{kind}"}} 0.0' in metrics
    if app.extensions["bitka.store"].backend.name == "sqlite":  # writes share commits there
        commits = _count(metrics, "bitka_store_writes_per_commit_count")
        assert commits >= 7 and _count(metrics, "bitka_store_writes_per_commit_sum") >= commits


def test_metrics_need_the_metrics_token_when_one_is_set(tmp_path):
    from service.app import create_app
    app = create_app({"BITKA_DB": str(tmp_path / "b.db"), "BITKA_KEY": str(tmp_path / "k"), "TESTING": True,
                      "BITKA_METRICS_TOKEN": "s3cret-scraper"})
    client = app.test_client()
    refused = client.get("/metrics")
    assert refused.status_code == 401 and refused.json["type"] == "urn:bitka:problem:unauthorized"
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer s3cret-scraper"}).status_code == 200
    assert client.get("/healthz").status_code == 200 and client.get("/readyz").status_code == 200
    app.extensions["bitka.store"].close()


def test_the_operations_endpoints_stay_out_of_the_v1_contract(client):
    paths = client.get("/v1/openapi.json").json["paths"]
    assert not [p for p in paths if p in ("/healthz", "/readyz", "/metrics") or not p.startswith("/v1/")]


@pytest.mark.e2e
def test_bitka_serve_with_backups_is_ready_and_counts_the_requests_of_every_worker(tmp_path):
    """The real server: two gunicorn workers whose counts add up in /metrics (prometheus_client's
    multiprocess mode), and the backups made by the process bitka serve starts."""
    from tests.e2e.conftest import start_server, stop_server
    db, where = tmp_path / "club.db", tmp_path / "backups"
    demo_store(str(db))
    proc, base = start_server(db, tmp_path, "--workers", "2", "--backup-dir", str(where), "--backup-every", "1h")
    try:
        deadline = time.monotonic() + 60
        while not list(where.glob("bitka-*.db.json")):
            assert time.monotonic() < deadline, "no backup was made"
            time.sleep(0.2)
        with urllib.request.urlopen(base + "/readyz", timeout=10) as r:
            assert r.status == 200

        def scraped() -> str:
            with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
                return r.read().decode()
        before = _count(scraped(), "bitka_http_requests_total", method="GET", route="/v1/keys", status="200")
        for _ in range(40):  # a new connection each: the workers share them
            urllib.request.urlopen(base + "/v1/keys", timeout=10).read()
        metrics = scraped()
        assert _count(metrics, "bitka_http_requests_total", method="GET", route="/v1/keys", status="200") == before + 40
        assert _count(metrics, "bitka_http_requests_total", method="GET", route="/metrics", status="200") >= 1
        assert 0 <= float(re.search(r"^bitka_backup_age_seconds (\S+)$", metrics, re.M).group(1)) < 120
    finally:
        stop_server(proc)
