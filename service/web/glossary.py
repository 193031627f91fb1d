"""Each game's own words, explained in the reader's language: a page per game.

The words stay as the players say them (Polish, Kashubian, Italian, Portuguese); only the
explanations are translated."""
from __future__ import annotations

from flask import abort, render_template
from flask_babel import lazy_gettext as _l

from projections.hands import game_of
from .pages import bp

def term(word: str) -> str:
    """A game's own word, written as its players write it: the same in every language."""
    return word


# Each game: (term, explanation), in the order a player meets them.
TERMS = {
    "kop": (
        (term("stare"), _l("The two players who hold the queen of clubs and the queen of spades: they play together "
                     "against the other two (the “old” ones).")),
        (term("młodzi"), _l("The other two players, who play against the stare (the “young” ones).")),
        (term("wesele"), _l("A call by the holder of both black queens: the holder of the highest jack they lack "
                            "becomes their partner (the “wedding”).")),
        (term("cicha"), _l("Holding both black queens and calling nothing: that player plays alone against three, "
                     "silently.")),
        (term("zolo"), _l("A solo contract: one player against three, winning with 53 card points.")),
        (term("zolo-du"), _l("A solo contract that wins only by taking all four tricks, for twice the money.")),
        (term("kontra, re, bok, slup"), _l("The doubles, in the order they are given: each doubles the payment, but "
                                     "doubles given one after another by the same side count once.")),
        (term("boki"), _l("52 card points each: the side that gave the last counted double loses, or the stare when "
                    "nobody doubled.")),
        (term("wyjście"), _l("The losers took 26 card points or more: they pay the least.")),
        (term("bez wyjścia"), _l("The losers took a trick but 25 card points or fewer: they pay double.")),
        (term("bez bitki"), _l("The losers took no trick at all: they pay three times.")),
    ),
    "baska": (
        (term("Bëtowskô Baśka"), _l("Kashubian for “Bytów Baśka”: the tournament rules played in Bytów, written down "
                              "in February 2005, the default rules of a Baśka table here.")),
        (term("dëtczi"), _l("Kashubian for the units of a payment on the Bytów sheet: “młodzi pay 2 dëtczi” means two "
                      "stakes each.")),
        (term("stare / starzy"), _l("The holders of the two black queens, or the wesele pair: they play together "
                              "against the młodzi.")),
        (term("młodzi"), _l("The other two players, against the stare.")),
        (term("wesele"), _l("The holder of both black queens calls the holder of the highest jack they lack as "
                      "partner.")),
        (term("cicha"), _l("The holder of both black queens calls nothing and plays alone against three.")),
        (term("gran"), _l("A solo contract in which only the four jacks are trumps.")),
        (term("zolo"), _l("A solo contract, one player against three; it outranks gran.")),
        (term("du"), _l("Added to gran or zolo: the contract wins only with all four tricks, and pays double.")),
        (term("kontra, rekontra, hirsch, bok"), _l("The doubles, in the Bytów order: each doubles the stake, given "
                                             "in turn by the two sides.")),
        (term("bok"), _l("52 card points each; the młodzi win, and a bok-runda starts.")),
        (term("bok-runda"), _l("The four hands after a bok (or after a du contract), paid at double stake. A bok-runda "
                         "that falls due while another runs starts when it ends.")),
        (term("wyjście"), _l("The losers took 26 card points or more: the smallest payment.")),
        (term("bez wyjścia"), _l("The losers took a trick but 25 card points or fewer.")),
        (term("bez bitki"), _l("The losers took no trick at all: the largest payment.")),
    ),
    "scopa": (
        (term("scopa"), _l("A capture that sweeps every card off the table: one point (not on the very last play "
                     "of the hand).")),
        (term("settebello"), _l("The seven of coins: whoever captures it scores one point.")),
        (term("primiera"), _l("Each side's best card in each suit, counted 7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, "
                        "3 = 13, 2 = 12, figures 10: the highest total scores one point.")),
        (term("denari"), _l("Coins, the suit of diamonds here: whoever captures most of them scores one point.")),
        (term("carte"), _l("The cards: whoever captures the most scores one point.")),
        (term("chiamarsi fuori"), _l("Claiming, during a hand, to have reached the target already: right, that side "
                               "wins the game at once; wrong, it loses it at once.")),
    ),
    "bisca": (
        (term("trunfo"), _l("The trump suit, shown by the card turned up under the stock.")),
        (term("bisca"), _l("The 7, the second highest card of each suit, worth 10 points.")),
        (term("capote"), _l("Winning with 90 card points or more while the other side took fewer than 31.")),
        (term("rela"), _l("The ace and the 7 of trumps in the same trick: in capixaba a bonus, at once.")),
        (term("rela de parceiros"), _l("Partners play the ace and the 7 of trumps in one trick: the other side scores "
                                 "the bonus.")),
        (term("rela de roda"), _l("The 7 of trumps is led and the fourth player beats it with the ace: the trick's "
                            "winner scores the bonus.")),
        (term("rodar o 7"), _l("The 7 of trumps is led and the ace does not come: the leader's side scores the "
                         "bonus.")),
        (term("bater"), _l("Capixaba: knocking instead of cutting, so that hearts are trumps without a trump card.")),
    ),
}


# The language the words themselves are in (for the page's lang attributes).
SPOKEN = {"kop": "pl", "baska": "pl", "scopa": "it", "bisca": "pt"}
KASHUBIAN = frozenset({term("Bëtowskô Baśka"), term("dëtczi")})


@bp.get("/glossary/<game>")
def glossary(game: str):
    """A game's own words and what they mean, for anyone (no sign-in)."""
    if game not in TERMS:
        abort(404)
    terms = [(term, "csb" if term in KASHUBIAN else SPOKEN[game], meaning) for term, meaning in TERMS[game]]
    return render_template("glossary.html", game=game, title=game_of(game).title, terms=terms,
                           games=[(name, game_of(name).title) for name in TERMS])
