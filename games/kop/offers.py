"""The calls of Kop's ladder (and Baśka's, on the same auction) a seat could make now, as its
phone offers them, before the rules judge them (``call_offers.accepted`` keeps those that
``decide`` takes): each contract in rank order, wesele with the partner it brings, and the
next double, each in words that say what it changes. A double that would count once with
the double before it (made by the same side) changes nothing and is not offered; whether it
would is judged on what the seat may know (``sides_known``), and where that depends on who
holds what, the double's words say so.
"""
from __future__ import annotations

from typing import Callable

from events.sentences import say

from ..engine.contract import Offer
from . import auction as auc
from . import sides_known


def ladder_offers(state, seat: int, decide: Callable, evolve: Callable) -> list[Offer]:
    """Every call of a Kop-engine ladder that could be made by ``seat`` now and would change
    something, before the rules judge it: the contracts in rank order, then the next double
    (the game's ``decide`` and ``evolve`` judge the calls so far again in each deal the
    seat may be facing). None before every seat's cards are in, nor once play has begun,
    nor to a seat sitting the hand out."""
    if not state.complete or state.tricks or state.current or seat not in state.turns.players:
        return []
    ladder, hand = state.rules.ladder, state.deal[seat]
    offers = []
    for contract in ladder.contracts:
        if contract == "wesele":
            offers += [_cancelling(state, o) for o in _wesele(state.rules, hand)]
        else:
            offers.append(_cancelling(state, Offer({"call": contract}, _contract_says(contract))))
    double = _double(state, seat, decide, evolve)
    return offers + ([double] if double else [])


def _cancelling(state, offer: Offer) -> Offer:
    """A contract's offer, saying that the doubles standing no longer count after it."""
    if not state.auction.doubles:
        return offer
    return Offer(offer.body, say("{says}; the doubles called so far no longer count", says=offer.says))


def _double(state, seat: int, decide: Callable, evolve: Callable) -> Offer | None:
    """The next double, if it would change what the hand pays as far as ``seat`` may know:
    with no double standing it doubles the hand; after one it counts only if the side of
    the double before it is not ``seat``'s."""
    name = auc.next_double_name(len(state.auction.doubles), state.rules.ladder)
    word = name.capitalize()
    if not state.auction.doubles:
        return Offer({"call": name}, say("{word}: you double what this hand pays", word=word))
    seen = sides_known.double(decide, evolve, state, seat)
    if not seen.sometimes:
        return None  # the seat's own side made the double standing: this one would count once with it
    if not seen.always:
        return Offer({"call": name}, say(
            # One sentence, no "; ": the page reads a logged sentence back clause by clause.
            "{word}: you double what this hand pays again if seat {seat} plays against you, and change nothing if "
            "seat {seat} plays with you (it counts once with their {double})",
            word=word, seat=seen.last.seat, double=seen.last.call))
    if len(seen.multipliers) == 1:
        [multiplier] = seen.multipliers
        return Offer({"call": name}, say("{word}: you double what this hand pays again; the doubles make "
                                         "×{multiplier:d}",
                                         word=word, multiplier=multiplier))
    return Offer({"call": name}, say("{word}: you double what this hand pays again", word=word))


def _wesele(rules, hand) -> list[Offer]:
    if any(q not in hand for q in auc.BLACK_QUEENS):
        return []  # only the holder of both black queens calls it
    if rules.wesele != "any-jack":  # the rules choose the jack: the call leaves it out, unsaid
        jack = auc.wesele_jack(hand)
        return [Offer({"call": "wesele"}, say("Wesele: the holder of {jack} plays with you against the other two",
                                              jack=jack))]
    return [Offer({"call": "wesele", "jack": jack},
                  say("Wesele: the holder of {jack} plays with you against the other two", jack=jack))
            for jack in auc.JACKS_HIGH_TO_LOW if jack not in hand]


def _contract_says(contract: str) -> str:
    match contract:
        case "zolo":
            return say("Zolo: you play alone against three and win with 53 card points")
        case "zolo-du":
            return say("Zolo-du: you play alone against three and must take all four tricks")
        case "gran":
            return say("Gran: you play alone against three, only the jacks are trumps, and win with 53 card points")
        case "gran-du":
            return say("Gran-du: you play alone against three, only the jacks are trumps, and must take all four "
                       "tricks")
        case "baska":
            return say("Baska: you hold all four queens and win the hand at once")
    return say("{contract}: a contract of this game", contract=contract)
