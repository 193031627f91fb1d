"""Random legal Kop hands through the decider (hypothesis).

Each card the chooser plays is checked by an oracle written here straight from the rules
text, independent of games/tricks.py; the hand must then total 104 card points, and its
payouts sum to zero and equal those of a second reading of the rules, also written here.
"""
from hypothesis import given, settings, strategies as st

from games import kop
from games.base import Command, TableTerms
from games.errors import RuleViolation

TRUMPS = {
    "as-dycha": ["AH", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"],
    "as-trzy-dychy": ["AH", "10C", "10S", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"],
}
PLAIN_ORDER = ["A", "10"]  # non-trumps: ace over ten


def oracle_may_play(card, hand, trick, ranking):
    trumps = TRUMPS[ranking]

    def suit(c):
        return "trump" if c in trumps else c[-1]

    def strength(c):
        return (2, -trumps.index(c)) if c in trumps else (1, -PLAIN_ORDER.index(c[:-1]))

    def current_best():
        led = suit(trick[0])
        contenders = [c for c in trick if c in trumps] or [c for c in trick if suit(c) == led]
        return max(contenders, key=strength)

    if not trick:
        return card in hand
    led = suit(trick[0])
    best = current_best()
    follow = [c for c in hand if suit(c) == led]
    if follow:
        beating = [c for c in follow if _beats(c, best, led, suit, strength)]
        return card in (beating or follow)
    mine = [c for c in hand if c in trumps]
    if mine:
        played = [c for c in trick if c in trumps]
        top = max(played, key=strength) if played else None
        beating = [c for c in mine if top is None or strength(c) > strength(top)]
        return card in (beating or mine)
    return card in hand


def _beats(card, best, led, suit, strength):
    if suit(card) == suit(best):
        return strength(card) > strength(best)
    return suit(card) == "trump"


CALLS = ["pass", "wesele", "zolo", "zolo-du", "kontra", "re", "bok", "slup", "double"]


def oracle_amounts(hands, calls, tricks, stake):
    """What each seat wins or pays, read again from rules/kop.md (not from games/)."""
    holder = {card: seat for seat, cards in enumerate(hands) for card in cards}
    contract, caller, jack, doubles = None, None, None, []
    for seat, call, named in calls:
        if call in ("wesele", "zolo", "zolo-du"):
            contract, caller, jack, doubles = call, seat, named, []
        elif call != "pass":
            doubles.append(seat)
    if contract == "wesele":
        jack = jack or next(j for j in ("JC", "JS", "JH", "JD") if holder[j] != caller)
        lone, side_a = False, {caller, holder[jack]}
    elif contract in ("zolo", "zolo-du"):
        lone, side_a = True, {caller}
    elif holder["QC"] == holder["QS"]:
        contract, lone, side_a = "cicha", True, {holder["QC"]}
    else:
        contract, lone, side_a = "normal", False, {holder["QC"], holder["QS"]}
    points_a = sum(p for w, p in tricks if w in side_a)
    tricks_a = sum(1 for w, _ in tricks if w in side_a)
    if contract == "zolo-du":
        a_wins = tricks_a == 4
    elif points_a >= 53 or 104 - points_a >= 53:
        a_wins = points_a >= 53
    elif doubles:
        a_wins = doubles[-1] not in side_a
    else:
        a_wins = False
    runs = sum(1 for i, seat in enumerate(doubles) if i == 0 or (seat in side_a) != (doubles[i - 1] in side_a))
    loser_points, loser_tricks = (104 - points_a, 4 - tricks_a) if a_wins else (points_a, tricks_a)
    if lone:
        each = {"cicha": 4, "zolo": 5, "zolo-du": 10}[contract] * stake * 2 ** runs
        lone_gets = 3 * each if a_wins else -3 * each
        return [lone_gets if s in side_a else -lone_gets // 3 for s in range(4)]
    m = 3 if loser_tricks == 0 else (1 if loser_points >= 26 else 2)
    each = m * stake * 2 ** runs
    return [(each if a_wins else -each) * (1 if s in side_a else -1) for s in range(4)]


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(sorted(kop.PACK)),
    dealer=st.integers(0, 3),
    ranking=st.sampled_from(sorted(TRUMPS)),
    attempts=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(CALLS)), max_size=8),
    picks=st.lists(st.integers(0, 3), min_size=16, max_size=16),
    stake=st.integers(1, 10_000),
)
def test_random_legal_hands_total_104_and_pay_what_the_rules_say(order, dealer, ranking, attempts, picks, stake):
    hands = [order[i * 4:(i + 1) * 4] for i in range(4)]
    state = kop.new_hand(kop.parse_rules({"ranking": ranking}), {"dealer": dealer, "hands": hands})
    accepted = []
    for seat, call in attempts:
        try:
            [event] = kop.decide(state, Command("bid", {"seat": seat, "call": call}))
        except RuleViolation:
            continue
        state = kop.evolve(state, event)
        accepted.append((seat, event.data["call"], event.data.get("jack")))
    pick = iter(picks)
    while not kop.is_over(state):
        leader, played = state.leader, []
        for i in range(4):
            seat = (leader + i) % 4
            legal = kop.legal_cards(state, seat, tuple(played))
            card = legal[next(pick) % len(legal)]
            assert oracle_may_play(card, state.held[seat], played, ranking)
            for other in state.held[seat]:
                assert (other in legal) == oracle_may_play(other, state.held[seat], played, ranking)
            played.append(card)
        [event] = kop.decide(state, Command("trick", {"cards": played}))
        state = kop.evolve(state, event)
    assert sum(t.points for t in state.tricks) == 104
    assert sorted(c for t in state.tricks for c in t.cards) == sorted(kop.PACK)
    s = kop.settle(state, TableTerms(stake, ("a", "b", "c", "d")))
    assert sum(s.amounts) == 0
    assert all(a % stake == 0 and a != 0 for a in s.amounts)
    assert list(s.amounts) == oracle_amounts(hands, accepted, [(t.winner, t.points) for t in state.tricks], stake)
    assert sum(side.points for side in s.sides) == 104
