"""What every answer tells the browser about itself, against other sites: the pages, the
API, the problems, the static files, /docs and a 404 alike.

- ``Content-Security-Policy``: a page runs only the pages' own script files, loads styles,
  images, data, its manifest and its service worker (``/sw.js``, which has a policy of its
  own: service/web/offline.py) from this server only, posts its forms here only, and no site
  may frame it; there is no inline script (base.html's ``bitka-words`` is JSON, data a script reads,
  which the policy does not run). Anything that is not a page (JSON, text, CSS, JS, an SVG
  opened alone) may run and load nothing. /docs keeps the policy Swagger UI needs
  (service/docs.py).
- ``X-Frame-Options: DENY`` for browsers that predate ``frame-ancestors``.
- ``X-Content-Type-Options: nosniff``: a JSON answer or a file is never run as a script.
- ``Referrer-Policy: same-origin``: no address of this site (an invitation's code, the
  admin's link) travels to another site in a Referer; requests to this site keep their
  Origin (which ``no-referrer`` would make ``null``).
"""
from __future__ import annotations

from flask import Response

PAGES = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
         "manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
         "object-src 'none'")
NOT_A_PAGE = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


def guarded(response: Response) -> Response:
    """``response`` with the headers above (a policy set by its own view is kept)."""
    response.headers.setdefault("Content-Security-Policy", PAGES if response.mimetype == "text/html" else NOT_A_PAGE)
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
