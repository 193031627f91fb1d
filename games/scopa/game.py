"""Scopa: the Italian fishing game, as ../shared/rules/scopa.md reads it.

Not a trick game: a play puts one card on the table and captures a card of the same value,
or else a set of cards summing to it. The deal names the table and the stock; later rounds
are dealt by bitka from the stock (3 cards to each seat, starting after the dealer), and
the last capturer sweeps what is left. A play event records what it captured, whether it
was a scopa, and any round dealt or sweep made after it, so the hand replays from its
events alone. Scoring and money: scoring.py; the score sheet: result.py; a deal seat by
seat: seen.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Mapping, Sequence

from events.sentences import say

from ..engine import one_card, words
from ..engine.base import Command, Event, TableTerms, named_rules
from ..engine.cards import check_exact_pack, dealt, pack, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Game, Preset, RuleField, TableRules
from ..engine.errors import Revealing, RuleViolation, may_not_play
from . import demo, glossary
from . import result as scopa_result
from . import scoring as scopa_scoring
from . import seen as scopa_seen

PACK = pack(("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"))
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
DEALS = {  # deal -> (cards in each hand, cards face up on the table)
    "standard": (3, 4), "scopone": (9, 4), "scientifico": (10, 0)}
ROUND = 3  # cards to each seat when every hand is empty and the stock is not
TARGETS = range(11, 62)  # the seed names 11, 16 and 21 "for example", and 31 or 41 in longer games


def value(card: str) -> int:
    return VALUE[card[:-1]]


@dataclass(frozen=True)
class ScopaRules:
    players: int = 2
    deal: str = "standard"
    target: int = 11
    claims: bool = True
    stake_per: str = "game"

    game = "scopa"

    def to_data(self) -> dict:
        return {"players": self.players, "deal": self.deal, "target": self.target, "claims": self.claims,
                "stake_per": self.stake_per}

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together: each player alone, or with four, seats 0+2 against 1+3."""
        return ((0, 2), (1, 3)) if self.players == 4 else tuple((s,) for s in range(self.players))

    def side_of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.sides) if seat in seats)


def parse_rules(raw: Mapping | None) -> ScopaRules:
    rules = named_rules(ScopaRules, raw, "scopa")
    if rules.players not in (2, 3, 4) or isinstance(rules.players, bool):
        raise RuleViolation(say("players must be 2, 3 or 4"))
    if not isinstance(rules.deal, str) or rules.deal not in DEALS:
        raise RuleViolation(say("deal must be one of {deals}", deals=', '.join(DEALS)))
    if rules.deal != "standard" and rules.players != 4:
        raise RuleViolation(say("the {deal} deal is for four players", deal=rules.deal))
    if not isinstance(rules.target, int) or isinstance(rules.target, bool) or rules.target not in TARGETS:
        raise RuleViolation(say("target must be a whole number of points from {lowest} to {highest} (11, 16 and "
                                "21 are usual; 31 or 41 for a longer game), not {target}",
                                lowest=TARGETS[0], highest=TARGETS[-1], target=repr(rules.target)))
    if not isinstance(rules.claims, bool):
        raise RuleViolation(say("claims must be true or false"))
    if rules.stake_per not in ("game", "point"):
        raise RuleViolation(say("stake_per must be 'game' or 'point'"))
    return rules


def seat_count(rules: ScopaRules) -> int:
    return rules.players


