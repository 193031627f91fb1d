"""What the group's pages show of each tournament, kept small and apart from its row (pure).

A tournament's row holds every player and every table of every round it drew, and its
standings' totals every player's place: a page that lists the group's tournaments, or names
a table's place in its round, needs a few words of each. Two kinds of row, made from the
tournament's row and its standings' totals after every event that moves either
(projections/projector.py), and by replay from the same rows:

- the card (``CARD``, keyed by the tournament)::

      {"id", "name", "game", "rules", "rounds", "deals", "places", "players": how many,
       "tables": [how many tables each round drawn opened], "first": [the id of each one's
       first table], "finished": [rounds played out]}

- a seat (``SEAT``, keyed ``<tournament>/<round>/<member>``), one per player of each round
  drawn, written once by its draw: ``{"table", "number", "seat"}``, the table's id, its
  number in the round's order and the seat counted from 1 (the first deals first).
"""
from __future__ import annotations

from typing import Mapping

CARD = "tournament_card"
SEAT = "tournament_seat"
NAMES = (CARD, SEAT)
SHOWN = ("id", "name", "game", "rules", "rounds", "deals", "places")  # of the tournament's row, as it is


def card(tournament: Mapping, finished: list[int]) -> dict:
    """The card of ``tournament`` (its row) whose rounds ``finished`` are played out."""
    return {**{k: tournament[k] for k in SHOWN}, "players": len(tournament["players"]),
            "tables": [len(d["tables"]) for d in tournament["drawn_rounds"]],
            "first": [d["tables"][0]["id"] for d in tournament["drawn_rounds"]], "finished": list(finished)}


def drawn(card_row: Mapping) -> int:
    """How many rounds the tournament has drawn."""
    return len(card_row["tables"])


def seat_key(tournament: str, number: int, member: str) -> str:
    return f"{tournament}/{number}/{member}"


def seats(tournament: str, drawn_round: Mapping) -> dict[str, dict]:
    """The seat rows of one round's draw (its answer, as the tournament's row keeps it), by key."""
    return {seat_key(tournament, drawn_round["round"], member): {"table": t["id"], "number": n, "seat": s}
            for n, t in enumerate(drawn_round["tables"], 1) for s, member in enumerate(t["seats"], 1)}


def every_row(tournament: Mapping, finished: list[int]) -> dict[tuple[str, str], dict]:
    """Every row of ``tournament`` by (name, key): its card and each round's seats."""
    rows = {(CARD, tournament["id"]): card(tournament, finished)}
    for drawn_round in tournament["drawn_rounds"]:
        rows.update({(SEAT, key): row for key, row in seats(tournament["id"], drawn_round).items()})
    return rows


def tables_over(card_row: Mapping) -> int:
    """How many tables the tournament's rounds played out opened."""
    return sum(card_row["tables"][number - 1] for number in card_row["finished"])


def going(card_row: Mapping) -> bool:
    """Whether the tournament has a round drawn and is not over."""
    return bool(card_row["tables"]) and len(card_row["finished"]) < card_row["rounds"]
