"""Baśka: Kop's Kashubian cousin, as ../shared/rules/baska.md reads it, in two rule sets.

``rules.variant`` is ``bytow-2005`` (the Bytów tournament rules, the default) or
``classic``. The pack, the seats, the deal, the normal ranking, the follow rules and the
auction's machinery are Kop's (games/kop/: game.py, auction.py); Baśka adds gran with its
jacks-only trumps, the du contracts, the four-queens baska (classic), its own double
names, its money (scoring.py), and the tournament's ban on a cicha that
cannot be lost (games/kop/cicha_search.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import Command, Event, TableTerms, named_rules
from ..engine.contract import Preset, RuleField, TableRules
from ..engine.errors import Revealing, RuleViolation
from ..engine.tricks import Ranking
from ..kop import auction as auc
from ..kop import game as kop
from ..kop.cicha_search import cannot_lose

# Baśka deals, folds and follows suit exactly as Kop does:
from ..kop.game import KopState, deal_event, evolve, legal_cards, new_hand, seat_count  # noqa: F401
from ..kop.scoring import teams
from ..kop.turns import PLAYERS, PLAYERS_FIELD, check_players, players_data
from . import demo, glossary
from . import scoring as baska_scoring

VARIANTS = ("bytow-2005", "classic")
QUEENS = ("QC", "QS", "QH", "QD")
GRAN_CONTRACTS = frozenset({"gran", "gran-du"})
GRAN = Ranking("gran", trumps=("JC", "JS", "JH", "JD"),
               plain={suit: (f"A{suit}", f"10{suit}", f"Q{suit}") for suit in ("C", "S", "H", "D")})
_ALIASES = {"zolla": "zolo", "zolla-du": "zolo-du"}
LADDERS = {
    "bytow-2005": auc.Ladder(
        contracts=("wesele", "gran", "zolo", "gran-du", "zolo-du"),
        doubles=("kontra", "rekontra", "hirsch", "bok"), aliases=_ALIASES,
        solo=frozenset({"gran", "zolo", "gran-du", "zolo-du"})),
    "classic": auc.Ladder(
        contracts=("wesele", "gran", "zolo", "gran-du", "zolo-du", "baska"),
        doubles=("kontra", "rekontra", "bok", "hirsch"), aliases=_ALIASES,
        solo=frozenset({"gran", "zolo", "gran-du", "zolo-du", "baska"})),
}


@dataclass(frozen=True)
class BaskaRules:
    variant: str = "bytow-2005"
    players: int = PLAYERS  # the seats at the table: 4, or 5 (the dealer sits each hand out)

    game = "baska"
    scoring = baska_scoring
    wesele = "highest-jack"  # JC, else JS, else JH: the highest jack the caller lacks
    max_doubles = 4
    wesele_may_raise = True

    def to_data(self) -> dict:
        return {"variant": self.variant, **players_data(self.players)}

    @property
    def ladder(self) -> auc.Ladder:
        return LADDERS[self.variant]

    @property
    def bok_rundy(self) -> bool:
        return self.variant == "bytow-2005"

    def ranking_for(self, contract: str | None) -> Ranking:
        return GRAN if contract in GRAN_CONTRACTS else kop.RANKINGS["as-dycha"]

    def declarer_may_double_first(self, contract: str | None) -> bool:
        """A solo player may not give the first double on its own contract; nor, in classic,
        the wesele caller (nobody doubles their own bet). In bytow-2005 the wesele pair
        doubles as starzy ("kontry w obie strony")."""
        return contract == "wesele" and self.variant == "bytow-2005"


def parse_rules(raw: Mapping | None) -> BaskaRules:
    rules = named_rules(BaskaRules, raw, "baska")
    if not isinstance(rules.variant, str) or rules.variant not in VARIANTS:
        raise RuleViolation(say("variant must be one of {variants}, not {variant}",
                                variants=', '.join(VARIANTS), variant=repr(rules.variant)))
    check_players(rules)
    return rules


def decide(state: KopState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over{baska}",
                                baska=say(": baska was called") if state.auction.contract == "baska" else ""))
    if command.kind == "bid":
        [event] = kop.decide(state, command)
        if event.data["call"] == "baska":
            _check_four_queens(state, event.data["seat"])
        return [event]
    if command.kind in ("trick", "play", "claim") and state.complete and not state.tricks and not state.current:
        _check_cicha(state)  # before the hand's first card
    return kop.decide(state, command)


def _check_four_queens(state: KopState, seat: int) -> None:
    lacking = [q for q in QUEENS if q not in state.deal[seat]]
    if lacking:
        raise Revealing(say("only the holder of all four queens may call baska; seat {seat} lacks {lacking}",
                            seat=seat, lacking=' '.join(lacking)),
                        seat, say("seat {seat} may not call baska with its cards", seat=seat))


def _check_cicha(state: KopState) -> None:
    """The tournament rules forbid a cicha that cannot be lost: ask for a call instead."""
    if state.rules.variant != "bytow-2005" or teams(state).contract != "cicha":
        return
    player = auc.black_queens_holder(state.deal)
    if cannot_lose(state.deal, state.leader, player, state.ranking, state.turns):
        raise Revealing(say("seat {player} holds both black queens and a hand that takes 53 against every defence: "
                            "cicha may not be played with it; seat {player} must call wesele or zolo",
                            player=player), player,
                        say("the first card may not be played yet: a seat's cards oblige it to make a call first"))


def is_over(state: KopState) -> bool:
    return len(state.tricks) == 4 or state.auction.contract == "baska"


def settle(state: KopState, table: TableTerms):
    return baska_scoring.settle(state, table)


def view(state: KopState) -> dict:
    shown = kop.view(state)
    if state.auction.contract == "baska":
        shown.update(phase="done", leader=None, turn=None)
    return shown


def result_event(rules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its result alone (Kop's: games/kop/result.py)."""
    return GAME.parse_result(rules, dealer, raw)


