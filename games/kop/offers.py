"""The calls of Kop's ladder (and Baśka's, on the same auction) a seat could make now, as its
phone offers them, before the rules judge them (``call_offers.accepted`` keeps those that
``decide`` takes): each contract in rank order, wesele with the partner it brings, and the
next double."""
from __future__ import annotations

from events.sentences import say

from ..engine.contract import Offer
from . import auction as auc


def ladder_offers(state, seat: int) -> list[Offer]:
    """Every call of a Kop-engine ladder that could be made by ``seat`` now, before the
    rules judge it: the contracts in rank order, then the next double."""
    ladder, hand = state.rules.ladder, state.deal[seat]
    offers = []
    for contract in ladder.contracts:
        if contract == "wesele":
            offers += _wesele(state.rules, hand)
        else:
            offers.append(Offer({"call": contract}, _contract_says(contract)))
    double = auc.next_double_name(len(state.auction.doubles), ladder)
    word = double.capitalize()
    offers.append(Offer({"call": double}, say("{word}: you double what this hand pays", word=word)))
    return offers


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
