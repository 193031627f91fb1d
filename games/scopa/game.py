"""Scopa: the Italian fishing game, as ../shared/rules/scopa.md reads it.

Not a trick game: a play puts one card on the table and captures a card of the same value,
or else a set of cards summing to it. The deal names the table and the stock; later rounds
are dealt by bitka from the stock (3 cards to each seat, starting after the dealer), and
the last capturer sweeps what is left. A play event records what it captured, whether it
was a scopa, and any round dealt or sweep made after it, so the hand replays from its
events alone. The pack and the table's rules: rules.py; what a play captures: capture.py;
calling oneself out: claim.py; scoring and money: scoring.py; the score sheet: result.py;
a deal seat by seat: seen.py; the words: words.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from events.sentences import say

from ..engine import one_card
from ..engine.base import Command, Event, TableTerms
from ..engine.cards import check_exact_pack, dealt, dealt_round, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Forms, Game, Moves, Sight, TableRules, Words
from ..engine.errors import Revealing, RuleViolation, may_not_play
from . import demo, glossary
from . import result as scopa_result
from . import scoring as scopa_scoring
from . import seen as scopa_seen
from .capture import Play, captures, chosen
from .claim import decide_claim
from .rules import DEALS, PACK, ROUND, TARGETS, VALUE, ScopaRules, parse_rules, seat_count, value
from .words import PRESETS, RULE_FIELDS, describe

__all__ = ("PACK", "VALUE", "DEALS", "ROUND", "TARGETS", "ScopaRules", "parse_rules", "seat_count", "value", "Play",
           "captures", "ScopaState", "GAME")


@dataclass(frozen=True)
class ScopaState:
    rules: ScopaRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    table: tuple[str, ...]
    stock: tuple[str, ...]
    captured: tuple[tuple[str, ...], ...]
    scopas: tuple[int, ...]
    plays: tuple[Play, ...] = ()
    last_capturer: int | None = None
    claim: Mapping | None = field(default=None)
    result: Mapping | None = None  # a hand logged by its result alone: the categories' winners
    stock_left: int | None = None  # dealt seat by seat: the stock's cards not seen yet (else: the stock's)
    table_seen: bool = True  # dealt seat by seat: whether the face-up cards are logged
    owed: frozenset[int] = frozenset()  # dealt seat by seat: the seats that owe their cards

    @property
    def turn(self) -> int:
        return (self.dealer + 1 + len(self.plays)) % self.rules.players

    @property
    def remaining(self) -> int:
        """How many cards the stock still holds, seen or not."""
        return len(self.stock) if self.stock_left is None else self.stock_left


def sheet(state: ScopaState) -> dict:
    """The score sheet of a hand played out: which side took each category (None: a tie)
    and each side's scopas."""
    return scopa_scoring.sheet(state)


def deals(rules: ScopaRules, deck, dealer: int) -> dict:
    """The cards each seat holds and those face up, as the table's way of dealing says
    (``DEALS``: three each and four face up; ten each, scientifico; nine each and four face
    up, scopone); the rest is the stock."""
    n = rules.players
    size, face_up = DEALS[rules.deal]
    return {"dealer": dealer, "hands": dealt_round(deck, n, size),
            "table": list(deck[n * size:n * size + face_up]), "stock": list(deck[n * size + face_up:])}


def deal_event(rules: ScopaRules, raw: Mapping) -> Event:
    """A deal: whole (hands, table, stock), or, naming only the dealer, seat by seat
    (seen.py)."""
    in_hand, face_up = DEALS[rules.deal]
    if isinstance(raw, Mapping) and set(raw) == {"dealer"}:
        dealer, _ = dealt({"dealer": raw["dealer"], "hands": [[]] * rules.players}, ("dealer", "hands"),
                          rules.players, 0, "scopa")
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(rules.players)], "table": [],
                              "stock": []})
    dealer, parsed = dealt(raw, ("dealer", "hands", "table", "stock"), rules.players, in_hand,
                           say("scopa ({deal})", deal=rules.deal))
    table = parse_cards(raw.get("table", []))
    if len(table) != face_up:
        raise RuleViolation(say("the {deal} deal puts {face_up} cards face up on the table, not {face_up_count:d}",
                                deal=rules.deal, face_up=face_up, face_up_count=len(table)))
    stock = parse_cards(raw.get("stock", []))
    check_exact_pack([*parsed, table, stock], PACK, say("40-card scopa (no 8, 9, 10)"))
    kings = sum(1 for c in table if c[:-1] == "K")
    if kings >= 3:
        raise RuleViolation(say("the table shows {kings} kings: this deal must be redealt", kings=kings))
    return Event("deal", {"dealer": dealer, "hands": parsed, "table": table, "stock": stock})


def new_hand(rules: ScopaRules, deal: Mapping) -> ScopaState:
    n = rules.players
    state = ScopaState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]), tuple(deal["table"]),
                       tuple(deal["stock"]), tuple(() for _ in range(n)), tuple(0 for _ in range(n)))
    if scopa_seen.is_opened_empty(deal):
        return scopa_seen.starting(state, *DEALS[rules.deal])
    return state


