"""Bisca in words: each event of a hand in a sentence, the usual ways to play it (one per
variant), and its table's rules described."""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine import words
from ..engine.contract import Preset, RuleField
from . import result as bisca_result
from .rules import VARIANTS, parse_rules


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            trump = d["trump"] or say("none, a knock for {get_trump_suit}", get_trump_suit=d.get('trump_suit'))
            return words.dealt(d, who, say("; trump card: {trump}; stock: {stock:d} cards; match before: "
                                           "{match_before}",
                                           trump=trump, stock=len(d['stock']), match_before=d['match_before']))
        case "result":  # named by capixaba's score sheet, which has every field the others have
            sheet = words.sheet_of(bisca_result.result_fields(parse_rules({"variant": "capixaba"})))
            return words.result(d, who, sheet, "Bisca")
        case "bid":
            return say("{words_call_d_who}, giving {gives} for the trump card {takes}",
                       words_call_d_who=words.call(d, who), gives=d['gives'], takes=d['takes'])
        case "trick":
            text = words.trick(d, who)
            if d.get("draws"):
                text += say("; then they draw: {draws}",
                            draws=", ".join(f"{who(s)} {c}" for s, c in d["draws"]))
            for b in d.get("bonuses", []):
                text += say("; {b_name}: side {b_side} scores {b_points:d} ({b_rule})",
                            b_name=b['name'], b_side=b['side'], b_points=b['points'], b_rule=b['rule'])
            return text
    return words.any_event(kind, d, who)


PRESETS = (
    Preset(say("Bisca de tres"), {"variant": "tres"}, 2,
           say("Two players, three cards each, no duty to follow; 61 card points win a game point; the first to 4 "
               "wins the match.")),
    Preset(say("Bisca de nove"), {"variant": "nove"}, 2,
           say("Two players, nine cards each; once the stock is gone a trump lead must be answered with a trump; big "
               "wins score more.")),
    Preset(say("Bisca de quatro"), {"variant": "quatro"}, 4,
           say("Four players in pairs, three cards each; 91 points or every trick score more.")),
    Preset(say("Bisca capixaba"), {"variant": "capixaba"}, 4,
           say("Four in pairs; the cutter may knock for hearts, which double everything; the ace and seven of trumps "
               "in one trick score at once.")),
    Preset(say("Bisca de seis"), {"variant": "seis"}, 6, say("Six players in two teams of three, without the 2s.")),
)
RULE_FIELDS = (
    RuleField("variant", "tres (2 players, 3 cards), nove (2 players, 9 cards), quatro (4 in pairs), capixaba (4 in "
                         "pairs, the Espírito Santo game with rela bonuses and the knock) or seis (6 in two teams, "
                         "no 2s)", options=tuple(VARIANTS)),
    RuleField("conservative", "seis and quatro only: any win is 1 game point", options=(False, True)),
    RuleField("match_to", "the game points that win a match (4; 10 for the long comb)", low=1, high=50,
              asked=say("Game points that win a match: 4 as a rule, 10 for a long one")),
    RuleField("stake_per", "match: the losers pay the stake when a match ends; game-point: every hand's game points "
                           "are paid at once, the stake per point", options=("match", "game-point"),
              asked=say("What the stake pays"),
              said=(say("The stake once a match, from each loser"),
                    say("The stake for each game point, paid every hand"))),
    RuleField("majority_bonus", "true: the side with more card points (61 or more) also gets 1 game point",
              options=(False, True)),
)
# The settlement's codes as the players say them (the log keeps the codes).
CODES = {"all-120": say("all 120 card points")}
