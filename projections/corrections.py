"""Correcting a past hand: its outcome replaced (by a result, or a void), and every later hand
of its table settled again on the table as it now stood before it (doubled rounds and
their queue, game and match scores). The ledger decides a correction
with ``corrected``; replay decides it again from the same events and compares.

A table's history is read from its own events: each hand's events, its settlement, a void,
and the corrections made before (the latest word on each hand stands). A hand that counts as
never played (voided, by the void endpoint or by a correction) takes no place in a
doubled round or a game.

A correction records of each hand it settles again only what changes (``recorded``): the
parts of the settlement that differ, each a JSON Pointer (RFC 6901) with its new value
(``changed``), and those it no longer has (``removed``); the whole settlement only where that
is shorter, where the hand had none (``settlement``, null for a hand that now counts as never
played), and for the hand it corrects (what its payers agree to). Moving the end of a game
played to a target by one hand moves every later game of its table, so a correction of hand
1 of 3,000 re-settles them all: recorded whole, that was 2 MB; recorded so, a line or two of
each. Corrections logged before (every settlement whole) read the same (``settlement_after``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

import orjson

from events.errors import RuleBroken
from events.limits import TooMuchToRecord
from events.money import format_amount, parse_amount
from events.sentences import say
from events.types import HAND_EVENTS
from games.engine import table as table_decider
from games.engine.base import RULES_VERSION, Command
from games.engine.contract import Game
from games.engine.errors import Incomplete, Malformed, RuleViolation

from .settlements import of_the_game, settled

PLAY = HAND_EVENTS - {"settlement", "hand_voided"}  # what a hand's state is folded from
CARDS = PLAY - {"deal", "result"}  # what was played after the deal: a hand's outcome is read without them


@dataclass
class PastHand:
    """One hand of a table as its events and the corrections so far leave it."""
    id: str
    opened: dict  # its deal (or result) event's data
    events: list = field(default_factory=list)  # the events its state is folded from, deal first
    settlement: dict | None = None  # what it settles now; None: not settled, or it counts as never played
    voided: bool = False
    result: Mapping | None = None  # the result it now stands by (logged by its result, or corrected to one)
    cards: Mapping | None = None  # the whole hand again, as a correction by its cards gave it
    corrections: list[int] = field(default_factory=list)  # seqs of the corrections that changed it


@dataclass(frozen=True)
class Correction:
    """What a correction decides: each hand's new settlement (None: never played) where it
    changed, the payout differences, and the table's running state after its latest hand
    and before it."""
    settlements: dict[str, dict | None]
    adjustments: list[dict]
    table: dict


def history(envelopes: Iterable) -> list[PastHand]:
    """A table's hands, in the order they were dealt, from its events (corrections included)."""
    hands: dict[str, PastHand] = {}
    for env in envelopes:
        if env.type in ("deal", "result"):
            hand = hands[env.hand] = PastHand(env.hand, dict(env.data))
            if env.type == "result":
                hand.result = env.data["result"]
            else:
                hand.events.append(env)
        elif env.hand not in hands:
            continue
        elif env.type in PLAY:
            hands[env.hand].events.append(env)
        elif env.type == "settlement":
            hands[env.hand].settlement = dict(env.data)
        elif env.type == "hand_voided":
            hands[env.hand].settlement, hands[env.hand].voided = None, True
        elif env.type == "correction":
            _apply(hands, env)
    return list(hands.values())


def _apply(hands: dict[str, PastHand], env) -> None:
    d = env.data
    target = hands[d["hand"]]
    if d.get("void"):
        target.voided, target.result, target.cards = True, None, None
    elif "cards" in d:
        target.voided, target.result, target.cards = False, None, d["cards"]
    else:
        target.voided, target.result, target.cards = False, d["result"], None
    for entry in d["settlements"]:
        hand = hands.get(entry["hand"])
        if hand is None:  # folded from one hand's own events: the others it settled again are not here
            continue
        hand.settlement = settlement_after(entry, hand.settlement)
        hand.corrections.append(env.seq)
    if env.seq not in target.corrections:
        target.corrections.append(env.seq)


def in_play(hands: Sequence[PastHand]) -> PastHand | None:
    """The table's hand still being played, if any."""
    last = hands[-1] if hands else None
    return last if last is not None and last.settlement is None and not last.voided else None


def logged_by_cards(hand: PastHand) -> bool:
    """Was the hand logged card by card (a deal), not by its result alone?"""
    return bool(hand.events)


