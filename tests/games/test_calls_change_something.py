"""A phone offers only calls that change something, in words that say what they change, and
judged on what its seat may know (friction 5 of issue 43: "Re" offered to the partner of the
kontra it would count once with).

Over every game and preset (and a few rules more), random deals and random auctions (each
round, one seat makes one of the calls offered to it), for every seat at every step:
- each call offered changes the hand (what it pays, played out the same way, or how it is
  played: the contract, the sides, the cards) in the deal on the table or in another deal
  the seat may be facing (the cards it cannot see dealt otherwise, the calls so far as
  legal in it);
- a call that does not change the hand on the table is offered only in words that name the
  seat it depends on; a call that says "×N" makes the doubles count N;
- every call the rules take from the seat that changes the hand is offered;
- the seat is offered the same calls, in the same words, in every deal it may be facing:
  what it is offered never tells it another seat's cards.
"""
from __future__ import annotations

import random
import re
from math import prod

import pytest

from games.engine.autoplay import play_through
from games.engine.base import Command, TableTerms
from games.engine.errors import RuleViolation
from games.engine.seen import cards_in
from games.engine.table import deal_context
from games.registry import GAMES

MORE_RULES = {"kop": ({"wesele": "any-jack"}, {"max_doubles": None}, {"wesele_kontra": True}),
              "baska": ({"variant": "classic", "players": 5},)}
CASES = [pytest.param(name, dict(p.rules), p.players, id=f"{name}-{i}")
         for name, game in GAMES.items() for i, p in enumerate(game.words.presets)]
CASES += [pytest.param(name, rules, 4, id=f"{name}-{rules}") for name, more in MORE_RULES.items() for rules in more]
HANDS = 5  # random hands per case
TWINS = 10  # other deals each seat may be facing, tried at each step
TERMS = TableTerms(stake=100, members=tuple(f"m_{i:012x}" for i in range(6)))


def _every_call(game, state) -> list[dict]:
    jacks = [None, "JC", "JS", "JH", "JD"]
    return [{"call": c, **({"jack": j} if j else {})} for c in game.moves.calls(state) if c != "pass" for j in jacks
            if j is None or c == "wesele"]


def _bid(game, state, seat: int, body) -> object | None:
    """The state after ``seat`` makes the call ``body``; None when the rules refuse it."""
    try:
        events = game.decide(state, Command("bid", {"seat": seat, **body}))
    except RuleViolation:
        return None
    for event in events:
        state = game.evolve(state, event)
    return state


def _how_it_ends(game, state) -> tuple | None:
    """How the hand is played from here (its view, but the calls themselves) and what it pays,
    played out the same way (the first legal card each time); None while no card may be
    played yet (Baśka's cicha that cannot lose waits for a call)."""
    shown = {k: v for k, v in game.sight.view(state).items() if k not in ("calls", "doubles")}
    try:
        end, _ = play_through(game, state)
    except RuleViolation:
        return None
    s = game.settle(end, TERMS)
    return repr(shown), (s.outcome, s.contract, s.multiplier, s.units, s.amounts, repr(s.winner))


def _changes(game, state, seat: int, body) -> bool | None:
    """Whether ``seat``'s call ``body`` changes the hand (False: the rules refuse it; None:
    not to be told, while no card may be played)."""
    after = _bid(game, state, seat, body)
    if after is None:
        return False
    before, then = _how_it_ends(game, state), _how_it_ends(game, after)
    return None if before is None or then is None else before != then


def _doubles_make(game, state, seat: int, body, names: set[str]) -> int | None:
    """What the doubles (the calls ``names``) multiply the hand's payment by, played out
    after the call; None while no card may be played yet."""
    try:
        end, _ = play_through(game, _bid(game, state, seat, body))
    except RuleViolation:
        return None
    return prod(f.factor for f in game.settle(end, TERMS).factors if f.name in names)


def _twins(game, rules, deal: dict, calls: list[Command], seat: int, chance: random.Random, state) -> list:
    """Hands as they would stand in other deals ``seat`` may be facing: the cards it cannot
    see dealt otherwise, kept when every call so far is as legal in it."""
    seen = set(game.sight.visible(state, seat))
    hidden = sorted(cards_in(deal) - seen)
    out = []
    for _ in range(40 * TWINS):  # most deals of the cards hidden from it are not the seat's: a call says so
        if len(out) == TWINS:
            break
        moved = hidden[:]
        chance.shuffle(moved)
        swap = dict(zip(hidden, moved, strict=True))
        twin = game.initial_state(rules, _swapped(deal, swap))
        for command in calls:
            try:
                [event] = game.decide(twin, command)
            except RuleViolation:
                break
            twin = game.evolve(twin, event)
        else:
            out.append(twin)
    return out


