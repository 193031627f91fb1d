"""The Bytów tournament as an organizer runs it (issue 34's "done when"): thirteen players in
points register, each checks in from their own phone and round 1 is drawn from their
check-ins (tables of 4, 4 and 5, the dealer of the five sitting out), every table plays its
deals and its players confirm their table in one tap each, round 2 likewise, a hand of
round 1 is voided afterwards (counting once the players it lowers agree), and every figure of
the standings matches a count made here from the hands' own payouts."""
from __future__ import annotations

import random
from fractions import Fraction

from games.engine.autoplay import hand_at_random
from games.engine.errors import RuleViolation
from games.registry import GAMES
from tests.api.test_tournaments import club, draw, their_standings

BASKA = GAMES["baska"]
DEALS = 10  # two turns of the deal round a table of five


def a_hand(rules, chance: random.Random, dealer: int) -> dict:
    """A random legal hand; a deal the Bytów rules want played otherwise (a cicha nobody can
    lose must be called) is dealt again, as at the table."""
    for _ in range(50):
        try:
            return hand_at_random(BASKA, rules, chance, dealer)
        except RuleViolation:
            continue
    raise AssertionError("no playable deal in 50")


def play_and_confirm(c: dict, drawn: dict, chance: random.Random) -> list[dict]:
    hands = []
    for table in drawn["tables"]:
        at = c["admin"].get(f"{c['base']}/tables/{table['id']}").json
        rules = BASKA.parse_rules(at["rules"])
        for _ in range(DEALS):
            dealer = c["admin"].get(f"{c['base']}/tables/{table['id']}").json["next_dealer"]
            r = c["admin"].post(f"{c['base']}/tables/{table['id']}/hands", a_hand(rules, chance, dealer))
            assert r.status_code == 201, r.json
            hands.append(r.json)
            payouts = r.json["settlement"]["payouts"]
            assert len(payouts) == len(table["seats"]) and sum(int(p["amount"]) for p in payouts) == 0
            if len(table["seats"]) == 5:
                assert payouts[dealer]["amount"] == "0"
        for member in table["seats"]:  # the end of the round: one tap per player
            r = c["admin"].as_(c["tokens"][member]).post(f"{c['base']}/tables/{table['id']}/confirm")
            assert r.status_code == 201, r.json
    return hands


def standings_as_counted(c: dict, t: dict) -> None:
    standing = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    got = {p["member"]: (Fraction(p["points"]), int(p["small"]), p["first_places"]) for p in standing["players"]}
    assert got == their_standings(c, t)
    places = [p["place"] for p in standing["players"]]
    assert places[0] == 1 and places == sorted(places)


def test_the_bytow_tournament_from_registration_to_the_corrected_standings(client):
    c = club(client, 13, confirmations="payers")
    r = c["admin"].post(f"{c['base']}/tournaments", {"name": "Bytów", "game": "baska", "rules": {},
                                                      "players": c["ids"], "rounds": 2, "deals": DEALS,
                                                      "places": [5, 3, 1, 0], "stake": "1"})
    assert r.status_code == 201, r.json
    t = r.json
    chance = random.Random(13)
    rounds = []
    for number in (1, 2):
        drawn = draw(c, t, number)  # every player checked in: the seed and tables checked against API.md
        assert sorted(len(table["seats"]) for table in drawn["tables"]) == [4, 4, 5]
        assert sorted(m for table in drawn["tables"] for m in table["seats"]) == sorted(c["ids"])
        rounds.append(play_and_confirm(c, drawn, chance))
        standings_as_counted(c, t)
        assert c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json["rounds_played"] == number

    before = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    corrected = rounds[0][0]
    r = c["admin"].post(f"{c['base']}/hands/{corrected['id']}/correct", {"reason": "a card was misread",
                                                                         "void": True})
    assert r.status_code == 201, r.json
    waits = r.json["correction"]["waits_for"]  # a void lowers those it took winnings from: it waits for their word
    assert waits and set(waits) <= {p["member"] for p in corrected["settlement"]["payouts"] if int(p["amount"]) > 0}
    waiting = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    assert waiting["players"] == before["players"]  # the hand counts as before until they agree
    for member in waits:
        agreed = c["admin"].as_(c["tokens"][member]).post(f"{c['base']}/hands/{corrected['id']}/agree")
        assert agreed.status_code == 201, agreed.json
    standings_as_counted(c, t)
    after = c["admin"].get(f"{c['base']}/tournaments/{t['id']}/standings").json
    assert after != before
    season = c["admin"].get(f"{c['base']}/standings?tournaments={t['id']}&best=1").json
    assert [(p["member"], p["points"]) for p in season["players"]] == \
        [(p["member"], p["points"]) for p in after["players"]]