def corrected(game: Game, rules, stake: int, seats: Sequence[str], digits: int, hands: Sequence[PastHand],
              target: str, result: Mapping | None, cards: Mapping | None = None,
              most: int | None = None) -> Correction:
    """Hand ``target`` now stands by ``result``, or by its ``cards`` played again (neither:
    voided, never played); every hand after it is settled again on the table as it now
    stands, until the table stands as it did (then every later hand settles as it did).
    ``result`` is already checked (the game's parse_result); ``cards`` are checked here by
    the rules, as a new whole hand would be (a RuleBroken names what is wrong). ``most``: how
    many later hands the ledger settles again in one request (past it: TooMuchToRecord)."""
    bok, match = table_decider.NO_BOK, None
    carried = table_decider.carried_at_start(game)  # what the game carries of its own (its spans)
    settlements: dict[str, dict | None] = {}
    reached, before_latest = False, (bok, match, carried)
    was = (bok, match, carried)  # the table as it stood before each hand, without the correction
    for hand in hands:
        before_latest = (bok, match, carried)
        same_table = reached and (bok, match, carried) == was  # from here on, every hand settles as it did
        if hand.settlement is not None:
            was = _after(game, rules, *was, hand.settlement)
        if same_table:
            now = hand.settlement
        elif hand.id == target:
            reached = True
            if cards is not None:
                now = _settle_cards(game, rules, stake, seats, digits, hand, cards, bok, match, carried, RULES_VERSION)
            elif result is not None:
                now = _settle_result(game, rules, stake, seats, digits, hand, result, bok, match, carried,
                                     RULES_VERSION)
            else:
                now = None
        elif not reached or hand.settlement is None:
            now = hand.settlement
        elif most is not None and (most := most - 1) < 0:
            raise _too_many(hands, target)
        elif hand.cards is not None:
            now = _settle_cards(game, rules, stake, seats, digits, hand, hand.cards, bok, match, carried,
                                hand.settlement.get("rules_version", 1))
        elif hand.result is not None:
            now = _settle_result(game, rules, stake, seats, digits, hand, hand.result, bok, match, carried,
                                 hand.settlement.get("rules_version", 1))
        else:
            now = _settle_played(game, rules, stake, seats, digits, hand, bok, match, carried)
        if reached and of_the_game(now) != of_the_game(hand.settlement):
            settlements[hand.id] = now
        if now is not None:
            bok, match, carried = _after(game, rules, bok, match, carried, now)
    adjustments = []
    for hand in hands:
        if hand.id in settlements:
            change = _difference(hand.settlement, settlements[hand.id], seats, digits)
            if change is not None:
                adjustments.append({"hand": hand.id, "payouts": change})
    table = {"bok": bok, "match": match, "latest_before": {"bok": before_latest[0], "match": before_latest[1]}}
    if game.table.spans:
        table["carried"], table["latest_before"]["carried"] = carried, before_latest[2]
    return Correction(settlements, adjustments, table)


def _too_many(hands: Sequence[PastHand], target: str) -> TooMuchToRecord:
    later = len(hands) - next(i for i, hand in enumerate(hands) if hand.id == target) - 1
    return TooMuchToRecord(say("this correction would settle up to {hands} later hands of the table again, more than "
                               "one request may; nothing was recorded. Correct a later hand of the table instead "
                               "(fewer hands follow it), or record the difference as payments between the members",
                               hands=later))


def _after(game: Game, rules, bok, match, carried, settlement: Mapping) -> tuple:
    """The table's running state once a hand settled as ``settlement``."""
    bok, match = table_decider.after_settlement(bok, match, settlement)
    if game.table.spans:
        carried = table_decider.carried_after(game, rules, carried, settlement)
    return bok, match, carried


def _terms(stake: int, seats: Sequence[str], bok, match, carried, version: int):
    return replace(table_decider.terms(stake, tuple(seats), bok, match, carried), rules_version=version)


def _settle_result(game, rules, stake, seats, digits, hand: PastHand, result, bok, match, carried,
                   version: int) -> dict:
    data = {"game": game.name, "rules": rules.to_data(), "dealer": hand.opened["dealer"], "result": result,
            **table_decider.deal_context(game, rules, match)}
    return settled(game, game.result_state(rules, data), _terms(stake, seats, bok, match, carried, version), digits)


