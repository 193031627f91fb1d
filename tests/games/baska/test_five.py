"""Baśka at a table of five, as Kop (API.md, "A table of five"): the dealer sits each hand
out and the four others play it by rules/baska.md; a bok-runda is four hands, as at four.

Expected amounts are worked out by hand from rules/baska.md (bytow-2005), stake B = 100.
"""
from __future__ import annotations

import pytest

from games.baska import game as baska
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.table import NO_BOK, after_hand

from tests.games.baska.test_rules import UNLOSABLE
from tests.games.kop.kit import scored, start, trick

B = 100
MEMBERS = ("m0", "m1", "m2", "m3", "m4")
FIVE = {"variant": "bytow-2005", "players": 5}
# UNLOSABLE is a hand of four dealt by seat 0 (seats 1, 2, 3, 0 play it): at five, dealt by
# seat 4, the same cards go to the seats that play in that order (0, 1, 2, 3).
AT_FIVE = [UNLOSABLE[1], UNLOSABLE[2], UNLOSABLE[3], UNLOSABLE[0], []]


def five(hands=AT_FIVE, dealer=4, calls=()):
    return start(hands, dealer, FIVE, calls, module=baska)


def settle(state, bok_runda=False):
    return baska.settle(state, TableTerms(B, MEMBERS, bok_runda))


def test_at_five_a_silent_unlosable_cicha_is_refused_naming_its_table_seat():
    with pytest.raises(RuleViolation, match="seat 3 holds both black queens and a hand that takes 53 against"):
        trick(five(), ["AC", "10D", "JC", "AH"])
    assert trick(five(calls=[{"seat": 3, "call": "zolo"}]), ["AC", "10D", "JC", "AH"])[1]["winner"] == 3


def test_at_five_the_dealer_may_not_call_baska_or_anything_else():
    state = start(AT_FIVE, 4, {"variant": "classic", "players": 5}, module=baska)
    with pytest.raises(RuleViolation, match="seat 4 deals this hand and sits it out"):
        baska.decide(state, Command("bid", {"seat": 4, "call": "gran"}))


def test_at_five_a_52_52_pays_mlodzi_wyjscie_and_a_bok_runda_of_four_hands_falls_due():
    # Stare: QC and QS apart, at seats 0 and 2 (dealer 4); 52-52: młodzi win with wyjście and
    # starzy pay twice what młodzi would (2): 4 each. The bok-runda then doubles the next four
    # hands at the table, whoever deals them.
    hands = [["QC", "AH", "10H", "JD"], ["AC", "10C", "AS", "10S"], ["QS", "JS", "QD", "10D"],
             ["JC", "QH", "JH", "AD"], []]
    s = settle(scored(five(hands), [(0, 30), (2, 22), (1, 40), (3, 12)]))
    assert (s.winner, s.outcome) == ("mlodzi", "wyjscie") and s.extra == {"bok_runda": False, "bok_due": True}
    assert list(s.amounts) == [-4 * B, 4 * B, -4 * B, 4 * B, 0]
    bok = after_hand(NO_BOK, False, True)
    assert bok == {"hands_left": 4, "queued": 0}
    doubled = []
    for dealer in (0, 1, 2, 3):  # the next four deals, round the table of five
        shifted = hands[-dealer:] + hands[:-dealer] if dealer else hands
        state = start(shifted, (4 + dealer) % 5, FIVE, module=baska)
        stare = [seat for seat, h in enumerate(shifted) if "QC" in h or "QS" in h]
        paid = settle(scored(state, [(stare[0], 60), (stare[1], 44), (stare[0], 0), (stare[1], 0)]),
                      bok_runda=bok["hands_left"] > 0)
        doubled.append(max(paid.amounts))
        bok = after_hand(bok, paid.extra["bok_runda"], paid.extra["bok_due"])
    # Stare win bez bitki for młodzi: 6 each, doubled in the bok-runda: 12.
    assert doubled == [12 * B] * 4 and bok == NO_BOK
