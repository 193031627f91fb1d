"""Bisca's own words, as its players say them, and what each means (in English here: the
pages say the meaning in the reader's language and the word as it is; ``Term.spoken`` is the
language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("trunfo",
         say("The trump suit, shown by the card turned up under the stock."),
         "pt"),
    Term("bisca",
         say("The 7, the second highest card of each suit, worth 10 points."),
         "pt"),
    Term("capote",
         say("Winning with 90 card points or more while the other side took fewer than 31."),
         "pt"),
    Term("rela",
         say("The ace and the 7 of trumps in the same trick: in capixaba a bonus, at once."),
         "pt"),
    Term("rela de parceiros",
         say("Partners play the ace and the 7 of trumps in one trick: the other side scores the bonus."),
         "pt"),
    Term("rela de roda",
         say("The 7 of trumps is led and the fourth player beats it with the ace: the trick's winner scores the "
             "bonus."),
         "pt"),
    Term("rodar o 7",
         say("The 7 of trumps is led and the ace does not come: the leader's side scores the bonus."),
         "pt"),
    Term("bater",
         say("Capixaba: knocking instead of cutting, so that hearts are trumps without a trump card."),
         "pt"),
)
