"""Running one piece of work on several threads at once, for the tests of concurrent writers."""
from __future__ import annotations

import threading
from typing import Callable


def failures_in_threads(work: Callable[[], None], threads: int) -> list[Exception]:
    """Run ``work`` on ``threads`` threads at once; the exceptions any of them raised."""
    errors: list[Exception] = []

    def run():
        try:
            work()
        except Exception as e:  # reported to the caller, who asserts there were none
            errors.append(e)

    started = [threading.Thread(target=run) for _ in range(threads)]
    for t in started:
        t.start()
    for t in started:
        t.join()
    return errors
