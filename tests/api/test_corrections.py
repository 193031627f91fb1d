"""Correcting any past hand re-settles the later hands of its table: for random tables of
twelve hands of every game at each of its presets, correcting hand k to another result and
voiding hand j, then replaying, gives exactly the balances of a table where the hands had
been logged that way from the start, and where tests/oracles/tables.py reads the rules, what
the rules files say. And the consequences one
by one: a bok-runda that moves, a Scopa game that now ends earlier, a correction of a
correction."""
from __future__ import annotations

import random

import pytest

from cli.checks import replay_store
from games.registry import GAMES
from tests import every_game
from tests.backends import ON_SQLITE
from tests.every_game import random_sheet
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.money import minor
from tests.oracles import tables as oracle

HANDS = 12


def _group(client, players: int, game: str, rules: dict, stake: str = "1.00", within: dict | None = None):
    """A group of its own (or the group ``within``, its members kept) with a table of
    ``game`` whose seats are its first ``players`` members."""
    if within is None:
        g = client.post("/v1/groups", {"name": "Correct", "currency": "PLN", "confirmations": "off"}).json
        within = {"id": g["id"], "admin": client.as_(g["admin_token"]), "base": f"/v1/groups/{g['id']}", "members": []}
    admin, base, members = within["admin"], within["base"], within["members"]
    members += [admin.post(f"{base}/members", {"name": n}).json["id"] for n in NAMES[len(members):players]]
    table = admin.post(f"{base}/tables", {"game": game, "rules": rules, "stake": stake,
                                          "seats": members[:players]}).json
    assert "id" in table, table
    return {**within, "seats": members[:players], "table": table["id"]}


NAMES = ("Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil")


def _log(group, result) -> str:
    r = group["admin"].post(f"{group['base']}/tables/{group['table']}/hands", {"result": result})
    assert r.status_code == 201, (result, r.json)
    return r.json["id"]


def _balances(group) -> list[int]:
    shown = {b["member"]: minor(b["balance"]) for b in group["admin"].get(f"{group['base']}/balances").json["balances"]}
    return [shown[m] for m in group["seats"]]


def _scopa_result(rng, sides):
    def side_or_tie():
        return rng.choice([*range(sides), None])
    return {"cards": side_or_tie(), "coins": side_or_tie(), "primiera": side_or_tie(),
            "settebello": rng.randrange(sides), "scopas": [rng.randint(0, 3) for _ in range(sides)]}


def random_result(group, game, rules, rng) -> tuple[int, dict]:
    """The table's next dealer, and the score sheet of a random legal hand it deals
    (``tests/every_game.py``) at the table's game score as it stands."""
    table = group["admin"].get(f"{group['base']}/tables/{group['table']}").json
    match = {"scores": table["match"]["scores"]} if table.get("match") else None
    return table["next_dealer"], random_sheet(game, rules, rng, table["next_dealer"], match)


def _oracle(name: str, rules):
    """The payouts per hand of the rules file read again (tests/oracles/tables.py), where it
    reads these rules; every other game and preset is held to a table that logged its hands
    so from the start."""
    read, payouts = oracle.READINGS.get(name, (None, None))
    return payouts if read is not None and GAMES[name].parse_rules(read) == rules else None


def _paid(r) -> list[int]:
    return [minor(p["amount"]) for p in r.json["settlement"]["payouts"]]


