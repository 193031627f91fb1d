"""Briscola: Italy's trick game with a stock, as ../shared/rules/briscola.md reads it.

Two players, or four in pairs sitting opposite (0+2 against 1+3), are dealt three cards
each from the Italian 40-card pack; the next card is turned face up as the briscola (its
suit is trump for the hand) and put under the stock, the last card drawn. The deal names
it and the stock, top first, so bitka knows every draw (or, dealt seat by seat, each seat
logs the cards it sees: seen.py). The seat after the dealer leads; any card may be played
(no duty to follow, to trump or to beat); the highest trump takes the trick, else the
highest card of the suit led; the winner draws first, then the others in order of play,
while the stock lasts, and leads the next trick. The play is the trick-taking core's; the
pack and the table's rules: rules.py; the hand, the match and the money: scoring.py; the
score sheet: result.py; the words: words.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import Command, Event, TableTerms
from ..engine.cards import check_exact_pack, dealt, dealt_round, parse_card, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Forms, Game, Moves, Sight, TableRules, Words
from ..engine.errors import RuleViolation
from ..engine.trick_game.play import TrickRules
from ..engine.trick_game.stock import DrawTrick, StockHand, stock_view
from . import demo, glossary
from . import result as briscola_result
from . import scoring as briscola_scoring
from . import seen as briscola_seen
from .rules import CARDS, HAND, PACK, BriscolaRules, parse_rules, seat_count, seated_rules, seating
from .words import PRESETS, RULE_FIELDS, describe

DEAL_KEYS = ("dealer", "hands", "trump", "stock")


@dataclass(frozen=True)
class BriscolaState(StockHand):
    """A Briscola hand: each seat's cards not played yet, the stock (top first, without the
    briscola), the briscola while it lies face up, the tricks and the trick being played a
    card at a time."""
    rules: BriscolaRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    trump_card: str | None  # the briscola, face up under the stock; None once drawn
    trump_suit: str  # "" until the briscola is turned (dealt seat by seat)
    tricks: tuple[DrawTrick, ...] = ()
    result: Mapping | None = None  # a hand logged by its result alone
    cut: str | None = None  # the briscola turned at the deal, seen by everyone for the whole hand
    trump_seen: bool = True  # dealt seat by seat: whether the briscola is logged
    pile_left: int | None = None  # dealt seat by seat: cards left to draw, seen or not
    owed: tuple[int, ...] = ()  # dealt seat by seat: the seats that owe the cards they drew, in drawing order
    current: tuple[tuple[int, str], ...] = ()  # (seat, card) of the trick being played a card at a time


PLAY = TrickRules(CARDS, lambda rules: PACK,
                  lambda state, card: say("{card} is not in the {game} pack", card=card, game=state.rules.game),
                  follow=False, trump=lambda state: state.trump_suit or None, stock=True, trick=DrawTrick)


def deals(rules: BriscolaRules, deck, dealer: int) -> dict:
    """Three cards to each seat, from the one after the dealer; the next card turned face up
    as the briscola, the rest the stock."""
    n = rules.players
    return {"dealer": dealer, "hands": dealt_round(deck, n, HAND, (dealer + 1) % n), "trump": deck[n * HAND],
            "stock": list(deck[n * HAND + 1:])}


def _dealer_alone(raw: Mapping) -> bool:
    """A deal of the dealer alone (its cards come seat by seat): no cards, no briscola, no stock."""
    hands = raw.get("hands")
    return (raw.get("trump") is None and not raw.get("stock")
            and (hands is None or isinstance(hands, list) and all(h == [] for h in hands)))


def deal_event(rules: BriscolaRules, raw: Mapping) -> Event:
    """A deal: whole (hands, the briscola and the stock), or, naming only the dealer, seat by
    seat (seen.py)."""
    n = rules.players
    if isinstance(raw, Mapping) and _dealer_alone(raw):
        dealer, _ = dealt({**raw, "hands": [[]] * n}, DEAL_KEYS, n, 0, rules.game)
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(n)], "trump": None, "stock": []})
    dealer, hands = dealt(raw, DEAL_KEYS, n, HAND, rules.game)
    if raw.get("trump") is None:
        raise RuleViolation(say("a briscola deal names the briscola, the card turned face up under the stock: "
                                "{{\"trump\": \"5C\"}}"))
    trump, stock = parse_card(raw["trump"]), parse_cards(raw.get("stock", []))
    check_exact_pack([*hands, stock, [trump]], PACK, rules.game)
    return Event("deal", {"dealer": dealer, "hands": hands, "trump": trump, "stock": stock})


def new_hand(rules: BriscolaRules, deal: Mapping) -> BriscolaState:
    trump = deal["trump"]
    state = BriscolaState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]), tuple(deal["stock"]),
                          trump, trump[-1] if trump else "", cut=trump)
    return briscola_seen.starting(state) if briscola_seen.is_opened_empty(deal) else state


def legal_cards(state: BriscolaState, seat: int, played: tuple = ()) -> list[str]:
    """Any card the seat holds: there is no duty to follow suit, to trump or to beat."""
    return PLAY.legal_cards(state, seat, played)


def decide(state: BriscolaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        return [briscola_seen.decide_cards(state, command.data)]
    waiting = briscola_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    events = PLAY.decide(state, command)
    if events is None:
        raise RuleViolation(say("{game} hands take cards, tricks and plays, not {command_kind}s: {game} has no calls",
                                game=state.rules.game, command_kind=command.kind))
    return events


def evolve(state: BriscolaState, event) -> BriscolaState:
    if event.type == "seat_cards":
        return briscola_seen.after_cards(state, event.data)
    after = PLAY.evolve(state, event)
    return state if after is None else after


def is_over(state: BriscolaState) -> bool:
    if state.result is not None:
        return True
    return not any(state.held) and state.pile == 0 and state.trump_seen and not state.owed and not state.current


def sheet(state: BriscolaState) -> dict:
    """The score sheet of a hand played out: card points and tricks per side."""
    points, tricks = state.won()
    return {"points": points, "tricks": tricks}


def result_event(rules: BriscolaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its score sheet: card points and tricks per side (result.py)."""
    return briscola_result.result_event(rules, dealer, raw)


