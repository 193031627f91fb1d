"""Bisca: the Portuguese and Brazilian trick game with a stock, as ../shared/rules/bisca.md
reads it, in every variant of its table (tres, nove, quatro, seis, capixaba).

The deal names the trump card (face up under the stock, drawn last) and the stock, top
first, so bitka knows every draw: after each trick the winner draws first, then the others
in order of play, and a card a player cannot hold is refused. A trick event records the
draws that followed it and, in Capixaba, the rela bonuses it scored. The match score before
the hand travels with the deal, because a Capixaba bonus can end the match mid-hand.
The play is the trick-taking core's (play.py declares it); the pack, the variants and the
table's rules: rules.py; what Capixaba adds (the knock, the swap of the 2): capixaba.py;
scoring and money: scoring.py; the score sheet: result.py; a deal seat by seat: seen.py;
the words: words.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import Command, Event, TableTerms
from ..engine.cards import check_exact_pack, dealt, dealt_round, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Forms, Game, Moves, Sight, TableRules, Words
from ..engine.errors import RuleViolation
from ..engine.trick_game.stock import StockHand, stock_view
from . import capixaba, demo, glossary
from . import result as bisca_result
from . import scoring as bisca_scoring
from . import seen as bisca_seen
from .play import PLAY, Trick
from .rules import CARDS, ORDER, PACKS, POINTS, VARIANTS, BiscaRules, Variant, parse_rules, seat_count, seating
from .words import CODES, PRESETS, RULE_FIELDS, describe

__all__ = ("ORDER", "PACKS", "POINTS", "VARIANTS", "Variant", "Trick", "BiscaState", "parse_rules", "seat_count",
           "seating", "points", "winner_index", "legal_cards", "decide", "evolve", "is_over", "GAME")


def points(card: str) -> int:
    return CARDS.of(card)


def winner_index(cards, trump: str) -> int:
    return CARDS.winner_index(cards, trump)


@dataclass(frozen=True)
class BiscaState(StockHand):
    rules: BiscaRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    trump_card: str | None
    trump_suit: str
    match_before: tuple[int, ...]
    tricks: tuple[Trick, ...] = ()
    swapped: bool = False
    result: Mapping | None = None  # a hand logged by its result alone
    cut: str | None = None  # the card turned face up at the deal, which named the trump suit
    trump_seen: bool = True  # dealt seat by seat: whether the trump card (or the knock) is logged
    pile_left: int | None = None  # dealt seat by seat: cards left to draw, seen or not (else: the draw pile's)
    owed: tuple[int, ...] = ()  # dealt seat by seat: the seats that owe the cards they hold, in drawing order
    current: tuple[tuple[int, str], ...] = ()  # (seat, card) of the trick being played a card at a time

    @property
    def bonus_points(self) -> tuple[int, ...]:
        if self.result is not None:
            return tuple(self.result["bonus"])
        totals = [0] * len(self.rules.sides)
        for t in self.tricks:
            for b in t.bonuses:
                totals[b["side"]] += b["points"]
        return tuple(totals)


def sheet(state: BiscaState) -> dict:
    """The score sheet of a hand played out: card points and tricks per side (and in
    Capixaba the bonuses and whether hearts were trumps)."""
    points, tricks = state.won()
    result = {"points": points, "tricks": tricks}
    if state.rules.variant == "capixaba":
        result |= {"bonus": list(state.bonus_points), "trump_suit": state.trump_suit}
    return result


def deals(rules: BiscaRules, deck, dealer: int) -> dict:
    """Each seat its first cards; the pack's last card turned face up as trumps, the rest
    the stock."""
    n, size = rules.players, rules.hand
    return {"dealer": dealer, "hands": dealt_round(deck, n, size), "trump": deck[-1], "stock": list(deck[n * size:-1])}


def deal_event(rules: BiscaRules, raw: Mapping) -> Event:
    """A deal: whole (hands, trump card, stock), or, naming only the dealer, seat by seat
    (seen.py)."""
    variant = VARIANTS[rules.variant]
    if isinstance(raw, Mapping) and (set(raw) == {"dealer"} or (raw.get("trump") is None and "trump_suit" not in raw
                                                               and not any(raw.get("hands") or [[]])
                                                               and not raw.get("stock"))):
        dealer, _ = dealt({"dealer": raw.get("dealer"), "hands": [[]] * rules.players}, ("dealer", "hands"),
                          rules.players, 0, say("bisca {variant}", variant=rules.variant))
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(rules.players)], "trump": None,
                              "stock": []})
    dealer, parsed = dealt(raw, ("dealer", "hands", "trump", "trump_suit", "stock"), rules.players, variant.hand,
                           say("bisca {variant}", variant=rules.variant))
    trump, suit = capixaba.trump_of(rules, raw)
    stock = parse_cards(raw.get("stock", []))
    check_exact_pack([*parsed, stock, [trump] if trump else []], PACKS[variant.pack],
                     say("{size:d}-card bisca {variant}",
                         size=len(PACKS[variant.pack]), variant=rules.variant))
    data = {"dealer": dealer, "hands": parsed, "trump": trump, "stock": stock}
    if trump is None:
        data["trump_suit"] = suit
    return Event("deal", data)


def new_hand(rules: BiscaRules, deal: Mapping) -> BiscaState:
    match = tuple(deal.get("match_before") or [0] * len(rules.sides))
    trump = deal.get("trump")
    state = BiscaState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]), tuple(deal["stock"]),
                       trump, trump[-1] if trump else deal.get("trump_suit", "H"), match, cut=trump)
    if bisca_seen.is_opened_empty(deal):
        variant = VARIANTS[rules.variant]
        return bisca_seen.starting(state, len(PACKS[variant.pack]), variant.hand)
    return state


def legal_cards(state: BiscaState, seat: int, played: tuple = ()) -> list[str]:
    """Any card, but in nove, once nothing is left to draw, a trump lead must be answered
    with a trump by a player who has one."""
    return PLAY.legal_cards(state, seat, played)


def decide(state: BiscaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        variant = VARIANTS[state.rules.variant]
        return [bisca_seen.decide_cards(state, command.data, PACKS[variant.pack], variant.hand,
                                        capixaba.cut_allowed)]
    waiting = bisca_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    if command.kind == "bid":
        return [capixaba.decide_swap(state, command.data)]
    events = PLAY.decide(state, command)
    if events is None:
        raise RuleViolation(say("bisca hands take cards, tricks, plays (and, in capixaba, the swap-2 call), not "
                                "{command_kind}s",
                                command_kind=command.kind))
    return events


def evolve(state: BiscaState, event) -> BiscaState:
    match event.type, event.data:
        case "bid", {"call": "swap-2"} as d:
            return capixaba.after_swap(state, d)
        case "seat_cards", d:
            return bisca_seen.after_cards(state, d)
    after = PLAY.evolve(state, event)
    return state if after is None else after


def is_over(state: BiscaState) -> bool:
    if state.result is not None:
        return True
    if not any(state.held) and state.pile == 0 and state.trump_seen and not state.owed and not state.current:
        return True
    return bisca_scoring.match_won_by_bonuses(state)


def result_event(rules: BiscaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its result: card points and tricks per side, and (Capixaba) the
    bonuses each side scored and whether hearts were trump (result.py)."""
    return bisca_result.result_event(rules, dealer, raw, PACKS[VARIANTS[rules.variant].pack], POINTS)