@ON_SQLITE
@pytest.mark.parametrize("name, preset", every_game.presets())
def test_correcting_past_hands_gives_the_balances_of_a_table_that_logged_them_so_from_the_start(client, db_url,
                                                                                               name, preset):
    """Every game, at each of its presets: random hands logged by their score sheets; hand
    k corrected to another result and hand j voided; the balances, the replay and what each
    correction moved are those of a table that logged the hands so from the start (and what
    the rules file says, where tests/oracles reads these rules)."""
    game, chosen = GAMES[name], GAMES[name].words.presets[preset]
    rules, players, rng = game.parse_rules(chosen.rules), chosen.players, random.Random(f"{name}-{preset}")
    logged, money = _group(client, players, name, dict(chosen.rules)), _oracle(name, rules)
    results, ids, paid, dealers = [], [], [], []
    while len(results) < HANDS:
        dealer, result = random_result(logged, game, rules, rng)
        r = logged["admin"].post(f"{logged['base']}/tables/{logged['table']}/hands", {"result": result})
        assert r.status_code == 201, r.json  # a hand the rules played, at the table as it stands
        results.append(r.json["result"])
        dealers.append(dealer)
        ids.append(r.json["id"])
        paid.append(_paid(r))
    if money:
        assert _balances(logged) == oracle.total(money(results), players)
    k, j = rng.sample(range(HANDS), 2)
    moved, other = set(), None
    for hand, change in ((ids[k], "result"), (ids[j], "void")):
        for _ in range(50):  # another result hand k could have had, at its dealer: one the rules take there
            if change == "result":
                other = random_sheet(game, rules, rng, dealers[k])
            body = {"result": other} if change == "result" else {"void": True}
            r = logged["admin"].post(f"{logged['base']}/hands/{hand}/correct", {"reason": "a wrong sheet", **body})
            if r.status_code == 201 or change == "void":
                break
            assert r.status_code == 422, r.json
        assert r.status_code == 201, r.json
        adjustments = r.json["correction"]["adjustments"]
        assert all(sum(minor(p["amount"]) for p in a["payouts"]) == 0 for a in adjustments)
        assert all(a["hand"] in ids[ids.index(hand):] for a in adjustments)  # no hand before it moves
        moved |= {a["hand"] for a in adjustments}
    then = [other if i == k else result for i, result in enumerate(results)]
    fresh, again = _group(client, players, name, dict(chosen.rules)), []
    for result in then:  # hand k logged as corrected from the start; hand j voided once all are in
        again.append(_log(fresh, result))
    r = fresh["admin"].post(f"{fresh['base']}/hands/{again[j]}/correct", {"reason": "a wrong sheet", "void": True})
    assert r.status_code == 201, r.json
    assert _balances(logged) == _balances(fresh)
    final = [_final(logged, hand) for hand in ids]
    assert final == [_final(fresh, hand) for hand in again]  # hand by hand, each paying the same
    if money:  # the hand voided counts as never played
        assert _balances(fresh) == oracle.total(money(then[:j] + then[j + 1:]), players)
    report = replay_store(db_url, logged["id"], None, True, lambda: None)
    assert not report.differences, report.differences
    assert [report.balances[logged["id"]][m] for m in logged["seats"]] == _balances(fresh)
    assert {ids[i] for i in range(HANDS) if _paying(paid[i]) != _paying(final[i])} <= moved


def _paying(payouts: list[int] | None) -> list[int]:
    """What a hand pays, the same whether it pays nothing, lists no payout or is voided."""
    return list(payouts) if payouts and any(payouts) else []


def _final(group, hand: str) -> list[int] | None:
    """What a hand pays now, per seat (None: voided)."""
    shown = group["admin"].get(f"{group['base']}/hands/{hand}").json
    return None if shown.get("voided") or not shown.get("settlement") else \
        [minor(p["amount"]) for p in shown["settlement"]["payouts"]]


