"""Peak memory of the commands that read a whole log: replay, verify, export and import.

    python bench/memory.py [--events 1000000] [--db FILE]

Fills a store with one group of random legal Kop hands (or reuses --db if it exists), then
runs each command as `bitka` would be run, in its own process, and prints its wall time and
peak resident memory (the largest of the command's processes: replay and verify fork a
second one on two cores). Targets: replay of 1,000,000 events under 200 MB, in under two
minutes.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import fill, hand_bodies  # noqa: E402
from events.database import Store  # noqa: E402
from projections.projector import project  # noqa: E402

# Runs a command and reports its processes' peak RSS: RUSAGE_CHILDREN of a fresh parent
# holds only that command's tree.
_PEAK = ("import json, resource, subprocess, sys, time; t = time.perf_counter(); "
         "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
         "print(json.dumps([rc, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
TARGET_MB = 200
TARGET_SECONDS = 120  # replay of the whole store


def peak(*command: str) -> tuple[int, float, float]:
    out = subprocess.run([sys.executable, "-c", _PEAK, *command], capture_output=True, text=True, check=True, cwd=ROOT)
    rc, seconds, kib = json.loads(out.stdout)
    return rc, seconds, kib / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--db", help="a store to reuse (filled first if it does not exist)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "big.db"
        if not db.exists():
            start = time.perf_counter()
            written = fill(Store(db, projector=project).setup(), args.events, hand_bodies(random.Random(2026), 50))[0]
            print(f"filled a store with {written} events in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        with Store(db).reading() as r:
            total = r.count()
            group = r.conn.execute("SELECT group_id FROM events LIMIT 1").fetchone()[0]
        bitka = [sys.executable, "-m", "cli"]
        exported, copy = Path(tmp) / "log.jsonl", Path(tmp) / "imported.db"
        runs = [("replay", [*bitka, "--db", str(db), "replay"]),
                ("verify", [*bitka, "--db", str(db), "verify"]),
                ("export", [*bitka, "--db", str(db), "export", "--group", group, "--out", str(exported)]),
                ("import", [*bitka, "--db", str(copy), "import", str(exported)])]
        print(f"\npeak memory on a store of {total} events\n\n{'command':<8} {'seconds':>8} {'peak MiB':>9}")
        failed = False
        for name, command in runs:
            rc, seconds, mib = peak(*command)
            failed |= rc != 0 or (name == "replay" and (mib >= TARGET_MB or seconds >= TARGET_SECONDS))
            print(f"{name:<8} {seconds:>8.1f} {mib:>9.0f}{'' if rc == 0 else f'  exit {rc}'}")
        print(f"\ntargets: replay under {TARGET_MB} MB and {TARGET_SECONDS} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
