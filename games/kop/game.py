"""Kop: the 16-card game of Wielkopolska, as ../shared/rules/kop.md reads it.

Pure functions over frozen values: ``new_hand`` checks a deal, ``decide`` judges a bid or a
trick and returns the events it makes, ``evolve`` folds an event, ``settle`` pays the hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, partial
from typing import Callable, Mapping

from events.sentences import say

from ..engine import call_offers, one_card, seen, words
from ..engine.base import Command, Event, TableTerms
from ..engine.cards import check_exact_pack, dealt
from ..engine.contract import (Capabilities, DealField, DemoTable, Forms, Game, Moves, Preset, RuleField, Sight,
                               TableRules, Term, Words)
from ..engine.errors import Revealing, RuleViolation, may_not_play
from ..engine.tricks import Ranking, Trick, first_unplayable, why_illegal, winner_index
from ..engine.tricks import legal_cards as follow_rules
from . import auction as auc
from . import demo, glossary, throw_in
from . import result as kop_result
from . import scoring as kop_scoring
from .offers import ladder_offers
from .pack import CARD_POINTS, PACK, TRICKS  # the pack, shared with Baśka
from .rules import PRESETS, RANKINGS, RULE_FIELDS, KopRules, parse_rules  # noqa: F401 - kop.RANKINGS, kop.parse_rules
from .turns import PLAYERS, Turns, seated_rules, seating, turns

@dataclass(frozen=True)
class KopState:
    rules: KopRules
    dealer: int
    deal: tuple[tuple[str, ...], ...]
    calls: tuple[auc.Call, ...] = ()
    auction: auc.Auction = auc.Auction()
    tricks: tuple[Trick, ...] = ()
    thrown_in_by: int | None = None  # the seat whose claim ended the hand before its last trick
    current: tuple[tuple[int, str], ...] = ()  # (seat, card) of the trick being played a card at a time

    @cached_property
    def held(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's cards not yet played (worked out when asked: once per trick in replay)."""
        played = {c for _, c in self.current}
        for trick in self.tricks:
            played.update(trick.cards)
        return tuple([tuple([c for c in hand if c not in played]) for hand in self.deal])

    @cached_property
    def turns(self) -> Turns:
        """Who plays this hand, in what order: the four seats, or at five all but the dealer."""
        return turns(self.rules.players, self.dealer)

    @property
    def complete(self) -> bool:
        """Every player's cards are known (dealt whole, or logged seat by seat)."""
        return all(len(self.deal[seat]) == TRICKS for seat in self.turns.order)

    @property
    def turn(self) -> int:
        """The seat to play the next card."""
        return self.turns.at(self.leader, len(self.current))

    @property
    def ranking(self) -> Ranking:
        return self.rules.ranking_for(self.auction.contract)

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.turns.order[0]


def deal_event(rules: KopRules, raw: Mapping) -> Event:
    """Check a deal and return it as the ``deal`` event (cards canonical). Without ``hands``
    the hand is dealt seat by seat: each seat's cards come later, as it sees them."""
    seats = rules.players
    if isinstance(raw, Mapping) and "hands" not in raw:
        dealer, _ = dealt({**raw, "hands": [[]] * seats}, ("dealer", "hands"), seats, 0, rules.game)
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(seats)]})
    dealer, parsed = dealt(raw, ("dealer", "hands"), seats, TRICKS, rules.game, dealer_sits_out=seats > PLAYERS)
    check_exact_pack(parsed, PACK, f"16-card {rules.game} (A, 10, Q, J)")
    return Event("deal", {"dealer": dealer, "hands": parsed})


def seat_count(rules) -> int:
    return rules.players


def new_hand(rules: KopRules, deal: Mapping) -> KopState:
    return KopState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]))