@dataclass(frozen=True)
class Play:
    seat: int
    card: str
    capture: tuple[str, ...]
    scopa: bool
    by: str  # "match", "sum" or "none": which rule made the capture the legal one
    dealt: tuple[tuple[str, ...], ...] = ()
    sweep: tuple[int, tuple[str, ...]] | None = None

    def to_data(self) -> dict:
        data = {"seat": self.seat, "card": self.card, "capture": list(self.capture), "scopa": self.scopa,
                "by": self.by}
        if self.dealt:
            data["dealt"] = [list(h) for h in self.dealt]
        if self.sweep:
            data["sweep"] = {"seat": self.sweep[0], "cards": list(self.sweep[1])}
        return data

    @classmethod
    def from_data(cls, d: Mapping) -> "Play":
        sweep = d.get("sweep")
        return cls(d["seat"], d["card"], tuple(d["capture"]), d["scopa"], d["by"],
                   tuple(tuple(h) for h in d.get("dealt", ())),
                   (sweep["seat"], tuple(sweep["cards"])) if sweep else None)


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
    """Three cards to each seat and four face up (ten each and none face up, scientifico);
    the rest is the stock."""
    n = rules.players
    size, face_up = (10, 0) if rules.deal == "scientifico" else (3, 4)
    return {"dealer": dealer, "hands": [list(deck[i * size:(i + 1) * size]) for i in range(n)],
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
        raise RuleViolation(say("the {deal} deal puts {face_up} cards face up on the table, not {face_up_count}",
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


def captures(card: str, table: Sequence[str]) -> tuple[str, list[tuple[str, ...]]]:
    """The captures a card may make, and by which rule: single cards of its value first,
    else every set of two or more summing to it, else none."""
    singles = [(c,) for c in table if value(c) == value(card)]
    if singles:
        return "match", singles
    sums = [combo for size in range(2, len(table) + 1) for combo in combinations(table, size)
            if sum(map(value, combo)) == value(card)]
    return ("sum", sums) if sums else ("none", [])


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
            return [_decide_claim(state, data)]
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
        taken = _chosen(card, options, data.get("capture"), by)
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


def _chosen(card: str, options: list[tuple[str, ...]], raw, by: str) -> tuple[str, ...]:
    """The capture a play takes: the one named (a legal one), or the only legal one. A refusal
    that lists the legal captures carries them as data too (``legal``: one list per capture)."""
    listed = "; ".join("+".join(o) for o in options)
    legal = [list(o) for o in options]
    if raw is None:
        if len(options) > 1:
            raise RuleViolation(say("{card} can capture {listed}: say which in capture",
                                    card=card, listed=listed), legal=legal)
        return options[0] if options else ()
    chosen = parse_cards(raw)
    if not options:
        if chosen:
            raise RuleViolation(say("{card} ({value}) captures nothing: no table card or sum of cards makes "
                                    "{value}",
                                    card=card, value=value(card)))
        return ()
    for option in options:
        if sorted(option) == sorted(chosen):
            return option
    if not chosen:
        raise RuleViolation(say("a card that can capture must capture: {card} can take {listed}",
                                card=card, listed=listed), legal=legal)
    rule = (say("a card matching a single table card must take one such card, never a sum") if by == "match"
            else say("the captured cards must sum to the card's value"))
    raise RuleViolation(say("{card} may capture {listed}, not {chosen}: {rule}",
                            card=card, listed=listed, chosen='+'.join(chosen), rule=rule), legal=legal)


def _not_held(state: ScopaState, card: str, seat: int) -> str:
    """Where a card the seat to play does not hold is, for a reader who may see it."""
    holder = next((s for s, h in enumerate(state.held) if card in h), None)
    if holder is not None:
        return say("{card} is held by seat {holder}, but it is seat {seat}'s turn", card=card, holder=holder, seat=seat)
    return say("{card} is not in seat {seat}'s hand (it is still in the stock, or not seen yet)", card=card, seat=seat)


def _next_round(state: ScopaState) -> tuple[tuple[str, ...], ...]:
    """3 cards to each seat in turn from the top of the stock, starting after the dealer."""
    n, stock = state.rules.players, state.stock
    hands = [()] * n
    for i in range(n):
        seat = (state.dealer + 1 + i) % n
        hands[seat] = tuple(stock[i * ROUND:(i + 1) * ROUND])
    return tuple(hands)


def _decide_claim(state: ScopaState, data: Mapping) -> Event:
    if not state.rules.claims:
        raise RuleViolation(say("this table plays without chiamarsi fuori"))
    extra = sorted(set(data) - {"seat"})
    if extra:
        raise RuleViolation(say("a claim has only seat, not {extra}", extra=', '.join(extra)))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}",
                                last=state.rules.players - 1))
    side = state.rules.side_of(seat)
    certain = scopa_scoring.certain_points(state, side)
    return Event("claim", {"seat": seat, "side": side, "certain": certain, "points": sum(certain.values())})


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


_WHY_CAPTURE = {
    "match": say("a table card of the same value must be taken, before any sum"),
    "sum": say("no table card has its value, so it takes cards summing to it"),
}


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            return words.dealt(d, who, say("; table: {table}; stock: {stock} cards",
                                           table=' '.join(d['table']) or 'empty',
                                           stock=len(d['stock'])))
        case "result":
            return words.result(d, who, words.sheet_of(scopa_result.result_fields(None)), "Scopa")
        case "play":
            return _play_words(d, who)
        case "claim":
            certain = ", ".join(f"{k} {v}" for k, v in sorted(d["certain"].items())) or "nothing"
            return say("{seat} calls itself out (chiamarsi fuori); certain points: {certain}",
                       seat=who(d['seat']), certain=certain)
    return words.any_event(kind, d, who)


