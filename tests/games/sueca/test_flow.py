"""Sueca over HTTP: a hand logged whole against a second reading of the rules, a hand played
trick by trick and then a card at a time, score sheets alone up to a match's end (its cap,
its money per game or per match), and a hand dealt seat by seat at a table where each seat
logs its own cards, the trump card in sight of everyone from the moment it is turned up."""
import random

from games.engine.autoplay import play_out
from games.engine.base import Command
from games.sueca import game as sueca
from tests.api.test_seats import Seats, same_money, whole
from tests.backends import ON_SQLITE
from tests.conftest import without_confirmations
from tests.games.sueca import oracle
from tests.money import minor


def _table(t, rules=None, stake="1.00"):
    r = t["admin"].post(f"{t['base']}/tables", {"game": "sueca", "rules": rules or {}, "stake": stake,
                                                 "seats": [m["id"] for m in t["members"]]})
    assert r.status_code == 201, r.json
    return r.json


def _deal(rng, dealer):
    cards = sorted(sueca.PACK)
    rng.shuffle(cards)
    hands = [cards[i * 10:(i + 1) * 10] for i in range(4)]
    return {"dealer": dealer, "hands": hands, "trump": hands[dealer][-1]}


def _played(deal, rng):
    """The deal's tricks, played out at random by the rules."""
    rules = sueca.parse_rules({})
    state = sueca.new_hand(rules, sueca.deal_event(rules, deal).data)
    return play_out(sueca, state, lambda legal: rng.choice(list(legal)))[1]


def _balances(t):
    shown = t["member"].get(f"{t['base']}/balances").json
    assert shown["total"] == "0.00"
    return [minor(b["balance"]) for b in shown["balances"]]


def test_a_whole_hand_earns_what_the_rules_say_and_the_money_moves(kop_table):
    t, rng = kop_table, random.Random(5)
    without_confirmations(t)
    table = _table(t, stake="2.50")
    assert table["match"] == {"sides": [[0, 2], [1, 3]], "scores": [0, 0], "target": 4, "games": 0, "last_game": None}
    deal = _deal(rng, 0)
    tricks = _played(deal, rng)
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal,
                                                                      "tricks": [{"cards": c} for c in tricks]})
    assert r.status_code == 201, r.json
    s = r.json["settlement"]
    points, taken = oracle.hand_score(0, deal["trump"][-1], tricks)
    expected = oracle.settle(points, taken, stake=250)
    assert [side["points"] for side in s["sides"]] == points and s["match"]["hand"] == expected["counted"]
    assert [minor(p["amount"]) for p in s["payouts"]] == expected["amounts"]
    assert s["explanation"][0] == f"trump: {sueca.SUIT_NAMES[deal['trump'][-1]]}, the dealer's last card, " \
                                  f"{deal['trump']}"
    assert _balances(t) == expected["amounts"]
    shown = t["member"].get(f"{t['base']}/tables/{table['id']}").json
    assert shown["match"]["scores"] == expected["after"] and shown["next_dealer"] == 1


def _after(deal, tricks):
    rules = sueca.parse_rules({})
    state = sueca.new_hand(rules, sueca.deal_event(rules, deal).data)
    for cards in tricks:
        state = sueca.evolve(state, sueca.decide(state, Command("trick", {"cards": cards}))[0])
    return state


def _not_following(state, lead):
    """A card of the seat after the leader that does not follow ``lead``'s suit though the seat
    could; None when it holds only that suit, or none of it."""
    held = state.held[(state.leader + 1) % 4]
    if not any(c[-1] == lead[-1] for c in held):
        return None
    return next((c for c in held if c[-1] != lead[-1]), None)


def test_a_hand_trick_by_trick_then_a_card_at_a_time_refusing_a_card_that_does_not_follow(kop_table):
    t = kop_table
    table = _table(t)
    for seed in range(100):  # a hand whose fourth trick's second player could follow suit, and could not
        rng = random.Random(seed)
        deal = _deal(rng, 0)
        tricks = _played(deal, rng)
        state = _after(deal, tricks[:3])
        wrong_card = _not_following(state, tricks[3][0])
        if wrong_card:
            break
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal}).json
    assert (hand["phase"], hand["turn"], hand["trump"], hand["trump_name"]) == ("play", 1, deal["trump"],
                                                                                 sueca.SUIT_NAMES[deal["trump"][-1]])
    path = f"{t['base']}/hands/{hand['id']}"
    for number, cards in enumerate(tricks[:3], 1):
        r = t["member"].post(f"{path}/tricks", {"cards": cards})
        assert r.status_code == 201 and r.json["trick"] == number, r.json
    lead = t["member"].post(f"{path}/plays", {"seat": state.leader, "card": tricks[3][0]})
    assert lead.status_code == 201 and lead.json["hand"]["current"] == [{"seat": state.leader, "card": tricks[3][0]}]
    wrong = t["member"].post(f"{path}/plays", {"card": wrong_card})
    assert wrong.status_code == 422 and f"and must follow {sueca.SUIT_NAMES[tricks[3][0][-1]]}" in wrong.json["detail"]
    for card in tricks[3][1:] + [c for cards in tricks[4:] for c in cards]:  # no seat: the seat whose turn it is
        r = t["member"].post(f"{path}/plays", {"card": card})
        assert r.status_code == 201, r.json
    done = r.json["hand"]
    assert done["phase"] == "done" and len(done["tricks"]) == 10
    points, taken = oracle.hand_score(0, deal["trump"][-1], tricks)
    assert [side["points"] for side in done["settlement"]["sides"]] == points
    assert done["settlement"]["match"]["hand"] == oracle.settle(points, taken)["counted"]


