"""The one test every registered game passes (over ``GAMES`` and each of its presets, the
way OpenSpiel runs its random-simulation test over each game): random legal hands played
to the end, dealt whole and seat by seat, through nothing but the ``Game`` contract; every
other hand the last its game or match needs (each side one short of the target), so that a
game that pays only then pays in it.

At every step: the view holds the keys bitka reads, in the shapes ``view_keys`` declares
(dealing, auction, play and done alike); the game decides each event again (``redecide``:
the log's audit), and each trick played a card at a time is the trick its cards make logged
whole; every reader (each
seat, and nobody seated) may see (``visible``) only its own cards, those played and those
face up on the table now or before, and is served exactly the cards of the view it may
see: none hidden from it, none on the table hidden; and what it is served tells it nothing
of a card hidden from it that names no card either (``_worlds_alike``: the same hand with two
hidden cards each in the other's place serves it the same bytes while the same requests
stay legal in both); every sentence the game writes (each
event in words, the settlement's explanation) is a catalog message in every language. At
the end: the hand dealt seat by seat settles exactly as the same hand dealt whole, so does
the hand logged by its score sheet alone (``Game.forms.sheet``: the same outcome, winner,
payments and what the table learns), and the payments are each the stake times the
settlement's units and multiplier, player to player. A page opens a table from each preset.
"""
from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass

import pytest

from events.types import HAND_EVENTS
from games.engine.base import Command, Event, TableTerms
from games.engine import view_keys as keys
from games.engine.errors import RuleViolation
from games.engine.seen import cards_in
from games.engine.table import NO_BOK, after_settlement, carried_after, deal_context
from games.registry import GAMES
from projections.redecide import refused
from projections.settlements import settlement_data
from service.i18n import phrases
from tests.api import test_evening_pages as pages

LANGUAGES = ("pl", "it", "pt_BR")
HANDS = 6  # random hands per preset, each dealt whole and seat by seat
ON_THE_TABLE = (keys.TABLE_CARDS, keys.TRUMP, keys.CURRENT, "captured")  # a view's cards face up (and each trick's)
CASES = [pytest.param(name, i, id=f"{name}-{i}") for name, game in GAMES.items()
         for i in range(len(game.words.presets))]


@dataclass(frozen=True)
class _Logged:
    """An event as the log keeps it, for ``redecide``."""
    type: str
    data: dict


def _deal(game, rules, chance: random.Random, dealer: int) -> Event:
    """A deal of a shuffled pack the rules accept (a deal the rules want redealt is dealt again)."""
    for _ in range(100):
        deck = sorted(game.sight.pack(rules))
        chance.shuffle(deck)
        try:
            return game.parse_deal(rules, game.moves.deals(rules, deck, dealer))
        except RuleViolation:
            continue
    raise AssertionError(f"{game.name}: no deal of 100 the rules accept")


