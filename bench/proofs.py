"""How long roots and proofs take in a large group, from the stored Merkle nodes.

    python bench/proofs.py [--events 1000000]

Fills one group with payment events (chained and with their Merkle nodes, as the store
appends them), then times the root at the current size, inclusion proofs and consistency
proofs at random sizes, each over a fresh read snapshot.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events import merkle  # noqa: E402
from events.store import NewEvent  # noqa: E402
from events.database import Store  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "big.db").setup()
        start, batch, written = time.perf_counter(), 10_000, 0
        while written < args.events:
            n = min(batch, args.events - written)
            with store.writing() as w:
                for i in range(n):
                    w.append("g", [NewEvent("payment", {"from": "a", "to": "b", "amount": f"{written + i}.00"})],
                             "admin")
            written += n
        print(f"{written} events appended in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        rng, timings = random.Random(1), {"root": [], "inclusion": [], "consistency": []}
        for _ in range(200):
            size = rng.randrange(1, written + 1)
            old = rng.randrange(1, size + 1)
            with store.reading() as r:
                nodes = r.merkle_nodes("g")
                t0 = time.perf_counter()
                merkle.root(nodes, written)
                t1 = time.perf_counter()
                merkle.inclusion_path(nodes, rng.randrange(size), size)
                t2 = time.perf_counter()
                merkle.consistency_path(nodes, old, size)
                t3 = time.perf_counter()
            timings["root"].append(t1 - t0)
            timings["inclusion"].append(t2 - t1)
            timings["consistency"].append(t3 - t2)
    for name, values in timings.items():
        values.sort()
        print(f"{name:<12} median {values[len(values) // 2] * 1000:.2f} ms, worst {values[-1] * 1000:.2f} ms "
              f"(in a group of {written} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
