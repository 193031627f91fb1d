"""bitka installed on a phone: its web app manifest, its service worker, and the page it
shows when there is no network.

The service worker (``templates/sw.js``) is served from the site's root, so its scope is
the whole site. It keeps, in one cache per version, exactly the files every page shares and
nothing else: the styles (the card faces are text and CSS), the scripts, the icons, the
manifest and the page that says there is no network. No page a member is signed in to, no
JSON, no ``/v1/`` answer and nothing sealed is ever written to it: a page is asked of the
network each time, and only when the network does not answer does the phone show the
kept page that says so. The version is a hash of what it keeps, so that a bitka with other
files installs a new worker, which drops the old cache.

A browser registers a service worker only in a secure context (HTTPS, or this machine's own
loopback address): on a hall's network served over plain HTTP (``bitka serve --lan``) there
is none, and the pages keep the taps made while the network is down by themselves
(``static/taps.js``, in ``localStorage``).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Response, current_app, render_template, url_for
from flask_babel import gettext as _

from ..i18n.languages import CATALOGS, current
from .base import bp

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
KEPT_BY = ("offline.html", "base.html", "sw.js")  # the templates whose words or code the kept files carry
# The worker's own policy: it may fetch from this site only (a page's network requests pass through it).
WORKER_POLICY = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
THEME = "#153d6b"  # the header's blue (bitka.css)


def kept() -> list[str]:
    """What the service worker keeps: the page without a network, the manifest, and every
    static file (styles, scripts, icons), which are the same for everyone."""
    files = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()
                   and p.suffix in (".js", ".css", ".png"))
    return [url_for("web.offline_page"), url_for("web.manifest"),
            *(url_for("web.static", filename=name) for name in files)]


def version() -> str:
    """A hash of every file the worker keeps or says (and the catalogs the kept page speaks):
    a change to any makes another worker, which keeps them anew. Worked out once per process."""
    found = current_app.extensions.get("bitka.offline_version")
    if found is None:
        digest = hashlib.sha256()
        paths = [*sorted(STATIC.rglob("*")), *(HERE / "templates" / name for name in KEPT_BY),
                 *sorted(CATALOGS.glob("*/LC_MESSAGES/messages.po"))]
        for path in paths:
            if path.is_file():
                digest.update(path.as_posix().removeprefix(HERE.as_posix()).encode() + b"\0" + path.read_bytes())
        found = current_app.extensions["bitka.offline_version"] = digest.hexdigest()[:16]
    return found


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the root so that it serves the whole site; its own policy lets it
    fetch from this site only."""
    script = render_template("sw.js", version=version(), kept=kept(), offline=url_for("web.offline_page"))
    response = Response(script, mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = WORKER_POLICY
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """What a phone installs: bitka's name, its icons, where it opens, in the reader's language."""
    icons = [{"src": url_for("web.static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose} for size in (192, 512) for purpose in ("any", "maskable")]
    body = {"id": "/", "name": "bitka", "short_name": "bitka", "lang": current().replace("_", "-"),
            # Translators: what bitka is, as a phone shows it when it installs bitka as an app.
            "description": _("The score of your card table, kept where nobody can rewrite it."),
            "start_url": "/", "scope": "/", "display": "standalone", "background_color": "#ffffff",
            "theme_color": THEME, "icons": icons}
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/offline")
def offline_page():
    """The page an installed bitka shows when the network does not answer: no one's page, no
    group's, so it may be kept (what the phone still has to send shows on it, from the phone)."""
    return render_template("offline.html")
