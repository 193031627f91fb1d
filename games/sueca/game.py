"""Sueca: Portugal's partnership trick game, as ../shared/rules/sueca.md reads it.

Four players in two pairs sitting opposite (seats 0+2 against 1+3) play the whole 40-card
pack, ten cards each, with no stock. The trump suit is that of one of the dealer's own
cards, turned face up for everyone and kept by the dealer, who plays it like any other
(table rule ``trump_card``: the last card dealt, or the first). The deal names that card;
it is never sealed, even while the dealer still holds it. The seat after the dealer leads
the first trick, the winner of a trick the next; a player must follow the suit led when
able, else may play anything; the highest trump takes the trick, else the highest card of
the suit led. The match score is the table's (``TableTerms.match``): nothing in a hand can
end a match before its last trick. Scoring and money: scoring.py; the score sheet:
result.py; a deal seat by seat: seen.py.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from events.sentences import say

from ..bisca.game import ORDER, POINTS, points, winner_index  # Bisca's cards, and who takes a trick
from ..engine import one_card, words
from ..engine.base import Command, Event, TableTerms, named_rules
from ..engine.cards import SUIT_NAMES, check_exact_pack, dealt, pack, parse_card, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Game, Preset, RuleField, TableRules
from ..engine.errors import Revealing, RuleViolation, may_not_play
from ..engine.tricks import Trick
from . import glossary
from . import result as sueca_result
from . import scoring as sueca_scoring
from . import seen as sueca_seen

PACK = pack(ORDER)  # Bisca's forty cards, ranks and points
SEATS = 4
HAND = 10  # cards dealt to each seat: the whole pack
TRICKS = len(PACK) // SEATS
SIDES = ((0, 2), (1, 3))
DEAL_KEYS = ("dealer", "hands", "trump")


@dataclass(frozen=True)
class SuecaRules:
    """A Sueca table's rules (each described in ``RULE_FIELDS``)."""
    trump_card: str = "last"  # which of the dealer's cards is turned for trumps: "last" or "first" dealt
    bandeira: str = "points"  # what the 4 games need: all 120 card points ("points"), or every trick too
    match_to: int = 4  # the games that win a match
    stake_per: str = "game"  # "game": each game counted is paid at once; "match": the match won is paid

    game = "sueca"

    def to_data(self) -> dict:
        return {"trump_card": self.trump_card, "bandeira": self.bandeira, "match_to": self.match_to,
                "stake_per": self.stake_per}

    @property
    def players(self) -> int:
        return SEATS

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return SIDES

    def side_of(self, seat: int) -> int:
        return seat % 2


def parse_rules(raw: Mapping | None) -> SuecaRules:
    rules = named_rules(SuecaRules, raw, "sueca")
    if rules.trump_card not in ("last", "first"):
        raise RuleViolation(say("trump_card must be 'last' or 'first': the dealer's card turned up for trumps"))
    if rules.bandeira not in ("points", "tricks"):
        raise RuleViolation(say("bandeira must be 'points' or 'tricks'"))
    if not isinstance(rules.match_to, int) or isinstance(rules.match_to, bool) or not 1 <= rules.match_to <= 10:
        raise RuleViolation(say("match_to must be a whole number of games from 1 to 10"))
    if rules.stake_per not in ("game", "match"):
        raise RuleViolation(say("stake_per must be 'game' or 'match'"))
    return rules


@dataclass(frozen=True)
class SuecaState:
    """A Sueca hand: each seat's cards not played yet (the dealer's with the trump card in
    them), the trump card, the tricks, and the trick being played a card at a time."""
    rules: SuecaRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    trump: str | None  # the dealer's card turned face up; None until it is logged (seat by seat)
    logged: tuple[bool, ...] = (True,) * SEATS  # whose cards are known (dealt whole: everyone's)
    tricks: tuple[Trick, ...] = ()
    current: tuple[tuple[int, str], ...] = ()  # (seat, card) of the trick being played a card at a time
    result: Mapping | None = None  # a hand logged by its result alone

    @property
    def trump_suit(self) -> str | None:
        return self.trump[-1] if self.trump else None

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % SEATS

    @property
    def turn(self) -> int:
        return (self.leader + len(self.current)) % SEATS


def _dealer_alone(raw: Mapping) -> bool:
    """A deal of the dealer alone (its cards come seat by seat): no cards and no trump card."""
    hands = raw.get("hands")
    return raw.get("trump") is None and (hands is None or (isinstance(hands, list) and not any(hands)))