def _settle_cards(game, rules, stake, seats, digits, hand: PastHand, cards: Mapping, bok, match, carried,
                  version: int) -> dict:
    """A hand corrected by its cards: the whole hand decided again by the rules from its deal,
    with the table's match score as it stood when it was dealt; it must end."""
    state = _played_again(game, rules, hand.opened["dealer"], cards, table_decider.deal_context(game, rules, match))
    return settled(game, state, _terms(stake, seats, bok, match, carried, version), digits)


def _played_again(game: Game, rules, dealer: int, cards: Mapping, context: Mapping):
    deal = _by_rules(game.parse_deal, "cards.deal", rules, cards.get("deal"))
    given = deal.data["dealer"]
    if given != dealer:
        raise RuleBroken(say("cards.deal: seat {dealer} dealt this hand, not seat {given}",
                             dealer=dealer, given=given), field="cards.deal.dealer")
    state = game.initial_state(rules, {"game": game.name, "rules": rules.to_data(), **deal.data, **context})
    for kind in ("bid", "trick", "play"):
        for i, item in enumerate(cards.get(f"{kind}s") or []):
            where = f"cards.{kind}s[{i}]"
            if game.is_terminal(state):
                raise RuleBroken(say("{where}: the hand is already over", where=where), field=where)
            for event in _by_rules(game.decide, where, state, Command(kind, item)):
                state = game.evolve(state, event)
    if not game.is_terminal(state):
        raise RuleBroken(say("cards: the hand is not over with these cards; a correction gives the whole hand again, "
                             "every call and trick (or play) to its end"), field="cards")
    return state


def as_corrected(game: Game, rules, opened: Mapping, cards: Mapping):
    """The state of a hand corrected by its ``cards`` (what its page and its hand state show,
    as its settlement is the correction's): dealt as the correction gives it, with what the
    hand recorded of its table when it was dealt (``opened``: the match score a deal
    carries), then each call, trick or play in order as far as the rules take it (a later
    correction of an earlier hand may have moved that score, and so where the hand ends).
    None when the rules no longer take its deal: the hand is shown as it was logged."""
    context = {k: opened.get(k, v) for k, v in table_decider.deal_context(game, rules, None).items()}
    try:
        deal = game.parse_deal(rules, cards.get("deal"))
    except (RuleViolation, Incomplete, Malformed):
        return None
    state = game.initial_state(rules, {"game": game.name, "rules": rules.to_data(), **deal.data, **context})
    for kind in ("bid", "trick", "play"):
        for item in cards.get(f"{kind}s") or []:
            if game.is_terminal(state):
                return state
            try:
                events = game.decide(state, Command(kind, item))
            except (RuleViolation, Incomplete, Malformed):
                return state
            for event in events:
                state = game.evolve(state, event)
    return state


def _by_rules(decide, where: str, *args):
    try:
        return decide(*args)
    except (RuleViolation, Incomplete, Malformed) as e:
        raise RuleBroken(f"{where}: {e.detail}", field=where) from None


def _settle_played(game, rules, stake, seats, digits, hand: PastHand, bok, match, carried) -> dict:
    """A hand logged card by card, folded again from its own events with the table's match
    score as it now stood when it was dealt."""
    deal = {**hand.opened, **table_decider.deal_context(game, rules, match)}
    state = game.initial_state(rules, deal)
    played = hand.events[1:]
    for env in played:
        if game.is_terminal(state):
            raise _ends_elsewhere(hand, "sooner")
        state = game.evolve(state, env)
    if not game.is_terminal(state):
        raise _ends_elsewhere(hand, "later")
    return settled(game, state, _terms(stake, seats, bok, match, carried, hand.settlement.get("rules_version", 1)),
                   digits)


def _ends_elsewhere(hand: PastHand, when: str) -> RuleBroken:
    """A hand played card by card that ended with its match (a bonus scored in the middle of a hand) would, on
    the score the correction leaves, have ended {when}: its cards alone cannot settle it."""
    return RuleBroken(say("hand {id} of this table ended where its match did; on the score this correction "
                          "leaves it would have ended {when}, so its cards cannot settle it: correct that hand first "
                          "(its result, or a void), then this one",
                          id=hand.id, when=when))


def _difference(before: dict | None, after: dict | None, seats: Sequence[str], digits: int) -> list[dict] | None:
    """What each seat's payout moves by, or None when nobody's does."""
    old, new = _amounts(before, seats, digits), _amounts(after, seats, digits)
    if old == new:
        return None
    return [{"seat": seat, "member": member, "amount": format_amount(new[seat] - old[seat], digits)}
            for seat, member in enumerate(seats)]


