"""What a game is, to the rest of bitka: one ``Game`` value per game (the Decider pattern).

A game is a package in ``games/`` (``games/kop/``, ``games/sueca/``...) on this engine,
registered in ``games/registry.py`` (its import, and its place in ``GAMES``); nothing
outside ``games/`` names a game. The engine (``games/engine/``) names none either: this
contract; events, commands, a table's terms and the settlement (``base``); the errors the
rules raise (``errors``); cards and packs (``cards``); the follow rules, a trick's winner
and the trick event (``tricks``); the one-card move and a whole trick's form, each written
once (``one_card``); what a reader may see (``seen``); which results a pack can give and a
score sheet's card points and tricks per side (``possible``); the table decider
(``table``); the calls a phone offers (``call_offers``); sentences (``words``; every
sentence is ``say(template, name=value)``); a hand's body given again for a correction
(``again``); autoplay; and the trick-taking core a trick game declares its play to
(``trick_game``). ``tests/games/test_every_game.py`` holds every registered game to this
contract, over each of its presets.

``Game`` is read in four parts, each but the first a small record of its own:

1. **The rules of play** (the Decider): ``parse_rules`` reads a table's rules,
   ``parse_deal`` checks a deal, ``initial_state`` starts a hand from it, ``decide`` turns
   each command into the events it makes (or a ``RuleViolation``), ``evolve`` folds an
   event into the state, ``is_terminal`` says the hand is over and ``settle`` pays it.
   ``parse_result``/``result_state`` do the same for a hand logged by its result alone.
   What spans hands is the table decider's, configured by ``TableRules``: doubled rounds,
   a game or match score, and what else the game carries from hand to hand (its ``Span``s).
   Whose turn it is, what each seat holds and may play or call, what it owes while a hand
   is dealt seat by seat and how a pack is dealt are the game's ``moves`` (``Moves``).
2. **What a reader may see** (``sight``, a ``Sight``): ``visible`` decides, positively, the
   cards in sight of a reader: its own seat's and those face up on the table, now or
   earlier in the hand, and no other; every card played, the trick in progress included, is in every reader's sight
   whatever ``visible`` says (the service adds ``played``); every other card of ``pack`` is
   hidden, and ``conceal`` hides what would tell where a hidden card is, and nothing the
   reader may see.
3. **The score sheet and the requests' fields** (``forms``, a ``Forms``): ``result_fields``
   (the sheet a page shows), ``sheet`` (a hand's own sheet, which settles as the hand did), ``deal_fields``,
   ``seen_fields``, ``play_fields`` and ``call_fields`` (what a deal, a seat's cards, a
   card played and a call may carry beyond the fields every game has), ``rule_fields``,
   ``notes`` (what a score table notes beside a hand) and ``unit`` (what points count in).
4. **The words** (``words``, a ``Words``): ``describe`` (each event in a sentence),
   ``presets`` (required: a page opens a table from one of them), ``glossary``, ``codes`` (the log's codes as the
   players say them), ``docs`` (the OpenAPI document's English, not translated), and
   ``demo`` (the tables ``bitka demo`` plays to show the game).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping, Sequence

from . import seen
from .base import Command, Event, Settlement, TableTerms
from .errors import RuleViolation
from .units import POINT, Unit

State = Any  # each game's own frozen state
Rules = Any  # each game's own frozen rules
Who = Callable[[int], str]  # a seat as a sentence names it: "seat 1 (Ala)"


@dataclass(frozen=True)
class Capabilities:
    """How a game's hands are logged, for the pages and the API to offer the right forms."""
    entries: frozenset[str] = frozenset({"deal", "result"})  # a deal (card by card) or a result alone
    logged_by: str = "tricks"  # "tricks": whole tricks, leader first; "plays": one card and its capture
    deal_on_page: bool = False  # the deal is each seat's cards and nothing else (typed on a page)
    claims: bool = False  # the hand takes claims (calling oneself out, throwing in)
    claim_says: str = ""  # what a claim does, on the button a player taps to make it


@dataclass(frozen=True)
class Span:
    """Something a table carries from hand to hand that is the game's own, beside what the
    table decider keeps for every game (the dealer, doubled rounds, a game or match score):
    ``name`` keys it in the table's row and view, ``start`` is its value before the first
    hand, ``after(rules, value, settlement)`` its value once a hand is settled (the
    settlement event's data); settling a hand finds it in ``TableTerms.carried[name]``. A
    voided hand gives it back as it was, a correction works it out again hand by hand."""
    name: str
    start: Any
    after: Callable[[Rules, Any, Mapping], Any]