def decide(state: KopState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over: all four tricks are logged"))
    if command.kind in ("cards", "bid", "play", "claim"):
        state.turns.check_plays(command.data.get("seat"))
    if command.kind == "cards":
        return [_decide_cards(state, command.data)]
    if not state.complete:
        waiting = ", ".join(str(s) for s in state.turns.players if len(state.deal[s]) < TRICKS)
        raise RuleViolation(say("the deal is not complete: seat(s) {waiting} have not logged their cards yet",
                                waiting=waiting))
    match command:
        case Command(kind="bid", data=data):
            return [_decide_bid(state, data)]
        case Command(kind="trick", data=data):
            return [_decide_trick(state, one_card.whole_trick(data, PLAYERS, state.current))]
        case Command(kind="play", data=data):
            return _decide_play(state, data)
        case Command(kind="claim", data=data):
            return [throw_in.decide_claim(state, data, evolve)]
    raise RuleViolation(say("{game} hands take cards, bids, tricks, plays and claims (throwing in), not "
                            "{command_kind}",
                            game=state.rules.game, command_kind=command.kind))


def _decide_cards(state: KopState, data: Mapping) -> Event:
    """A seat's own four cards, logged by that seat when it sees them."""
    if "table" in data or "trump" in data:
        raise RuleViolation(say("a {game} hand has no table or trump cards: each seat logs its own four "
                                "as {{\"seat\", \"cards\"}}",
                                game=state.rules.game))
    seat = data.get("seat")
    if isinstance(seat, int) and 0 <= seat < state.rules.players and state.deal[seat]:
        raise RuleViolation(say("seat {seat} has logged its cards already", seat=seat))
    seen_so_far = {c for hand in state.deal for c in hand}
    return Event("seat_cards", seen.seat_cards(data, state.rules.players, TRICKS, PACK, seen_so_far, state.rules.game))


def in_play(state: KopState) -> one_card.InPlay:
    """The hand as judging its next card sees it."""
    at = state.turns.at
    played = {c: s for s, c in state.current} | {c: at(t.leader, i) for t in state.tricks
                                                  for i, c in enumerate(t.cards)}
    trick = tuple(c for _, c in state.current)
    return one_card.InPlay(
        state.rules.players, state.turn, played, PACK,
        lambda card: say("{card} is not in the {game} pack (A, 10, Q, J of each suit)", card=card,
                         game=state.rules.game),
        lambda seat: state.held[seat],
        lambda seat, card: (None if card in follow_rules(state.held[seat], trick, state.ranking)
                            else why_illegal(card, seat, state.held[seat], trick, state.ranking)),
        per_trick=PLAYERS)


def _decide_play(state: KopState, data: Mapping) -> list[Event]:
    """One card, by the seat whose turn it is; the trick's event comes with its last card."""
    return one_card.trick_card(in_play(state), data, tuple(c for _, c in state.current),
                               lambda cards: _trick(state, cards))


def _decide_bid(state: KopState, data: Mapping) -> Event:
    if state.tricks or state.current:
        raise RuleViolation(say("the auction closed when the first card was played"))
    ladder = state.rules.ladder
    call = auc.parse_call(data, ladder, state.rules.players)
    extra = sorted(set(data) - {"seat", "call", "jack"})
    if extra:
        raise RuleViolation(say("a call has seat, call and (for wesele) jack, not {extra}",
                                extra=', '.join(extra)))
    judged = auc.judge_call(state.auction, call, state.deal, ladder, state.rules)
    return Event("bid", judged.to_data())


def _decide_trick(state: KopState, cards: list[str]) -> Event:
    """A whole trick, leader first, its form checked (``one_card.whole_trick``): every card
    judged at once, the first one its seat could not play refused."""
    ranking, held, seats = state.ranking, state.held, state.turns.trick(state.leader)
    hands = [held[seat] for seat in seats]
    i = first_unplayable(cards, hands, ranking)
    if i is None:
        return _trick(state, cards)
    card, seat, hand = cards[i], seats[i], hands[i]
    if card not in hand:
        why, held_elsewhere = _not_held(state, card, seat, i, cards[:i])
        if held_elsewhere:  # it tells where the card is: said otherwise to anyone with a hand hidden
            raise Revealing(why, None, may_not_play(card, seat))
        raise RuleViolation(why)
    raise Revealing(why_illegal(card, seat, hand, cards[:i], ranking), seat, may_not_play(card, seat))


def _trick(state: KopState, cards: list[str]) -> Event:
    """The trick event of four cards already judged: its winner and card points."""
    leader, ranking = state.leader, state.ranking
    winner = state.turns.at(leader, winner_index(cards, ranking))
    points = sum(CARD_POINTS[c[:-1]] for c in cards)
    return Event("trick", Trick(len(state.tricks) + 1, leader, tuple(cards), winner, points).to_data())


def _not_held(state: KopState, card: str, seat: int, index: int, earlier: list[str]) -> tuple[str, bool]:
    """Why ``seat`` cannot play ``card``, which is not in its hand, and whether that says
    who holds it."""
    if card not in PACK:
        return say("{card} is not in the {game} pack (A, 10, Q, J of each suit)",
                   card=card, game=state.rules.game), False
    if card in earlier:
        return say("{card} is played twice in this trick", card=card), False
    for trick in state.tricks:
        if card in trick.cards:
            return say("{card} was already played in trick {trick_number:d}", card=card,
                       trick_number=trick.number), False
    owner = auc.holder(state.held, card)
    return (say("{card} is held by seat {owner}, but card {position} of this trick is seat {seat}'s to play (seat "
                "{leader} leads)",
                card=card, owner=owner, position=index + 1, seat=seat, leader=state.leader)), True


def evolve(state: KopState, event: Event) -> KopState:
    # Built directly, not with dataclasses.replace: replay folds every event of a log. Matched
    # on (type, data): a stored envelope is folded as it is.
    match event.type, event.data:
        case "bid", d:
            call = auc.Call(d["seat"], d["call"], d.get("jack"))  # as the table heard it
            standing = auc.apply_call(state.auction, auc.partnered(call, state.deal), state.rules.ladder)
            return KopState(state.rules, state.dealer, state.deal, (*state.calls, call), standing, state.tricks,
                            state.thrown_in_by, state.current)
        case "trick", d:
            trick = Trick(d["trick"], d["leader"], tuple(d["cards"]), d["winner"], d["points"])
            return KopState(state.rules, state.dealer, state.deal, state.calls, state.auction, (*state.tricks, trick))
        case "play", d:
            return KopState(state.rules, state.dealer, state.deal, state.calls, state.auction, state.tricks,
                            state.thrown_in_by, (*state.current, (d["seat"], d["card"])))
        case "seat_cards", d:
            deal = tuple(tuple(d["cards"]) if s == d["seat"] else hand for s, hand in enumerate(state.deal))
            return KopState(state.rules, state.dealer, deal, state.calls, state.auction, state.tricks)
        case "claim", d:
            counted = tuple(Trick(t["trick"], t["leader"], tuple(t["cards"]), t["winner"], t["points"], played=False)
                            for t in d["tricks"])
            return KopState(state.rules, state.dealer, state.deal, state.calls, state.auction,
                            (*state.tricks, *counted), d["seat"])
    return state


def legal_cards(state: KopState, seat: int, played: tuple[str, ...] = ()) -> list[str]:
    """Cards ``seat`` may play next, given the cards already played to the current trick."""
    return follow_rules(state.held[seat], played, state.ranking)


def is_over(state: KopState) -> bool:
    return len(state.tricks) == TRICKS


def settle(state: KopState, table: TableTerms):
    return kop_scoring.settle(state, table)


def view(state: KopState) -> dict:
    """The hand as clients see it (no settlement: the hand projection adds that). Until every
    seat has logged its cards (a deal seat by seat) the phase is ``dealing`` and who plays
    with whom is not known yet."""
    over = is_over(state)
    teams = kop_scoring.teams(state) if state.complete else None
    phase = "done" if over else ("play" if state.tricks or state.current else
                                 "auction" if state.complete else "dealing")
    points = [0] * state.rules.players
    for t in state.tricks:
        points[t.winner] += t.points
    out = state.turns.out
    return {
        "dealer": state.dealer,
        "rules": state.rules.to_data(),
        "leader": None if over else state.leader,
        "turn": None if over else state.turn,  # the seat to play the next card
        "points": points,
        "deal": [list(h) if h or s in out else [None] * TRICKS for s, h in enumerate(state.deal)],
        "held": [list(h) for h in state.held],
        "awaiting": [s for s in state.turns.players if not state.deal[s]],  # seats whose cards are not logged yet
        "current": [{"seat": s, "card": c} for s, c in state.current],
        "calls": [c.to_data() for c in state.calls],
        "contract": teams.contract if teams else None,
        "declarer": teams.declarer if teams else None,
        "doubles": [c.to_data() for c in state.auction.doubles],
        "sides": [s.to_data() for s in kop_scoring.sides(state, teams)] if teams else [],
        "tricks": [t.to_data() for t in state.tricks],
        "thrown_in_by": state.thrown_in_by,
        "phase": phase,
    }


def result_event(rules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its result alone (result.py)."""
    return kop_result.result_event(ENGINE, rules, dealer, raw)


def result_state(rules, data: Mapping):
    return kop_result.result_state(ENGINE, rules, data)


def superseded(state, version: int) -> list[str]:
    """What in this hand today's rules refuse though rules ``version`` allowed it: nothing
    in Kop."""
    return []


def turn(state: KopState) -> int | None:
    """The seat to play next (a trick's leader, or the next seat of a trick being played)."""
    return None if is_over(state) else state.turn


def played(state: KopState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return [c for t in state.tricks for c in t.cards] + [c for _, c in state.current]


def visible(state: KopState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too, face up on the table) and its own four."""
    own = state.deal[seat] if seat is not None and 0 <= seat < len(state.deal) else ()
    return frozenset(played(state)).union(own)


def team_cards(state: KopState) -> set[str]:
    """The cards whose holders make the sides: the black queens while no contract is called
    (normal or cicha), the jacks that make a wesele's partner; none for a contract played alone."""
    called = state.auction
    if called.contract is None:
        return set(auc.BLACK_QUEENS)
    return auc.partner_cards(called, state.rules.wesele == "any-jack")


def conceal(state: KopState, view: dict, hidden: frozenset[str]) -> dict:
    """The view with each hidden card null; while a card that makes the sides is hidden,
    who plays with whom is not shown either (the contract and declarer of a hand with no
    call; the sides of a wesele until its jack is seen)."""
    shown = seen.mask(view, hidden)
    if hidden & team_cards(state):
        shown["sides"] = []
        if state.auction.contract is None:
            shown["contract"] = shown["declarer"] = None
    return shown


def sheet(state: KopState) -> dict:
    """The score sheet of a hand played out: the contract, who played it, the doubles, and
    the declaring side's card points and tricks (what kop_result.applies asks of it)."""
    t = kop_scoring.teams(state)
    asked = kop_result.applies(t.contract)
    full = {"contract": t.contract, "stare": list(t.stare), "declarer": t.declarer,
            "partner": next((s for s in t.stare if s != t.declarer), None),
            "doubles": [d.seat for d in state.auction.doubles],
            "points": sum(tr.points for tr in state.tricks if tr.winner in t.stare),
            "tricks": sum(1 for tr in state.tricks if tr.winner in t.stare)}
    return {"contract": t.contract, **{k: full[k] for k in asked}}


def deals(rules: KopRules, deck, dealer: int) -> dict:
    """Four cards to each player, in seat order (at five, none to the dealer)."""
    hands: list[list[str]] = [[] for _ in range(rules.players)]
    for i, seat in enumerate(turns(rules.players, dealer).players):
        hands[seat] = list(deck[i * TRICKS:(i + 1) * TRICKS])
    return {"dealer": dealer, "hands": hands}


def owed(state: KopState) -> dict[str, int]:
    """The players that have not logged their four cards yet."""
    return {str(seat): TRICKS for seat in state.turns.players if not state.deal[seat]}


def calls(state: KopState) -> list[str]:
    """Before the first trick, any call of the game's ladder (passes need no logging)."""
    if is_over(state) or state.tricks or state.current:
        return []
    ladder = state.rules.ladder
    return ["pass", *ladder.contracts, *ladder.doubles, ladder.extra_double]


def offers(decide_, state: KopState, seat: int) -> list:
    """The calls ``seat`` may make now that change something, each as ``decide_`` (Kop's or
    Baśka's) would take it."""
    return call_offers.accepted(decide_, state, seat, ladder_offers(state, seat, decide_, evolve))


@cache
def _sheet() -> dict:
    """The score sheet's fields by name (the same in Kop's and Baśka's rules)."""
    return words.sheet_of(kop_result.result_fields(parse_rules(None)))


def describe(kind: str, d: Mapping, who, title: str = "Kop") -> str:
    match kind:
        case "deal":
            return words.dealt(d, who)
        case "result":
            return words.result(d, who, _sheet(), title)
        case "bid":
            return words.call(d, who)
        case "trick":
            return words.trick(d, who)
        case "claim":
            return words.thrown_in(d, who)
    return words.any_event(kind, d, who)


def game(name: str, title: str, rules_of, decide_, settle_, is_over_, view_, superseded_, table: TableRules,
         presets: tuple[Preset, ...] = (), rule_fields: tuple[RuleField, ...] = (),
         terms: tuple[Term, ...] = (), demo: tuple[DemoTable, ...] = (),
         codes: Mapping[str, str] | None = None, notes: Callable[[Mapping], list[str]] | None = None) -> Game:
    """A game on Kop's engine (Kop, and Baśka with its own rules, decisions and money);
    ``codes`` are its log's codes as players say them (Kop's when not given); ``notes``
    what its score table notes beside a hand (``Forms.notes``: none when not given)."""
    engine = kop_result.Engine(new_hand, decide_, evolve)
    return Game(
        name=name, title=title, capabilities=Capabilities(deal_on_page=True, claims=True,
                                  claim_says=say("Throw in: the rest cannot change the result")), table=table,
        parse_rules=rules_of, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand,
        decide=decide_, evolve=evolve, is_terminal=is_over_, settle=settle_,
        parse_result=partial(kop_result.result_event, engine), result_state=partial(kop_result.result_state, engine),
        superseded=superseded_, seating=seating, seated_rules=seated_rules,
        moves=Moves(turn=turn, held=lambda state: state.held, legal_cards=legal_cards, calls=calls,
                    offers=partial(offers, decide_), sitting_out=lambda state: state.turns.out, owed=owed,
                    deals=deals),
        sight=Sight(pack=lambda rules: PACK, view=view_, visible=visible, played=played, conceal=conceal),
        forms=Forms(result_fields=kop_result.result_fields, sheet=sheet, rule_fields=rule_fields,
                    call_fields=CALL_FIELDS, notes=notes or (lambda settlement: [])),
        words=Words(
            describe=partial(describe, title=title), presets=presets, glossary=terms, demo=demo,
            codes=CODES if codes is None else codes,
            docs={"claim": "throwing in: when every legal way to play the remaining tricks settles alike, the hand "
                           "is settled at once (the tricks not played are counted as one such way, marked "
                           "\"played\": false); otherwise a 422 names a card after which it would end otherwise"}))


CALL_FIELDS = (DealField("jack", "card", "wesele with rules.wesele = any-jack: the partner's jack, said aloud. "
                                         "Where the rules choose it (highest-jack), leave it out: bitka works it out "
                                         "from the caller's cards and logs the call without it, since which jack it "
                                         "is tells what the caller holds (a jack sent is checked, and logged as "
                                         "said)",
                         label=say("Wesele: the partner's jack (left empty, the rules choose it)")),)
# The settlement's codes as the players say them (the log keeps the codes).
CODES = {"wyjscie": "wyjście", "bez-wyjscia": say("bez wyjścia"), "bez-bitki": say("bez bitki"), "mlodzi": "młodzi"}


ENGINE = kop_result.Engine(new_hand, decide, evolve)
GAME = game("kop", "Kop", parse_rules, decide, settle, is_over, view, superseded, TableRules(), PRESETS, RULE_FIELDS,
            glossary.TERMS, demo.TABLES)