def _swapped(value, swap: dict):
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, dict):
        return {k: _swapped(v, swap) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_swapped(v, swap) for v in value]
    return value


def _check_seat(game, rules, deal, calls, state, seat, chance) -> int:
    offered = list(game.moves.offers(state, seat))
    bodies = [dict(o.body) for o in offered]
    changing = [b for b in _every_call(game, state) if _changes(game, state, seat, b) is True]
    for body in changing:  # every call that changes the hand is offered (its jack unsaid where the rules choose it)
        assert body in bodies or {"call": body["call"]} in bodies, (seat, body, bodies)
    if not offered:
        return 0
    twins = _twins(game, rules, deal, calls, seat, chance, state)
    for twin in twins:  # what a seat is offered tells it nothing of the cards it cannot see
        assert [(dict(o.body), o.says) for o in game.moves.offers(twin, seat)] == [(b, o.says) for b, o in
                                                                             zip(bodies, offered, strict=True)]
    names = {c.data["call"] for c in calls}
    for offer, body in zip(offered, bodies, strict=True):
        if _changes(game, state, seat, body) is False:
            assert re.search(r"\bseat \d+\b", offer.says), offer.says  # it says whom it depends on
            assert any(_changes(game, twin, seat, body) is not False for twin in twins), offer.says
        times = re.search(r"×(\d+)", offer.says)
        made = _doubles_make(game, state, seat, body, names | {body["call"]}) if times else None
        assert made is None or made == int(times.group(1)), offer.says
    return len(offered)


@pytest.mark.parametrize("name, rules, players", CASES)
def test_every_call_offered_changes_something_as_its_seat_may_know(name, rules, players):
    game = GAMES[name]
    chance = random.Random(f"{name}{rules}")
    parsed = game.parse_rules(rules)
    for hand in range(HANDS):
        deck = sorted(game.sight.pack(parsed))
        chance.shuffle(deck)
        try:
            deal = {**game.parse_deal(parsed, game.moves.deals(parsed, deck, hand % players)).data,
                    **deal_context(game, parsed, None)}
        except RuleViolation:
            continue  # a deal the rules want dealt again
        _auction(game, parsed, deal, [], chance)


@pytest.mark.parametrize("name, rules", [("kop", {}), ("kop", {"wesele": "any-jack", "wesele_kontra": True}),
                                         ("baska", {}), ("baska", {"variant": "classic"})])
def test_after_a_wesele_too(name, rules):
    """Who plays with a wesele's caller is known only to the holder of its jack (and, where
    the rules choose the jack, not even to every holder of a jack): the doubles after it."""
    game = GAMES[name]
    chance, parsed = random.Random(f"wesele{name}{rules}"), game.parse_rules(rules)
    for _ in range(HANDS):
        rest = [c for c in sorted(game.sight.pack(parsed)) if c not in ("QC", "QS")]
        chance.shuffle(rest)
        hands = [rest[0:4], ["QC", "QS", *rest[4:6]], rest[6:10], rest[10:14]]
        deal = game.parse_deal(parsed, {"dealer": 0, "hands": hands}).data
        jack = next(j for j in ("JC", "JS", "JH", "JD") if j not in hands[1])
        wesele = {"seat": 1, "call": "wesele", **({"jack": jack} if rules.get("wesele") == "any-jack" else {})}
        _auction(game, parsed, deal, [Command("bid", wesele)], chance)


def _auction(game, rules, deal: dict, calls: list[Command], chance: random.Random) -> None:
    """The auction of ``deal`` after ``calls``, every seat checked at every step; each round
    one seat makes one of its calls (the last offered, a double where the ladder has one,
    every other time: so that doubles follow doubles)."""
    state = game.initial_state(rules, deal)
    for command in calls:
        [event] = game.decide(state, command)
        state = game.evolve(state, event)
    for _ in range(6):
        seats = range(len(game.moves.held(state)))
        offered = {seat: _check_seat(game, rules, deal, calls, state, seat, chance) for seat in seats}
        callers = [seat for seat, n in offered.items() if n]
        if not callers:
            return
        seat = chance.choice(callers)
        offers = list(game.moves.offers(state, seat))
        body = dict((offers[-1] if chance.random() < 0.5 else chance.choice(offers)).body)
        calls.append(Command("bid", {"seat": seat, **body}))
        [event] = game.decide(state, calls[-1])
        state = game.evolve(state, event)
