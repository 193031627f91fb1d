"""Tressette in words: each event of a hand in a sentence (thirds said as the whole points
they make and the thirds), the usual ways to play it, and its table's rules described."""
from __future__ import annotations

from typing import Mapping

from events.sentences import say

from ..engine import words
from ..engine.contract import Preset, RuleField
from ..engine.units import THIRD
from . import accuse
from . import result as tressette_result
from .rules import TARGETS, TressetteRules


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            stock = say("; {stock:d} cards left in the stock", stock=len(d["stock"])) if d.get("stock") else ""
            return words.dealt(d, who, stock)
        case "result":  # named by the sheet with declarations, which has every field the others have
            sheet = words.sheet_of(tressette_result.result_fields(TressetteRules(accuse=True)))
            return words.result(d, who, sheet, "Tressette")
        case "bid":
            return say("{seat} declares {what} ({cards}): {points:d} point(s) for their side", seat=who(d["seat"]),
                       what=accuse.said(d["cards"]), cards=" ".join(d["cards"]), points=d["points"])
        case "trick":
            text = words.trick(d, who, THIRD)
            if d.get("draws"):
                text += say("; then they draw: {draws}", draws=", ".join(f"{who(s)} {c}" for s, c in d["draws"]))
            return text
    return words.any_event(kind, d, who)


# The log's code of a declaration (the API's call, ``accuse``) as Tressette players say it on a
# page: the accusa (the glossary's word), never the English verb "accuse".
CODES = {"accuse": say("accusa")}

PRESETS = (
    Preset(say("Tressette"), {}, 4,
           say("Four players in pairs, ten cards each, no trumps; follow suit when you can. An ace is a point, each "
               "three, two and face card a third, the last trick a point; the first pair to 21 wins the game.")),
    Preset(say("Tressette for two"), {"players": 2}, 2,
           say("Two players, ten cards each and a stock of twenty: after each trick the winner draws first, and each "
               "card drawn is shown to the other player. 21 points win the game.")),
    Preset(say("Tressette with the accusa"), {"accuse": True}, 4,
           say("The four-handed game with declarations: before their first card a player may declare a napoletana, "
               "or three or four aces, twos or threes, for their side.")),
)
RULE_FIELDS = (
    RuleField("players", "4: two pairs sitting opposite (0+2 against 1+3), ten cards each, all dealt; 2: ten cards "
                         "each and a stock of twenty, drawn after each trick, the winner first", options=(4, 2)),
    RuleField("target", "the points that win a game: 11, 21 or 31; when both sides reach it in the same hand the "
                        "higher total wins, and a tie plays another hand", options=TARGETS,
              asked=say("Points that win a game"), said=(say("11 points"), say("21 points"), say("31 points"))),
    RuleField("accuse", "true: before their first card a player may declare, once per hand, a napoletana (the A, 2 "
                        "and 3 of one suit, 3 points each), three aces, twos or threes (3 points) or all four (4 "
                        "points), as a call {\"seat\", \"call\": \"accuse\", \"cards\"}", options=(False, True)),
    RuleField("stake_per", "game: each player of the losing side pays one stake to a player of the winning side when "
                           "a game is won; point: one stake per point of the margin, when a game is won",
              options=("game", "point")),
    RuleField("show_draws", "two players: true, each card drawn from the stock is shown to the other player (sealed "
                            "from nobody once drawn); false, only its drawer sees it", options=(True, False)),
)
