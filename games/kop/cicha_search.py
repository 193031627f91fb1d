"""Can a silent holder of both black queens lose? A search of the four tricks.

Baśka's tournament rules forbid a cicha that cannot be lost. With every hand known, the
cicha player wins if some card of theirs, at each of their turns, keeps 53 card points in
reach against every card the three others may answer with: an AND/OR search over the
legal cards, stopped as soon as the answer is sure (53 already taken, or no longer
reachable), and remembered per position.
"""
from __future__ import annotations

from typing import Sequence

from ..engine.tricks import Ranking, legal_cards, winner_index
from .pack import POINTS_OF as CARD_POINTS
from .turns import PLAYERS, Turns

WIN = 53


def cannot_lose(hands: Sequence[Sequence[str]], leader: int, player: int, ranking: Ranking, turns: Turns) -> bool:
    """True when ``player`` takes 53 or more whatever the others play (all four tricks to come)."""
    held = tuple(tuple(sorted(h, key=_strength(ranking))) for h in hands)
    left = sum(CARD_POINTS[c] for hand in held for c in hand)
    return _Search(player, ranking, turns).wins(held, leader, (), 0, left)


def _strength(ranking: Ranking):
    """Strong cards first: a winning line is usually found, or refuted, by the strong ones."""
    order = {c: i for i, c in enumerate(ranking.trumps)}
    for cards in ranking.plain.values():
        order.update({c: len(ranking.trumps) + i for i, c in enumerate(cards)})
    return lambda card: order[card]


class _Search:
    def __init__(self, player: int, ranking: Ranking, turns: Turns):
        self.player, self.ranking, self.seen = player, ranking, {}
        self.trick = turns.rounds  # from each leader, the players of the trick in order
        self.legal: dict[tuple, list[str]] = {}  # (hand, trick so far) -> legal cards
        self.taker: dict[tuple, int] = {}  # a whole trick -> index of the card that takes it

    def wins(self, held, leader: int, trick: tuple, points: int, left: int) -> bool:
        """``left``: the card points not yet won by anybody (in hands or on the table)."""
        if points >= WIN:
            return True
        if points + left < WIN:
            return False
        key = (held, leader, trick, points)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self._decide(held, leader, trick, points, left)
        return found

    def _decide(self, held, leader: int, trick: tuple, points: int, left: int) -> bool:
        """Some card of the player's wins (an OR node); every card of the others' fails to
        stop it (an AND node). One loop for both, so that the search stops at the first
        card that settles the node."""
        seat = self.trick[leader][len(trick)]
        mine = seat == self.player
        hand = held[seat]
        legal = self.legal.get((hand, trick))
        if legal is None:
            legal = self.legal[(hand, trick)] = legal_cards(hand, trick, self.ranking)
        for card in legal:
            at = hand.index(card)
            after = held[:seat] + (hand[:at] + hand[at + 1:],) + held[seat + 1:]
            played = trick + (card,)
            if len(played) < PLAYERS:
                won = self.wins(after, leader, played, points, left)
            else:
                index = self.taker.get(played)
                if index is None:
                    index = self.taker[played] = winner_index(played, self.ranking)
                taken = sum(map(CARD_POINTS.__getitem__, played))
                winner = self.trick[leader][index]
                won = self.wins(after, winner, (), points + taken if winner == self.player else points, left - taken)
            if won == mine:
                return mine
        return not mine