def test_a_correction_inside_a_baska_bok_runda_moves_the_doubling_of_the_next_four_hands(client):
    group = _group(client, 4, "baska", {"variant": "bytow-2005"})
    du = {"contract": "zolo-du", "declarer": 1, "doubles": [], "points": 104, "tricks": 4}  # makes a bok-runda due
    plain = {"contract": "normal", "stare": [0, 2], "doubles": [], "points": 70, "tricks": 3}
    sheet = [plain, du, plain, plain, plain, plain, plain]
    ids = [_log(group, r) for r in sheet]
    hand = group["admin"].get(f"{group['base']}/hands/{ids[2]}").json
    assert hand["settlement"]["bok_runda"] is True  # hands 2-5 were the bok-runda
    r = group["admin"].post(f"{group['base']}/hands/{ids[0]}/correct", {"reason": "it was a du", "result": du})
    moved = {a["hand"] for a in r.json["correction"]["adjustments"]}
    before, after = oracle.baska_table(sheet, "bytow-2005", 100), oracle.baska_table([du, *sheet[1:]], "bytow-2005",
                                                                                     100)
    # Hand 0's du starts a bok-runda over hands 1-4; hand 1's, queued, over hands 5-8.
    assert moved == {ids[i] for i in range(len(sheet)) if before[i] != after[i]} == {ids[0], ids[1], ids[6]}
    table = f"{group['base']}/tables/{group['table']}"
    assert r.json["correction"]["table"]["bok"] == {"hands_left": 2, "queued": 0}
    assert group["admin"].get(table).json["bok"]["hands_left"] == 2
    fresh = _group(client, 4, "baska", {"variant": "bytow-2005"})
    for result in [du, du, plain, plain, plain, plain, plain]:
        _log(fresh, result)
    assert _balances(group) == _balances(fresh) == oracle.total(after, 4)
    nxt = _log(group, plain)
    assert group["admin"].get(f"{group['base']}/hands/{nxt}").json["settlement"]["bok_runda"] is True
    trail = group["admin"].get(f"{group['base']}/hands/{ids[6]}/audit").json
    assert any(e["type"] == "correction" for e in trail["events"])  # an affected hand shows the correction
    assert any("settled again" in line for line in trail["explanation"])


