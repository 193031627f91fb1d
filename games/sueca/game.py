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

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine import words
from ..engine.base import Command, Event, TableTerms, named_rules
from ..engine.cards import SUIT_NAMES, check_exact_pack, dealt, dealt_round, parse_card, parse_cards
from ..engine.contract import (DEALT, Capabilities, DealField, Forms, Game, Moves, Preset, RuleField, Sight, TableRules,
                               Words)
from ..engine.errors import RuleViolation
from ..engine.tricks import Trick
from ..engine.trick_game.hand import TrickHand, cards_shown, outline
from ..engine.trick_game.play import TrickRules
from ..engine.trick_game.values import CardValues
from . import glossary
from . import result as sueca_result
from . import scoring as sueca_scoring
from . import seen as sueca_seen

ORDER = ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")  # high to low in every suit
POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
CARDS = CardValues(ORDER, POINTS)
PACK = CARDS.pack()  # forty cards
SEATS = 4
HAND = 10  # cards dealt to each seat: the whole pack
TRICKS = len(PACK) // SEATS
SIDES = ((0, 2), (1, 3))
DEAL_KEYS = ("dealer", "hands", "trump")


def points(card: str) -> int:
    return CARDS.of(card)


def winner_index(cards, trump: str | None) -> int:
    return CARDS.winner_index(cards, trump)


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
class SuecaState(TrickHand):
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


def _dealer_alone(raw: Mapping) -> bool:
    """A deal of the dealer alone (its cards come seat by seat): no cards and no trump card."""
    hands = raw.get("hands")
    return raw.get("trump") is None and (hands is None or (isinstance(hands, list) and not any(hands)))


def sheet(state: SuecaState) -> dict:
    """The score sheet of a hand played out: card points and tricks per side (0+2, 1+3)."""
    won, taken = state.won()
    return {"points": won, "tricks": taken}


def deals(rules: SuecaRules, deck, dealer: int) -> dict:
    """Ten cards to each seat; the trump card the dealer's last (or first) card."""
    hands = dealt_round(deck, SEATS, HAND)
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


PLAY = TrickRules(CARDS, lambda rules: PACK, lambda state, card: say("{card} is not in the {game} pack", card=card,
                                                                          game="sueca"),
                  follow=True, trump=lambda state: state.trump_suit)


def legal_cards(state: SuecaState, seat: int, played: tuple = ()) -> list[str]:
    """The seat's cards of the suit led, when it holds any; otherwise (and to lead) any card."""
    return PLAY.legal_cards(state, seat, played)


def decide(state: SuecaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        return [sueca_seen.decide_cards(state, command.data, PACK)]
    waiting = sueca_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    events = PLAY.decide(state, command)
    if events is None:
        raise RuleViolation(say("sueca hands take cards, tricks and plays, not {command_kind}s: sueca has no calls",
                                command_kind=command.kind))
    return events


def evolve(state: SuecaState, event) -> SuecaState:
    if event.type == "seat_cards":
        return sueca_seen.after_cards(state, event.data)
    after = PLAY.evolve(state, event)
    return state if after is None else after


def is_over(state: SuecaState) -> bool:
    return state.result is not None or len(state.tricks) == TRICKS


def result_event(rules: SuecaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its score sheet: card points and tricks per side (result.py)."""
    return sueca_result.result_event(rules, dealer, raw, PACK, POINTS)


def result_state(rules: SuecaRules, data: Mapping) -> SuecaState:
    return SuecaState(rules, data["dealer"], tuple(() for _ in range(SEATS)), None, result=data["result"])


def settle(state: SuecaState, table: TableTerms):
    return sueca_scoring.settle(state, table)


def played(state: SuecaState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return state.played()


def view(state: SuecaState) -> dict:
    over = is_over(state)
    won, taken = state.won()
    dealing = sueca_seen.waiting(state) is not None
    shown = cards_shown(state)
    return {
        **outline(state, over),
        "trump": state.trump, "trump_suit": state.trump_suit, "trump_name": SUIT_NAMES.get(state.trump_suit or ""),
        "trump_seen": state.trump is not None or state.result is not None,
        "held": shown["held"], "deal": shown["deal"],  # each seat's cards this hand: played, then held
        "awaiting": [s for s in range(SEATS) if not state.logged[s]],
        "current": shown["current"], "tricks": shown["tricks"],
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
    result_state=result_state, superseded=superseded,
    moves=Moves(turn=turn, held=lambda state: state.held, legal_cards=legal_cards, calls=calls, owed=sueca_seen.owed,
                deals=deals),
    sight=Sight(pack=lambda rules: PACK, view=view, visible=visible, played=played),
    forms=Forms(
        result_fields=sueca_result.result_fields, sheet=sheet, rule_fields=RULE_FIELDS,
        deal_fields=(*DEALT, DealField("trump", "card", "the dealer's card turned face up for trumps (rule "
                                                        "trump_card: the last dealt, or the first), one of the "
                                                        "dealer's ten; it is never sealed")),
        seen_fields=(DealField("trump", "card", "the trump card turned face up, one of the dealer's own (no seat; "
                                                "the dealer's member)"),)),
    words=Words(
        describe=describe, presets=PRESETS, glossary=glossary.TERMS,
        docs={"cards": "the dealer's member turns up the trump card, one of the dealer's own, {\"trump\": \"6S\"}; "
                       "each seat logs its ten cards, the dealer all ten or the nine besides the trump card"}))
