"""Briscola over HTTP, on SQLite: one deal played a card at a time, logged whole and then
seat by seat (the briscola turned, each seat's three cards, each card drawn after a trick),
against the test's own reading of the rules; then a score sheet (a split refused, one taken), the
match and the money."""
import random

from games.briscola import game as briscola
from games.engine.autoplay import play_out
from tests.backends import ON_SQLITE
from tests.conftest import without_confirmations
from tests.games.test_briscola_rules import _deal, taker, worth
from tests.money import minor


def _played(deal):
    """The deal's tricks, the first legal card each time (any card may be played)."""
    rules = briscola.parse_rules({})
    state = briscola.new_hand(rules, briscola.deal_event(rules, deal).data)
    return play_out(briscola, state)[1]


def _winner(points):
    return 0 if points[0] >= 61 else 1 if points[1] >= 61 else None


def _count(deal, tricks):
    """The test's own count: who took each trick and the card points of each seat."""
    leader, points, winners = (deal["dealer"] + 1) % 2, [0, 0], []
    for cards in tricks:
        leader = (leader + taker(cards, deal["trump"][-1])) % 2
        points[leader] += sum(map(worth, cards))
        winners.append(leader)
    return points, winners


@ON_SQLITE
def test_a_hand_a_card_at_a_time_whole_and_seat_by_seat_then_a_score_sheet_and_the_money(kop_table):
    t = kop_table
    without_confirmations(t)
    r = t["admin"].post(f"{t['base']}/tables", {"game": "briscola", "rules": {}, "stake": "2.00",
                                                 "seats": [m["id"] for m in t["members"][:2]]})
    assert r.status_code == 201, r.json
    table, api = r.json, t["member"]
    assert table["match"]["target"] == 2 and table["rules"]["stake_per"] == "game"
    deal = _deal(random.Random(4), 2)
    tricks = _played(deal)
    points, winners = _count(deal, tricks)
    assert len(tricks) == 20 and sum(points) == 120

    hand = api.post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal}).json
    assert (hand["phase"], hand["turn"], hand["trump"], hand["stock_left"]) == ("play", 1, deal["trump"], 34)
    path = f"{t['base']}/hands/{hand['id']}"
    for number, cards in enumerate(tricks, 1):
        for card in cards:
            r = api.post(f"{path}/plays", {"card": card})
            assert r.status_code == 201, r.json
        shown = r.json["hand"]
        assert shown["tricks"][-1]["winner"] == winners[number - 1]
        assert shown["trump"] == (deal["trump"] if number < 17 else None)  # drawn last, after trick 17
    whole = shown["settlement"]
    assert [side["points"] for side in whole["sides"]] == points
    won = [_winner(points)]
    assert whole["match"]["after"] == [int(won[0] == 0), int(won[0] == 1)]

    # The next deal seat by seat, dealt by seat 1: the briscola, the first cards, then every
    # card drawn, the trick's winner first, the briscola by the last to draw.
    deal = _deal(random.Random(6), 2, dealer=1)
    tricks = _played(deal)
    points, winners = _count(deal, tricks)
    won.append(_winner(points))
    opened = api.post(f"{t['base']}/tables/{table['id']}/hands", {"deal": {"dealer": 1}}).json
    assert opened["phase"] == "dealing"
    path = f"{t['base']}/hands/{opened['id']}"
    own = [api.as_(m["token"]) for m in t["members"][:2]]  # each seat logs its own cards, the dealer the briscola
    assert own[1].post(f"{path}/cards", {"trump": deal["trump"]}).status_code == 201
    for seat in (0, 1):
        assert own[seat].post(f"{path}/cards", {"seat": seat, "cards": deal["hands"][seat]}).status_code == 201
    pile = deal["stock"] + [deal["trump"]]
    for number, cards in enumerate(tricks):
        for card in cards:
            last = api.post(f"{path}/plays", {"card": card})
            assert last.status_code == 201, last.json
        if pile:  # nobody plays before every card drawn is logged
            blocked = api.post(f"{path}/plays", {"card": tricks[number + 1][0]})
            assert blocked.status_code == 422 and "have not logged" in blocked.json["detail"], blocked.json
            for seat in (winners[number], 1 - winners[number]):
                r = own[seat].post(f"{path}/cards", {"seat": seat, "cards": [pile.pop(0)]})
                assert r.status_code == 201, r.json
    settled = last.json["hand"]["settlement"]
    assert [side["points"] for side in settled["sides"]] == points and settled["outcome"] == (
        "60-60" if won[1] is None else "win")

    # A score sheet alone: a split no tricks could hold is refused; then the match ends.
    sheets = f"{t['base']}/tables/{table['id']}/hands"
    bad = api.post(sheets, {"result": {"points": [23, 97], "tricks": [1, 19]}})
    assert bad.status_code == 422 and "side 0 cannot take 23 card points in 1 trick(s)" in bad.json["detail"]
    before = api.get(f"{t['base']}/tables/{table['id']}").json["match"]
    if won[0] == won[1] is not None:  # two games of one side: a match, and the next starts at 0-0
        assert (before["scores"], before["games"]) == ([0, 0], 1)
    else:
        assert (before["scores"], before["games"]) == ([won.count(0), won.count(1)], 0)
    r = api.post(sheets, {"result": {"points": [100, 20], "tricks": [14, 6]}})
    assert r.status_code == 201, r.json
    balances = {b["member"]: minor(b["balance"]) for b in api.get(f"{t['base']}/balances").json["balances"]}
    seat_ids = [m["id"] for m in t["members"][:2]]
    expected = 200 * (won.count(0) - won.count(1) + 1)  # 2.00 a game won, per game, at once
    assert balances[seat_ids[0]] == expected and balances[seat_ids[1]] == -expected