@dataclass(frozen=True)
class TableRules:
    """What the table decider needs to know of a game's rules."""
    bok_rundy: Callable[[Rules], bool] = lambda rules: False  # doubled rounds (bok-rundy)
    target: Callable[[Rules], int | None] = lambda rules: None  # a game or match played to a score
    sides: Callable[[Rules], tuple[tuple[int, ...], ...]] = lambda rules: ()  # who scores together
    carries_match_into_deal: bool = False  # the hand must know the match score (a bonus may end it)
    spans: tuple[Span, ...] = ()  # what else the game carries from hand to hand


@dataclass(frozen=True)
class ResultField:
    """One field of a game's score sheet, as the pages ask for it and the API names it.

    ``kind``: ``choice`` (one of ``options``), ``seat`` / ``seats`` (players, by name; with
    ``count``), ``doubles`` (seats in order, each giving the next double of ``options``),
    ``number`` (``low``..``high``), ``side`` (a side, or with ``tie`` nobody),
    ``per-side`` (a number for each side). ``when`` says, from the values so far, whether
    the field applies (None: always); ``noun`` is what the log's sentences call it ("card
    points: 76 / 44"), a word of the log (the name when not given).

    ``label`` asks the field whatever the other answers are (a page that cannot follow them
    shows it); ``asked``, where given, is the question as the values so far put it (whose
    card points, once the contract is chosen), a sentence of the log too. ``plausible``, for
    a ``number``, gives from the values so far every value the field can take (None: it
    cannot tell yet): a page offers the nearest of them when a typed one is refused. The
    values a page passes to ``asked`` and ``plausible`` are the form's strings, as typed."""
    name: str
    kind: str
    label: str
    options: tuple = ()
    count: int = 1
    low: int = 0
    high: int = 999
    tie: bool = False
    default: str = ""
    when: Callable[[Mapping[str, Any]], bool] | None = None
    noun: str = ""
    asked: Callable[[Mapping[str, Any]], str] | None = None
    plausible: Callable[[Mapping[str, Any]], Collection[int] | None] | None = None


@dataclass(frozen=True)
class DealField:
    """A field of a game's deal, for the API's schema and documentation. ``kind``: ``seat``,
    ``hands`` (a list of cards per seat), ``cards``, ``card`` (or null), ``suit``."""
    name: str
    kind: str
    doc: str
    required: bool = False  # in every deal (where every game has the field)
    label: str = ""  # what a page asks for it (said: a sentence of the log), where a page asks it


@dataclass(frozen=True)
class RuleField:
    """One rule a game's table takes (``rules.<name>``), for the API's schema and documentation:
    what it decides (``doc``), the values it takes (``options``, for a choice) or its range
    (``low``..``high``, for a whole number), and whether null is a value (``nullable``: ``doc``
    says what null means). Its type and default are those of the game's default rules.

    A rule a page asks when it opens a table (beside the way of playing chosen, whose rules it
    changes) has ``asked``, the question (a sentence of the log), and for a choice ``said``,
    each of ``options`` as the page offers it (sentences of the log, in the same order)."""
    name: str
    doc: str
    options: tuple = ()
    low: int | None = None
    high: int | None = None
    nullable: bool = False
    asked: str = ""
    said: tuple = ()


@dataclass(frozen=True)
class Term:
    """One of a game's own words (``word``, in the language ``spoken``: pl, csb, it, pt) and
    what it means, in English: the pages say the meaning in the reader's language."""
    word: str
    meaning: str
    spoken: str


@dataclass(frozen=True)
class Offer:
    """A call a seat may make now, as its phone offers it: the call's body (a ``bid`` without
    its seat: ``{"call": "pass"}``) and what it does, said to the one who would make it."""
    body: Mapping[str, str]
    says: str


@dataclass(frozen=True)
class Preset:
    """A way the game is commonly played, offered when a table is opened: its title, its
    rules (parse_rules takes them), how many play, and the rules in one sentence."""
    title: str
    rules: Mapping[str, Any]
    players: int
    said: str


@dataclass(frozen=True)
class DemoTable:
    """A table ``bitka demo`` opens and plays: its rules, stake and players, and its hands:
    ``hands(game, chance, number, last)`` is the body of the table's hand ``number`` (a
    whole hand: deal, calls, tricks or plays) after ``last``, the settlement of the hand
    before (None for the first), or None once the table has shown what it shows."""
    rules: Mapping[str, Any]
    stake: str
    players: int
    hands: Callable[["Game", Any, int, Mapping | None], Mapping | None]


