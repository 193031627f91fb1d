"""bench/live.py's ledger counts what it says it counts: a write reaches a phone when a 200 of
that phone's part carries a version at least the write's (a 304's newer version is no
receipt), from the moment the writer had its answer (a phone that had it sooner counts 0);
what a phone never received before it turned to another part is a miss; a part that does not
show a kind of write (the group page and a card) expects none."""
from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from bench.live_phones import Ledger, Phone, seq_of


def _phones(n: int, ledger: Ledger, **kwargs) -> list[Phone]:
    bench = SimpleNamespace(ledger=ledger, stopped=threading.Event(), phase="play", args=SimpleNamespace(mode="wait"))
    return [Phone(bench, 1, {}, "/g/x/hands/h/live", 0.0, **kwargs) for _ in range(n)]


def test_a_write_reaches_a_phone_with_the_first_200_at_its_version_or_later():
    ledger = Ledger()
    slow, quick, early = _phones(3, ledger)
    ledger.arrived(early, 7, at=9.5)  # this phone had it before the writer's answer came
    ledger.expect("card", 7, answered=10.0, phones=[slow, quick, early])
    ledger.arrived(slow, 6, at=10.1)  # an older version: not yet
    ledger.arrived(quick, 8, at=10.2)
    ledger.arrived(slow, 7, at=10.4)
    assert ledger.writes == {"card": 1}
    assert sorted(ledger.delays["card"]) == pytest.approx([0.0, 0.2, 0.4])
    assert ledger.early == 1 and ledger.misses == {}
    assert not any(p.pending for p in (slow, quick, early))


def test_what_a_phone_never_received_is_missed_and_a_part_expects_only_what_it_shows():
    ledger = Ledger()
    seated, = _phones(1, ledger)
    group, = _phones(1, ledger, shows=frozenset({"result"}), role=" on the group page")
    ledger.expect("card", 3, answered=1.0, phones=[seated, group])
    ledger.expect("result", 4, answered=2.0, phones=[seated, group])
    ledger.arrived(group, 4, at=2.25)
    ledger.missed(seated)  # it turned to the next hand without a 200 at version 3 or later
    assert ledger.delays == {"result on the group page": [pytest.approx(0.25)]}
    assert ledger.misses == {"card": 1, "result": 1}


def test_the_version_is_read_from_the_etag():
    assert [seq_of(t) for t in ('"12"', 'W/"12"', " \"3\" ", "12", '"abc"', None)] == [12, 12, 3, None, None, None]
