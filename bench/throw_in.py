"""How long a throw-in takes to judge, over random deals thrown in before the first trick
(the most ways left to search: four tricks), with Kop's ranking and Baśka's gran.

    python bench/throw_in.py [--deals 3000] [--seed 1]

It prints the time of the whole decision (the search and settling each ending) and the
positions searched, against the search's limit (games/kop/throw_in.py LIMIT).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.baska import game as baska

from games.kop import game as kop

from games.kop import throw_in  # noqa: E402
from games.engine.base import Command  # noqa: E402
from games.engine.errors import RuleViolation  # noqa: E402


def _hand(rng, module, rules, call):
    cards = sorted(kop.PACK)
    rng.shuffle(cards)
    state = module.new_hand(module.parse_rules(rules), {"dealer": 0, "hands": [cards[i * 4:i * 4 + 4]
                                                                                for i in range(4)]})
    if call:
        try:
            for event in module.decide(state, Command("bid", {"seat": 1, "call": call})):
                state = module.evolve(state, event)
        except RuleViolation:
            pass
    return state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for label, module, rules, call in (("kop, as-dycha", kop, {}, None), ("baska, gran", baska, {}, "gran")):
        times, most, allowed = [], 0, 0
        for _ in range(args.deals):
            state = _hand(rng, module, rules, call)
            search = throw_in.Search(state.ranking, frozenset(kop.kop_scoring.teams(state).stare), {}, state.turns)
            search.endings(state.held, state.leader, ())
            most = max(most, search.positions)
            start = time.perf_counter()
            try:
                module.decide(state, Command("claim", {"seat": 0}))
                allowed += 1
            except RuleViolation:
                pass
            times.append(time.perf_counter() - start)
        times.sort()
        median, p99 = times[len(times) // 2], times[len(times) * 99 // 100]
        print(f"{label}: {len(times)} deals thrown in before the first trick ({allowed} allowed): median "
              f"{median * 1000:.1f} ms, 99th percentile {p99 * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms; "
              f"at most {most:,} positions searched (limit {throw_in.LIMIT:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
