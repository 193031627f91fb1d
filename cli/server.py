"""``bitka serve``: gunicorn in production, the Flask development server with ``--dev``.

Each gunicorn worker process builds its own app (and so its own store connections: none
crosses a fork). On SQLite, WAL mode with a busy timeout lets them write in turn, each
append in one BEGIN IMMEDIATE transaction; on PostgreSQL each write locks its group, so
servers on other machines can share the database too.
"""
from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Callable

import click

from events.database import open_store
from events.verify import Fault

from . import hall, output
from .checks import verify_store

_SAID = {  # what gunicorn refuses before bitka sees the request, said as bitka says it
    414: ("URI Too Long", "uri-too-long", "the request line is longer than this service reads (4,094 bytes)"),
    431: ("Request Header Fields Too Large", "headers-too-large",
          "the request's headers are larger than this service reads (8,190 bytes a field, 100 fields)"),
    400: ("Bad request", "malformed-http", "the request is not well-formed HTTP"),
}


def problem_error(sock, status: int, reason: str, message: str) -> None:
    """gunicorn's answer to a request it refuses before bitka sees it, as problem+json
    rather than its HTML page: the one error shape clients parse."""
    from gunicorn import util
    title, slug, detail = _SAID.get(status, (reason, "protocol-error", message or reason))
    body = json.dumps({"type": f"urn:bitka:problem:{slug}", "title": title, "status": status,
                       "detail": detail}).encode() + b"\n"
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


def checked_before_serving(db: str) -> list[Fault]:
    """The whole store checked as ``bitka verify`` checks it, before anything is served: the
    first bad seq of each damaged group is printed, and those groups answer damaged-store
    from the first request on; the groups that are whole are served.

    Example: ``bitka --db club.db serve`` prints "group g_3f9a1c2b7d10: first bad seq 41: its
    contents do not match its hash ..." and serves the other groups."""
    store = open_store(db)
    with store.reading() as r:
        total = r.count()
    store.close()
    with output.progress(total, "checking the store") as advance:
        found = verify_store(db, None, advance)
    for fault in found:
        click.echo(f"{fault}; this group answers damaged-store until its store is restored", err=True)
    if found:
        click.echo(f"{len(found)} damaged group(s) are not served; every other group is", err=True)
    return found


def _app_config(db: str, key: str | None, damaged: list[Fault], backups=None, served_at: str | None = None,
                notes: str | None = None, lan: bool = False) -> dict:
    """The app's settings from bitka serve's options; ``lan`` (``--lan``): served over plain HTTP
    on a private network, so the sign-in cookies go without Secure and every page says so."""
    return {"BITKA_DB": db, "BITKA_DAMAGED": damaged, **({"BITKA_KEY": key} if key else {}),
            **({"BITKA_LAN": True} if lan else {}),
            **({"BITKA_DAMAGE_NOTES": notes} if notes else {}),
            **(backups.config if backups is not None else {}), **({"BITKA_SERVED_AT": served_at} if served_at else {})}


