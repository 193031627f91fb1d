"""Scopa hands logged by their result alone: who took cards, coins, primiera and the
settebello, and each side's scopas; refused when no hand could end that way.

What bounds the scopas: a scopa clears the table, so the next play (onto an empty table)
captures nothing and cannot be one; the hand's last play never is one; and a deal with no
cards face up (scientifico) gives its first play nothing to take. Every scopa also takes
at least two cards (the one played and one from the table), which bounds the side that
can have taken most cards.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Sequence

from events.sentences import heard, say

from ..engine.base import Event
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require, whole_number

CATEGORIES = ("cards", "coins", "primiera", "settebello")
FIELDS = (*CATEGORIES, "scopas")
# How a result's categories read inside the log's sentences ("cards: Ala 21 v Bob 19", and
# "cards: {who}" for who took the point of a hand logged by its result), said on the pages.
SAID = (heard("cards"), heard("coins"), heard("cards: {who}"), heard("coins: {who}"), heard("primiera: {who}"))
PACK_SIZE = 40


def result_data(rules, dealer: int, raw: Mapping, face_up: int) -> dict:
    """The result as the ``result`` event keeps it, checked; ``face_up`` is how many cards
    the table's deal puts face up (every other card is played once)."""
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with cards, coins, primiera, settebello and scopas"))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise RuleViolation(say("a scopa result has {fields}, not {unknown}",
                                fields=', '.join(FIELDS), unknown=', '.join(unknown)))
    require(raw, FIELDS, ties=True)
    sides = len(rules.sides)
    result: dict = {}
    for category in CATEGORIES:
        side = raw[category]
        if side is None and category != "settebello":
            result[category] = None  # a tie: nobody scores it
            continue
        said = "a side" + (say(", or null for a tie") if category != "settebello"
                           else say(" (the settebello never ties)"))
        if not 0 <= whole_number(side, category, said) < sides:
            raise RuleViolation(say("{category} names the side that took it, from 0 to "
                                    "{last}{or_tie}",
                                    category=category, last=sides - 1,
                                    or_tie=say(", or null for a tie") if category != "settebello" else ""))
        result[category] = side
    scopas = raw["scopas"]
    if not isinstance(scopas, list) or len(scopas) != sides:
        raise Malformed("scopas", say("scopas must list {sides} counts, one per side", sides=sides))
    if any(not 0 <= whole_number(n, "scopas", say("a list of {sides} whole numbers",
                                                  sides=sides)) <= 36 for n in scopas):
        raise RuleViolation(say("scopas must list {sides} counts, one per side, each from 0 to 36", sides=sides))
    result["scopas"] = scopas
    order = play_order(rules, dealer, face_up)
    why = (why_not_scopas(scopas, order, face_up > 0) or why_not_cards(scopas, result["cards"])
           or why_not_taken(result, order, face_up > 0))
    if why:
        raise RuleViolation(why)
    return result


def result_event(rules, dealer: int, raw: Mapping, face_up: int) -> Event:
    return Event("result", {"dealer": dealer, "result": result_data(rules, dealer, raw, face_up)})


def play_order(rules, dealer: int, face_up: int) -> tuple[int, ...]:
    """The side that makes each play of a hand, in order: the seat after the dealer first."""
    n = rules.players
    return tuple(rules.side_of((dealer + 1 + i) % n) for i in range(PACK_SIZE - face_up))


def scopas_possible(scopas: Sequence[int], order: Sequence[int], first_can_sweep: bool) -> bool:
    """Can the plays, made by the sides in ``order``, hold these scopas per side? Some set
    of plays, none the last, no two in a row (and not the first when the table starts
    empty), gives each side its count."""
    if sum(scopas) > (len(order) + 1) // 2:
        return False
    return _fits(tuple(order), first_can_sweep, 0, False, tuple(scopas))


@lru_cache(maxsize=4096)
def _fits(order: tuple[int, ...], first_can_sweep: bool, at: int, swept_before: bool, need: tuple[int, ...]) -> bool:
    if not any(need):
        return True
    if at >= len(order) - 1:  # the last play is never a scopa
        return False
    side = order[at]
    may_sweep = not swept_before and (at > 0 or first_can_sweep) and need[side] > 0
    if may_sweep:
        taken = need[:side] + (need[side] - 1,) + need[side + 1:]
        if _fits(order, first_can_sweep, at + 1, True, taken):
            return True
    return _fits(order, first_can_sweep, at + 1, False, need)