def test_a_scopa_correction_that_ends_the_game_earlier_moves_the_payment(client):
    group = _group(client, 2, "scopa", {"target": 11})
    five = {"cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [1, 0]}  # side 0: 5 points
    nil = {"cards": None, "coins": None, "primiera": None, "settebello": 1, "scopas": [0, 0]}  # side 1: 1 point
    ids = [_log(group, r) for r in [five, nil, five, five]]  # 5, 10, then 15: the game ends at hand 4
    assert _balances(group) == [100, -100]
    r = group["admin"].post(f"{group['base']}/hands/{ids[1]}/correct", {"reason": "side 0 swept too",
                                                                        "result": five})
    moved = {a["hand"]: [minor(p["amount"]) for p in a["payouts"]] for a in r.json["correction"]["adjustments"]}
    assert moved == {ids[2]: [100, -100], ids[3]: [-100, 100]}  # 5, 10, 15 ends the game at hand 3 now
    assert _balances(group) == [100, -100]
    assert r.json["correction"]["table"]["match"]["scores"] == [5, 0]  # hand 4 starts the next game
    assert group["admin"].get(f"{group['base']}/tables/{group['table']}").json["match"]["scores"] == [5, 0]


def _mid_hand_capixaba(match_before, dealer):
    """A capixaba deal whose first legal cards give side 0 a bonus that, from
    ``match_before``, ends the match before the hand's last trick; and those tricks."""
    from games.bisca import game as bisca
    from games.engine.base import Command
    rules = bisca.parse_rules({"variant": "capixaba"})
    for seed in range(5000):
        deck = sorted(bisca.PACKS["full"])
        random.Random(seed).shuffle(deck)
        if deck[-1][:-1] in ("A", "7"):
            continue
        deal = {"dealer": dealer, "hands": [deck[0:3], deck[3:6], deck[6:9], deck[9:12]], "trump": deck[-1],
                "stock": deck[12:-1]}
        state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": list(match_before)})
        tricks = []
        while not bisca.is_over(state):
            cards = []
            for i in range(4):
                cards.append(bisca.legal_cards(state, (state.leader + i) % 4, tuple(cards))[0])
            [event] = bisca.decide(state, Command("trick", {"cards": cards}))
            state = bisca.evolve(state, event)
            tricks.append(cards)
        if len(tricks) < 10 and state.bonus_points[0]:
            return deal, tricks
    raise AssertionError("no deal found")


def test_a_hand_that_ended_with_its_match_is_not_settled_again_from_half_its_cards(client):
    """Capixaba: hand 3 ended mid-hand when a bonus took side 0 to 4. Correcting hand 1 so
    that side 0 had less would leave hand 3 unfinished: the correction is refused, naming it."""
    group = _group(client, 4, "bisca", {"variant": "capixaba"})
    first = _log(group, {"points": [95, 25], "tricks": [6, 4], "bonus": [0, 0]})  # capote: 2 game points
    _log(group, {"points": [70, 50], "tricks": [6, 4], "bonus": [0, 0]})  # 1: side 0 has 3
    deal, tricks = _mid_hand_capixaba((3, 0), dealer=2)  # seat 2 deals the table's third hand
    hand = group["admin"].post(f"{group['base']}/tables/{group['table']}/hands", {"deal": deal}).json
    for cards in tricks:
        r = group["admin"].post(f"{group['base']}/hands/{hand['id']}/tricks", {"cards": cards})
        if r.json.get("hand", {}).get("phase") == "done":
            break
    settled = group["admin"].get(f"{group['base']}/hands/{hand['id']}").json["settlement"]
    assert settled["outcome"] == "match-ended-mid-hand", settled["outcome"]
    refused = group["admin"].post(f"{group['base']}/hands/{first}/correct", {
        "reason": "side 1 won", "result": {"points": [40, 80], "tricks": [4, 6], "bonus": [0, 0]}})
    assert refused.status_code == 422 and hand["id"] in refused.json["detail"] and "first" in refused.json["detail"]


def test_a_hand_whose_cards_were_logged_is_corrected_by_its_cards_and_never_by_a_result(client):
    """All four tricks went to stare (104 points, bez bitki); a correction to "52-52 with a
    kontra" would contradict the cards and start a bok-runda: it is refused, saying what the
    cards give. The whole hand again, with the kontra that was forgotten, is checked by the
    rules and settles it anew; a mistyped card or tricks in the wrong order are refused."""
    group = _group(client, 4, "baska", {})
    deal = {"dealer": 0, "hands": KOP_HANDS}
    hand = group["admin"].post(f"{group['base']}/tables/{group['table']}/hands",
                               {"deal": deal, "tricks": [{"cards": t} for t in KOP_TRICKS]}).json
    before = _balances(group)
    path = f"{group['base']}/hands/{hand['id']}/correct"
    fifty_two = {"contract": "normal", "stare": [1, 3], "doubles": [0], "points": 52, "tricks": 2}
    version = group["admin"].get(group["base"]).json["version"]
    r = group["admin"].post(path, {"reason": "it was 52-52", "result": fifty_two})
    assert r.status_code == 422 and "cards were logged" in r.json["detail"] and "its cards give" in r.json["detail"]
    for wrong in ({"deal": {**deal, "hands": [KOP_HANDS[1], KOP_HANDS[0], *KOP_HANDS[2:]]},
                   "tricks": [{"cards": t} for t in KOP_TRICKS]},  # seat 0 cannot lead AH: seat 1 leads
                  {"deal": deal, "tricks": [{"cards": t} for t in KOP_TRICKS[:3]]},  # not the whole hand
                  {"deal": deal, "tricks": [{"cards": t} for t in reversed(KOP_TRICKS)]}):
        r = group["admin"].post(path, {"reason": "typo", "cards": wrong})
        assert r.status_code == 422, r.json
    assert group["admin"].get(group["base"]).json["version"] == version  # nothing appended
    again = {"deal": deal, "bids": [{"seat": 0, "call": "kontra"}], "tricks": [{"cards": t} for t in KOP_TRICKS]}
    fixed = group["admin"].post(path, {"reason": "Ala said kontra", "cards": again})
    assert fixed.status_code == 201, fixed.json
    assert fixed.json["correction"]["cards"]["bids"] == [{"seat": 0, "call": "kontra"}]
    after = _balances(group)
    assert after == [2 * b for b in before] and sum(after) == 0
    result_hand = _log(group, {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3})
    r = group["admin"].post(f"{group['base']}/hands/{result_hand}/correct", {"reason": "x", "cards": again})
    assert r.status_code == 422 and "by a result" in r.json["detail"]