def address(host: str, port: int) -> str:
    """The address bitka serve listens on, as the links it makes write it (without
    BITKA_PUBLIC_URL): 127.0.0.1 for every address (0.0.0.0, ::), which is none to open."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"


METRICS_DIRS = ("PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir")  # what prometheus_client reads


def metrics_across_workers() -> tuple[Callable, Callable]:
    """prometheus_client's multiprocess mode, so that /metrics counts every worker's requests
    whichever worker answers it: each worker keeps its counts in files of a directory, which
    must be named before any worker imports prometheus_client. That directory is always a new
    one bitka makes (mode 0700): inside ``$PROMETHEUS_MULTIPROC_DIR`` when it is set, else in
    the system's temporary directory; it is removed when the server stops, with only what
    the workers wrote in it. Nothing else there is read, emptied or deleted: the variable
    pointed at a store's or the backups' directory costs nothing. The hooks gunicorn's master
    calls when a worker exits and when it stops."""
    given = next((os.environ[name] for name in METRICS_DIRS if os.environ.get(name)), None)
    try:
        if given:
            Path(given).mkdir(parents=True, exist_ok=True)
        directory = Path(tempfile.mkdtemp(prefix="bitka-metrics-", dir=given))
    except OSError as e:
        raise click.UsageError(f"PROMETHEUS_MULTIPROC_DIR={given}: bitka cannot make its metrics' directory in it "
                               f"({e.strerror})") from None
    os.environ.pop("prometheus_multiproc_dir", None)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)

    def child_exit(server, worker):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)

    def on_exit(server):
        shutil.rmtree(directory, ignore_errors=True)
    return child_exit, on_exit


def single_process_metrics() -> None:
    """The development server is one process: its counts stay in it, and no directory a
    variable names is written to."""
    for name in METRICS_DIRS:
        os.environ.pop(name, None)


# How long a stop (SIGTERM) waits for the requests in flight before gunicorn's master kills
# the workers left: a request costs well under a second (issue 44's bound), a reader waiting
# for news is answered at once (``answer_waiters_on_stop``), and a worker that missed its
# signal (one still starting when it came) ends at this bound, not after gunicorn's default 30 s.
STOP_WITHIN = 10


def run_gunicorn(db: str, host: str, port: int, workers: int, threads: int, key: str | None,
                 damaged: list[Fault], backups=None, lan: bool = False) -> None:
    from gunicorn import util
    from gunicorn.app.base import BaseApplication

    util.write_error = problem_error  # the workers, forked from here, answer their refusals so
    child_exit, metrics_gone = metrics_across_workers()
    notes_dir = tempfile.mkdtemp(prefix="bitka-damage-")  # what one worker finds damaged, every worker refuses
    notes = os.path.join(notes_dir, "found")

    def when_ready(server):
        if backups is not None:
            backups.start()

    def on_exit(server):
        if backups is not None:
            backups.stop()
        metrics_gone(server)
        shutil.rmtree(notes_dir, ignore_errors=True)

    class Bitka(BaseApplication):
        def load_config(self):
            settings = {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                        "worker_class": "gthread" if threads > 1 else "sync", "keepalive": 5,
                        "accesslog": None, "timeout": 60, "graceful_timeout": STOP_WITHIN,
                        "child_exit": child_exit, "when_ready": when_ready, "on_exit": on_exit,
                        "post_worker_init": answer_waiters_on_stop}
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self):
            from service.app import create_app
            app = create_app({**_app_config(db, key, damaged, backups, address(host, port), notes, lan),
                              "BITKA_LIVE_HOLDS": live_holds(threads)})
            settled()
            return app

    Bitka().run()


def live_holds(threads: int) -> int:
    """How many of a worker's threads may wait for news at once (service/live.py): all but
    four, kept for the requests that write and read; none in a worker of one thread."""
    return max(threads - 4, 0)


def answer_waiters_on_stop(worker) -> None:
    """gunicorn's hook once a worker is up: its SIGTERM (a graceful stop) first wakes every
    reader waiting for news, so that they answer at once rather than hold the stop for their
    whole wait."""
    graceful = signal.getsignal(signal.SIGTERM)

    def stop(number, frame):
        worker.wsgi.extensions["bitka.bell"].stop()
        if callable(graceful):
            graceful(number, frame)
    signal.signal(signal.SIGTERM, stop)


def settled() -> None:
    """A worker's app is built and will live as long as the worker: what it holds (routes,
    schemas, catalogs, the games) is moved out of the garbage collector's sight, so that its
    full collections walk only what requests leave behind. Measured with 8 clients, p99 went
    from 49-59 ms to 19-24 ms: full collections over the whole app were the tail."""
    gc.collect()
    gc.freeze()


def run_dev(db: str, host: str, port: int, key: str | None, damaged: list[Fault], backups=None,
            lan: bool = False) -> None:
    from werkzeug.serving import WSGIRequestHandler, run_simple

    from service.app import create_app

    class KeepAlive(WSGIRequestHandler):
        protocol_version = "HTTP/1.1"  # clients may reuse one connection for many requests

    single_process_metrics()
    app = create_app(_app_config(db, key, damaged, backups, address(host, port), lan=lan))
    if backups is not None:
        backups.start()
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, request_handler=KeepAlive)
    finally:
        if backups is not None:
            backups.stop()


def announce(db: str, host: str, port: int, how: str, lan: bool = False) -> None:
    """Where the pages and the API are (the space before the comma keeps it out of the link
    a terminal makes of the address); with ``--lan``, what that means and the address as a QR
    code to scan off the screen."""
    origin = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    click.echo(f"bitka serving {db} with {how}: pages at {origin}/ , API at {origin}/v1 "
               f"(OpenAPI at {origin}/v1/openapi.json, its reference at {origin}/docs)", err=True)
    if lan:
        click.echo(hall.said(host, origin), err=True)
        click.echo(hall.terminal_code(origin), err=True, nl=False)
