"""Kop's own words, as its players say them, and what each means (in English here: the
pages say the meaning in the reader's language and the word as it is; ``Term.spoken`` is the
language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("stare",
         say("The two players who hold the queen of clubs and the queen of spades: they play together against the "
             "other two (the “old” ones)."),
         "pl"),
    Term("młodzi",
         say("The other two players, who play against the stare (the “young” ones)."),
         "pl"),
    Term("wesele",
         say("A call by the holder of both black queens: the holder of the highest jack they lack becomes their "
             "partner (the “wedding”)."),
         "pl"),
    Term("cicha",
         say("Holding both black queens and calling nothing: that player plays alone against three, silently."),
         "pl"),
    Term("zolo",
         say("A solo contract: one player against three, winning with 53 card points."),
         "pl"),
    Term("zolo-du",
         say("A solo contract that wins only by taking all four tricks, for twice the money."),
         "pl"),
    Term("kontra, re, bok, slup",
         say("The doubles, in the order they are given: each doubles the payment, but doubles given one after another "
             "by the same side count once."),
         "pl"),
    Term("boki",
         say("52 card points each: the side that gave the last counted double loses, or the stare when nobody "
             "doubled."),
         "pl"),
    Term("wyjście",
         say("The losers took 26 card points or more: they pay the least."),
         "pl"),
    Term("bez wyjścia",
         say("The losers took a trick but 25 card points or fewer: they pay double."),
         "pl"),
    Term("bez bitki",
         say("The losers took no trick at all: they pay three times."),
         "pl"),
)
