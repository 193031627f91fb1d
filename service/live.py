"""Reads that wait for news: a phone asks for a live part (or a client for a read of the API)
with the version it shows (``If-None-Match``) and ``Prefer: wait=N`` (RFC 7240), and the
answer comes as soon as something that part shows has changed, or as a 304 after at most
``N`` seconds (``MOST`` at most). Nobody waits on a timer to learn it is their turn.

What a part shows is its ``table``'s events and the group's own (members, payments,
settings); a part of the whole group (``table`` None) shows every event. A result waiting
for the reader at another table is said on the next page they open (and at once on the
group's page): waking every phone of a hall for each result would redraw 60 pages a hand. A change elsewhere
in the group wakes the reader, which looks, finds nothing of its own, and waits on: it
answers 304 with the group's newer version, which it then shows.
"""
from __future__ import annotations

import re
import time
from typing import Callable

from flask import Response, current_app, g, request

from events.bell import Bell, Heard
from events.store import Reader

MOST = 25  # seconds a read waits at most, whatever it prefers
FAR = 1000  # a version this many events behind is answered without looking at what moved
_WAIT = re.compile(r"(?:^|[;,\s])wait\s*=\s*(\d{1,6})(?:$|[;,\s])", re.IGNORECASE)


def bell() -> Bell:
    return current_app.extensions["bitka.bell"]


def store():
    return current_app.extensions["bitka.store"]


def preferred_wait() -> int:
    """The seconds the request is willing to wait (``Prefer: wait=N``), within ``MOST``; 0 when
    it prefers none."""
    found = _WAIT.search(request.headers.get("Prefer", ""))
    return min(int(found.group(1)), MOST) if found else 0


def shown_version() -> int | None:
    """The version the client shows (``If-None-Match: "12"``), when it names one."""
    found = re.fullmatch(r'\s*(?:W/)?"(\d{1,18})"\s*', request.headers.get("If-None-Match", ""))
    return int(found.group(1)) if found else None


def moved(r: Reader, group: str, shown: int | None, version: int, table: str | None,
          quiet: frozenset[str] = frozenset()) -> bool:
    """Has what the client shows changed between its version and ``version``?"""
    if shown is None or shown > version or version - shown > FAR:
        return shown != version
    return version != shown and r.moved_at(group, shown, table, quiet)


def answer(group: str, table: str | None | Callable[[Reader], str | None],
           allowed: Callable[[Reader], Response | None], render: Callable[[Reader, int], Response],
           quiet: frozenset[str] = frozenset(), strict: bool = False) -> Response:
    """The live read of ``group`` (of ``table`` in it, when given, or when ``table(r)`` names
    one): ``allowed(r)`` refuses it (a Response) or lets it through (None); ``render(r,
    version)`` makes the answer. Unchanged since the client's version (events of the
    ``quiet`` types do not change it): held while the client prefers to wait, then a 304.
    ``strict``: a client whose version is not the group's current one is answered at once,
    whatever moved (the API's reads, as API.md says); only its wait looks at what moved."""
    shown, wait = shown_version(), preferred_wait()
    g.live_part = True  # what a page leaves out of its live part while folded (web/live_parts.py)
    with store().reading() as r:
        refused = allowed(r)
        if refused is not None:
            return refused
        if callable(table):
            table = table(r)
        version = r.version(group)
        if (shown != version) if strict else moved(r, group, shown, version, table, quiet):
            return render(r, version)
    if wait and not bell().room():
        wait = 0  # every thread this process lets wait is waiting: answered now, the client asks again later
    deadline = time.monotonic() + wait
    while wait and (left := deadline - time.monotonic()) > 0:
        news, heard = bell().wait(group, version, left, concerning(table, quiet))
        if not news:
            version = max(version, heard)
            break
        with store().reading() as r:  # the bell could not tell (what it kept did not reach back): the log says
            now = r.version(group)
            if moved(r, group, version, now, table, quiet):
                return render(r, now)
        version = now
    return unchanged(version, wait)


def concerning(table: str | None, quiet: frozenset[str]) -> Callable[[Heard], bool]:
    """Does an event the bell heard of change a part of ``table`` (of the whole group, when
    None) that ``quiet`` events do not change? As ``Reader.moved_at`` says, in memory."""
    def concerns(event: Heard) -> bool:
        if event.type in quiet:
            return False
        return table is None or event.table is None or event.table == table
    return concerns


def part(html: str, version: int) -> Response:
    """A page's live part as of ``version`` (static/live.js shows it and asks again with it)."""
    return Response(html, headers={"ETag": f'"{version}"'}, mimetype="text/html")


def unchanged(version: int, waited: int = 0) -> Response:
    """Nothing the client shows has changed: 304, with the version it may show from now on."""
    response = Response(status=304, headers={"ETag": f'"{version}"'})
    if waited:
        response.headers["Preference-Applied"] = f"wait={waited}"
    return response
