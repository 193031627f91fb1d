"""How often one client address may create groups when the server has no setup token.

Creating a group needs no token (API.md), so without a limit one address could make
thousands a second and slow every table down. Each worker process keeps, per address, the
times of its recent creations; past ``per_hour`` within the last hour it answers 429 with
Retry-After. The count is per process (``bitka serve`` runs 2 by default), kept in memory,
and forgotten on restart: a brake on floods, not an account of who did what.
"""
from __future__ import annotations

import threading
import time
from collections import deque

from events.errors import DomainError

WINDOW = 3600.0  # seconds


class TooMany(DomainError):
    """Too many groups from one address within the hour (429 with Retry-After)."""


class Limit:
    def __init__(self, per_hour: int, clock=time.monotonic):
        self.per_hour, self.clock = per_hour, clock
        self.seen: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def take(self, address: str) -> None:
        """Count one creation from ``address``, or raise TooMany saying when to come back."""
        if self.per_hour <= 0:
            return
        now = self.clock()
        with self.lock:
            if len(self.seen) > 10_000:  # forget the addresses whose hour has passed
                self.seen = {a: q for a, q in self.seen.items() if q and q[-1] > now - WINDOW}
            recent = self.seen.setdefault(address, deque())
            while recent and recent[0] <= now - WINDOW:
                recent.popleft()
            if len(recent) >= self.per_hour:
                wait = int(recent[0] + WINDOW - now) + 1
                raise TooMany(f"this address created {len(recent)} groups in the last hour, the most this server "
                              f"allows without a setup token; try again in {wait} s", retry_after=wait)
            recent.append(now)