def result_state(rules: BriscolaRules, data: Mapping) -> BriscolaState:
    empty = tuple(() for _ in range(rules.players))
    return BriscolaState(rules, data["dealer"], empty, (), None, "", result=data["result"])


def settle(state: BriscolaState, table: TableTerms):
    return briscola_scoring.settle(state, table)


def view(state: BriscolaState) -> dict:
    over = is_over(state)
    won, taken = state.won()
    return {
        **stock_view(state, over),
        "sides": [{"seats": list(s), "points": won[i], "tricks": taken[i]} for i, s in enumerate(state.rules.sides)],
        "phase": "done" if over else ("dealing" if briscola_seen.waiting(state) and not state.tricks else "play"),
    }


def owed(state: BriscolaState) -> dict[str, int]:
    """Dealt seat by seat: the briscola not turned yet, and the cards each seat owes (its
    first three, or the one it drew)."""
    owes = {} if state.trump_seen else {"trump": 1}
    return owes | {str(seat): (1 if state.tricks else HAND) for seat in state.owed}


def played(state: BriscolaState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return state.played()


def visible(state: BriscolaState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too), the briscola turned face up (for the whole hand: everyone saw it, and
    who drew it last), and its own hand."""
    own = state.held[seat] if seat is not None and 0 <= seat < len(state.held) else ()
    return frozenset(played(state)).union(own, (state.cut,) if state.cut else ())


GAME = Game(
    name="briscola", title="Briscola", capabilities=Capabilities(),
    table=TableRules(target=lambda rules: rules.match_to, sides=lambda rules: rules.sides),
    parse_rules=parse_rules, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand, decide=decide,
    evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event, result_state=result_state,
    superseded=lambda state, version: [], seating=seating, seated_rules=seated_rules,
    moves=Moves(turn=lambda state: None if is_over(state) else state.turn, held=lambda state: state.held,
                legal_cards=legal_cards, calls=lambda state: [], owed=owed, deals=deals),
    sight=Sight(pack=lambda rules: PACK, view=view, visible=visible, played=played),
    forms=Forms(
        result_fields=briscola_result.result_fields, sheet=sheet, rule_fields=RULE_FIELDS,
        deal_fields=(*DEALT, DealField("stock", "cards", "the undealt cards, top first, without the briscola"),
                     DealField("trump", "card", "the briscola: the card turned face up under the stock, drawn last")),
        seen_fields=(DealField("trump", "card", "the briscola turned face up (no seat; the dealer's member)"),)),
    words=Words(
        describe=describe, presets=PRESETS, glossary=glossary.TERMS, demo=demo.TABLES,
        docs={"cards": "the dealer's member turns the briscola, {\"trump\": \"5C\"}; each seat logs its first three "
                       "cards, and after each trick the one card it drew, in drawing order (the trick's winner "
                       "first; the last to draw takes the briscola and logs it too)"}))
