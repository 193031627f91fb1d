"""Where the time goes: one of bitka's hot paths under pyinstrument, in one process.

    python bench/profile.py replay [--events 50000] [--db FILE]
    python bench/profile.py verify
    python bench/profile.py append [--appends 600]

``replay`` profiles each of replay's two processes' work in turn (the rows and a fifth of
the settlements; the other four fifths), ``verify`` the chain check, ``append`` trick
events appended through the store, one transaction each. A store of random legal Kop
hands is filled first, or ``--db`` names one to reuse. Needs ``pip install pyinstrument``.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import fill, hand_bodies, store_appends  # noqa: E402
from cli.checks import SETTLING_SHARES  # noqa: E402
from events.database import Store  # noqa: E402
from events.verify import faults  # noqa: E402
from projections.projector import project  # noqa: E402
from projections.replay import replay  # noqa: E402


def work(what: str, store: Store, appends: int):
    pool = hand_bodies(random.Random(2026), 20)
    if what == "append":
        return lambda: store_appends(store, pool, max(1, appends // 4))
    if what == "verify":
        def check():
            with store.reading() as r:
                return list(faults(r.scan_raw()))
        return check
    first, rest = frozenset({0}), frozenset(range(1, SETTLING_SHARES))

    def both_parts():
        with store.reading() as r:
            replay(r.scan(), r, ("rows", "settlements"), (first, SETTLING_SHARES))
            replay(r.scan(), r, ("settlements",), (rest, SETTLING_SHARES))
    return both_parts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("replay", "verify", "append"))
    ap.add_argument("--events", type=int, default=50_000, help="events in the store it fills")
    ap.add_argument("--appends", type=int, default=600, help="trick appends to profile")
    ap.add_argument("--db", help="reuse this store instead of filling one")
    args = ap.parse_args()
    try:
        from pyinstrument import Profiler
    except ImportError:
        print("bench/profile.py needs pyinstrument: pip install pyinstrument", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        if args.db:
            store = Store(args.db, projector=project)
        else:
            store = Store(Path(tmp) / "profile.db", projector=project).setup()
            fill(store, args.events, hand_bodies(random.Random(2026), 50))
        run = work(args.what, store, args.appends)
        profiler = Profiler()
        profiler.start()
        run()
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False))
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
