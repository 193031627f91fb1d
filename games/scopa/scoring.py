"""Scopa's hand score, the points a claim can count on, and the game's money (rules/scopa.md).

The game score across hands lives with the table: a settlement receives it in the table
terms (``match``) and says, in its ``match`` entry, what it became and whether the game
ended, which the table projection then keeps.
"""
from __future__ import annotations

from typing import Sequence

from events.sentences import say

from ..engine.base import Factor, Settlement, Side, TableTerms
from ..engine.cards import pack

PACK = pack(("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"))

PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}
SUITS = ("C", "S", "H", "D")
COINS = "D"
SETTEBELLO = "7D"
CATEGORIES = ("cards", "coins", "primiera", "settebello")


def side_cards(state, side: int) -> list[str]:
    return [c for seat in state.rules.sides[side] for c in state.captured[seat]]


def primiera(cards: Sequence[str]) -> tuple[int, list[str]] | None:
    """The best card of each suit and their sum; None when a suit is missing."""
    best = []
    for suit in SUITS:
        in_suit = [c for c in cards if c[-1] == suit]
        if not in_suit:
            return None
        best.append(max(in_suit, key=lambda c: PRIMIERA[c[:-1]]))
    return sum(PRIMIERA[c[:-1]] for c in best), best


def _most(counts: Sequence[int | None]) -> int | None:
    """The one side with the most, or None on a tie (or when nobody has any)."""
    present = [c for c in counts if c is not None]
    if not present:
        return None
    top = max(present)
    holders = [i for i, c in enumerate(counts) if c == top]
    return holders[0] if len(holders) == 1 else None


def hand_score(state) -> tuple[list[int], list[str]]:
    """Points per side for the hand, and the score line by line."""
    if state.result is not None:
        return result_score(state)
    sides = range(len(state.rules.sides))
    cards = [side_cards(state, s) for s in sides]
    names = [_name(state, s) for s in sides]
    points = [0 for _ in sides]
    lines = []
    for category, counts, shown in (
            ("cards", [len(c) for c in cards], None),
            ("coins", [sum(1 for x in c if x[-1] == COINS) for c in cards], None),
            ("primiera", [(p[0] if (p := primiera(c)) else None) for c in cards], [primiera(c) for c in cards])):
        winner = _most(counts)
        if winner is not None:
            points[winner] += 1
        parts = []
        for s in sides:
            extra = f" ({' '.join(shown[s][1])})" if shown and shown[s] else (say(" (a suit missing)") if shown else "")
            parts.append(f"{names[s]} {'-' if counts[s] is None else counts[s]}{extra}")
        lines.append(f"{category}: {' v '.join(parts)}: " + (f"{names[winner]}" if winner is not None
                                                            else say("a tie, nobody scores")))
    holder = next((s for s in sides if SETTEBELLO in cards[s]), None)
    if holder is not None:
        points[holder] += 1
        lines.append(say("settebello: {holder}", holder=names[holder]))
    for s in sides:
        scopas = sum(state.scopas[seat] for seat in state.rules.sides[s])
        points[s] += scopas
        if scopas:
            lines.append(say("scopas: {side} {scopas}", side=names[s], scopas=scopas))
    return points, lines


def sheet(state) -> dict:
    """Who took each category of a hand played out (None: a tie), as its score sheet says it."""
    sides = range(len(state.rules.sides))
    cards = [side_cards(state, s) for s in sides]
    return {"cards": _most([len(c) for c in cards]),
            "coins": _most([sum(1 for x in c if x[-1] == COINS) for c in cards]),
            "primiera": _most([(p[0] if (p := primiera(c)) else None) for c in cards]),
            "settebello": next((s for s in sides if SETTEBELLO in cards[s]), None),
            "scopas": [sum(state.scopas[seat] for seat in state.rules.sides[s]) for s in sides]}


def result_score(state) -> tuple[list[int], list[str]]:
    """The same points from a hand logged by its result alone (no cards were logged)."""
    result, n = state.result, len(state.rules.sides)
    points, lines = [0] * n, [say("the cards of this hand were not logged: scored from its result")]
    for category in ("cards", "coins", "primiera", "settebello"):
        side = result[category]
        if side is None:
            lines.append(say("{category}: a tie, nobody scores", category=category))
            continue
        points[side] += 1
        lines.append(f"{category}: {_name(state, side)}")
    for side, scopas in enumerate(result["scopas"]):
        points[side] += scopas
        if scopas:
            lines.append(say("scopas: {name_state_side} {scopas}", name_state_side=_name(state, side), scopas=scopas))
    return points, lines


