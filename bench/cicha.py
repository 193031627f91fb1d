"""How long the unlosable-cicha search takes, over random deals where one seat holds both
black queens (every such deal is checked when its first trick is logged).

    python bench/cicha.py [--deals 20000] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.kop import game as kop  # noqa: E402
from games.kop.auction import black_queens_holder  # noqa: E402
from games.kop.cicha_search import cannot_lose  # noqa: E402
from games.kop.turns import turns  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng, cards, ranking = random.Random(args.seed), sorted(kop.PACK), kop.RANKINGS["as-dycha"]
    times, unlosable, worst = [], 0, None
    while len(times) < args.deals:
        rng.shuffle(cards)
        hands = [cards[i * 4:(i + 1) * 4] for i in range(4)]
        player = black_queens_holder(hands)
        if player is None:
            continue
        leader = rng.randrange(4)
        start = time.perf_counter()
        unlosable += cannot_lose(hands, leader, player, ranking, turns(4, (leader - 1) % 4))  # dealt before the leader
        spent = time.perf_counter() - start
        times.append(spent)
        if worst is None or spent > worst[0]:
            worst = (spent, hands, leader, player)
    times.sort()
    print(f"{len(times)} deals with one seat holding both black queens; {unlosable} unlosable")
    median, p99 = times[len(times) // 2], times[len(times) * 99 // 100]
    print(f"median {median * 1000:.2f} ms, 99th percentile {p99 * 1000:.2f} ms, worst {worst[0] * 1000:.1f} ms")
    print(f"worst deal: hands {worst[1]}, seat {worst[2]} leads, seat {worst[3]} holds the black queens")
    return 0


if __name__ == "__main__":
    sys.exit(main())