def result_state(rules, data: Mapping):
    return GAME.result_state(rules, data)


def superseded(state: KopState, version: int) -> list[str]:
    """What in this hand today's rules refuse though rules ``version`` allowed it: in
    classic, rules 1 let the wesele caller give the first double."""
    a = state.auction
    if (version < 2 and state.rules.variant == "classic" and a.contract == "wesele" and a.doubles
            and a.doubles[0].seat == a.declarer):
        return [say("seat {declarer} called wesele and gave the first double ({double}), which today's "
                    "rules refuse (nobody doubles their own bet)",
                    declarer=a.declarer, double=a.doubles[0].call)]
    return []


PRESETS = (
    Preset(say("Baśka, Bytów tournament rules"), {"variant": "bytow-2005"}, 4,
           say("Kop's cards with gran and zolo, du for all four tricks; any 52-52 or du makes the next four hands "
               "count double (a bok-runda).")),
    Preset(say("Baśka, classic"), {"variant": "classic"}, 4,
           say("Kop's cards with gran and zolo, and baska for the holder of all four queens; no bok-rundy.")),
    Preset(say("Baśka for five, Bytów tournament rules"), {"variant": "bytow-2005", "players": 5}, 5,
           say("Five at the table: the dealer sits each hand out and the four others play it by the Bytów rules; "
               "a bok-runda is still four hands.")),
)
RULE_FIELDS = (
    RuleField("variant", "bytow-2005: the Bytów tournament rules of 2005 (bok-rundy after a 52-52 or a du); classic: "
                         "the older rules, with the baska contract (all four queens) and no bok-rundy",
              options=VARIANTS),
    PLAYERS_FIELD,
)
# Kop's codes, and Baśka's own: its rules' variant and the factors its settlements name.
CODES = {**kop.CODES, "bytow-2005": say("Bytów 2005"), "stare-lose": say("stare lost"),
         "lost-contract": say("lost contract")}
GAME = kop.game("baska", "Baśka", parse_rules, decide, settle, is_over, view, superseded,
                TableRules(bok_rundy=lambda rules: rules.bok_rundy), PRESETS, RULE_FIELDS, glossary.TERMS,
                demo.TABLES, CODES, baska_scoring.notes)
