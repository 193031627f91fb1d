"""``bitka serve``: gunicorn in production, the Flask development server with ``--dev``.

Each gunicorn worker process builds its own app (and so its own store connections: none
crosses a fork). On SQLite, WAL mode with a busy timeout lets them write in turn, each
append in one BEGIN IMMEDIATE transaction; on PostgreSQL each write locks its group, so
servers on other machines can share the database too.
"""
from __future__ import annotations

import click


def run_gunicorn(db: str, host: str, port: int, workers: int, threads: int, key: str | None) -> None:
    from gunicorn.app.base import BaseApplication

    class Bitka(BaseApplication):
        def load_config(self):
            settings = {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                        "worker_class": "gthread" if threads > 1 else "sync", "keepalive": 5,
                        "accesslog": None, "timeout": 60}
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self):
            from service.app import create_app
            return create_app({"BITKA_DB": db, **({"BITKA_KEY": key} if key else {})})

    Bitka().run()


def run_dev(db: str, host: str, port: int, key: str | None) -> None:
    from werkzeug.serving import WSGIRequestHandler, run_simple

    from service.app import create_app

    class KeepAlive(WSGIRequestHandler):
        protocol_version = "HTTP/1.1"  # clients may reuse one connection for many requests

    app = create_app({"BITKA_DB": db, **({"BITKA_KEY": key} if key else {})})
    run_simple(host, port, app, threaded=True, use_reloader=False, request_handler=KeepAlive)


def announce(db: str, host: str, port: int, how: str) -> None:
    click.echo(f"bitka serving {db} on http://{host}:{port}/v1 with {how} (OpenAPI at /v1/openapi.json)", err=True)