def sheet(state: SuecaState) -> dict:
    """The score sheet of a hand played out: card points and tricks per side (0+2, 1+3)."""
    return {"points": [sum(t.points for t in state.tricks if t.winner in side) for side in SIDES],
            "tricks": [sum(1 for t in state.tricks if t.winner in side) for side in SIDES]}


def deals(rules: SuecaRules, deck, dealer: int) -> dict:
    """Ten cards to each seat; the trump card the dealer's last (or first) card."""
    hands = [list(deck[i * HAND:(i + 1) * HAND]) for i in range(SEATS)]
    return {"dealer": dealer, "hands": hands, "trump": hands[dealer][-1 if rules.trump_card == "last" else 0]}


def deal_event(rules: SuecaRules, raw: Mapping) -> Event:
    """A deal: whole (each seat's ten cards and the trump card, one of the dealer's), or,
    naming only the dealer, seat by seat (seen.py). The dealer's hand may leave out the trump
    card, which the deal names apart: its nine others, as a hand dealt seat by seat may log
    them; the deal event holds its ten, the trump card where the rules deal it."""
    if isinstance(raw, Mapping) and _dealer_alone(raw):
        dealer, _ = dealt({**raw, "hands": [[]] * SEATS}, DEAL_KEYS, SEATS, 0, "sueca")
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(SEATS)], "trump": None})
    dealer, hands = dealt(_completed(rules, raw), DEAL_KEYS, SEATS, HAND, "sueca")
    if raw.get("trump") is None:
        raise RuleViolation(say("a sueca deal names its trump card, one of the dealer's ten: {{\"trump\": \"6S\"}}"))
    trump = parse_card(raw["trump"])
    check_exact_pack(hands, PACK, "sueca")
    if trump not in hands[dealer]:
        raise RuleViolation(say("the trump card {trump} must be one of the dealer's cards, seat {seat}'s",
                                trump=trump, seat=dealer))
    return Event("deal", {"dealer": dealer, "hands": hands, "trump": trump})


def _completed(rules: SuecaRules, raw):
    """The deal with a dealer's hand of nine completed by the trump card it names apart (the
    deal as it came, otherwise: ``dealt`` says what is wrong with it)."""
    if not isinstance(raw, Mapping) or raw.get("trump") is None:
        return raw
    dealer, hands = raw.get("dealer"), raw.get("hands")
    if (not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < SEATS
            or not isinstance(hands, list) or len(hands) != SEATS or not isinstance(hands[dealer], list)
            or len(hands[dealer]) != HAND - 1):
        return raw
    trump, others = parse_card(raw["trump"]), parse_cards(hands[dealer])
    if trump in others:
        return raw
    ten = [*others, trump] if rules.trump_card == "last" else [trump, *others]
    return {**raw, "hands": [ten if seat == dealer else hand for seat, hand in enumerate(hands)]}


def new_hand(rules: SuecaRules, deal: Mapping) -> SuecaState:
    hands = tuple(tuple(h) for h in deal["hands"])
    if not any(hands):
        return SuecaState(rules, deal["dealer"], hands, None, logged=(False,) * SEATS)
    return SuecaState(rules, deal["dealer"], hands, deal["trump"])


def legal_cards(state: SuecaState, seat: int, played: tuple = ()) -> list[str]:
    """The seat's cards of the suit led, when it holds any; otherwise (and to lead) any card."""
    hand = list(state.held[seat])
    if not played:
        return hand
    same = [c for c in hand if c[-1] == played[0][-1]]
    return same or hand


def _must_follow(state: SuecaState, seat: int, trick: tuple) -> str:
    led = trick[0][-1]
    same = [c for c in state.held[seat] if c[-1] == led]
    return say("seat {seat} holds {listing_same} and must follow {suit_name_led}",
               seat=seat, listing_same=" ".join(same), suit_name_led=SUIT_NAMES[led])