class _Hand:
    """A hand of ``game`` followed step by step, every step checked."""

    def __init__(self, game, rules, opened: Event, match: dict | None):
        self.game, self.rules, self.match = game, rules, match
        self.pack = frozenset(game.sight.pack(rules))
        recorded = {**opened.data, **deal_context(game, rules, match)}  # the deal event as the log keeps it
        self.state = game.initial_state(rules, recorded)
        self.seats, self.dealer = len(game.moves.held(self.state)), opened.data["dealer"]
        self.said: list[str] = [game.words.describe("deal", recorded, self.who)]
        self.face_up: set[str] = set()  # every card the view has shown face up so far
        self.phases: set[str] = set()  # every phase the view has said
        self.commands: list[Command] = []  # every command the hand took, in order
        self.check_readers()

    @staticmethod
    def who(seat: int) -> str:
        return f"seat {seat} (Ala)"

    def do(self, command: Command) -> list[Event]:
        events = self.game.decide(self.state, command)
        assert events and all(e.type in HAND_EVENTS for e in events), f"{self.game.name}: {[e.type for e in events]}"
        why, rest = refused(self.game, self.state, _Logged(events[0].type, dict(events[0].data)))
        assert why is None, f"{self.game.name}: the game refuses, decided again, its own {events[0].type}: {why}"
        assert [(e.type, dict(e.data)) for e in rest] == [(e.type, dict(e.data)) for e in events[1:]]
        self.commands.append(command)
        for event in events:
            self.state = self.game.evolve(self.state, event)
            self.said.append(self.game.words.describe(event.type, event.data, self.who))
            self.check_readers()
        return events

    def check_view(self) -> dict:
        """The view now, holding the keys bitka reads in the shapes declared (view_keys.py),
        its phase one of a hand in play until the hand is over, and ``done`` then."""
        game, view = self.game, self.game.sight.view(self.state)
        wrong = keys.wrong(view)
        assert not wrong, f"{game.name}: its view in phase {view.get(keys.PHASE)!r}: " + "; ".join(wrong)
        over = game.is_terminal(self.state)
        assert (keys.phase(view) == keys.DONE) == over, f"{game.name}: phase {keys.phase(view)}, over: {over}"
        assert keys.dealer(view) == self.dealer, f"{game.name}: dealer {keys.dealer(view)}, not {self.dealer}"
        self.phases.add(keys.phase(view))
        return view

    def check_readers(self) -> None:
        game, state = self.game, self.state
        view = self.check_view()
        if game.is_terminal(state):
            return
        on_table = frozenset().union(*(cards_in(view[k]) for k in ON_THE_TABLE if k in view),
                                     *(cards_in(t["cards"]) for t in view.get(keys.TRICKS) or ()))
        self.face_up |= on_table
        played, in_view = frozenset(game.sight.played(state)), cards_in(view)
        for seat in (None, *range(self.seats)):
            # What the game puts in a reader's sight is checked against what the table shows,
            # not taken on its word: its own cards, those played, those face up now or before
            # (a card cut for trumps and swapped into a hand was seen going there).
            own = frozenset(game.moves.held(state)[seat]) if seat is not None else frozenset()
            others = game.sight.visible(state, seat) - own - played - self.face_up
            assert not others, f"{game.name}: seat {seat} may see {sorted(others)}, neither its own nor face up"
            hidden = self.pack - game.sight.visible(state, seat) - played
            shown = game.sight.conceal(state, view, hidden)
            leaked = cards_in(shown) & hidden
            assert not leaked, f"{game.name}: seat {seat} is shown {sorted(leaked)}"
            assert not on_table & hidden, f"{game.name}: {sorted(on_table & hidden)} on the table hidden from {seat}"
            withheld = in_view - hidden - cards_in(shown)
            assert not withheld, f"{game.name}: seat {seat} may see {sorted(withheld)} but is not shown it"

    def calls(self, chance: random.Random) -> list[Command]:
        """Some of the calls the phones offer now, before the first card."""
        made = []
        for _ in range(chance.randrange(3)):
            seat = chance.randrange(self.seats)
            offers = list(self.game.moves.offers(self.state, seat))
            if not offers:
                break
            made.append(Command("bid", {"seat": seat, **chance.choice(offers).body}))
            self.do(made[-1])
        return made

    def check_trick_whole(self, before, after_one, cards: list[str], made: list[Event]) -> None:
        """The trick whose cards were just played one by one, logged whole from the hand as it
        stood before its first card (as a scorer logs it, and as ``redecide`` judges a trick
        of the log): the same trick event. Not with a field besides its cards, nor once its
        first card was played alone."""
        tricks = [(e.type, dict(e.data)) for e in made if e.type == "trick"]
        whole = [(e.type, dict(e.data)) for e in self.game.decide(before, Command("trick", {"cards": cards}))]
        assert whole == tricks, f"{self.game.name}: {cards} logged whole make {whole}, played one by one {tricks}"
        for state, data in ((before, {"cards": cards, "leader": 0}), (after_one, {"cards": cards})):
            with pytest.raises(RuleViolation):
                self.game.decide(state, Command("trick", data))

    def next_move(self, chance: random.Random) -> list[Command]:
        """The next trick card by card (each among the legal cards), or the next play."""
        game, state = self.game, self.state
        if game.capabilities.logged_by == "plays":
            return [Command("play", dict(chance.choice(game.moves.legal_plays(state))))]
        seats, cards = game.trick_seats(state), []
        for seat in seats:
            cards.append(chance.choice(game.moves.legal_cards(state, seat, tuple(cards))))
        return [Command("play", {"seat": seat, "card": c}) for seat, c in zip(seats, cards, strict=True)]


