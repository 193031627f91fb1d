"""Baśka's money read a second time from rules/baska.md, for tests, apart from games/."""

CONTRACTS = ("wesele", "gran", "zolo", "gran-du", "zolo-du", "baska")
WON = {"bytow-2005": {"cicha": 8, "gran": 10, "zolo": 10, "gran-du": 20, "zolo-du": 20},
       "classic": {"cicha": 4, "gran": 5, "zolo": 5, "gran-du": 10, "zolo-du": 10, "baska": 10}}
PAIRS = {"bytow-2005": {"wyjscie": 2, "bez-wyjscia": 4, "bez-bitki": 6},
         "classic": {"wyjscie": 1, "bez-wyjscia": 2, "bez-bitki": 3}}


def bok_due(calls, tricks, hands, variant):
    """bytow-2005: any 52-52, and every du contract, make a bok-runda due."""
    if variant != "bytow-2005":
        return False
    contract = next((c for _, c, _ in reversed(calls) if c in CONTRACTS), None)
    if contract in ("gran-du", "zolo-du"):
        return True
    if contract == "baska" or not tricks:
        return False
    holder = {card: seat for seat, cards in enumerate(hands) for card in cards}
    caller = next((s for s, c, _ in reversed(calls) if c in CONTRACTS), None)
    if contract == "wesele":
        side = {caller, holder[next(j for j in ("JC", "JS", "JH") if holder[j] != caller)]}
    elif contract is not None:
        side = {caller}
    else:
        side = {holder["QC"], holder["QS"]}
    return sum(p for w, p in tricks if w in side) == 52


def baska_amounts(hands, calls, tricks, variant, bok_runda, stake):
    holder = {card: seat for seat, cards in enumerate(hands) for card in cards}
    contract, caller, doubles = None, None, []
    for seat, call, _ in calls:
        if call in CONTRACTS:
            contract, caller, doubles = call, seat, []
        elif call != "pass":
            doubles.append(seat)
    if contract == "baska":
        return [30 * stake if s == caller else -10 * stake for s in range(4)]
    if contract == "wesele":
        jack = next(j for j in ("JC", "JS", "JH") if holder[j] != caller)
        lone, side_a = False, {caller, holder[jack]}
    elif contract is not None:
        lone, side_a = True, {caller}
    elif holder["QC"] == holder["QS"]:
        contract, lone, side_a = "cicha", True, {holder["QC"]}
    else:
        contract, lone, side_a = "normal", False, {holder["QC"], holder["QS"]}
    points_a = sum(p for w, p in tricks if w in side_a)
    tricks_a = sum(1 for w, _ in tricks if w in side_a)
    return baska_money(contract, lone, side_a, points_a, tricks_a, doubles, variant, bok_runda, stake)


def baska_money(contract, lone, side_a, points_a, tricks_a, doubles, variant, bok_runda, stake):
    """The payouts once the sides are known (as kop_money), in a bok-runda or not."""
    if contract in ("gran-du", "zolo-du"):
        a_wins = tricks_a == 4
    elif points_a != 52:
        a_wins = points_a >= 53
    elif variant == "classic" and doubles:
        a_wins = doubles[-1] not in side_a
    else:
        a_wins = False
    runs = sum(1 for i, s in enumerate(doubles) if i == 0 or (s in side_a) != (doubles[i - 1] in side_a))
    loser_points, loser_tricks = (104 - points_a, 4 - tricks_a) if a_wins else (points_a, tricks_a)
    outcome = "bez-bitki" if loser_tricks == 0 else ("wyjscie" if loser_points >= 26 else "bez-wyjscia")
    if lone:
        each = WON[variant][contract] * (1 if a_wins else 2)
    else:
        each = PAIRS[variant][outcome] * (1 if a_wins else 2)
    each *= 2 ** runs * (2 if bok_runda and variant == "bytow-2005" else 1)  # 6400% at most: no cap
    each *= stake
    if lone:
        return [(3 * each if a_wins else -3 * each) if s in side_a else (-each if a_wins else each) for s in range(4)]
    return [(each if a_wins else -each) * (1 if s in side_a else -1) for s in range(4)]
