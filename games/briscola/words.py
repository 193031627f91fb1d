"""Briscola in words: each event of a hand in a sentence, the usual ways to play it, and its
table's rules described."""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine import words
from ..engine.contract import Preset, RuleField
from . import result as briscola_result
from .rules import MATCH_TO, PLAYERS, STAKE_PER, parse_rules


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            shown = say("; briscola: {trump}; stock: {stock:d} cards", trump=d["trump"],
                        stock=len(d["stock"])) if d.get("trump") else ""
            return words.dealt(d, who, shown)
        case "result":  # the sheet of a table of two, whose fields a table of four shares
            return words.result(d, who, words.sheet_of(briscola_result.result_fields(parse_rules({}))), "Briscola")
        case "trick":
            text = words.trick(d, who)
            if d.get("draws"):
                text += say("; then they draw: {draws}", draws=", ".join(f"{who(s)} {c}" for s, c in d["draws"]))
            return text
    return words.any_event(kind, d, who)


PRESETS = (
    Preset(say("Briscola"), {}, 2,
           say("Two players, three cards each and a card drawn after every trick; no duty to follow suit. 61 card "
               "points win a game, 60-60 nobody; two games of three win the match, and every game is paid as it is "
               "won.")),
    Preset(say("Briscola a quattro"), {"players": 4}, 4,
           say("Four players in pairs sitting opposite, seats 1 and 3 against 2 and 4; otherwise as the game for "
               "two.")),
)
RULE_FIELDS = (
    RuleField("players", "2, or 4 in pairs sitting opposite (0+2 against 1+3); left out, the table's seats decide",
              options=PLAYERS),
    RuleField("match_to", "the games that win a match (2: the best of three); a game won once a match is decided "
                          "starts the next", low=MATCH_TO[0], high=MATCH_TO[-1],
              asked=say("Games that win a match: 2, the best of three")),
    RuleField("stake_per", "game: every game won is paid at once, each player of the losing side paying one stake "
                           "to a player of the winning side; match: nothing is paid until a match is won, then each "
                           "loser pays one stake", options=STAKE_PER,
              asked=say("What the stake pays"),
              said=(say("The stake for each game won, paid at once"), say("The stake once a match, from each loser"))),
)