def decide(state: SuecaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        return [sueca_seen.decide_cards(state, command.data, PACK)]
    waiting = sueca_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    match command:
        case Command(kind="trick", data=data):
            return [Event("trick", _decide_trick(state, one_card.whole_trick(data, SEATS, state.current)).to_data())]
        case Command(kind="play", data=data):
            return _decide_play(state, data)
    raise RuleViolation(say("sueca hands take cards, tricks and plays, not {command_kind}s: sueca has no calls",
                            command_kind=command.kind))


def in_play(state: SuecaState, whole_trick: bool = False) -> one_card.InPlay:
    """The hand as judging its next card sees it; in a whole trick a card held by another
    seat is said to be (the trick's order is wrong), which tells where it is."""
    played = {c: s for s, c in state.current} | {c: (t.leader + t.cards.index(c)) % SEATS
                                                  for t in state.tricks for c in t.cards}
    trick = tuple(c for _, c in state.current)
    return one_card.InPlay(
        SEATS, state.turn, played, PACK,
        lambda card: say("{card} is not in the {game} pack", card=card, game="sueca"),
        lambda seat: state.held[seat],
        lambda seat, card: None if card in legal_cards(state, seat, trick) else _must_follow(state, seat, trick),
        (lambda seat, card: _held_elsewhere(state, seat, card)) if whole_trick else (lambda seat, card: None))


def _held_elsewhere(state: SuecaState, seat: int, card: str) -> RuleViolation | None:
    owner = next((s for s, h in enumerate(state.held) if card in h), None)
    if owner is None:
        return None
    return Revealing(say("{card} is held by seat {owner}, but this card of the trick is seat {seat}'s to play",
                         card=card, owner=owner, seat=seat), None, may_not_play(card, seat))


def _decide_play(state: SuecaState, data: Mapping) -> list[Event]:
    """One card, by the seat whose turn it is; the trick's event comes with its last card."""
    return one_card.trick_card(in_play(state), data, tuple(c for _, c in state.current),
                               lambda cards: Event("trick", _trick_of(state, cards).to_data()))


def _decide_trick(state: SuecaState, cards: list[str]) -> Trick:
    """A whole trick, leader first, its form checked (``one_card.whole_trick``): each card
    judged as if played alone, in turn."""
    so_far = state
    for card in cards:
        seat, card = one_card.judged(in_play(so_far, whole_trick=True), {"card": card})
        so_far = _after_play(so_far, seat, card)
    return _trick_of(state, cards)


def _trick_of(state: SuecaState, cards: list[str]) -> Trick:
    """The trick of four cards already judged: its winner and card points."""
    leader = state.leader
    winner = (leader + winner_index(cards, state.trump_suit)) % SEATS
    return Trick(len(state.tricks) + 1, leader, tuple(cards), winner, sum(map(points, cards)))


def _after_play(state: SuecaState, seat: int, card: str) -> SuecaState:
    held = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.held))
    return replace(state, held=held, current=(*state.current, (seat, card)))


def evolve(state: SuecaState, event) -> SuecaState:
    match event.type, event.data:
        case "play", d:
            return _after_play(state, d["seat"], d["card"])
        case "trick", d:
            trick = Trick(d["trick"], d["leader"], tuple(d["cards"]), d["winner"], d["points"])
            held = tuple(tuple(c for c in h if c not in trick.cards) for h in state.held)
            return replace(state, held=held, tricks=(*state.tricks, trick), current=())
        case "seat_cards", d:
            return sueca_seen.after_cards(state, d)
    return state


def is_over(state: SuecaState) -> bool:
    return state.result is not None or len(state.tricks) == TRICKS