def why_not_scopas(scopas: Sequence[int], order: Sequence[int], first_can_sweep: bool) -> str | None:
    if scopas_possible(scopas, order, first_can_sweep):
        return None
    sides = len(scopas)
    alone = [max(n for n in range(37) if scopas_possible(_only(s, n, sides), order, first_can_sweep))
             for s in range(sides)]
    return (say("scopas {scopas} cannot happen in a hand of {plays:d} plays: a scopa clears the table, so the "
                "play after it takes nothing, and the last play never is one; side by side the most each can make is "
                "{alone}, and all together {most}",
                scopas=list(scopas), plays=len(order), alone=alone,
                most=(len(order) - (0 if first_can_sweep else 1)) // 2))


def empty_handed(scopas: Sequence[int], order: Sequence[int], first_can_sweep: bool) -> list[int]:
    """The sides that cannot have taken a single card: none of their own scopas, and every
    way of placing everybody's scopas leaves the table empty at each of their plays (each
    comes straight after a scopa, or first onto a table dealt empty)."""
    key = (tuple(order), first_can_sweep, tuple(scopas))
    return [side for side, made in enumerate(scopas)
            if not made and not _chance(*key, 0, False, side, False)]


@lru_cache(maxsize=4096)
def _chance(order: tuple[int, ...], first_can_sweep: bool, need: tuple[int, ...], at: int, swept_before: bool,
            side: int, had: bool) -> bool:
    """Can the scopas still needed be placed from play ``at`` on so that ``side`` plays
    onto a table with cards at least once (``had``: it already did)?"""
    if at == len(order):
        return had and not any(need)
    if sum(need) > (len(order) - at) // 2 + 1:
        return False
    mover = order[at]
    cards_on_table = not swept_before and (at > 0 or first_can_sweep)
    had = had or (mover == side and cards_on_table)
    if cards_on_table and at < len(order) - 1 and need[mover]:
        taken = need[:mover] + (need[mover] - 1,) + need[mover + 1:]
        if _chance(order, first_can_sweep, taken, at + 1, True, side, had):
            return True
    return _chance(order, first_can_sweep, need, at + 1, False, side, had)


def why_not_taken(result: Mapping, order: Sequence[int], first_can_sweep: bool) -> str | None:
    """A side that took no card wins no category, and where only one side took cards it
    took every category (nothing can tie)."""
    idle = empty_handed(result["scopas"], order, first_can_sweep)
    if not idle:
        return None
    takers = [s for s in range(len(result["scopas"])) if s not in idle]
    for category in CATEGORIES:
        named = result[category]
        if named in idle or (named is None and len(takers) < 2):
            held = say("side {side} took every card",
                       side=takers[0]) if len(takers) == 1 else say("they took no card")
            return (say("with scopas {result_scopas}, side(s) {idle} only ever played onto an empty "
                        "table (each play straight after a scopa), so {held}: {category} cannot be "
                        "{named}",
                        result_scopas=list(result['scopas']), idle=', '.join(map(str, idle)),
                        held=held, category=category,
                        named='a tie' if named is None else f'side {named}'))
    return None


def _only(side: int, count: int, sides: int) -> tuple[int, ...]:
    return tuple(count if s == side else 0 for s in range(sides))


def why_not_cards(scopas: Sequence[int], cards: int | None) -> str | None:
    """Each scopa takes two cards or more: can the side named for cards (or a tie) still
    have taken most of the 40?"""
    least = [2 * n for n in scopas]
    if cards_possible(least, cards):
        return None
    if cards is None:
        return say("with scopas {scopas} (two cards or more each) the cards cannot end in a tie",
                   scopas=list(scopas))
    return say("with scopas {scopas} (two cards or more each) side {cards} cannot have taken the most cards",
               scopas=list(scopas), cards=cards)


def cards_possible(least: Sequence[int], winner: int | None, total: int = PACK_SIZE) -> bool:
    """Can sides that took at least ``least`` cards each share ``total`` so that ``winner``
    has the most (or, with None, two or more share the most)?"""
    if sum(least) > total:
        return False
    if winner is not None:
        others = [n for s, n in enumerate(least) if s != winner]
        mine = total - sum(others)
        return mine >= least[winner] and all(mine > n for n in others)
    for top in range(max(least), total + 1):  # the most any side took, shared by two or more
        for a in range(len(least)):
            for b in range(a + 1, len(least)):
                rest = [n for s, n in enumerate(least) if s not in (a, b)]
                if 2 * top + sum(rest) <= total <= 2 * top + top * len(rest):
                    return True
    return False


def result_fields(rules) -> tuple[ResultField, ...]:
    """The score sheet of a Scopa hand: who took each category (a tie for cards, coins and
    primiera), and each side's scopas."""
    return (*(ResultField(c, "side", say("Who took the {c}", c=c), tie=c != "settebello", noun=NOUNS[c])
              for c in CATEGORIES),
            ResultField("scopas", "per-side", say("Scopas made by"), high=36, default="0"))


# The categories as the log's sentences name them (primiera and settebello are Scopa's own words).
NOUNS = {"cards": say("cards"), "coins": say("coins"), "primiera": "primiera", "settebello": "settebello"}