def decide(state: ScopaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    match command:
        case Command(kind="cards", data=data):
            return [scopa_seen.decide_cards(state, data, *DEALS[state.rules.deal], PACK)]
        case Command(kind="play", data=data):
            waiting = scopa_seen.waiting(state)
            if waiting:
                raise RuleViolation(waiting)
            return [Event("play", _decide_play(state, data).to_data())]
        case Command(kind="claim", data=data):
            return [decide_claim(state, data)]
    raise RuleViolation(say("scopa hands take plays and claims, not {command_kind}s", command_kind=command.kind))


def in_play(state: ScopaState) -> one_card.InPlay:
    """The hand as judging its next card sees it: any card held may be played."""
    def not_held(seat: int, card: str) -> RuleViolation:
        if card in state.table or any(card in taken for taken in state.captured):
            return RuleViolation(say("{card} is on the table or captured: seat {seat} does not hold it",
                                     card=card, seat=seat))
        return Revealing(_not_held(state, card, seat), None, may_not_play(card, seat))
    return one_card.InPlay(len(state.held), state.turn, {p.card: p.seat for p in state.plays}, PACK,
                           lambda card: say("{card} is not in the scopa pack (no 8, 9, 10)", card=card),
                           lambda seat: state.held[seat], not_held=not_held)


def _decide_play(state: ScopaState, data: Mapping) -> Play:
    extra = sorted(set(data) - {"seat", "card", "capture"})
    if extra:
        raise RuleViolation(say("a play has seat, card and capture, not {extra}", extra=', '.join(extra)))
    seat, card = one_card.judged(in_play(state), data, keys=("seat", "card", "capture"))
    by, options = captures(card, state.table)
    try:
        taken = chosen(card, options, data.get("capture"), by)
    except RuleViolation as e:  # judged only for a card held: said as for one not held to who may not see it
        raise Revealing(e.detail, seat, may_not_play(card, seat), **e.extra) from None
    table = tuple(c for c in state.table if c not in taken) + (() if taken else (card,))
    held = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.held))
    last_play = state.remaining == 0 and not any(held)
    dealt, sweep = (), None
    if not any(held) and state.stock:  # dealt whole: bitka deals the next round from the stock
        dealt = _next_round(state)
    elif last_play:
        capturer = seat if taken else state.last_capturer
        if table and capturer is not None:
            sweep = (capturer, table)
    return Play(seat, card, taken, bool(taken) and not table and not last_play, by, dealt, sweep)


def _not_held(state: ScopaState, card: str, seat: int) -> str:
    """Where a card the seat to play does not hold is, for a reader who may see it."""
    holder = next((s for s, h in enumerate(state.held) if card in h), None)
    if holder is not None:
        return say("{card} is held by seat {holder}, but it is seat {seat}'s turn", card=card, holder=holder, seat=seat)
    return say("{card} is not in seat {seat}'s hand (it is still in the stock, or not seen yet)", card=card, seat=seat)


def _next_round(state: ScopaState) -> tuple[tuple[str, ...], ...]:
    """3 cards to each seat in turn from the top of the stock, starting after the dealer."""
    return tuple(tuple(h) for h in dealt_round(state.stock, state.rules.players, ROUND, state.dealer + 1))


def evolve(state: ScopaState, event) -> ScopaState:
    match event.type, event.data:
        case "claim", d:
            return replace(state, claim=dict(d))
        case "play", d:
            return _played(state, Play.from_data(d))
        case "seat_cards", d:
            return scopa_seen.after_cards(state, d)
    return state


def _played(state: ScopaState, play: Play) -> ScopaState:
    held = tuple(tuple(c for c in h if c != play.card) if s == play.seat else h for s, h in enumerate(state.held))
    table = tuple(c for c in state.table if c not in play.capture) + (() if play.capture else (play.card,))
    captured = list(state.captured)
    last = state.last_capturer
    if play.capture:
        captured[play.seat] = captured[play.seat] + play.capture + (play.card,)
        last = play.seat
    stock = state.stock
    if play.dealt:
        held, stock = play.dealt, stock[sum(map(len, play.dealt)):]
    if play.sweep:
        captured[play.sweep[0]] = captured[play.sweep[0]] + play.sweep[1]
        table = ()
    scopas = tuple(n + (1 if play.scopa and s == play.seat else 0) for s, n in enumerate(state.scopas))
    owed = state.owed
    if state.stock_left is not None and not any(held) and state.stock_left:  # seat by seat: a new round is owed
        owed = frozenset(range(state.rules.players))
    return ScopaState(state.rules, state.dealer, held, table, stock, tuple(captured), scopas,
                      (*state.plays, play), last, state.claim, None, state.stock_left, state.table_seen, owed)


def legal_plays(state: ScopaState) -> list[tuple[str, tuple[str, ...]]]:
    """Every (card, capture) the player to move may play."""
    out = []
    for card in state.held[state.turn]:
        _, options = captures(card, state.table)
        out += [(card, o) for o in options] or [(card, ())]
    return out