def _swapped(value, x: str, y: str):
    """``value`` with the cards ``x`` and ``y`` each in the other's place."""
    if isinstance(value, str):
        return {x: y, y: x}.get(value, value)
    if isinstance(value, dict):
        return {k: _swapped(v, x, y) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_swapped(v, x, y) for v in value]
    return value


def _served(game, pack: frozenset[str], state, seat: int | None) -> tuple[frozenset[str], str]:
    """What a reader in ``seat`` is served of a hand in play: the cards hidden from it, and
    as bytes its view (``conceal``), whose turn it is, the calls open, what is owed and,
    to a seated reader, the calls its phone offers and the cards it may play now."""
    hidden = pack - game.sight.visible(state, seat) - frozenset(game.sight.played(state))
    served = {"view": game.sight.conceal(state, game.sight.view(state), hidden), "turn": game.moves.turn(state),
              "calls": list(game.moves.calls(state)), "owed": dict(game.moves.owed(state))}
    if seat is not None:
        served["offers"] = [(dict(o.body), o.says) for o in game.moves.offers(state, seat)]
        if game.moves.turn(state) == seat and game.capabilities.logged_by == "tricks":
            on_table = keys.on_table(game.sight.view(state))
            served["legal"] = list(game.moves.legal_cards(state, seat, on_table))
    return hidden, json.dumps(served, default=sorted)


def _worlds_alike(game, rules, hand: "_Hand", opened: Event, chance: random.Random, pairs: int = 2) -> None:
    """For every reader, a few other worlds: the hand as dealt, but for two cards hidden from
    the reader at the deal, held in two places (two seats, or a seat and the rest of the
    pack), each in the other's place; the same commands. While both worlds take each of
    them and both cards stay hidden from it, the reader is served the same bytes in both: a
    view that tells where a hidden card lies without naming it (the suits a seat no longer
    holds, a count of its trumps, the sides its cards make) is caught here."""
    context = deal_context(game, rules, hand.match)
    start = game.initial_state(rules, {**opened.data, **context})
    holder = {c: s for s, cards in enumerate(opened.data["hands"]) for c in cards}
    for seat in (None, *range(hand.seats)):
        hidden, _ = _served(game, hand.pack, start, seat)
        candidates = sorted(hidden)
        tried = [(x, y) for x, y in (chance.sample(candidates, 2) for _ in range(20) if len(candidates) > 1)
                 if holder.get(x) != holder.get(y)][:pairs]
        for x, y in tried:
            a, b = start, game.initial_state(rules, {**_swapped(dict(opened.data), x, y), **context})
            for step, command in enumerate([None, *hand.commands]):
                if command is not None:
                    try:
                        after = [game.decide(w, command) for w in (a, b)]
                    except RuleViolation:
                        break  # the command tells the worlds apart: the other one is not the table's
                    for event in after[0]:
                        a = game.evolve(a, event)
                    for event in after[1]:
                        b = game.evolve(b, event)
                if game.is_terminal(a) or game.is_terminal(b):
                    break
                (hidden_a, served_a), (hidden_b, served_b) = (_served(game, hand.pack, w, seat) for w in (a, b))
                if not {x, y} <= hidden_a & hidden_b:
                    break  # one of the two came into its sight
                assert hidden_a == hidden_b and served_a == served_b, (
                    f"{game.name}: seat {seat} tells apart the worlds where {x} and {y} swap places, "
                    f"after {step} command(s):\n{served_a}\n{served_b}")


