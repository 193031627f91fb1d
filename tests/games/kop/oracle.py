"""Kop read a second time from rules/kop.md, for tests: which card may be played, and what
a hand pays. Written apart from games/ on purpose, so that a misreading there shows here."""

TRUMPS = {
    "as-dycha": ["AH", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"],
    "as-trzy-dychy": ["AH", "10C", "10S", "10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D"],
    "gran": ["JC", "JS", "JH", "JD"],  # Baśka's gran: jacks only
}
PLAIN_ORDER = ["A", "10", "Q"]  # non-trumps: ace over ten over queen (queens are plain only in gran)


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


def oracle_winner(trick, ranking):
    """Index of the card that takes a whole trick: the highest trump, else the highest of the
    led suit."""
    trumps = TRUMPS[ranking]
    trumped = [i for i, c in enumerate(trick) if c in trumps]
    if trumped:
        return min(trumped, key=lambda i: trumps.index(trick[i]))
    led = [i for i, c in enumerate(trick) if c[-1] == trick[0][-1]]
    return min(led, key=lambda i: PLAIN_ORDER.index(trick[i][:-1]))


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
    return kop_money(contract, lone, side_a, points_a, tricks_a, doubles, stake)


def kop_money(contract, lone, side_a, points_a, tricks_a, doubles, stake):
    """The payouts once the sides are known: ``side_a`` the declaring side (stare), with its
    card points and tricks, and ``doubles`` the seats of the doubles in order."""
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
