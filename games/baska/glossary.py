"""Baśka's own words, as its players say them, and what each means (in English here: the
pages say the meaning in the reader's language and the word as it is; ``Term.spoken`` is the
language of the word itself, for the pages' lang attributes)."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Term

TERMS = (
    Term("Bëtowskô Baśka",
         say("Kashubian for “Bytów Baśka”: the tournament rules played in Bytów, written down in February 2005, the "
             "default rules of a Baśka table here."),
         "csb"),
    Term("dëtczi",
         say("Kashubian for the units of a payment on the Bytów sheet: “młodzi pay 2 dëtczi” means two stakes each."),
         "csb"),
    Term("stare / starzy",
         say("The holders of the two black queens, or the wesele pair: they play together against the młodzi."),
         "pl"),
    Term("młodzi",
         say("The other two players, against the stare."),
         "pl"),
    Term("wesele",
         say("The holder of both black queens calls the holder of the highest jack they lack as partner."),
         "pl"),
    Term("cicha",
         say("The holder of both black queens calls nothing and plays alone against three."),
         "pl"),
    Term("gran",
         say("A solo contract in which only the four jacks are trumps."),
         "pl"),
    Term("zolo",
         say("A solo contract, one player against three; it outranks gran."),
         "pl"),
    Term("du",
         say("Added to gran or zolo: the contract wins only with all four tricks, and pays double."),
         "pl"),
    Term("kontra, rekontra, hirsch, bok",
         say("The doubles, in the Bytów order: each doubles the stake, given in turn by the two sides."),
         "pl"),
    Term("bok",
         say("52 card points each; the młodzi win, and a bok-runda starts."),
         "pl"),
    Term("bok-runda",
         say("The four hands after a bok (or after a du contract), paid at double stake. A bok-runda that falls due "
             "while another runs starts when it ends."),
         "pl"),
    Term("wyjście",
         say("The losers took 26 card points or more: the smallest payment."),
         "pl"),
    Term("bez wyjścia",
         say("The losers took a trick but 25 card points or fewer."),
         "pl"),
    Term("bez bitki",
         say("The losers took no trick at all: the largest payment."),
         "pl"),
)