def result_state(rules: BiscaRules, data: Mapping) -> BiscaState:
    empty = tuple(() for _ in range(rules.players))
    match = tuple(data.get("match_before") or [0] * len(rules.sides))
    result = data["result"]
    return BiscaState(rules, data["dealer"], empty, (), None, result["trump_suit"] or "-", match, result=result)


def settle(state: BiscaState, table: TableTerms):
    return bisca_scoring.settle(state, table)


def view(state: BiscaState) -> dict:
    over = is_over(state)
    won, _ = state.won()
    return {
        **stock_view(state, over),
        "sides": [{"seats": list(s), "points": won[i]} for i, s in enumerate(state.rules.sides)],
        "bonus_points": list(state.bonus_points), "match_before": list(state.match_before),
        "phase": "done" if over else ("dealing" if bisca_seen.waiting(state) and not state.tricks else "play"),
    }


def owed(state: BiscaState) -> dict[str, int]:
    """Dealt seat by seat: the trump card not turned yet, and the cards each seat owes (its
    first hand, or the one it drew)."""
    first = VARIANTS[state.rules.variant].hand
    owes = {} if state.trump_seen else {"trump": 1}
    return owes | {str(seat): (1 if state.tricks else first) for seat in state.owed}


def played(state: BiscaState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return state.played()


def visible(state: BiscaState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too, face up on the table), the trump card turned face up (and the card cut to
    name the trump suit), and its own hand."""
    face_up = {c for c in (state.trump_card, state.cut) if c}
    own = state.held[seat] if seat is not None and 0 <= seat < len(state.held) else ()
    return frozenset(played(state)).union(face_up, own)


def superseded(state, version: int) -> list[str]:
    """What today's rules refuse in a hand settled under rules ``version``: nothing in Bisca."""
    return []


GAME = Game(
    name="bisca", title="Bisca", capabilities=Capabilities(),
    table=TableRules(target=lambda rules: rules.match_to, sides=lambda rules: rules.sides,
                     carries_match_into_deal=True),
    parse_rules=parse_rules, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand, decide=decide,
    evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event, result_state=result_state,
    superseded=superseded, seating=seating,
    moves=Moves(turn=lambda state: None if is_over(state) else state.turn, held=lambda state: state.held,
                legal_cards=legal_cards, calls=capixaba.calls, owed=owed, deals=deals,
                offers=lambda state, seat: capixaba.offers(decide, state, seat),
                instead_of_turning=capixaba.instead_of_turning),
    sight=Sight(pack=lambda rules: PACKS[VARIANTS[rules.variant].pack], view=view, visible=visible, played=played),
    forms=Forms(
        result_fields=bisca_result.result_fields, sheet=sheet, rule_fields=RULE_FIELDS,
        deal_fields=(*DEALT, DealField("stock", "cards", "the undealt cards, top first"),
                     DealField("trump", "card", "the face-up trump card, drawn last; null for a capixaba knock"),
                     DealField("trump_suit", "suit", "a capixaba knock: \"H\" with \"trump\": null")),
        seen_fields=(DealField("trump", "card", "the face-up trump card (no seat; the dealer's member); null for a "
                                                "capixaba knock"),
                     DealField("trump_suit", "suit", "a capixaba knock: \"H\" with \"trump\": null"))),
    words=Words(
        describe=describe, presets=PRESETS, glossary=glossary.TERMS, demo=demo.TABLES, codes=CODES,
        docs={"cards": "the dealer's member turns the trump card, {\"trump\": \"6S\"} (a capixaba knock: "
                       "{\"trump\": null, \"trump_suit\": \"H\"}); each seat logs its first cards, and after each "
                       "trick the one card it drew, in drawing order (the trick's winner first; the last to draw "
                       "takes the face-up trump card and logs it too)"}))
