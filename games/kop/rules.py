"""Kop's table rules (../shared/rules/kop.md): the rankings, the ladder of calls, the rules a
table takes (``KopRules``, read by ``parse_rules``), and the usual ways to play it (the
presets a page opens a table from), each rule described for the API's documentation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from events.sentences import say

from ..engine.base import named_rules
from ..engine.contract import Preset, RuleField
from ..engine.errors import RuleViolation
from ..engine.tricks import Ranking
from . import auction as auc
from . import scoring as kop_scoring
from .turns import PLAYERS, PLAYERS_FIELD, check_players, players_data

RANKINGS = {
    "as-dycha": Ranking(
        "as-dycha",
        trumps=("AH", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"),
        plain={"C": ("AC", "10C"), "S": ("AS", "10S")}),
    "as-trzy-dychy": Ranking(
        "as-trzy-dychy",
        trumps=("AH", "10C", "10S", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"),
        plain={"C": ("AC",), "S": ("AS",)}),
}

LADDER = auc.Ladder(
    contracts=("wesele", "zolo", "zolo-du"),
    doubles=("kontra", "re", "bok", "slup"),
    aliases={"rej": "re", "zolla": "zolo", "zolla-du": "zolo-du"},
    solo=frozenset({"zolo", "zolo-du"}),
)


@dataclass(frozen=True)
class KopRules:
    ranking: str = "as-dycha"
    wesele: str = "highest-jack"  # or "any-jack": the caller names the partner's jack
    max_doubles: int | None = 4  # None: unlimited home play
    wesele_kontra: bool = False
    players: int = PLAYERS  # the seats at the table: 4, or 5 (the dealer sits each hand out)

    game = "kop"
    scoring = kop_scoring

    def to_data(self) -> dict:
        return {"ranking": self.ranking, "wesele": self.wesele,
                "max_doubles": self.max_doubles, "wesele_kontra": self.wesele_kontra, **players_data(self.players)}

    # What the shared auction and play ask of a game's rules:
    @property
    def ladder(self) -> auc.Ladder:
        return LADDER

    def ranking_for(self, contract: str | None) -> Ranking:
        return RANKINGS[self.ranking]

    @property
    def wesele_may_raise(self) -> bool:
        return not self.wesele_kontra  # the variant that lets the caller double its wesele

    def declarer_may_double_first(self, contract: str | None) -> bool:
        return contract == "wesele" and self.wesele_kontra


def parse_rules(raw: Mapping | None) -> KopRules:
    rules = named_rules(KopRules, raw, "kop")
    if not isinstance(rules.ranking, str) or rules.ranking not in RANKINGS:
        raise RuleViolation(say("ranking must be one of {rankings}, not {ranking}",
                                rankings=', '.join(RANKINGS), ranking=repr(rules.ranking)))
    if not isinstance(rules.wesele, str) or rules.wesele not in ("highest-jack", "any-jack"):
        raise RuleViolation(say("wesele must be 'highest-jack' or 'any-jack', not {wesele}",
                                wesele=repr(rules.wesele)))
    md = rules.max_doubles
    if md is not None and (not isinstance(md, int) or isinstance(md, bool) or not 0 <= md <= 16):
        raise RuleViolation(say("max_doubles must be a whole number from 0 to 16, or null for unlimited"))
    if not isinstance(rules.wesele_kontra, bool):
        raise RuleViolation(say("wesele_kontra must be true or false"))
    check_players(rules)
    return rules


PRESETS = (
    Preset("Kop", {}, 4, say("Four players, sixteen cards (A, 10, Q, J); the two who hold the black queens play "
                             "together unless someone calls wesele or zolo; 53 card points win, up to four doubles.")),
    Preset(say("Kop, three tens high"), {"ranking": "as-trzy-dychy"}, 4,
           say("As Kop, but the tens of clubs and spades are trumps too, just below the ace of hearts.")),
    Preset(say("Kop for five"), {"players": 5}, 5,
           say("Five at the table: the dealer sits each hand out and the four others play it as Kop; the deal "
               "passes round all five.")),
)
RULE_FIELDS = (
    RuleField("ranking", "which cards are trumps: as-dycha (AH 10H, the queens and jacks, AD 10D) or as-trzy-dychy "
                         "(10C and 10S trumps too, below AH)", options=tuple(RANKINGS)),
    RuleField("wesele", "who the wesele caller plays with: highest-jack (the holder of the highest jack the caller "
                        "lacks) or any-jack (the caller names a jack: {\"call\": \"wesele\", \"jack\": \"JH\"})",
              options=("highest-jack", "any-jack")),
    RuleField("max_doubles", "how many doubles a contract takes (kontra, re, bok, slup: 4 at tournaments); null for "
                             "unlimited home play", low=0, high=16, nullable=True),
    RuleField("wesele_kontra", "true: the wesele caller may double its own wesele, and then not raise it",
              options=(False, True)),
    PLAYERS_FIELD,
)
