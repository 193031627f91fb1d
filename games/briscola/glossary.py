"""Briscola's own words, as its players say them at an Italian table, and what each means (in
English here: the pages say the meaning in the reader's language and the word as it is;
``Term.spoken`` is the language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("briscola",
         say("The card turned face up under the stock after the deal, and its suit, trumps for the hand; it is "
             "the last card drawn. A trump is called a briscola too."),
         "it"),
    Term("carico",
         say("A load: the ace (11 points) or the three (10 points), the two cards worth most."),
         "it"),
    Term("liscio",
         say("A plain card, worth no points: the 7, 6, 5, 4 and 2."),
         "it"),
    Term("cavallo",
         say("The knight, written Q here: 3 points, below the king and above the knave."),
         "it"),
    Term("fante",
         say("The knave, written J here: 2 points, the lowest of the face cards."),
         "it"),
    Term("mazzo",
         say("The stock: after each trick the winner draws first, then the others in order of play."),
         "it"),
    Term("la bella",
         say("The deciding game of a match of three, when each side has won one."),
         "it"),
)
