"""What ``bitka demo`` plays at a Baśka table (the Bytów tournament rules): a zolo-du that
makes a bok-runda due, then the doubled hands of the bok-runda: a normal game, a gran with
kontra and a wesele."""
from __future__ import annotations

from ..engine.contract import DemoTable
from ..kop import demo as kop_demo
from ..kop.turns import PLAYERS as SEATS  # a table of four

RULES = {"variant": "bytow-2005"}
PLANS = (
    (kop_demo.strong_first_hand, kop_demo.in_turn("zolo-du")),
    (kop_demo.split_queens, kop_demo.no_calls),
    (kop_demo.split_queens, kop_demo.in_turn("gran", "kontra")),
    (kop_demo.one_has_both_queens, kop_demo.wesele),
)


TABLES = (DemoTable(RULES, "0.10", SEATS, kop_demo.planned_hands(RULES, PLANS)),)
