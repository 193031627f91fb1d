"""Sueca read a second time from rules/sueca.md, for tests, apart from games/: which cards
may be played, who takes each trick, the card points, the games a hand is worth, the match
with its cap, the money, and which score sheets ten tricks could give."""

HIGH_TO_LOW = "A 7 K J Q 6 5 4 3 2".split()
CARD_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
PACK = [r + s for s in "CSHD" for r in HIGH_TO_LOW]
PARTNERS = {0: (0, 2), 1: (1, 3)}  # side -> its seats, sitting opposite


def team(seat):
    return 0 if seat in PARTNERS[0] else 1


def value(card):
    return CARD_POINTS.get(card[:-1], 0)


def may_play(hand, trick_so_far):
    """"A player must follow the suit led when able; otherwise any card may be played.\""""
    if not trick_so_far:
        return sorted(hand)
    suit = trick_so_far[0][-1]
    follow = [c for c in hand if c.endswith(suit)]
    return sorted(follow if follow else hand)


def taker(cards, trump_suit):
    """Index of the card that takes the trick: the highest trump, else the highest card of
    the suit led."""
    trumps = [c for c in cards if c[-1] == trump_suit]
    pool = trumps if trumps else [c for c in cards if c[-1] == cards[0][-1]]
    best = min(pool, key=lambda c: HIGH_TO_LOW.index(c[:-1]))
    return cards.index(best)


def hand_score(dealer, trump_suit, tricks):
    """Card points and tricks per side of tricks played in order from the seat after the dealer."""
    seat, points, taken = (dealer + 1) % 4, [0, 0], [0, 0]
    for cards in tricks:
        seat = (seat + taker(cards, trump_suit)) % 4
        points[team(seat)] += sum(value(c) for c in cards)
        taken[team(seat)] += 1
    return points, taken


def worth(points, tricks, bandeira="points"):
    """(winning side or None, games): 61-90 one, 91-119 two, 120 four (by tricks: only with
    all ten tricks, else two); 60-60 nobody."""
    for side in (0, 1):
        p = points[side]
        if p < 61:
            continue
        if p == 120:
            return side, 4 if (bandeira == "points" or tricks[side] == 10) else 2
        return side, 2 if p > 90 else 1
    return None, 0


def settle(points, tricks, before=(0, 0), match_to=4, bandeira="points", stake_per="game", stake=100):
    """What a hand does to the match and the money: the games counted per side, the match
    after it, whether it ended, and each seat's amount."""
    side, games = worth(points, tricks, bandeira)
    counted = [0, 0]
    if side is not None:
        counted[side] = min(games, match_to - before[side])  # no games beyond what the match needs
    after = [before[0] + counted[0], before[1] + counted[1]]
    over = any(score >= match_to for score in after)
    amounts = [0, 0, 0, 0]
    if stake_per == "game" and side is not None:
        for seat in range(4):
            amounts[seat] = stake * counted[side] * (1 if team(seat) == side else -1)
    if stake_per == "match" and over:
        champion = 0 if after[0] >= match_to else 1
        for seat in range(4):
            amounts[seat] = stake * (1 if team(seat) == champion else -1)
    return {"counted": counted, "after": after, "over": over, "amounts": amounts}


def _takings():
    """Every (cards, card points) that some cards of the pack make, the pack read card by card."""
    reachable = {(0, 0)}
    for card in PACK:
        reachable |= {(n + 1, p + value(card)) for n, p in reachable}
    return frozenset(reachable)


TAKINGS = _takings()


def possible(points, tricks):
    """Could a side take ``points`` card points in ``tricks`` tricks of four cards?"""
    return (4 * tricks, points) in TAKINGS