def _play_words(d: Mapping, who) -> str:
    if d["capture"] and d["scopa"]:
        text = say("{seat} plays {card} and takes {capture} ({why}): scopa",
                   seat=who(d['seat']), card=d['card'], capture='+'.join(d['capture']),
                   why=_WHY_CAPTURE[d['by']])
    elif d["capture"]:
        text = say("{seat} plays {card} and takes {capture} ({why})",
                   seat=who(d['seat']), card=d['card'], capture='+'.join(d['capture']),
                   why=_WHY_CAPTURE[d['by']])
    else:
        text = say("{seat} plays {card}, which captures nothing, to the table",
                   seat=who(d['seat']), card=d['card'])
    if "dealt" in d:
        text += say("; every hand is empty, so 3 more cards go to each seat from the stock")
    if "sweep" in d:
        text += (say("; the hand is over and {sweep_seat}, the last to capture, takes {sweep_cards} "
                     "(never a scopa)",
                     sweep_seat=who(d['sweep']['seat']), sweep_cards=' '.join(d['sweep']['cards'])))
    return text


PRESETS = (
    Preset(say("Scopa for two"), {"players": 2}, 2,
           say("Forty cards, three each and four face up; take cards by matching or adding up, a sweep is a scopa; the "
               "first to 11 points wins the game.")),
    Preset(say("Scopa for three"), {"players": 3}, 3,
           say("As Scopa for two, each for themselves; the winner takes a stake from each of the others.")),
    Preset(say("Scopa for four, in pairs"), {"players": 4}, 4,
           say("Partners sit opposite (seats 0 and 2 against 1 and 3); three cards each, four face up.")),
    Preset(say("Scopone scientifico"), {"players": 4, "deal": "scientifico"}, 4,
           say("Four in pairs, all forty cards dealt (ten each), nothing face up to start.")),
)
RULE_FIELDS = (
    RuleField("players", "2 or 3 each for themselves, or 4 in pairs (seats 0 and 2 against 1 and 3)",
              options=(2, 3, 4)),
    RuleField("deal", "standard (3 cards each and 4 face up, the rest 3 at a time); with four players also scopone "
                      "(9 each and 4 face up) or scientifico (10 each, nothing face up)", options=tuple(DEALS)),
    RuleField("target", "the game points that win a game (11, 16 and 21 are usual; 31 or 41 for a longer game)",
              low=TARGETS[0], high=TARGETS[-1],
              asked=say("Points that win a game: 11, 16 or 21 as a rule, up to 61")),
    RuleField("claims", "whether a side may call itself out (chiamarsi fuori)", options=(False, True)),
    RuleField("stake_per", "game: the losers pay the stake once a game; point: the stake per point of margin",
              options=("game", "point"), asked=say("What the stake pays"),
              said=(say("The stake once a game, from each loser"),
                    say("The stake for each point the game is won by"))),
)
GAME = Game(
    name="scopa", title="Scopa", capabilities=Capabilities(logged_by="plays", claims=True,
                                                    claim_says=say("Call myself out (chiamarsi fuori)")),
    table=TableRules(target=lambda rules: rules.target, sides=lambda rules: rules.sides),
    parse_rules=parse_rules, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand, decide=decide,
    evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event, result_state=result_state,
    view=view, turn=lambda state: None if is_over(state) else state.turn, legal_cards=legal_cards,
    calls=lambda state: [], describe=describe, superseded=superseded, result_fields=scopa_result.result_fields,
    sheet=sheet,
    legal_plays=lambda state: [{"card": card, "capture": list(taken)} for card, taken in legal_plays(state)],
    visible=visible, played=played, pack=lambda rules: PACK, owed=owed, deals=deals,
    deal_fields=(*DEALT, DealField("table", "cards", "the cards dealt face up (empty for scientifico)"),
                 DealField("stock", "cards", "the undealt cards, top first: later rounds are dealt from it")),
    docs={"play": "the player to move puts a card down: {\"card\": \"QD\", \"capture\": [\"4C\", \"5S\"]} "
                  "(capture left out: the only legal one; a 422 lists them when several)",
          "claim": "chiamarsi fuori: a true claim wins the game at once, a false one loses it",
          "cards": "the dealer's member turns the face-up cards, {\"table\": [...]}; each seat logs its first "
                   "cards, and each later round of three once every hand is empty, {\"seat\": 1, \"cards\": "
                   "[...]}"},
    seen_fields=(DealField("table", "cards", "the cards the deal puts face up (no seat; the dealer's member)"),),
    play_fields=(DealField("capture", "cards", "the table cards taken; omitted: the only legal capture (422 listing "
                                               "them when several)"),),
    presets=PRESETS, rule_fields=RULE_FIELDS, glossary=glossary.TERMS, demo=demo.TABLES)