def _owed_cards(game, whole: _Hand, seats: _Hand, deal: dict) -> list[Command]:
    """What the hand dealt seat by seat still owes, as the seats and the dealer log it:
    each seat the cards it now holds in the whole hand, the face-up cards as dealt."""
    out = []
    for key in sorted(game.moves.owed(seats.state)):
        if key.isdigit():
            known = set(c for c in game.moves.held(seats.state)[int(key)] if c)
            cards = [c for c in game.moves.held(whole.state)[int(key)] if c not in known]
            out.append(Command("cards", {"seat": int(key), "cards": cards}))
        else:
            out.append(Command("cards", {key: deal[key]}))
    return out


def _kept_words() -> frozenset[str]:
    """Words a sentence keeps in every language: the games' own terms, their titles and
    presets' titles, which a translation may say as they are."""
    kept = set()
    for game in GAMES.values():
        kept |= {w.lower() for w in re.findall(r"[^\W\d_]+", game.title)}
        for term in game.words.glossary:
            kept |= {w.lower() for w in re.findall(r"[^\W\d_]+", term.word)}
        for code, word in game.words.codes.items():
            kept |= {w.lower() for w in re.findall(r"[^\W\d_]+", f"{code} {word}")}
    return frozenset(kept)


KEPT = _kept_words()


def _english_left(sentence: str, language: str) -> list[str]:
    """The English words of ``sentence`` (four letters or more, not a game's own term) that
    its translation into ``language`` still says: a template that matched only part of it."""
    said = phrases.say(sentence, language).lower()
    english = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", sentence)} - KEPT
    return sorted(w for w in english if re.search(rf"(?<![\w-]){w}(?![\w-])", said))


def _by_its_sheet(game, rules, hand: _Hand):
    """The hand logged by its score sheet alone, settled."""
    event = game.parse_result(rules, hand.dealer, dict(game.forms.sheet(hand.state)))
    return _settle(game, game.result_state(rules, {**event.data, **deal_context(game, rules, hand.match)}), hand.match)


def _settle(game, state, match: dict | None):
    n = len(game.moves.held(state))
    return game.settle(state, TableTerms(stake=100, members=tuple(f"m{i}" for i in range(n)),
                                         match=tuple(match["scores"]) if match else ()))


def _one_short(game, rules) -> dict | None:
    """A table's game score with every side one short of the target (None for a game
    played to none): the hand ends the game or match, and pays if its rules pay then."""
    target = game.table.target(rules)
    return {"scores": [target - 1] * len(game.table.sides(rules))} if target else None


def _check_payments(name: str, settled) -> None:
    """Each payment, player to player, is the stake x units x multiplier: every amount is a
    whole number of them, and they number as many as the players of the more numerous
    group, paying or paid (pairs: one each; one against three: three)."""
    each = 100 * settled.units * settled.multiplier
    if each == 0:
        assert not any(settled.amounts), f"{name}: {settled.amounts} paid at stake x units x multiplier 0"
        return
    for amount in settled.amounts:
        assert amount % each == 0, \
            f"{name}: a payment of {amount} is no multiple of the stake x units x multiplier ({each})"
    payers, paid = sum(1 for a in settled.amounts if a < 0), sum(1 for a in settled.amounts if a > 0)
    moved = sum(a for a in settled.amounts if a > 0)
    assert moved == each * max(payers, paid), \
        f"{name}: {settled.amounts} moves {moved}: {max(payers, paid)} payment(s) of the stake x units x " \
        f"multiplier ({each}) between {payers} payer(s) and {paid} paid"


def _as_the_table_learns(game, rules, settled, match: dict | None) -> dict:
    """What a settlement decides, not how it says so: who won, the factors and the payments,
    and what the table carries on (the table decider's doubled rounds and match score, the
    game's own spans). Not its explanation, nor what only the hand could know (how many cards
    each side took in Scopa, which bonus a Capixaba trick scored)."""
    data = settlement_data(settled, TableTerms(stake=100, members=settled.members), 2)
    return {"outcome": settled.outcome, "contract": settled.contract, "winner": settled.winner,
            "multiplier": settled.multiplier, "units": settled.units, "amounts": settled.amounts,
            "pays": settled.pays, "factors": [(f.name, f.factor, f.seat) for f in settled.factors],
            "table": after_settlement(NO_BOK, match, data),
            "carried": carried_after(game, rules, None, data)}


