"""The log's single words, which its sentences take as values ("seat 2", "clubs",
"declarer"): catalog messages of the context ``log`` like the rules' own sentences.
``pgettext`` here only marks them for pybabel; ``phrases.word`` says them."""
from __future__ import annotations


def pgettext(context: str, message: str) -> str:
    return message


WORDS = (
    # Translators: a seat at the table, by its number ("seat 2"); on pages a name replaces it
    pgettext("log", "seat {seat}"),
    # Translators: a side (a team, or one player), by its number
    pgettext("log", "side {side}"),
    # Translators: the suits, as values inside the rules' sentences
    pgettext("log", "clubs"), pgettext("log", "spades"), pgettext("log", "hearts"), pgettext("log", "diamonds"),
    # Translators: the one who called a solo contract, and the three who play against them
    pgettext("log", "declarer"), pgettext("log", "defenders"),
    pgettext("log", "a tie"), pgettext("log", "none"), pgettext("log", "nobody"),
    pgettext("log", "the admin"),
    # Translators: the led suit is trumps ("must follow trumps"); a side's pile with no card in it
    pgettext("log", "trumps"), pgettext("log", "empty"),
    # Translators: a match that a correction makes end sooner or later than it did
    pgettext("log", "sooner"), pgettext("log", "later"),
    # Translators: score-sheet questions of one word (a hand logged by its result)
    pgettext("log", "Contract"), pgettext("log", "Tricks"), pgettext("log", "Trump suit"),
    pgettext("log", "a side"),
)