def legal_cards(state: ScopaState, seat: int, played: tuple = ()) -> list[str]:
    return list(state.held[seat]) if seat == state.turn else []


def is_over(state: ScopaState) -> bool:
    if state.result is not None or state.claim is not None:
        return True
    return state.remaining == 0 and not any(state.held) and not state.owed and state.table_seen


def result_event(rules: ScopaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its result: who took cards, coins, primiera and the settebello, and
    how many scopas each side made (a side is a seat, or team 0/1 with four players)."""
    return scopa_result.result_event(rules, dealer, raw, DEALS[rules.deal][1])


def result_state(rules: ScopaRules, data: Mapping) -> ScopaState:
    n = rules.players
    empty = tuple(() for _ in range(n))
    return ScopaState(rules, data["dealer"], empty, (), (), empty, (0,) * n, result=data["result"])


def settle(state: ScopaState, table: TableTerms):
    return scopa_scoring.settle(state, table)


def view(state: ScopaState) -> dict:
    over = is_over(state)
    return {
        "dealer": state.dealer,
        "rules": state.rules.to_data(),
        "turn": None if over else state.turn,
        "held": [list(h) for h in state.held],
        "deal": [[p.card for p in state.plays if p.seat == seat] + list(hand) for seat, hand in enumerate(state.held)],
        "table_cards": list(state.table),
        "stock_left": state.remaining,
        "awaiting": sorted(state.owed),  # seats that owe their cards (dealt seat by seat)
        "table_seen": state.table_seen,
        "captured": [len(c) for c in state.captured],
        "scopas": list(state.scopas),
        "plays": [{**p.to_data(), "note": "scopa" if p.scopa else None} for p in state.plays],
        "claim": state.claim,
        "sides": [{"seats": list(seats)} for seats in state.rules.sides],
        "phase": "done" if over else ("dealing" if state.owed or not state.table_seen else "play"),
    }


def owed(state: ScopaState) -> dict[str, int]:
    """Dealt seat by seat: the face-up cards not turned yet, and each seat's cards to log
    (its first hand, or a round of three)."""
    in_hand, face_up = DEALS[state.rules.deal]
    owes = {} if state.table_seen else {"table": face_up}
    return owes | {str(seat): (ROUND if state.plays else in_hand) for seat in sorted(state.owed)}


def played(state: ScopaState) -> list[str]:
    """Every card played so far, in order."""
    return [p.card for p in state.plays]


def visible(state: ScopaState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: the cards face up on the table,
    every card played and every card taken (each was face up when it was taken), and its own
    hand."""
    own = state.held[seat] if seat is not None and 0 <= seat < len(state.held) else ()
    taken = {c for pile in state.captured for c in pile}
    return frozenset(played(state)).union(state.table, taken, own)


def superseded(state, version: int) -> list[str]:
    """What today's rules refuse in a hand settled under rules ``version``: nothing in Scopa."""
    return []


GAME = Game(
    name="scopa", title="Scopa", capabilities=Capabilities(logged_by="plays", claims=True,
                                                    claim_says=say("Call myself out (chiamarsi fuori)")),
    table=TableRules(target=lambda rules: rules.target, sides=lambda rules: rules.sides),
    parse_rules=parse_rules, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand, decide=decide,
    evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event, result_state=result_state,
    superseded=superseded,
    moves=Moves(turn=lambda state: None if is_over(state) else state.turn, held=lambda state: state.held,
                legal_cards=legal_cards, calls=lambda state: [], owed=owed, deals=deals,
                legal_plays=lambda state: [{"card": card, "capture": list(taken)}
                                           for card, taken in legal_plays(state)]),
    sight=Sight(pack=lambda rules: PACK, view=view, visible=visible, played=played),
    forms=Forms(
        result_fields=scopa_result.result_fields, sheet=sheet, rule_fields=RULE_FIELDS,
        deal_fields=(*DEALT, DealField("table", "cards", "the cards dealt face up (empty for scientifico)"),
                     DealField("stock", "cards", "the undealt cards, top first: later rounds are dealt from it")),
        seen_fields=(DealField("table", "cards", "the cards the deal puts face up (no seat; the dealer's member)"),),
        play_fields=(DealField("capture", "cards", "the table cards taken; omitted: the only legal capture (422 "
                                                   "listing them when several)"),)),
    words=Words(
        describe=describe, presets=PRESETS, glossary=glossary.TERMS, demo=demo.TABLES,
        docs={"play": "the player to move puts a card down: {\"card\": \"QD\", \"capture\": [\"4C\", \"5S\"]} "
                      "(capture left out: the only legal one; a 422 lists them when several)",
              "claim": "chiamarsi fuori: a true claim wins the game at once, a false one loses it",
              "cards": "the dealer's member turns the face-up cards, {\"table\": [...]}; each seat logs its first "
                       "cards, and each later round of three once every hand is empty, {\"seat\": 1, \"cards\": "
                       "[...]}"}))
