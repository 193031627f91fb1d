"""Tressette: Italy's trick game of thirds, as ../shared/rules/tressette.md reads it.

Four players in partnerships sitting opposite (0+2 against 1+3), ten cards each, all
dealt; or two players, ten cards each and a stock of twenty, drawn after each trick while
it lasts (the winner first), each drawn card shown to the other player (table rule
``show_draws``). The seat after the dealer leads the first trick; a player must follow the
suit led when able; the highest card of the suit led takes the trick (no trumps), its
winner leads the next. The play is the trick-taking core's; the pack, thirds and rules:
rules.py; declarations: accuse.py; a deal seat by seat: seen.py; scoring and money:
scoring.py; the score sheet: result.py; the words: words.py.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from events.sentences import say

from ..engine.base import Command, Event, TableTerms
from ..engine.call_offers import accepted
from ..engine.cards import check_exact_pack, dealt, dealt_round, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Forms, Game, Moves, Offer, Sight, TableRules, Words
from ..engine.errors import RuleViolation
from ..engine.tricks import Trick
from ..engine.trick_game.hand import cards_shown, outline
from ..engine.trick_game.play import TrickRules
from ..engine.trick_game.stock import DrawTrick, StockHand
from ..engine.units import THIRD
from . import accuse, glossary
from . import result as tressette_result
from . import scoring as tressette_scoring
from . import seen as tressette_seen
from .rules import CARDS, HAND, PACK, TressetteRules, parse_rules, points_of, seat_count, seated_rules
from .words import CODES, PRESETS, RULE_FIELDS, describe


@dataclass(frozen=True)
class TressetteState(StockHand):
    """A Tressette hand: each seat's cards not played yet, the stock (two players), the
    tricks, the trick being played a card at a time, the declarations, and the cards shown
    to the whole table (those declared and, with ``show_draws``, those drawn)."""
    rules: TressetteRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()  # dealt whole: the cards left to draw, top first
    trump_card: str | None = None  # none: Tressette turns no card up (the core's stock reads it)
    pile_left: int | None = None  # dealt seat by seat: cards left to draw, seen or not
    owed: tuple[int, ...] = ()  # dealt seat by seat: the seats that owe the cards they hold
    tricks: tuple[Trick, ...] = ()
    current: tuple[tuple[int, str], ...] = ()
    declared: tuple[Mapping, ...] = ()  # each declaration's bid event: {seat, call, cards, points}
    shown: tuple[str, ...] = ()  # cards shown to every player: declared, or drawn in sight
    result: Mapping | None = None  # a hand logged by its result alone


def _not_in_pack(state, card: str) -> str:
    return say("{card} is not in the {game} pack", card=card, game="tressette")


@dataclass(frozen=True)
class ShownTrick(DrawTrick):
    """A trick of the game for two: the core's, with the draws after it, and ``shown`` when
    those draws are shown to the other player (the rule ``show_draws``): the event then
    says that every card it names is in every reader's sight."""
    shown: bool = False

    def to_data(self) -> dict:
        return {**super().to_data(), **({"shown": True} if self.shown else {})}

    @classmethod
    def from_data(cls, d: Mapping) -> "ShownTrick":
        t = DrawTrick.from_data(d)
        return cls(t.number, t.leader, t.cards, t.winner, t.points, t.played, draws=t.draws,
                   shown=d.get("shown", False))


def _drawn_in_sight(state, trick: ShownTrick) -> ShownTrick:
    return replace(trick, shown=True) if trick.draws and state.rules.show_draws else trick


PLAYS = {4: TrickRules(CARDS, lambda rules: PACK, _not_in_pack, follow=True),
         2: TrickRules(CARDS, lambda rules: PACK, _not_in_pack, follow=True, stock=True, trick=ShownTrick,
                       scored=_drawn_in_sight)}


def _play(state) -> TrickRules:
    return PLAYS[state.rules.players]


