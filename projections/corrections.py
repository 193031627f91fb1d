"""Correcting a past hand: its outcome replaced (by a result, or a void), and every later hand
of its table settled again on the table as it now stood before it (doubled rounds and
their queue, game and match scores). The ledger decides a correction
with ``corrected``; replay decides it again from the same events and compares.

A table's history is read from its own events: each hand's events, its settlement, a void,
and the corrections made before (the latest word on each hand stands). A hand that counts as
never played (voided, by the void endpoint or by a correction) takes no place in a
doubled round or a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

from events.errors import RuleBroken
from events.money import format_amount, parse_amount
from events.sentences import say
from events.types import HAND_EVENTS
from games.engine import table as table_decider
from games.engine.base import RULES_VERSION, Command
from games.engine.contract import Game
from games.engine.errors import Incomplete, Malformed, RuleViolation

from .settlements import of_the_game, settled

PLAY = HAND_EVENTS - {"settlement", "hand_voided"}  # what a hand's state is folded from


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
        hand = hands[entry["hand"]]
        hand.settlement = entry["settlement"]
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
              target: str, result: Mapping | None, cards: Mapping | None = None) -> Correction:
    """Hand ``target`` now stands by ``result``, or by its ``cards`` played again (neither:
    voided, never played); every hand after it is settled again on the table as it now
    stands. ``result`` is already checked (the game's parse_result); ``cards`` are checked
    here by the rules, as a new whole hand would be (a RuleBroken names what is wrong)."""
    bok, match = table_decider.NO_BOK, None
    carried = table_decider.carried_at_start(game)  # what the game carries of its own (its spans)
    settlements: dict[str, dict | None] = {}
    reached, before_latest = False, (bok, match, carried)
    for hand in hands:
        before_latest = (bok, match, carried)
        if hand.id == target:
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
            bok, match = table_decider.after_settlement(bok, match, now)
            if game.table.spans:
                carried = table_decider.carried_after(game, rules, carried, now)
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
