"""Could a score sheet's result happen? Searched by brute force from the rules files, for
tests, apart from games/ (which answers the same question with a subset-sum table); and a
random Kop or Baśka result that could, for the tests that log results."""
from __future__ import annotations

from itertools import product

KOP_PACK = {11: 4, 10: 4, 3: 4, 2: 4}  # card points -> how many cards (rules/kop.md): 104 in all
BISCA_PACKS = {  # rules/bisca.md: A 11, 7 10, K 4, J 3, Q 2, the rest nothing
    "full": {11: 4, 10: 4, 4: 4, 3: 4, 2: 4, 0: 20},
    "no-twos": {11: 4, 10: 4, 4: 4, 3: 4, 2: 4, 0: 16},
}
BISCA_PLAYERS = {"tres": 2, "nove": 2, "quatro": 4, "seis": 6, "capixaba": 4}


def could_take(points: int, cards: int, pack: dict[int, int]) -> bool:
    """Some ``cards`` cards of the pack worth ``points``: every count of each value is tried."""
    values = sorted(pack)
    for counts in product(*(range(pack[v] + 1) for v in values)):
        if sum(counts) == cards and sum(c * v for c, v in zip(counts, values, strict=True)) == points:
            return True
    return False


def kop_result_possible(points: int, tricks: int) -> bool:
    """The declaring side's 4 x tricks cards worth its points; the others hold the rest."""
    return 0 <= tricks <= 4 and could_take(points, 4 * tricks, KOP_PACK)


def bisca_result_possible(variant: str, points: list[int], tricks: list[int]) -> bool:
    players = BISCA_PLAYERS[variant]
    pack = BISCA_PACKS["no-twos" if variant == "seis" else "full"]
    if sum(points) != 120 or sum(tricks) * players != sum(pack.values()):
        return False
    return could_take(points[0], players * tricks[0], pack)


def scopas_possible(scopas: list[int], sides_in_turn: list[int], table_starts_empty: bool) -> bool:
    """Forward over the plays, keeping every (swept at the last play, scopas so far) that a
    hand can reach: a play sweeps only if the one before did not, never as the last play,
    and not first onto an empty table."""
    reach = {(True if table_starts_empty else False, tuple(0 for _ in scopas))}
    last = len(sides_in_turn) - 1
    for at, side in enumerate(sides_in_turn):
        nxt = set()
        for swept, made in reach:
            nxt.add((False, made))
            if not swept and at < last and made[side] < scopas[side]:
                nxt.add((True, made[:side] + (made[side] + 1,) + made[side + 1:]))
        reach = nxt
    return any(made == tuple(scopas) for _, made in reach)


def sides_that_may_take(scopas: list[int], sides_in_turn: list[int], table_starts_empty: bool) -> set[int]:
    """The sides that, in some placing of these scopas, play at least once onto a table with
    cards on it (the same forward walk, also keeping who has had such a play)."""
    reach = {(table_starts_empty, tuple(0 for _ in scopas), frozenset())}
    last = len(sides_in_turn) - 1
    for at, side in enumerate(sides_in_turn):
        nxt = set()
        for empty, made, had in reach:
            now = had if empty else had | {side}
            nxt.add((False, made, now))
            if not empty and at < last and made[side] < scopas[side]:
                nxt.add((True, made[:side] + (made[side] + 1,) + made[side + 1:], now))
        reach = nxt
    return set().union(*(had for _, made, had in reach if made == tuple(scopas)))


def random_kop_result(rng, game: str, seats=range(4)) -> dict:
    """A score-sheet result of Kop or Baśka that some cards give, for the four ``seats`` who
    play (at a table of five, all but the dealer): a random contract, its side, the doubles
    (an opponent first, then the sides in turn), card points and tricks."""
    contracts = ["normal", "wesele", "cicha", "zolo", "zolo-du"] + (["gran", "gran-du"] if game == "baska" else [])
    contract = rng.choice(contracts)
    two = rng.sample(seats, 2)
    result = {"contract": contract, "doubles": []}
    if contract == "normal":
        result["stare"] = sorted(two)
    else:
        result["declarer"] = two[0]
    if contract == "wesele":
        result["partner"] = two[1]
    side = set(result.get("stare") or [result["declarer"], result.get("partner", result["declarer"])])
    opponents = [s for s in seats if s not in side]
    for i in range(rng.choice([0, 0, 1, 2])):
        result["doubles"].append(rng.choice(opponents) if i % 2 == 0 else rng.choice(sorted(side)))
    while True:
        points, tricks = rng.choice([52, rng.randint(0, 104)]), rng.randint(0, 4)
        if kop_result_possible(points, tricks):
            return {**result, "points": points, "tricks": tricks}
