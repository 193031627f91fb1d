"""Bisca's game points, Capixaba's rela bonuses, the match and its money (rules/bisca.md)."""
from __future__ import annotations

from events.sentences import heard, say

from ..engine.base import SIDES_BY_SEATS, Settlement, Side, TableTerms
from ..engine.cards import SUIT_NAMES

WIN = 61
MAJORITY_BONUS = 1  # rules.majority_bonus: to the side with more card points (61+)
# (lowest card points, game points) bands, highest first; "every trick" is checked apart.
BANDS = {
    "tres": ((61, 1),),
    "nove": ((82, 2), (61, 1)),
    "seis": ((91, 2), (61, 1)),
    "quatro": ((91, 2), (61, 1)),
}
EVERY_TRICK = {"nove": 4, "seis": 4, "quatro": 4}
CAPIXABA = {"win": (1, 2), "capote": (2, 3), "all-120": (4, 4)}  # (game points, with hearts trump)
# How the explanation says each: the words the log has always kept, "win" a word of the log
# for the other languages, and "all-120" a code of the game (said by the pages: game.CODES).
CAPIXABA_SAID = {"win": heard("win"), "capote": "capote", "all-120": "all-120"}
RELA = {  # name: (points, with hearts trump, rule)
    say("rela de roda"): (2, 3, say("the 7 of trumps led and beaten by the ace from the fourth player: to the trick's "
                               "winner")),
    "rela": (1, 2, say("the ace of trumps played directly after the 7 by the next player: to the ace's side")),
    "rela do as": (2, 4, say("the 7 of trumps played after the ace by an opponent of the ace's player: to the ace's "
                              "side")),
    "rela de parceiros": (2, 3, say("partners played the ace and the 7 of trumps in one trick: to the other side")),
    "rodar o 7": (1, 2, say("the 7 of trumps led and not beaten by the ace: to the leader's side")),
}


def rela_bonuses(state, trick) -> tuple[dict, ...]:
    """Capixaba: the bonus a trick scores the moment it is appended, if any."""
    trump, rules = state.trump_suit, state.rules
    cards = trick.cards
    seat_at = [(trick.leader + i) % rules.players for i in range(len(cards))]
    ace, seven = _index(cards, "A" + trump), _index(cards, "7" + trump)
    last = state.pile == 0 and max(len(h) for h in state.held) <= 1  # a card each at most: the last trick
    found = None
    if seven is not None and ace is None:
        if seven == 0:
            found = ("rodar o 7", rules.side_of(trick.leader))
    elif seven is not None:
        ace_side, seven_side = rules.side_of(seat_at[ace]), rules.side_of(seat_at[seven])
        if seven == 0 and ace == len(cards) - 1:  # Decision: before "directly after"
            found = (say("rela de roda"), rules.side_of(trick.winner))
        elif ace == seven + 1:
            found = ("rela", ace_side)
        elif seven > ace and seven_side != ace_side:
            found = (say("rela do as"), ace_side)
        elif seven_side == ace_side and not last:
            found = (say("rela de parceiros"), 1 - ace_side)
    if found is None:
        return ()
    name, side = found
    plain, hearts, rule = RELA[name]
    return ({"name": name, "side": side, "points": hearts if trump == "H" else plain, "rule": rule},)


def trump_line(state) -> str:
    """Which suit was trump and how it was chosen: a cut card, or Capixaba's knock."""
    suit = SUIT_NAMES[state.trump_suit]
    if state.cut is None:
        return say("trump: {suit}, by a knock (no card was turned)", suit=suit)
    return say("trump: {suit}, the suit of the card turned at the cut, {cut}", suit=suit, cut=state.cut)


def _index(cards, card: str) -> int | None:
    return cards.index(card) if card in cards else None


def match_won_by_bonuses(state) -> bool:
    return any(before + bonus >= state.rules.match_to
               for before, bonus in zip(state.match_before, state.bonus_points, strict=True))


def _card_points(state) -> tuple[list[int], list[int]]:
    if state.result is not None:
        return list(state.result["points"]), list(state.result["tricks"])
    n = len(state.rules.sides)
    won, taken = [0] * n, [0] * n
    for t in state.tricks:
        side = state.rules.side_of(t.winner)
        won[side] += t.points
        taken[side] += 1
    return won, taken


def _band(state, won: list[int], taken: list[int]) -> tuple[int | None, int, str, str]:
    """The hand's winner (a side, or None), its game points, the band's name and why."""
    rules = state.rules
    winner = next((s for s, p in enumerate(won) if p >= WIN), None)
    if winner is None:
        return None, 0, "60-60", say("60-60: nobody wins the hand")
    p = won[winner]
    if rules.variant == "capixaba":
        name = "all-120" if p == 120 else ("capote" if p >= 90 else "win")
        plain, hearts = CAPIXABA[name]
        points = hearts if state.trump_suit == "H" else plain
        return winner, points, name, say("{p} card points: {name}, {points:d} game "
                                         "point(s){knocked}",
                                         p=p, name=CAPIXABA_SAID[name], points=points,
                                         knocked=say(" (hearts are trump)") if state.trump_suit == "H" else "")
    if rules.conservative:
        return winner, 1, "win", say("{p} card points; conservative rules: any win is 1 game point", p=p)
    if rules.variant in EVERY_TRICK and taken[winner] == sum(taken):
        return winner, EVERY_TRICK[rules.variant], "every-trick", say("every trick taken: {bonus}",
                                                                      bonus=EVERY_TRICK[rules.variant])
    points = next(g for low, g in BANDS[rules.variant] if p >= low)
    name = "win" if points == 1 else f"{BANDS[rules.variant][0][0]}+"
    return winner, points, name, say("{p} card points: {points:d} game point(s)", p=p, points=points)