def result_event(rules: SuecaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its score sheet: card points and tricks per side (result.py)."""
    return sueca_result.result_event(rules, dealer, raw, PACK, POINTS)


def result_state(rules: SuecaRules, data: Mapping) -> SuecaState:
    return SuecaState(rules, data["dealer"], tuple(() for _ in range(SEATS)), None, result=data["result"])


def settle(state: SuecaState, table: TableTerms):
    return sueca_scoring.settle(state, table)


def _played_by_seat(state: SuecaState) -> list[tuple[int, str]]:
    """(seat, card) of every card played so far, in order."""
    return [((t.leader + i) % SEATS, c) for t in state.tricks for i, c in enumerate(t.cards)] + list(state.current)


def played(state: SuecaState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return [c for _, c in _played_by_seat(state)]


def view(state: SuecaState) -> dict:
    over = is_over(state)
    won, taken = [0, 0], [0, 0]
    for t in state.tricks:
        won[state.rules.side_of(t.winner)] += t.points
        taken[state.rules.side_of(t.winner)] += 1
    by_seat = _played_by_seat(state)
    dealing = sueca_seen.waiting(state) is not None
    return {
        "dealer": state.dealer, "rules": state.rules.to_data(),
        "leader": None if over else state.leader, "turn": None if over else state.turn,
        "trump": state.trump, "trump_suit": state.trump_suit, "trump_name": SUIT_NAMES.get(state.trump_suit or ""),
        "trump_seen": state.trump is not None or state.result is not None,
        "held": [list(h) for h in state.held],
        "deal": [[c for s, c in by_seat if s == seat] + list(hand)
                 for seat, hand in enumerate(state.held)],  # each seat's cards this hand: played, then held
        "awaiting": [s for s in range(SEATS) if not state.logged[s]],
        "current": [{"seat": s, "card": c} for s, c in state.current],
        "tricks": [t.to_data() for t in state.tricks],
        "sides": [{"seats": list(seats), "points": won[i], "tricks": taken[i]} for i, seats in enumerate(SIDES)],
        "phase": "done" if over else ("dealing" if dealing else "play"),
    }


def turn(state: SuecaState) -> int | None:
    """The seat to play next (a trick's leader, or the next seat of a trick being played)."""
    return None if is_over(state) else state.turn


def visible(state: SuecaState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too, face up on the table), the trump card (face up from the deal on, though
    the dealer holds it until it plays it) and its own hand."""
    own = state.held[seat] if seat is not None and 0 <= seat < SEATS else ()
    return frozenset(played(state)).union(own, (state.trump,) if state.trump else ())


def superseded(state, version: int) -> list[str]:
    """What today's rules refuse in a hand settled under rules ``version``: nothing in Sueca."""
    return []


def calls(state: SuecaState) -> list[str]:
    """Sueca has no auction and no calls."""
    return []


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            shown = say("; trump card: {trump}, the dealer's", trump=d["trump"]) if d.get("trump") else ""
            return words.dealt(d, who, shown)
        case "result":
            return words.result(d, who, words.sheet_of(sueca_result.result_fields(None)), "Sueca")
        case "trick":
            return words.trick(d, who)
    return words.any_event(kind, d, who)


PRESETS = (
    Preset(say("Sueca"), {}, 4,
           say("Four players in pairs, ten cards each, trumps shown by the dealer's own card; follow suit when you "
               "can. 61 card points win a game, 91 two, all 120 four; the first pair to 4 games wins the match, and "
               "every game is paid as it is won.")),
    Preset(say("Sueca paid by the match"), {"stake_per": "match"}, 4,
           say("The usual sueca, but nothing is paid until a pair wins the match of 4 games: then each loser pays "
               "one stake.")),
    Preset(say("Sueca with the bandeira by tricks"), {"bandeira": "tricks"}, 4,
           say("The four games of a bandeira need every trick as well as all 120 card points; all 120 without every "
               "trick win two.")),
)
RULE_FIELDS = (
    RuleField("trump_card", "which of the dealer's cards is turned face up for trumps: last (the last card dealt to "
                            "the dealer) or first; the deal names that card, which must be one of the dealer's",
              options=("last", "first")),
    RuleField("bandeira", "points: all 120 card points win 4 games; tricks: the 4 games need every trick too, and all "
                          "120 card points without every trick win 2", options=("points", "tricks")),
    RuleField("match_to", "the games that win a match (4); a hand's games beyond what the match needs do not count",
              low=1, high=10),
    RuleField("stake_per", "game: every game a hand counts is paid at once, each player of the losing pair paying "
                           "one stake per game to a player of the winning pair; match: nothing is paid until a match "
                           "is won, then each loser pays one stake",
              options=("game", "match")),
)
GAME = Game(
    name="sueca", title="Sueca", capabilities=Capabilities(),
    table=TableRules(target=lambda rules: rules.match_to, sides=lambda rules: rules.sides),
    parse_rules=parse_rules, seat_count=lambda rules: SEATS, parse_deal=deal_event, initial_state=new_hand,
    decide=decide, evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event,
    result_state=result_state, view=view, turn=turn, legal_cards=legal_cards, calls=calls, describe=describe,
    superseded=superseded, result_fields=sueca_result.result_fields, sheet=sheet, visible=visible, played=played,
    owed=sueca_seen.owed, pack=lambda rules: PACK, deals=deals,
    deal_fields=(*DEALT, DealField("trump", "card", "the dealer's card turned face up for trumps (rule trump_card: "
                                                    "the last dealt, or the first), one of the dealer's ten; it is "
                                                    "never sealed")),
    seen_fields=(DealField("trump", "card", "the trump card turned face up, one of the dealer's own (no seat; the "
                                            "dealer's member)"),),
    docs={"cards": "the dealer's member turns up the trump card, one of the dealer's own, {\"trump\": \"6S\"}; each "
                   "seat logs its ten cards, the dealer all ten or the nine besides the trump card"},
    presets=PRESETS, rule_fields=RULE_FIELDS, glossary=glossary.TERMS)
