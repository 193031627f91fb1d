"""Scopa in words: each event of a hand in a sentence, the usual ways to play it, and its
table's rules described."""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine import words
from ..engine.contract import Preset, RuleField
from . import result as scopa_result
from .rules import DEALS, TARGETS


_WHY_CAPTURE = {
    "match": say("a table card of the same value must be taken, before any sum"),
    "sum": say("no table card has its value, so it takes cards summing to it"),
}


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            return words.dealt(d, who, say("; table: {table}; stock: {stock:d} cards",
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
           say("Partners sit opposite (seats 1 and 3 against 2 and 4); three cards each, four face up.")),
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