DEALT = (DealField("dealer", "seat", "the seat that deals (the table's next_dealer)", required=True),
         DealField("hands", "hands", "each seat's cards, in seat order; a deal of the dealer alone is dealt seat by "
                                     "seat, each seat's cards coming later (POST .../hands/{h}/cards)"))


@dataclass(frozen=True, kw_only=True)
class Moves:
    """The rest of the rules of play: whose turn it is, what each seat holds and may do now,
    and how a hand is dealt (each given by keyword)."""
    turn: Callable[[State], int | None]  # the seat to play next (None when the hand is over)
    held: Callable[[State], Sequence[Sequence[str]]]  # each seat's cards in hand now, in seat order
    legal_cards: Callable[[State, int, tuple], list[str]]  # what a seat may play next
    calls: Callable[[State], list[str]]  # the calls of the game open now, to anyone (empty: no auction now)
    # A deal's body from a shuffled pack (``deck``, top first) by ``dealer``, dealt as the
    # game deals: for the demo, the bench and the tests that play random hands.
    deals: Callable[[Rules, Sequence[str], int], Mapping]
    # The seats that sit this hand out: they hold no card and make no call (Kop's dealer at a
    # table of five). Play goes round the others in seat order (``Game.trick_seats``).
    sitting_out: Callable[[State], frozenset[int]] = lambda state: frozenset()
    legal_plays: Callable[[State], list[dict]] = lambda state: []  # logged by plays: each legal play now
    # The calls the seat may make now, each one decide accepts from it (games/engine/call_offers.py).
    offers: Callable[[State, int], Sequence[Offer]] = lambda state, seat: ()
    # What the dealer's seat may log instead of the card it turns up (a ``cards`` body), each
    # saying what it means (a knock that names the trump suit without a card).
    instead_of_turning: Callable[[State, int], Sequence[Offer]] = lambda state, seat: ()
    # Dealt seat by seat: how many cards each seat ("0", "1"...), the face-up table ("table")
    # or the trump card ("trump") still owe before play can go on.
    owed: Callable[[State], Mapping[str, int]] = lambda state: {}


@dataclass(frozen=True, kw_only=True)
class Sight:
    """What a reader may see of a hand in play, decided positively (each given by keyword)."""
    pack: Callable[[Rules], Sequence[str]]  # every card of the game, in a pack's order: what may be hidden
    # The hand as the API shows it to a reader who may see every card: a dict carrying the
    # keys bitka reads (``view_keys.REQUIRED``, and where the game has the thing those of
    # ``view_keys.OPTIONAL``), each in the shape declared there; the rest is the game's own.
    view: Callable[[State], dict]
    # The cards in sight of the reader in ``seat`` (None: nobody seated): its own seat's and
    # those turned face up. Every other card of the pack is hidden from it (a card forgotten
    # here is hidden, never shown); the service adds every card played (``played``, the
    # trick in progress included) and those the reader logged itself.
    visible: Callable[[State, int | None], frozenset[str]] = lambda state, seat: frozenset()
    played: Callable[[State], Sequence[str]] = lambda state: ()  # every card played so far, in order
    # The hand's view as a reader who may not see ``hidden`` gets it: each such card null,
    # and nothing else that would tell where one is (the sides, while the cards that make
    # them are hidden).
    conceal: Callable[[State, dict, frozenset[str]], dict] = lambda state, view, hidden: seen.mask(view, hidden)


@dataclass(frozen=True, kw_only=True)
class Forms:
    """The score sheet and the requests' fields: what a page asks and a request carries
    beyond what every game has, and what the score table notes (each given by keyword)."""
    result_fields: Callable[[Rules], Sequence[ResultField]]  # the sheet a page asks a result by
    # The score sheet of a hand played to its end: the result that, logged alone by those
    # fields, settles as the hand did.
    sheet: Callable[[State], Mapping[str, Any]]
    deal_fields: tuple[DealField, ...] = DEALT
    seen_fields: tuple[DealField, ...] = ()  # a seat's cards (POST .../cards) beyond seat and cards
    play_fields: tuple[DealField, ...] = ()  # a card played (POST .../plays) beyond seat and card
    call_fields: tuple[DealField, ...] = ()  # a call (a bid) beyond seat and call
    rule_fields: tuple[RuleField, ...] = ()  # the table's rules, described (else named and typed only)
    # What a table's score table notes beside a hand, from its settlement (the settlement
    # event's data): sentences of the log, in the game's own words (a doubled round it
    # played in, or one it makes due). The table decider's game and match scores and a
    # correction are noted by the page itself.
    notes: Callable[[Mapping], Sequence[str]] = lambda settlement: ()
    # What its card points are counted in (units.py): every count in a trick event or a score
    # sheet is in it, and the pages and the log say thirds as "2 points (7 thirds)".
    unit: Unit = POINT


