"""Tressette's own words, as its players say them at an Italian table, and what each means (in
English here: the pages say the meaning in the reader's language and the word as it is;
``Term.spoken`` is the language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("tressette",
         say("The game, named for the three, the highest card of every suit; played with no trumps."),
         "it"),
    Term("terzo",
         say("A third of a point: each three, two, king, queen and jack is worth one; three thirds make a point, and "
             "the odd thirds of a hand are lost."),
         "it"),
    Term("figure",
         say("The threes, twos and face cards, each worth a third of a point."),
         "it"),
    Term("scartine",
         say("The 7s to 4s: cards worth nothing."),
         "it"),
    Term("asso",
         say("The ace: a whole point, though the three and the two take it."),
         "it"),
    Term("ultima",
         say("The last trick of the hand: a point more for the side that takes it."),
         "it"),
    Term("rispondere",
         say("To follow suit: a player who holds a card of the suit led must play one."),
         "it"),
    Term("accusa",
         say("A declaration, made before one's first card: a napoletana, or three or four aces, twos or threes, for "
             "one's side."),
         "it"),
    Term("napoletana",
         say("The ace, two and three of one suit, declared: 3 points."),
         "it"),
    Term("partita",
         say("The game: the first side to the target (21, or 11 or 31) wins it; both there in one hand, the higher "
             "total."),
         "it"),
)