@pytest.mark.parametrize("name, preset", CASES)
def test_random_hands_dealt_whole_and_seat_by_seat(name, preset):
    game = GAMES[name]
    chosen = game.words.presets[preset]
    rules = game.parse_rules(chosen.rules)
    assert game.seat_count(rules) == chosen.players, \
        f"{name}: the preset {chosen.title!r} says {chosen.players} play; its rules seat {game.seat_count(rules)}"
    phases: set[str] = set()  # every phase a view of the hands said
    for n in range(HANDS):
        chance = random.Random(f"{name}-{preset}-{n}")
        match = _one_short(game, rules) if n % 2 else None  # every other hand the last its game or match needs
        opened = _deal(game, rules, chance, dealer=n % game.seat_count(rules))
        whole = _Hand(game, rules, opened, match)
        seats = _Hand(game, rules, game.parse_deal(rules, {"dealer": opened.data["dealer"]}), match)
        for command in _owed_cards(game, whole, seats, dict(opened.data)):
            seats.do(command)
        for call in whole.calls(chance):
            seats.do(call)
        while not game.is_terminal(whole.state):
            moves, before = whole.next_move(chance), (whole.state, seats.state)
            made: tuple[list[Event], list[Event]] = ([], [])
            for i, command in enumerate(moves):
                if game.is_terminal(whole.state):
                    break
                made[0].extend(whole.do(command))
                made[1].extend(seats.do(command))
                for owed in _owed_cards(game, whole, seats, dict(opened.data)):
                    seats.do(owed)
                if i == 0:
                    after_one = (whole.state, seats.state)
            if game.capabilities.logged_by == "tricks" and any(e.type == "trick" for e in made[0]):
                cards = [command.data["card"] for command in moves]
                whole.check_trick_whole(before[0], after_one[0], cards, made[0])
                seats.check_trick_whole(before[1], after_one[1], cards, made[1])
        assert game.is_terminal(seats.state)
        phases |= whole.phases | seats.phases
        settled, again = _settle(game, whole.state, match), _settle(game, seats.state, match)
        assert settled == again, f"{name}: the hand dealt seat by seat settles otherwise"
        _worlds_alike(game, rules, whole, opened, chance)
        _check_payments(name, settled)
        try:
            by_sheet = _by_its_sheet(game, rules, whole)
        except RuleViolation:
            # A hand cut short with cards still in hand (a Capixaba bonus that wins the match
            # mid-hand) has no score sheet its game takes yet: a result is a whole hand's.
            if not any(game.moves.held(whole.state)):
                raise
        else:
            learns = _as_the_table_learns(game, rules, settled, match)
            assert _as_the_table_learns(game, rules, by_sheet, match) == learns, \
                f"{name}: the score sheet {game.forms.sheet(whole.state)} settles otherwise than the hand"
        for language in LANGUAGES:
            # Each event in words is said whole; a settlement's explanation, which its log keeps
            # (and replay compares), is matched by the catalog's templates.
            unsaid = [s for s in whole.said if s and (not phrases.covered(s, language) or _english_left(s, language))]
            unsaid += [s for s in settled.explanation if s and not phrases.covered(s, language)]
            assert not unsaid, f"{name}: not in the {language} catalog: {unsaid[:3]}"
    # Each view above held the keys bitka reads: seen dealt seat by seat, in play and over.
    assert {keys.DEALING, keys.PLAY, keys.DONE} <= phases, f"{name}: the views said only {sorted(phases)}"


@pytest.mark.parametrize("name, preset", CASES)
def test_a_page_opens_a_table_from_each_preset(app, name, preset):
    chosen = GAMES[name].words.presets[preset]
    admin, group = pages._start(app)
    names = ["Ala", "Bob", "Cyd", "Dan", "Ela", "Fil"][:chosen.players]
    for member in names:
        pages._invite(admin, group, member)
    table = pages._open_table(admin, group, f"{name}:{preset}", names, entry="scorer")
    page = admin.http.get(f"/g/{group}/tables/{table}")
    text = html.unescape(page.get_data(as_text=True))
    assert page.status_code == 200 and chosen.title in text and all(member in text for member in names)