@dataclass(frozen=True, kw_only=True)
class Words:
    """A game's words (each given by keyword)."""
    describe: Callable[[str, Mapping, Who], str]  # an event of a hand, in words
    presets: tuple[Preset, ...]  # the usual ways to play it, the first its default: a page opens a table from one
    glossary: tuple[Term, ...] = ()  # its own words, for its glossary page
    codes: Mapping[str, str] = field(default_factory=dict)  # a code of its log (an outcome, a role) as players say it
    docs: Mapping[str, str] = field(default_factory=dict)  # "play", "claim": what those requests do, for OpenAPI
    demo: tuple[DemoTable, ...] = ()  # what ``bitka demo`` plays (none: a few random hands of the first preset)


@dataclass(frozen=True, kw_only=True)
class Game:
    """A game, in the four parts the module docstring names (each given by keyword): the
    Decider's own functions and the rest of the rules of play (``moves``), what a reader may
    see (``sight``), the score sheet and the requests' fields (``forms``), the words."""
    name: str
    title: str  # as people write it, with its diacritics

    # 1. The rules of play (the Decider), pure functions over the game's frozen state.
    parse_rules: Callable[[Mapping | None], Rules]  # a table's rules: unknown ones refused, the rest defaulted
    seat_count: Callable[[Rules], int]
    parse_deal: Callable[[Rules, Mapping], Event]  # the deal event's data, checked and canonical
    initial_state: Callable[[Rules, Mapping], State]  # from a deal event's data
    # Each command of a hand into its events, or a RuleViolation. The commands (``kind``:
    # data): ``cards`` ({seat, cards} or a seen field), ``bid`` ({seat, call} and the call
    # fields), ``trick`` ({cards}, leader first), ``play`` ({seat?, card} and the play fields),
    # ``claim`` ({seat}). The events are of the log's hand types (seat_cards, bid, trick,
    # play, claim); a trick's is ``tricks.Trick.to_data()``, and may carry more of the game's.
    decide: Callable[[State, Command], list[Event]]
    evolve: Callable[[State, Event], State]
    is_terminal: Callable[[State], bool]
    settle: Callable[[State, TableTerms], Settlement]
    parse_result: Callable[[Rules, int, Mapping], Event]  # a hand logged by its result alone
    result_state: Callable[[Rules, Mapping], State]
    superseded: Callable[[State, int], list[str]]  # what today's rules refuse that rules N allowed
    capabilities: Capabilities  # how its hands are logged (whole tricks or plays, claims...)
    table: TableRules  # what spans its hands, for the table decider
    moves: Moves  # whose turn, what each seat holds and may do, how a hand is dealt
    # A table of this many seats refused because its rules seat another number: the refusal
    # that names the rules which seat that many (None: the service says it in its own words).
    seating: Callable[[Rules, int], str | None] = lambda rules, seats: None
    # A table's rules as sent (``parse_rules`` takes them next), at a table of this many seats:
    # a rule they leave unsaid that the number of seats decides, said (Kop's ``players`` at
    # a table of five); anything else as sent.
    seated_rules: Callable[[Any, int], Any] = lambda raw, seats: raw

    # 2. What a reader may see of a hand in play.
    sight: Sight
    # 3. The score sheet and the requests' fields.
    forms: Forms
    # 4. The words.
    words: Words

    def seated(self, said: Mapping, count: int) -> Rules | None:
        """The rules of a table of ``count`` seats playing by the rules ``said`` (as sent, not
        parsed: a rule said at its default value is said all the same), with the number of
        seats the game's for so many where they leave it unsaid (``seated_rules``); or None
        when the game is not played by so many under them."""
        try:
            fitted = self.parse_rules(self.seated_rules(said, count))
        except RuleViolation:
            return None
        return fitted if self.seat_count(fitted) == count else None

    def __post_init__(self):
        if not self.words.presets:
            raise ValueError(f"{self.name} has no presets: a table is opened on a page from one of them")

    def trick_seats(self, state: State) -> list[int]:
        """The seats that play the trick to come, in order from the one whose turn it is:
        every seat in turn but those sitting the hand out (asked when no card of the trick
        is on the table yet)."""
        moves = self.moves
        seats, first, out = len(moves.held(state)), moves.turn(state), moves.sitting_out(state)
        return [s for s in ((first + i) % seats for i in range(seats)) if s not in out]
