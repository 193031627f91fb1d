"""Answers whose time must not tell what the asker may not see.

Judging a throw-in searches every way the rest of the hand could be played, with every
hand known: refused from a few single ways it takes a millisecond, after the whole search up
to half a second (bench/throw_in.py: 99th percentile 200 ms, worst 521 ms over 3,000 deals
thrown in before the first trick). A player who may not see the others' cards would read,
in that time, how their cards lie. So a claim is answered no sooner than ``CLAIM`` seconds
after it came, whatever it was answered; the wait is spent after the write, holding no lock.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

CLAIM = 0.6  # seconds: above every search bench/throw_in.py measured


@contextmanager
def no_sooner_than(seconds: float) -> Iterator[None]:
    """Whatever the body answers (or raises), not before ``seconds`` have passed."""
    start = time.monotonic()
    try:
        yield
    finally:
        left = seconds - (time.monotonic() - start)
        if left > 0:
            time.sleep(left)
