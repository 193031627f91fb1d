"""Prometheus metrics (``prometheus_client``), served at ``GET /metrics`` (service/health.py).

- ``bitka_http_requests_total{method, route, status}``: requests by the route's template
  (``/v1/groups/<group>/hands/<hand>``, so ids never make new series) and status;
- ``bitka_http_request_duration_seconds{method, route}``: how long each took, a histogram;
- ``bitka_store_writes_per_commit``: how many writes each commit of the SQLite store
  carried (events/group_commit.py; on PostgreSQL every write is its own commit);
- ``bitka_store_errors_total{kind}``: requests that met the store failing: ``unavailable``
  (it cannot be reached), ``contention`` (locked past the busy timeout: a 409),
  ``damaged`` (a stored event does not hold), ``database`` (any other database error);
- ``bitka_backup_*``: how the backups stand, read when scraped (events/backups.py).

Under ``bitka serve``'s gunicorn each worker is a process of its own: the counts go through
prometheus_client's multiprocess mode (``$PROMETHEUS_MULTIPROC_DIR``, set by cli/server.py
before the workers start to a new directory of bitka's own, never one it was given), so any
worker's answer holds every worker's counts. Without it (the development server, tests) the
app keeps its counts in a registry of its own.
"""
from __future__ import annotations

import os
import sqlite3
import time

import psycopg
from flask import Flask, g, request

from events.errors import Contention, Damaged
from events.pgstore import StoreUnavailable

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64)  # group_commit.MOST_IN_A_BATCH is 64
STORE_ERRORS = ("unavailable", "contention", "damaged", "database")


class Metrics:
    """One app's metrics: where they are counted, and how a scrape reads them."""

    def __init__(self, extra=None):
        from prometheus_client import CollectorRegistry, Counter, Histogram
        self.multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        self.registry = None if self.multiprocess else CollectorRegistry()
        self.extra = extra  # a collector read at each scrape (the backups)
        r = self.registry
        self.requests = Counter("bitka_http_requests", "HTTP requests answered, by route template and status",
                                ["method", "route", "status"], registry=r)
        self.latency = Histogram("bitka_http_request_duration_seconds", "Time to answer an HTTP request",
                                 ["method", "route"], buckets=LATENCY_BUCKETS, registry=r)
        self.batches = Histogram("bitka_store_writes_per_commit", "Writes carried by each commit of the SQLite store",
                                 buckets=BATCH_BUCKETS, registry=r)
        self.store_errors = Counter("bitka_store_errors", "Requests that met the store failing, by kind",
                                    ["kind"], registry=r)
        for kind in STORE_ERRORS:
            self.store_errors.labels(kind)  # every kind shows, at 0 until it happens
        if r is not None and extra is not None:
            r.register(extra)

    def scrape(self) -> bytes:
        from prometheus_client import CollectorRegistry, generate_latest
        if not self.multiprocess:
            return generate_latest(self.registry)
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        if self.extra is not None:
            registry.register(self.extra)
        return generate_latest(registry)

    def commit(self, writes: int) -> None:
        self.batches.observe(writes)


def store_error_kind(e: BaseException) -> str | None:
    """Which kind of store failure ``e`` is, if it is one."""
    if isinstance(e, Damaged):
        return "damaged"
    if isinstance(e, Contention):
        return "contention"
    if isinstance(e, (StoreUnavailable, psycopg.OperationalError)) or (
            isinstance(e, sqlite3.OperationalError) and "unable to open" in str(e)):
        return "unavailable"
    if isinstance(e, (sqlite3.Error, psycopg.Error)):
        return "database"
    return None


def instrument(app: Flask, metrics: Metrics) -> None:
    """Count every request of ``app`` (its route's template, status and time) and every
    store failure a request meets, whichever error handler then answers it (the API's
    problem+json or a page's)."""

    @app.before_request
    def _started():
        g.bitka_started = time.perf_counter()

    @app.after_request
    def _counted(response):
        started = g.pop("bitka_started", None)
        route = request.url_rule.rule if request.url_rule is not None else "(no route)"
        metrics.requests.labels(request.method, route, str(response.status_code)).inc()
        if started is not None:
            metrics.latency.labels(request.method, route).observe(time.perf_counter() - started)
        return response

    handle = app.handle_user_exception

    def handle_user_exception(e):
        kind = store_error_kind(e)
        if kind is not None:
            metrics.store_errors.labels(kind).inc()
        return handle(e)

    app.handle_user_exception = handle_user_exception  # every handled error passes here first

    batches = getattr(app.extensions["bitka.store"], "batches", None)  # SQLite's group commit
    if batches is not None:
        batches.on_commit = metrics.commit
