"""Sueca's own words, as its players say them at a Portuguese table, and what each means (in
English here: the pages say the meaning in the reader's language and the word as it is;
``Term.spoken`` is the language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("trunfo",
         say("The trump suit: that of the dealer's own card, turned face up for all to see and kept by the dealer "
             "until they play it."),
         "pt"),
    Term("ás",
         say("The ace, the highest card of each suit, worth 11 points."),
         "pt"),
    Term("manilha",
         say("The 7, second only to the ace in each suit, worth 10 points; also called the bisca."),
         "pt"),
    Term("vaza",
         say("A trick: four cards, one from each player; its winner leads the next."),
         "pt"),
    Term("assistir",
         say("To follow suit: a player who holds a card of the suit led must play one."),
         "pt"),
    Term("renúncia",
         say("Not following suit while holding a card of the suit led: bitka refuses such a card, so it is never "
             "played."),
         "pt"),
    Term("capote",
         say("Winning a hand with 91 to 119 card points: two games."),
         "pt"),
    Term("bandeira",
         say("Winning all 120 card points (by the table's rules, every trick too): four games."),
         "pt"),
    Term("partida",
         say("The match: the first pair to win 4 games (or the table's number) wins it."),
         "pt"),
)