def settle(state, table: TableTerms) -> Settlement:
    rules, n = state.rules, len(state.rules.sides)
    won, taken = _card_points(state)
    bonuses = [b for t in state.tricks for b in t.bonuses]
    lines = [trump_line(state) if state.result is None
             else say("the cards of this hand were not logged: scored from its result")]
    if state.result is not None and any(state.result["bonus"]):
        lines.append(say("bonuses by side, as logged: {result_bonus}", result_bonus=state.result['bonus']))
    by_seats = table.rules_version >= SIDES_BY_SEATS
    lines += [_bonus_scored(rules.sides, b, t.number, by_seats) for t in state.tricks for b in t.bonuses]
    hand = list(state.bonus_points)
    over_mid_hand = match_won_by_bonuses(state)
    if over_mid_hand:
        winner, outcome = None, "match-ended-mid-hand"
        lines.append(say("the bonuses reach the match target: the match, and this hand, end here"))
    else:
        winner, band_points, outcome, why = _band(state, won, taken)
        sides = ", ".join(say("side {side} {points:d} in {tricks:d} tricks", side=s, points=won[s], tricks=taken[s])
                          for s in range(n))
        lines.append(say("card points: {sides}", sides=sides))
        lines.append(why)
        if winner is not None:
            hand[winner] += band_points
            if rules.majority_bonus:
                hand[winner] += MAJORITY_BONUS
                lines.append(_majority(rules.sides, winner, won[winner], by_seats))
    after = [b + h for b, h in zip(state.match_before, hand, strict=True)]
    champions = [s for s in range(n) if after[s] >= rules.match_to]
    if outcome == "all-120":
        champions = [winner]
        lines.append(say("all 120 card points win the match"))
    over = bool(champions)
    lines.append(say("match: {scores} (to {match_to}){won}",
                     scores=", ".join(f"side {s} {after[s]}" for s in range(n)),
                     match_to=rules.match_to,
                     won=_match_won(rules.sides, champions[0], by_seats) if over else ""))
    amounts = _money(rules, hand, champions, table.stake)
    sides = tuple(Side(rules.sides[s], f"side {s}", won[s], taken[s]) for s in range(n))
    match = {"before": list(state.match_before), "hand": hand, "after": after, "game_over": over,
             "winners": champions}
    pays = rules.stake_per == "game-point" or over
    # Each payment, player to player, is the stake times the game points one side took beyond
    # the other's (per game point), or once for the match won.
    units = abs(hand[0] - hand[1]) if rules.stake_per == "game-point" else int(over)
    return Settlement(outcome, rules.variant, sides, list(rules.sides[winner]) if winner is not None else None,
                      1, units, (), tuple(amounts), table.members, tuple(lines), {"match": match, "bonuses": bonuses},
                      pays=pays)


def _money(rules, hand: list[int], champions: list[int], stake: int) -> list[int]:
    """Per match: each losing player pays each winning one the stake. Per game point: every
    hand's game points are paid at once, the stake per point, player to player."""
    amounts = [0] * rules.players
    if rules.stake_per == "game-point":
        owed = [(s, p) for s, p in enumerate(hand) if p]
    else:
        owed = [(champions[0], 1)] if champions else []
    for side, times in owed:
        for loser in range(len(rules.sides)):
            if loser == side:
                continue
            for payer, payee in zip(rules.sides[loser], rules.sides[side], strict=True):
                amounts[payer] -= stake * times
                amounts[payee] += stake * times
    return amounts


# A sentence that has a side do something is written for a player alone ("side 0", named on
# a page by the player's name) and, from rules 3 on (``by_seats``), for a pair ("seats 0 and
# 2", two names), so that its verb agrees in English and in every translation. Seis's sides of
# three keep "side 0", as a settlement recorded under rules 2 does.

def _bonus_scored(sides, bonus, number: int, by_seats: bool) -> str:
    if len(sides[bonus["side"]]) == 2 and by_seats:
        seat, partner = sides[bonus["side"]]
        return say("{b_name} in trick {number:d}: seats {seat} and {partner} score {b_points:d} ({b_rule})",
                   b_name=bonus["name"], number=number, seat=seat, partner=partner, b_points=bonus["points"],
                   b_rule=bonus["rule"])
    return say("{b_name} in trick {number:d}: side {b_side} scores {b_points:d} ({b_rule})",
               b_name=bonus["name"], number=number, b_side=bonus["side"], b_points=bonus["points"],
               b_rule=bonus["rule"])


def _majority(sides, winner: int, card_points: int, by_seats: bool) -> str:
    if len(sides[winner]) == 2 and by_seats:
        seat, partner = sides[winner]
        return say("seats {seat} and {partner} have the majority of the card points ({won_winner}): {bonus} more "
                   "game point (majority_bonus)", seat=seat, partner=partner, won_winner=card_points,
                   bonus=MAJORITY_BONUS)
    return say("side {winner} has the majority of the card points ({won_winner}): {bonus} more game point "
               "(majority_bonus)", winner=winner, won_winner=card_points, bonus=MAJORITY_BONUS)


def _match_won(sides, side: int, by_seats: bool) -> str:
    if len(sides[side]) == 2 and by_seats:
        seat, partner = sides[side]
        return say("; seats {seat} and {partner} win the match", seat=seat, partner=partner)
    return say("; side {side} wins the match", side=side)
