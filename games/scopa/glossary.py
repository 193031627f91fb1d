"""Scopa's own words, as its players say them, and what each means (in English here: the
pages say the meaning in the reader's language and the word as it is; ``Term.spoken`` is the
language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("scopa",
         say("A capture that sweeps every card off the table: one point (not on the very last play of the hand)."),
         "it"),
    Term("settebello",
         say("The seven of coins: whoever captures it scores one point."),
         "it"),
    Term("primiera",
         say("Each side's best card in each suit, counted 7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, "
             "figures 10: the highest total scores one point."),
         "it"),
    Term("denari",
         say("Coins, the suit of diamonds here: whoever captures most of them scores one point."),
         "it"),
    Term("carte",
         say("The cards: whoever captures the most scores one point."),
         "it"),
    Term("chiamarsi fuori",
         say("Claiming, during a hand, to have reached the target already: right, that side wins the game at once; "
             "wrong, it loses it at once."),
         "it"),
)