def _amounts(settlement: dict | None, seats: Sequence[str], digits: int) -> list[int]:
    paid = {p["seat"]: parse_amount(p["amount"], digits, allow_negative=True)
            for p in (settlement or {}).get("payouts", [])}
    return [paid.get(seat, 0) for seat in range(len(seats))]


def recorded(decided: Correction, hands: Sequence[PastHand], target: str) -> list[dict]:
    """The correction event's ``settlements``: the hand it corrects whole (what its payers
    agree to), each later hand it settles again as what changes."""
    before = {hand.id: hand.settlement for hand in hands}
    return [compact(hand, before.get(hand), now, whole=hand == target) for hand, now in decided.settlements.items()]


def compact(hand: str, before: dict | None, now: dict | None, whole: bool = False) -> dict:
    """How a correction records that ``hand`` now settles as ``now`` (None: never played)
    where it settled as ``before``: each part that differs, as a JSON Pointer (RFC 6901) and
    its new value (the whole of a part where that is shorter than its parts), or the whole
    settlement where that is shorter still (or asked for)."""
    said = {"hand": hand, "settlement": now}
    if before is None or now is None or whole:
        return said
    changed, removed = _diff(of_the_game(before), now, "")
    patch = {"hand": hand, "changed": changed, **({"removed": removed} if removed else {})}
    return patch if len(orjson.dumps(patch)) < len(orjson.dumps(said)) else said


def settlement_after(entry: Mapping, before: dict | None) -> dict | None:
    """What a hand settles once the correction ``entry`` (one of its ``settlements``) is laid
    over ``before``, what it settled as the correction found it."""
    if "changed" not in entry:
        return entry["settlement"]
    now = dict(of_the_game(before) or {})
    copied: set[int] = set()  # the parts copied already: what ``before`` holds is never changed
    for pointer in entry.get("removed", ()):
        parent, last = _reach(now, pointer, copied)
        parent.pop(last, None)
    for pointer, value in entry["changed"]:
        parent, last = _reach(now, pointer, copied)
        parent[last] = value
    return now


def as_made_today(data: Mapping, hands: Sequence[PastHand]) -> dict:
    """A correction's data with each hand it recorded whole recorded as what changes, as the
    ledger records it today: what a correction logged before compares as (import, replay)."""
    before = {hand.id: hand.settlement for hand in hands}
    again = [e if "changed" in e or e["hand"] == data["hand"] else compact(e["hand"], before.get(e["hand"]),
                                                                          e["settlement"])
             for e in data["settlements"]]
    return {**data, "settlements": again}


def _diff(old, new, at: str) -> tuple[list, list]:
    """The parts of ``new`` that differ from ``old`` under the pointer ``at``, as
    ``[pointer, value]`` pairs, and the pointers of the keys ``new`` no longer has."""
    if _same(old, new):
        return [], []
    changed: list = []
    removed: list = []
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in sorted(new.items()):  # in the order the log keeps keys, whatever order made them
            inner = f"{at}/{_escaped(key)}"
            more = _diff(old[key], value, inner) if key in old else ([[inner, value]], [])
            changed += more[0]
            removed += more[1]
        removed += [f"{at}/{_escaped(key)}" for key in sorted(old) if key not in new]
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            more = _diff(a, b, f"{at}/{i}")
            changed += more[0]
            removed += more[1]
    else:
        return [[at, new]], []
    if at and not removed and len(orjson.dumps(changed)) >= len(orjson.dumps([[at, new]])):
        return [[at, new]], []  # the part whole is as short
    return changed, removed


def _same(a, b) -> bool:
    """Equal as JSON is (True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _escaped(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _reach(settlement: dict, pointer: str, copied: set[int]):
    """The container holding what ``pointer`` names (each container on the way copied once,
    so that the settlement laid over stays as it was), and its key or index there."""
    steps = [step.replace("~1", "/").replace("~0", "~") for step in pointer.split("/")[1:]]
    if not steps:
        raise ValueError("a correction changes a settlement's parts, not the whole by an empty pointer")
    node = settlement
    for step in steps[:-1]:
        at = int(step) if isinstance(node, list) else step
        inner = node[at]
        if id(inner) not in copied:
            inner = node[at] = list(inner) if isinstance(inner, list) else dict(inner)
            copied.add(id(inner))
        node = inner
    return node, int(steps[-1]) if isinstance(node, list) else steps[-1]