def deals(rules: TressetteRules, deck, dealer: int) -> dict:
    """Ten cards to each seat; with two players the other twenty are the stock, top first."""
    n = rules.players
    deal = {"dealer": dealer, "hands": dealt_round(deck, n, HAND)}
    return deal | ({"stock": list(deck[n * HAND:])} if rules.stock else {})


def _keys(rules: TressetteRules) -> tuple[str, ...]:
    return ("dealer", "hands", "stock") if rules.stock else ("dealer", "hands")


def deal_event(rules: TressetteRules, raw: Mapping) -> Event:
    """A deal: whole (each seat's ten cards and, with two players, the stock), or, naming
    only the dealer, seat by seat (seen.py)."""
    n, keys = rules.players, _keys(rules)
    empty = {"stock": []} if rules.stock else {}
    if isinstance(raw, Mapping) and not raw.get("stock") and not any(raw.get("hands") or [[]]):
        dealer, _ = dealt({"dealer": raw.get("dealer"), "hands": [[]] * n}, ("dealer", "hands"), n, 0, "tressette")
        extra = sorted(set(raw) - set(keys))
        if extra:
            raise RuleViolation(say("a {game} deal has {keys}, not {extra}", game="tressette", keys=", ".join(keys),
                                    extra=", ".join(extra)))
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(n)], **empty})
    dealer, hands = dealt(raw, keys, n, HAND, "tressette")
    stock = parse_cards(raw.get("stock", [])) if rules.stock else []
    check_exact_pack([*hands, stock], PACK, "tressette")
    return Event("deal", {"dealer": dealer, "hands": hands, **({"stock": stock} if rules.stock else {})})


def new_hand(rules: TressetteRules, deal: Mapping) -> TressetteState:
    state = TressetteState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]),
                           tuple(deal.get("stock") or ()))
    return tressette_seen.starting(state) if not any(deal["hands"]) else state


def is_over(state: TressetteState) -> bool:
    return state.result is not None or len(state.tricks) == state.rules.tricks


def legal_cards(state: TressetteState, seat: int, played: tuple = ()) -> list[str]:
    """The seat's cards of the suit led, when it holds any; otherwise (and to lead) any card."""
    return _play(state).legal_cards(state, seat, played)