def test_score_sheets_alone_to_the_end_of_a_match_whose_last_hand_counts_only_what_it_needs(kop_table):
    t = kop_table
    without_confirmations(t)
    table = _table(t)
    path = f"{t['base']}/tables/{table['id']}/hands"
    wrong = t["member"].post(path, {"result": {"points": [119, 1], "tricks": [9, 1]}})
    assert wrong.status_code == 422 and "side 0 cannot take 119 card points in 9 trick(s)" in wrong.json["detail"]
    assert t["member"].post(path, {"result": {"points": [60, 60]}}).status_code == 400
    for _ in range(3):  # 70 card points: one game each
        s = t["member"].post(path, {"result": {"points": [70, 50], "tricks": [6, 4]}}).json["settlement"]
        assert [p["amount"] for p in s["payouts"]] == ["1.00", "-1.00", "1.00", "-1.00"]
    r = t["member"].post(path, {"result": {"points": [120, 0], "tricks": [10, 0]}})  # a bandeira, at 3-0
    s = r.json["settlement"]
    assert (s["outcome"], s["match"]["hand"], s["match"]["after"], s["match"]["game_over"]) == ("bandeira", [1, 0],
                                                                                                 [4, 0], True)
    assert [p["amount"] for p in s["payouts"]] == ["1.00", "-1.00", "1.00", "-1.00"]  # one game, not four
    assert _balances(t) == [400, -400, 400, -400]
    shown = t["member"].get(f"{t['base']}/tables/{table['id']}").json["match"]
    assert shown["scores"] == [0, 0] and shown["games"] == 1 and shown["last_game"]["scores"] == [4, 0]
    s = t["member"].post(path, {"result": {"points": [60, 60], "tricks": [5, 5]}}).json["settlement"]
    assert s["outcome"] == "60-60" and s["payouts"] == [] and s["match"]["before"] == [0, 0]


def test_paid_by_the_match_nothing_moves_until_a_pair_wins_it(kop_table):
    t = kop_table
    without_confirmations(t)
    table = _table(t, {"stake_per": "match", "match_to": 3})
    path = f"{t['base']}/tables/{table['id']}/hands"
    for points, tricks, after in [([25, 95], [3, 7], [0, 2]), ([70, 50], [5, 5], [1, 2])]:
        s = t["member"].post(path, {"result": {"points": points, "tricks": tricks}}).json["settlement"]
        assert s["payouts"] == [] and s["match"]["after"] == after
    assert _balances(t) == [0, 0, 0, 0]
    s = t["member"].post(path, {"result": {"points": [10, 110], "tricks": [2, 8]}}).json["settlement"]
    assert s["match"]["after"] == [1, 3] and s["match"]["winners"] == [1]
    assert [p["amount"] for p in s["payouts"]] == ["-1.00", "1.00", "-1.00", "1.00"]
    assert _balances(t) == [-100, 100, -100, 100]


def test_a_deal_whose_trump_card_is_not_the_dealers_is_refused(kop_table):
    t, rng = kop_table, random.Random(2)
    table = _table(t)
    deal = _deal(rng, 0)
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": {**deal, "trump": deal["hands"][1][0]}})
    assert r.status_code == 422 and "must be one of the dealer's cards, seat 0's" in r.json["detail"], r.json


@ON_SQLITE
def test_a_hand_dealt_seat_by_seat_shows_everyone_the_trump_card_and_nobody_anothers_cards(kop_table, app):
    """The dealer turns up the trump card, then logs the nine others; each seat logs and plays
    its own cards from its own token; every read of every member is searched for a card it
    may not see; it settles as the same deal logged whole."""
    t, rng = kop_table, random.Random(11)
    deal = _deal(rng, 0)
    tricks = _played(deal, rng)
    table = Seats(t, app, "sueca", {}, 4)
    table.open()
    state = table.post(0, "cards", {"trump": deal["trump"]}, public=True)["hand"]
    assert state["trump"] == deal["trump"] and state["phase"] == "dealing"
    for reader in table.api[1:]:  # in sight of everyone, in the dealer's hand
        shown = reader.get(f"{table.base}/hands/{table.hand}").json
        assert shown["trump"] == deal["trump"] and deal["trump"] in shown["held"][0]
    table.post(0, "cards", {"seat": 0, "cards": [c for c in deal["hands"][0] if c != deal["trump"]]})
    for seat in range(1, 4):
        table.post(seat, "cards", {"seat": seat, "cards": deal["hands"][seat]})
    leader = 1
    for cards in tricks:
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            table.post(seat, "plays", {"seat": seat, "card": card})
        leader = (leader + oracle.taker(cards, deal["trump"][-1])) % 4
    settlement = table.done()
    same_money(settlement, whole(t, "sueca", {}, 4, {"deal": deal, "tricks": [{"cards": c} for c in tricks]}))