def certain_points(state, side: int) -> dict[str, int]:
    """What a claiming side has for sure: its scopas and the settebello taken, and cards,
    coins and primiera that no other side could win even taking every card not yet captured."""
    sides = range(len(state.rules.sides))
    mine = side_cards(state, side)
    taken = {c for seat_cards in state.captured for c in seat_cards}
    loose = [c for c in sorted(PACK) if c not in taken]  # in hands, on the table or in the stock
    others = [side_cards(state, s) + loose for s in sides if s != side]
    certain = {"scopas": sum(state.scopas[seat] for seat in state.rules.sides[side])}
    if SETTEBELLO in mine:
        certain["settebello"] = 1
    if all(len(mine) > len(o) for o in others):
        certain["cards"] = 1
    coins = sum(1 for c in mine if c[-1] == COINS)
    if all(coins > sum(1 for c in o if c[-1] == COINS) for o in others):
        certain["coins"] = 1
    best = primiera(mine)
    if best and all((p := primiera(o)) is None or best[0] > p[0] for o in others):
        certain["primiera"] = 1
    return {k: v for k, v in certain.items() if v}


def _name(state, side: int) -> str:
    seats = state.rules.sides[side]
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {seats[0]}+{seats[1]}"


def settle(state, table: TableTerms) -> Settlement:
    rules, n = state.rules, len(state.rules.sides)
    before = list(table.match) if table.match else [0] * n
    if state.claim is not None:
        points, lines, winners, losers, outcome = _judge_claim(state, before)
        after = [b + p for b, p in zip(before, points, strict=True)]
    else:
        points, lines = hand_score(state)
        after = [b + p for b, p in zip(before, points, strict=True)]
        winners, losers, outcome = _game_end(after, rules.target)
    over = bool(winners)
    lines.append(say("game score: {scores}{target}",
                     scores=", ".join(f"{_name(state, s)} {after[s]}" for s in range(n)),
                     target=say(" (to {target})", target=rules.target) if not over else ""))
    amounts, factors, margin_lines = _money(state, winners, losers, after, table.stake)
    lines += margin_lines
    sides = tuple(Side(rules.sides[s], f"side {s}", points[s], len(side_cards(state, s))) for s in range(n))
    winner = [seat for s in winners for seat in rules.sides[s]] if over else None
    match = {"before": before, "hand": points, "after": after, "game_over": over, "winners": winners}
    return Settlement(outcome, "scopa", sides, winner, 1, 1, tuple(factors), tuple(amounts), table.members,
                      tuple(lines), {"match": match}, pays=over)


def _game_end(after: list[int], target: int) -> tuple[list[int], list[int], str]:
    reached = [s for s, score in enumerate(after) if score >= target]
    if not reached:
        return [], [], "hand"
    top = max(after)
    best = [s for s, score in enumerate(after) if score == top]
    if len(best) > 1:
        return [], [], "tie-plays-on"
    return best, [s for s in range(len(after)) if s != best[0]], "game"


def _judge_claim(state, before: list[int]):
    claim, n = state.claim, len(state.rules.sides)
    side, certain = claim["side"], claim["certain"]
    points = [sum(certain.values()) if s == side else 0 for s in range(n)]
    total = before[side] + points[side]
    shown = ", ".join(f"{k} {v}" for k, v in sorted(certain.items())) or say("nothing yet")
    lines = [say("seat {claim_seat} called itself out (chiamarsi fuori): certain points {shown}; game score "
                 "{before_side} + {points_side} = {total} against a target of {target}",
                 claim_seat=claim['seat'], shown=shown, before_side=before[side], points_side=points[side], total=total,
                 target=state.rules.target)]
    others = [s for s in range(n) if s != side]
    if total >= state.rules.target:
        lines.append(say("the claim is true: that side wins the game at once"))
        return points, lines, [side], others, "claim-true"
    lines.append(say("the claim is false: that side loses the game at once"))
    return points, lines, others, [side], "claim-false"


def _money(state, winners: list[int], losers: list[int], after: list[int], stake: int):
    """Each losing player pays each winner's side the stake (or the stake per point of margin)."""
    rules = state.rules
    amounts = [0] * rules.players
    factors, lines = [], []
    for w in winners:
        for lo in losers:
            margin = max(1, after[w] - after[lo]) if rules.stake_per == "point" else 1
            if margin > 1:
                factors.append(Factor("margin", margin, say("{name_state_w} won by {margin} points over "
                                                            "{name_state_lo}: the stake per point",
                                                            name_state_w=_name(state, w), margin=margin,
                                                            name_state_lo=_name(state, lo))))
            for payer, payee in zip(rules.sides[lo], rules.sides[w], strict=True):
                amounts[payer] -= stake * margin
                amounts[payee] += stake * margin
    return amounts, factors, lines
