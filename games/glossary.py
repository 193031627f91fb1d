"""Each game's own words, as its players say them, and what each means (in English here:
the pages say the meaning in the reader's language, the word as it is). ``Term.spoken`` is
the language the word itself is in, for the pages' lang attributes."""
from __future__ import annotations

from .contract import Term

KOP = (
    Term("stare",
         "The two players who hold the queen of clubs and the queen of spades: they play together "
         "against the other two (the “old” ones).",
         "pl"),
    Term("młodzi",
         "The other two players, who play against the stare (the “young” ones).",
         "pl"),
    Term("wesele",
         "A call by the holder of both black queens: the holder of the highest jack they lack becomes "
         "their partner (the “wedding”).",
         "pl"),
    Term("cicha",
         "Holding both black queens and calling nothing: that player plays alone against three, "
         "silently.",
         "pl"),
    Term("zolo",
         "A solo contract: one player against three, winning with 53 card points.",
         "pl"),
    Term("zolo-du",
         "A solo contract that wins only by taking all four tricks, for twice the money.",
         "pl"),
    Term("kontra, re, bok, slup",
         "The doubles, in the order they are given: each doubles the payment, but doubles given one "
         "after another by the same side count once.",
         "pl"),
    Term("boki",
         "52 card points each: the side that gave the last counted double loses, or the stare when "
         "nobody doubled.",
         "pl"),
    Term("wyjście",
         "The losers took 26 card points or more: they pay the least.",
         "pl"),
    Term("bez wyjścia",
         "The losers took a trick but 25 card points or fewer: they pay double.",
         "pl"),
    Term("bez bitki",
         "The losers took no trick at all: they pay three times.",
         "pl"),
)


BASKA = (
    Term("Bëtowskô Baśka",
         "Kashubian for “Bytów Baśka”: the tournament rules played in Bytów, written down in February "
         "2005, the default rules of a Baśka table here.",
         "csb"),
    Term("dëtczi",
         "Kashubian for the units of a payment on the Bytów sheet: “młodzi pay 2 dëtczi” means two "
         "stakes each.",
         "csb"),
    Term("stare / starzy",
         "The holders of the two black queens, or the wesele pair: they play together against the "
         "młodzi.",
         "pl"),
    Term("młodzi",
         "The other two players, against the stare.",
         "pl"),
    Term("wesele",
         "The holder of both black queens calls the holder of the highest jack they lack as partner.",
         "pl"),
    Term("cicha",
         "The holder of both black queens calls nothing and plays alone against three.",
         "pl"),
    Term("gran",
         "A solo contract in which only the four jacks are trumps.",
         "pl"),
    Term("zolo",
         "A solo contract, one player against three; it outranks gran.",
         "pl"),
    Term("du",
         "Added to gran or zolo: the contract wins only with all four tricks, and pays double.",
         "pl"),
    Term("kontra, rekontra, hirsch, bok",
         "The doubles, in the Bytów order: each doubles the stake, given in turn by the two sides.",
         "pl"),
    Term("bok",
         "52 card points each; the młodzi win, and a bok-runda starts.",
         "pl"),
    Term("bok-runda",
         "The four hands after a bok (or after a du contract), paid at double stake. A bok-runda that "
         "falls due while another runs starts when it ends.",
         "pl"),
    Term("wyjście",
         "The losers took 26 card points or more: the smallest payment.",
         "pl"),
    Term("bez wyjścia",
         "The losers took a trick but 25 card points or fewer.",
         "pl"),
    Term("bez bitki",
         "The losers took no trick at all: the largest payment.",
         "pl"),
)


SCOPA = (
    Term("scopa",
         "A capture that sweeps every card off the table: one point (not on the very last play of the "
         "hand).",
         "it"),
    Term("settebello",
         "The seven of coins: whoever captures it scores one point.",
         "it"),
    Term("primiera",
         "Each side's best card in each suit, counted 7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = "
         "13, 2 = 12, figures 10: the highest total scores one point.",
         "it"),
    Term("denari",
         "Coins, the suit of diamonds here: whoever captures most of them scores one point.",
         "it"),
    Term("carte",
         "The cards: whoever captures the most scores one point.",
         "it"),
    Term("chiamarsi fuori",
         "Claiming, during a hand, to have reached the target already: right, that side wins the game "
         "at once; wrong, it loses it at once.",
         "it"),
)


BISCA = (
    Term("trunfo",
         "The trump suit, shown by the card turned up under the stock.",
         "pt"),
    Term("bisca",
         "The 7, the second highest card of each suit, worth 10 points.",
         "pt"),
    Term("capote",
         "Winning with 90 card points or more while the other side took fewer than 31.",
         "pt"),
    Term("rela",
         "The ace and the 7 of trumps in the same trick: in capixaba a bonus, at once.",
         "pt"),
    Term("rela de parceiros",
         "Partners play the ace and the 7 of trumps in one trick: the other side scores the bonus.",
         "pt"),
    Term("rela de roda",
         "The 7 of trumps is led and the fourth player beats it with the ace: the trick's winner "
         "scores the bonus.",
         "pt"),
    Term("rodar o 7",
         "The 7 of trumps is led and the ace does not come: the leader's side scores the bonus.",
         "pt"),
    Term("bater",
         "Capixaba: knocking instead of cutting, so that hearts are trumps without a trump card.",
         "pt"),
)