def decide(state: TressetteState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        return [tressette_seen.decide_cards(state, command.data, PACK)]
    waiting = tressette_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    if command.kind == "bid":
        return [Event("bid", accuse.decide(state, command.data))]
    events = _play(state).decide(state, command)
    if events is None:
        raise RuleViolation(say("tressette hands take cards, tricks, plays and declarations, not {command_kind}s",
                                command_kind=command.kind))
    return events


def evolve(state: TressetteState, event) -> TressetteState:
    match event.type, event.data:
        case "seat_cards", d:
            return tressette_seen.after_cards(state, d)
        case "bid", d:
            return replace(state, declared=(*state.declared, dict(d)), shown=state.shown + tuple(d["cards"]))  # shown
    after = _play(state).evolve(state, event)
    if after is None:
        return state
    if event.type == "trick" and event.data.get("shown"):
        after = replace(after, shown=after.shown + tuple(c for _, c in event.data.get("draws", ())))
    return after


def result_state(rules: TressetteRules, data: Mapping) -> TressetteState:
    return TressetteState(rules, data["dealer"], tuple(() for _ in range(rules.players)), result=data["result"])


def settle(state: TressetteState, table: TableTerms):
    return tressette_scoring.settle(state, table)


def sheet(state: TressetteState) -> dict:
    """The score sheet of a hand played out: thirds and tricks per side, who took the last
    trick (and the declarations' points, with the rule ``accuse``)."""
    score = tressette_scoring.hand_score(state)
    result = {"thirds": score.thirds, "tricks": score.tricks, "last": score.last}
    return result | ({"accuse": score.accuse} if state.rules.accuse else {})


def view(state: TressetteState) -> dict:
    over = is_over(state)
    thirds, taken = state.won()
    declared = [0, 0]
    for d in state.declared:
        declared[state.rules.side_of(d["seat"])] += d["points"]
    shown = cards_shown(state)
    held = {c for h in state.held for c in h} - set(state.on_table)
    return {
        **outline(state, over), "held": shown["held"], "deal": shown["deal"],
        "table_cards": [c for c in state.shown if c in held],  # shown to all, still in a hand
        "declared": [dict(d) for d in state.declared], "unit": THIRD.name,
        "stock_left": state.pile if state.rules.stock else None, "awaiting": list(state.owed),
        "current": shown["current"], "tricks": shown["tricks"],
        "sides": [{"seats": list(seats), "thirds": thirds[i], "points": points_of(thirds[i]) + declared[i],
                   "tricks": taken[i], "declared": declared[i]} for i, seats in enumerate(state.rules.sides)],
        "phase": "done" if over else ("dealing" if tressette_seen.waiting(state) and not state.tricks else "play"),
    }


def visible(state: TressetteState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too), every card shown to the table (declared, or drawn with ``show_draws``)
    and its own hand."""
    own = state.held[seat] if seat is not None and 0 <= seat < len(state.held) else ()
    return frozenset(state.played()).union(state.shown, own)


def calls(state: TressetteState) -> list[str]:
    """The declaration, open while a seat that has not declared has played no card (with
    the rule ``accuse``)."""
    if not state.rules.accuse or is_over(state) or state.result is not None:
        return []
    played = {s for s, _ in state.played_by_seat()}
    declared = {d["seat"] for d in state.declared}
    return [accuse.CALL] if set(range(state.rules.players)) - played - declared else []


def offers(state: TressetteState, seat: int) -> list[Offer]:
    """The fullest declaration the seat's cards make, offered while it may make it."""
    if not calls(state) or not 0 <= seat < len(state.held):
        return []
    cards = accuse.best(state.held[seat])
    if not cards:
        return []
    offer = Offer({"call": accuse.CALL, "cards": cards},
                  say("Declare {what} ({cards}): {points:d} point(s) for your side", what=accuse.said(cards),
                      cards=" ".join(cards), points=accuse.worth(cards)))
    return accepted(decide, state, seat, [offer])


def superseded(state, version: int) -> list[str]:
    """What today's rules refuse in a hand settled under rules ``version``: nothing in Tressette."""
    return []


GAME = Game(
    name="tressette", title="Tressette", capabilities=Capabilities(),
    table=TableRules(target=lambda rules: rules.target, sides=lambda rules: rules.sides),
    parse_rules=parse_rules, seat_count=seat_count, seated_rules=seated_rules, parse_deal=deal_event,
    initial_state=new_hand, decide=decide, evolve=evolve, is_terminal=is_over, settle=settle,
    parse_result=tressette_result.result_event, result_state=result_state, superseded=superseded,
    moves=Moves(turn=lambda state: None if is_over(state) else state.turn, held=lambda state: state.held,
                legal_cards=legal_cards, calls=calls, offers=offers, owed=tressette_seen.owed, deals=deals),
    sight=Sight(pack=lambda rules: PACK, view=view, visible=visible, played=lambda state: state.played()),
    forms=Forms(
        result_fields=tressette_result.result_fields, sheet=sheet, rule_fields=RULE_FIELDS, unit=THIRD,
        deal_fields=(*DEALT, DealField("stock", "cards", "two players: the twenty undealt cards, top first")),
        call_fields=(DealField("cards", "cards", "a declaration's cards (call accuse, with the rule accuse, before "
                                                 "the seat's first card, once per hand): a napoletana, three or four "
                                                 "aces, twos or threes, each the seat's own; worth whole points"),)),
    words=Words(
        describe=describe, presets=PRESETS, glossary=glossary.TERMS, codes=CODES,
        docs={"cards": "each seat logs its ten cards; with two players, after each trick each seat logs the one card "
                       "it drew (shown to the other player with the rule show_draws)"}))
