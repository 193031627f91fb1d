"""Bisca read a second time from rules/bisca.md, for tests, apart from games/: who takes
each trick, the card points, Capixaba's bonuses and the game points a hand earns."""

RANKS = ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"]
CARD_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}


def _takes(cards, trump):
    best = cards[0]
    for c in cards[1:]:
        same_suit = c[-1] == best[-1]
        if (same_suit and RANKS.index(c[:-1]) < RANKS.index(best[:-1])) or (not same_suit and c[-1] == trump):
            best = c
    return cards.index(best)


def _bonus(cards, leader, winner, trump, team_of, last):
    seats = [(leader + i) % 4 for i in range(4)]
    ace, seven = "A" + trump, "7" + trump
    hearts = trump == "H"
    if seven not in cards:
        return None
    s = cards.index(seven)
    if ace not in cards:
        return (team_of(leader), 2 if hearts else 1) if s == 0 else None
    a = cards.index(ace)
    if s == 0 and a == 3:
        return team_of(winner), 3 if hearts else 2
    if a == s + 1:
        return team_of(seats[a]), 2 if hearts else 1
    if a < s and team_of(seats[a]) != team_of(seats[s]):
        return team_of(seats[a]), 4 if hearts else 2
    if team_of(seats[a]) == team_of(seats[s]) and not last:
        return 1 - team_of(seats[a]), 3 if hearts else 2
    return None


def game_points(variant, dealer, players, trump, tricks, match_before=(0, 0), match_to=4, conservative=False,
                majority_bonus=False):
    """Game points per side for a whole hand (or up to the trick that ended the match), and
    whether the match ended."""
    team_of = (lambda seat: seat) if players == 2 else (lambda seat: seat % 2)
    leader, won, taken, bonus = (dealer + 1) % players, [0, 0], [0, 0], [0, 0]
    for number, cards in enumerate(tricks, 1):
        winner = (leader + _takes(cards, trump)) % players
        won[team_of(winner)] += sum(CARD_POINTS.get(c[:-1], 0) for c in cards)
        taken[team_of(winner)] += 1
        if variant == "capixaba":
            found = _bonus(cards, leader, winner, trump, team_of, number == 10)  # a capixaba hand has 10 tricks
            if found:
                bonus[found[0]] += found[1]
                if any(match_before[s] + bonus[s] >= match_to for s in (0, 1)):
                    return bonus, True
        leader = winner
    hand = list(bonus)
    winner = 0 if won[0] >= 61 else (1 if won[1] >= 61 else None)
    if winner is None:
        return hand, False
    p, every = won[winner], taken[winner] == len(tricks)
    if variant == "tres" or conservative:
        g = 1
    elif variant == "nove":
        g = 4 if every else (2 if p >= 82 else 1)
    elif variant in ("seis", "quatro"):
        g = 4 if every else (2 if p >= 91 else 1)
    else:  # capixaba
        hearts = trump == "H"
        g = 4 if p == 120 else ((3 if hearts else 2) if p >= 90 else (2 if hearts else 1))
    hand[winner] += g + (1 if majority_bonus else 0)  # more card points (61+): one more game point
    ended = (variant == "capixaba" and p == 120) or any(match_before[s] + hand[s] >= match_to for s in (0, 1))
    return hand, ended
