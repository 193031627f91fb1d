"""Bisca: the Portuguese and Brazilian trick game with a stock, as ../shared/rules/bisca.md
reads it, in every variant of its table (tres, nove, quatro, seis, capixaba).

The deal names the trump card (face up under the stock, drawn last) and the stock, top
first, so bitka knows every draw: after each trick the winner draws first, then the others
in order of play, and a card a player cannot hold is refused. A trick event records the
draws that followed it and, in Capixaba, the rela bonuses it scored. The match score before
the hand travels with the deal, because a Capixaba bonus can end the match mid-hand.
Scoring and money: scoring.py; the score sheet: result.py; a deal seat by seat: seen.py.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from events.sentences import say

from ..engine import one_card, tricks, words
from ..engine.base import Command, Event, TableTerms, named_rules
from ..engine.call_offers import accepted
from ..engine.cards import SUIT_NAMES, check_exact_pack, dealt, pack, parse_card, parse_cards
from ..engine.contract import DEALT, Capabilities, DealField, Game, Offer, Preset, RuleField, TableRules
from ..engine.errors import Revealing, RuleViolation, may_not_play
from . import demo, glossary
from . import result as bisca_result
from . import scoring as bisca_scoring
from . import seen as bisca_seen

ORDER = ("A", "7", "K", "J", "Q", "6", "5", "4", "3", "2")  # high to low in every suit
POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
PACKS = {"full": pack(ORDER), "no-twos": pack(ORDER[:-1])}


@dataclass(frozen=True)
class Variant:
    players: int
    hand: int
    pack: str = "full"


VARIANTS = {
    "tres": Variant(2, 3), "nove": Variant(2, 9), "quatro": Variant(4, 3),
    "seis": Variant(6, 3, "no-twos"), "capixaba": Variant(4, 3),
}


@dataclass(frozen=True)
class BiscaRules:
    variant: str = "tres"
    conservative: bool = False
    match_to: int = 4
    stake_per: str = "match"
    majority_bonus: bool = False  # the side with more card points (61+) also gets 1 game point

    game = "bisca"

    def to_data(self) -> dict:
        return {"variant": self.variant, "conservative": self.conservative, "match_to": self.match_to,
                "stake_per": self.stake_per, "majority_bonus": self.majority_bonus}

    @property
    def players(self) -> int:
        return VARIANTS[self.variant].players

    @property
    def target(self) -> int:
        return self.match_to

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        n = self.players
        return ((0,), (1,)) if n == 2 else (tuple(range(0, n, 2)), tuple(range(1, n, 2)))

    def side_of(self, seat: int) -> int:
        return seat % 2


def parse_rules(raw: Mapping | None) -> BiscaRules:
    rules = named_rules(BiscaRules, raw, "bisca")
    if not isinstance(rules.variant, str) or rules.variant not in VARIANTS:
        raise RuleViolation(say("variant must be one of {variants}", variants=', '.join(VARIANTS)))
    if not isinstance(rules.conservative, bool):
        raise RuleViolation(say("conservative must be true or false"))
    if rules.conservative and rules.variant not in ("seis", "quatro"):
        raise RuleViolation(say("conservative is a rule of seis and quatro"))
    if not isinstance(rules.match_to, int) or isinstance(rules.match_to, bool) or not 1 <= rules.match_to <= 50:
        raise RuleViolation(say("match_to must be a whole number of game points from 1 to 50 (4, or 10 for the long "
                                "comb)"))
    if rules.stake_per not in ("match", "game-point"):
        raise RuleViolation(say("stake_per must be 'match' or 'game-point'"))
    if not isinstance(rules.majority_bonus, bool):
        raise RuleViolation(say("majority_bonus must be true or false"))
    return rules


def seat_count(rules: BiscaRules) -> int:
    return rules.players


def seating(rules: BiscaRules, seats: int) -> str | None:
    """A table of ``seats`` refused under ``rules``, naming the variants that seat that many
    (four: quatro and capixaba); None when it is the right number, or no variant seats it."""
    fits = [name for name, v in VARIANTS.items() if v.players == seats]
    if seats == rules.players or not fits:
        return None
    variants = ", ".join(fits)
    return (say("bisca {variant} is played by {players} players, not {seats}; for {seats} players "
                "choose one of the variants {variants}",
                variant=rules.variant, players=rules.players, seats=seats,
                variants=variants))


def rank(card: str) -> str:
    return card[:-1]


def points(card: str) -> int:
    return POINTS.get(rank(card), 0)


@dataclass(frozen=True)
class Trick(tricks.Trick):
    """A Bisca trick: the engine's, with the cards each seat drew after it (the winner
    first) and the Capixaba bonuses it scored."""
    draws: tuple[tuple[int, str], ...] = ()
    bonuses: tuple[Mapping, ...] = ()

    def to_data(self) -> dict:
        data = {**super().to_data(), "draws": [list(d) for d in self.draws]}
        if self.bonuses:
            data["bonuses"] = [dict(b) for b in self.bonuses]
        return data


@dataclass(frozen=True)
class BiscaState:
    rules: BiscaRules
    dealer: int
    held: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    trump_card: str | None
    trump_suit: str
    match_before: tuple[int, ...]
    tricks: tuple[Trick, ...] = ()
    swapped: bool = False
    result: Mapping | None = None  # a hand logged by its result alone
    cut: str | None = None  # the card turned face up at the deal, which named the trump suit
    trump_seen: bool = True  # dealt seat by seat: whether the trump card (or the knock) is logged
    pile_left: int | None = None  # dealt seat by seat: cards left to draw, seen or not (else: the draw pile's)
    owed: tuple[int, ...] = ()  # dealt seat by seat: the seats that owe the cards they hold, in drawing order
    current: tuple[tuple[int, str], ...] = ()  # (seat, card) of the trick being played a card at a time

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else (self.dealer + 1) % self.rules.players

    @property
    def turn(self) -> int:
        return (self.leader + len(self.current)) % self.rules.players

    @property
    def draw_pile(self) -> tuple[str, ...]:
        """What is left to draw, top first, as far as it is known: the stock, then the trump card."""
        return self.stock + ((self.trump_card,) if self.trump_card else ())

    @property
    def pile(self) -> int:
        """How many cards are left to draw, seen or not."""
        return len(self.draw_pile) if self.pile_left is None else self.pile_left


    @property
    def bonus_points(self) -> tuple[int, ...]:
        if self.result is not None:
            return tuple(self.result["bonus"])
        totals = [0] * len(self.rules.sides)
        for t in self.tricks:
            for b in t.bonuses:
                totals[b["side"]] += b["points"]
        return tuple(totals)


def sheet(state: BiscaState) -> dict:
    """The score sheet of a hand played out: card points and tricks per side (and in
    Capixaba the bonuses and whether hearts were trumps)."""
    sides = state.rules.sides
    points = [sum(t.points for t in state.tricks if t.winner in side) for side in sides]
    tricks = [sum(1 for t in state.tricks if t.winner in side) for side in sides]
    result = {"points": points, "tricks": tricks}
    if state.rules.variant == "capixaba":
        result |= {"bonus": list(state.bonus_points), "trump_suit": state.trump_suit}
    return result


def deals(rules: BiscaRules, deck, dealer: int) -> dict:
    """Each seat its first cards; the pack's last card turned face up as trumps, the rest
    the stock."""
    n, size = rules.players, VARIANTS[rules.variant].hand
    return {"dealer": dealer, "hands": [list(deck[i * size:(i + 1) * size]) for i in range(n)],
            "trump": deck[-1], "stock": list(deck[n * size:-1])}


def deal_event(rules: BiscaRules, raw: Mapping) -> Event:
    """A deal: whole (hands, trump card, stock), or, naming only the dealer, seat by seat
    (seen.py)."""
    variant = VARIANTS[rules.variant]
    if isinstance(raw, Mapping) and (set(raw) == {"dealer"} or (raw.get("trump") is None and "trump_suit" not in raw
                                                               and not any(raw.get("hands") or [[]])
                                                               and not raw.get("stock"))):
        dealer, _ = dealt({"dealer": raw.get("dealer"), "hands": [[]] * rules.players}, ("dealer", "hands"),
                          rules.players, 0, say("bisca {variant}", variant=rules.variant))
        return Event("deal", {"dealer": dealer, "hands": [[] for _ in range(rules.players)], "trump": None,
                              "stock": []})
    dealer, parsed = dealt(raw, ("dealer", "hands", "trump", "trump_suit", "stock"), rules.players, variant.hand,
                           say("bisca {variant}", variant=rules.variant))
    trump, suit = _trump(rules, raw)
    stock = parse_cards(raw.get("stock", []))
    check_exact_pack([*parsed, stock, [trump] if trump else []], PACKS[variant.pack],
                     say("{size}-card bisca {variant}",
                         size=len(PACKS[variant.pack]), variant=rules.variant))
    data = {"dealer": dealer, "hands": parsed, "trump": trump, "stock": stock}
    if trump is None:
        data["trump_suit"] = suit
    return Event("deal", data)


def _trump(rules: BiscaRules, raw: Mapping) -> tuple[str | None, str]:
    if raw.get("trump") is None:
        if rules.variant != "capixaba" or str(raw.get("trump_suit", "")).upper() != "H":
            raise RuleViolation(say("only capixaba plays without a trump card, by knocking for hearts: \"trump\": "
                                    "null, \"trump_suit\": \"H\""))
        return None, "H"
    if raw.get("trump_suit") is not None:
        raise RuleViolation(say("trump_suit goes with a knock (\"trump\": null); a cut trump card names its own suit"))
    trump = parse_card(raw["trump"])
    _cut_allowed(rules, trump)
    return trump, trump[-1]


def _cut_allowed(rules: BiscaRules, trump: str) -> None:
    if rules.variant == "capixaba" and rank(trump) in ("A", "7"):
        raise RuleViolation(say("the cut trump card {trump} is an ace or a 7, which capixaba never leaves face up: "
                                "redeal",
                                trump=trump))


def new_hand(rules: BiscaRules, deal: Mapping) -> BiscaState:
    match = tuple(deal.get("match_before") or [0] * len(rules.sides))
    trump = deal.get("trump")
    state = BiscaState(rules, deal["dealer"], tuple(tuple(h) for h in deal["hands"]), tuple(deal["stock"]),
                       trump, trump[-1] if trump else deal.get("trump_suit", "H"), match, cut=trump)
    if bisca_seen.is_opened_empty(deal):
        variant = VARIANTS[rules.variant]
        return bisca_seen.starting(state, len(PACKS[variant.pack]), variant.hand)
    return state


def beats(card: str, best: str, trump: str) -> bool:
    """Does ``card`` take the trick from ``best``? A higher card of its suit, or a trump."""
    if card[-1] == best[-1]:
        return ORDER.index(rank(card)) < ORDER.index(rank(best))
    return card[-1] == trump


def winner_index(cards, trump: str) -> int:
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def legal_cards(state: BiscaState, seat: int, played: tuple = ()) -> list[str]:
    """Any card, but in nove, once nothing is left to draw, a trump lead must be answered
    with a trump by a player who has one."""
    hand = list(state.held[seat])
    if state.rules.variant == "nove" and played and state.pile == 0 and played[0][-1] == state.trump_suit:
        trumps = [c for c in hand if c[-1] == state.trump_suit]
        return trumps or hand
    return hand


def decide(state: BiscaState, command: Command) -> list[Event]:
    if is_over(state):
        raise RuleViolation(say("the hand is over"))
    if command.kind == "cards":
        variant = VARIANTS[state.rules.variant]
        return [bisca_seen.decide_cards(state, command.data, PACKS[variant.pack], variant.hand, _cut_allowed)]
    waiting = bisca_seen.waiting(state)
    if waiting:
        raise RuleViolation(waiting)
    match command:
        case Command(kind="bid", data=data):
            return [_decide_swap(state, data)]
        case Command(kind="trick", data=data):
            cards = one_card.whole_trick(data, state.rules.players, state.current)
            return [Event("trick", _decide_trick(state, cards).to_data())]
        case Command(kind="play", data=data):
            return _decide_play(state, data)
    raise RuleViolation(say("bisca hands take cards, tricks, plays (and, in capixaba, the swap-2 call), not "
                            "{command_kind}s",
                            command_kind=command.kind))


def in_play(state: BiscaState) -> one_card.InPlay:
    """The hand as judging its next card sees it."""
    n = state.rules.players
    played = {c: s for s, c in state.current} | {c: (t.leader + t.cards.index(c)) % n
                                                  for t in state.tricks for c in t.cards}
    trick = tuple(c for _, c in state.current)
    return one_card.InPlay(
        n, state.turn, played, PACKS[VARIANTS[state.rules.variant].pack],
        lambda card: say("{card} is not in the {variant} pack", card=card, variant=state.rules.variant),
        lambda seat: state.held[seat],
        lambda seat, card: (None if card in legal_cards(state, seat, trick) else
                            say("seat {seat} holds a trump and must answer the trump lead with one: nothing is left "
                                "to draw", seat=seat)))


def _decide_play(state: BiscaState, data: Mapping) -> list[Event]:
    """One card, by the seat whose turn it is; the trick's event comes with its last card."""
    return one_card.trick_card(in_play(state), data, tuple(c for _, c in state.current),
                               lambda cards: Event("trick", _trick_of(state, cards).to_data()))


def _decide_swap(state: BiscaState, data: Mapping) -> Event:
    if state.rules.variant != "capixaba" or str(data.get("call", "")).lower() != "swap-2":
        raise RuleViolation(say("the only call in bisca is capixaba's swap-2"))
    if state.tricks or state.current or state.swapped or state.trump_card is None:
        raise RuleViolation(say("the 2 of trumps may be swapped once, for a cut trump card, before the first card is "
                                "played"))
    seat, two = data.get("seat"), "2" + state.trump_suit
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.rules.players:
        raise RuleViolation(say("seat must be a seat from 0 to {last}",
                                last=state.rules.players - 1))
    if two not in state.held[seat]:
        raise Revealing(say("seat {seat} does not hold {two}, the 2 of trumps", seat=seat, two=two), seat,
                        say("seat {seat} may not swap the 2 of trumps now", seat=seat))
    return Event("bid", {"seat": seat, "call": "swap-2", "gives": two, "takes": state.trump_card})


def _decide_trick(state: BiscaState, cards: list[str]) -> Trick:
    """A whole trick, leader first, its form checked (``one_card.whole_trick``): each card
    its seat's, and allowed by the follow rules once the stock is gone."""
    n, leader = state.rules.players, state.leader
    for i, card in enumerate(cards):
        seat = (leader + i) % n
        if card not in state.held[seat]:
            why, says_where = _not_held(state, card, seat, cards[:i])
            if says_where:
                raise Revealing(why, None, may_not_play(card, seat))
            raise RuleViolation(why)
        if card not in legal_cards(state, seat, tuple(cards[:i])):
            raise Revealing(say("seat {seat} holds a trump and must answer the trump lead with one: nothing is left "
                                "to draw",
                                seat=seat), seat, may_not_play(card, seat))
    return _trick_of(state, cards)


def _trick_of(state: BiscaState, cards: list[str]) -> Trick:
    """The trick of cards already judged: its winner, card points, the draws after it (when
    the stock is known) and, in Capixaba, the bonus it scores."""
    n, leader = state.rules.players, state.leader
    winner = (leader + winner_index(cards, state.trump_suit)) % n
    pile = state.draw_pile if state.pile_left is None else ()
    draws = tuple(((winner + i) % n, pile[i]) for i in range(n)) if pile else ()
    trick = Trick(len(state.tricks) + 1, leader, tuple(cards), winner, sum(map(points, cards)), draws=draws)
    if state.rules.variant == "capixaba":
        trick = Trick(trick.number, leader, trick.cards, winner, trick.points, draws=draws,
                      bonuses=bisca_scoring.rela_bonuses(state, trick))
    return trick


def _not_held(state: BiscaState, card: str, seat: int, earlier) -> tuple[str, bool]:
    """Why ``seat`` cannot play ``card``, which it does not hold, and whether that says where
    the card is (in another hand, or still to draw)."""
    if card not in PACKS[VARIANTS[state.rules.variant].pack]:
        return say("{card} is not in the {variant} pack",
                   card=card, variant=state.rules.variant), False
    if card in earlier:
        return say("{card} is played twice in this trick", card=card), False
    owner = next((s for s, h in enumerate(state.held) if card in h), None)
    if owner is not None:
        return say("{card} is held by seat {owner}, but this card of the trick is seat {seat}'s to play",
                   card=card, owner=owner, seat=seat), True
    if card in state.draw_pile:
        return say("{card} has not been drawn yet: seat {seat} cannot hold it", card=card, seat=seat), True
    if any(card in t.cards for t in state.tricks) or card == state.trump_card:
        return say("{card} was already played",
                   card=card) if card != state.trump_card else say("{card} is the face-up trump card",
                                                                                 card=card), False
    return say("{card} is not in seat {seat}'s hand", card=card, seat=seat), True


def evolve(state: BiscaState, event) -> BiscaState:
    match event.type, event.data:
        case "bid", {"call": "swap-2"} as d:
            held = tuple(tuple(d["takes"] if c == d["gives"] else c for c in h) if s == d["seat"] else h
                         for s, h in enumerate(state.held))
            return replace(state, held=held, trump_card=d["gives"], swapped=True)
        case "trick", d:
            return _after_trick(state, d)
        case "play", d:
            return replace(state, current=(*state.current, (d["seat"], d["card"])))
        case "seat_cards", d:
            return bisca_seen.after_cards(state, d)
    return state


def _after_trick(state: BiscaState, d: Mapping) -> BiscaState:
    trick = Trick(d["trick"], d["leader"], tuple(d["cards"]), d["winner"], d["points"],
                  draws=tuple((s, c) for s, c in d.get("draws", [])), bonuses=tuple(d.get("bonuses", ())))
    held = [tuple(c for c in h if c not in trick.cards) for h in state.held]
    for seat, card in trick.draws:
        held[seat] = held[seat] + (card,)
    drawn = len(trick.draws)
    stock, trump_card = state.stock[drawn:], state.trump_card
    if drawn > len(state.stock):
        trump_card = None  # the trump card was the last card drawn
    owed = ()
    if state.pile_left is not None and state.pile_left:  # seat by seat: each seat owes the card it draws
        owed = tuple((trick.winner + i) % state.rules.players for i in range(state.rules.players))
    return replace(state, held=tuple(held), stock=stock, trump_card=trump_card, tricks=(*state.tricks, trick),
                   owed=owed, current=())


def is_over(state: BiscaState) -> bool:
    if state.result is not None:
        return True
    if not any(state.held) and state.pile == 0 and state.trump_seen and not state.owed and not state.current:
        return True
    return bisca_scoring.match_won_by_bonuses(state)


def result_event(rules: BiscaRules, dealer: int, raw: Mapping) -> Event:
    """A hand logged by its result: card points and tricks per side, and (Capixaba) the
    bonuses each side scored and whether hearts were trump (result.py)."""
    return bisca_result.result_event(rules, dealer, raw, PACKS[VARIANTS[rules.variant].pack], POINTS)


def result_state(rules: BiscaRules, data: Mapping) -> BiscaState:
    empty = tuple(() for _ in range(rules.players))
    match = tuple(data.get("match_before") or [0] * len(rules.sides))
    result = data["result"]
    return BiscaState(rules, data["dealer"], empty, (), None, result["trump_suit"] or "-", match, result=result)


def settle(state: BiscaState, table: TableTerms):
    return bisca_scoring.settle(state, table)


def view(state: BiscaState) -> dict:
    over = is_over(state)
    on_table = {c for _, c in state.current}  # played to the trick in progress: no longer held
    held = [[c for c in h if c not in on_table] for h in state.held]
    won = [0] * len(state.rules.sides)
    for t in state.tricks:
        won[state.rules.side_of(t.winner)] += t.points
    return {
        "dealer": state.dealer, "rules": state.rules.to_data(),
        "leader": None if over else state.leader, "turn": None if over else state.turn,
        "trump": state.trump_card, "trump_suit": state.trump_suit or None,
        "trump_name": SUIT_NAMES.get(state.trump_suit), "held": held,
        "deal": [[c for s, c in _played_by_seat(state) if s == seat] + hand
                 for seat, hand in enumerate(held)],  # each seat's cards this hand: played, then held
        "stock_left": state.pile, "awaiting": list(state.owed), "trump_seen": state.trump_seen,
        "current": [{"seat": s, "card": c} for s, c in state.current],
        "tricks": [t.to_data() for t in state.tricks],
        "sides": [{"seats": list(s), "points": won[i]} for i, s in enumerate(state.rules.sides)],
        "bonus_points": list(state.bonus_points), "match_before": list(state.match_before),
        "phase": "done" if over else ("dealing" if bisca_seen.waiting(state) and not state.tricks else "play"),
    }


def _played_by_seat(state: BiscaState) -> list[tuple[int, str]]:
    """(seat, card) of every card played so far, in order."""
    n = state.rules.players
    return [((t.leader + i) % n, c) for t in state.tricks for i, c in enumerate(t.cards)] + list(state.current)


def owed(state: BiscaState) -> dict[str, int]:
    """Dealt seat by seat: the trump card not turned yet, and the cards each seat owes (its
    first hand, or the one it drew)."""
    first = VARIANTS[state.rules.variant].hand
    owes = {} if state.trump_seen else {"trump": 1}
    return owes | {str(seat): (1 if state.tricks else first) for seat in state.owed}


def played(state: BiscaState) -> list[str]:
    """Every card played so far, in order: the tricks, then the trick being played."""
    return [c for _, c in _played_by_seat(state)]


def visible(state: BiscaState, seat: int | None) -> frozenset[str]:
    """What the reader in ``seat`` sees of a hand in play: every card played (the trick in
    progress too, face up on the table), the trump card turned face up (and the card cut to
    name the trump suit), and its own hand."""
    face_up = {c for c in (state.trump_card, state.cut) if c}
    own = state.held[seat] if seat is not None and 0 <= seat < len(state.held) else ()
    return frozenset(played(state)).union(face_up, own)


def superseded(state, version: int) -> list[str]:
    """What today's rules refuse in a hand settled under rules ``version``: nothing in Bisca."""
    return []


def calls(state: BiscaState) -> list[str]:
    """Capixaba's one call: swapping the 2 of trumps for a cut trump card, before the first trick."""
    if state.rules.variant != "capixaba" or state.tricks or state.swapped or state.trump_card is None:
        return []
    return ["swap-2"]


def offers(state: BiscaState, seat: int) -> list[Offer]:
    """Capixaba's swap, offered to the seat that holds the 2 of trumps while it may."""
    if not calls(state):
        return []
    two, card = "2" + state.trump_suit, state.trump_card
    swap = Offer({"call": "swap-2"}, say("Swap: you give your {two} for the trump card turned up, {card}",
                                         two=two, card=card))
    return accepted(decide, state, seat, [swap])


def instead_of_turning(state: BiscaState, seat: int) -> list[Offer]:
    """Capixaba's cutter may knock instead of cutting: hearts are trumps, no card turned."""
    if state.rules.variant != "capixaba":
        return []
    return [Offer({"trump": None, "trump_suit": "H"}, say("The cutter knocked: hearts are trumps"))]


def describe(kind: str, d: Mapping, who) -> str:
    match kind:
        case "deal":
            trump = d["trump"] or say("none, a knock for {get_trump_suit}", get_trump_suit=d.get('trump_suit'))
            return words.dealt(d, who, say("; trump card: {trump}; stock: {stock} cards; match before: "
                                           "{match_before}",
                                           trump=trump, stock=len(d['stock']), match_before=d['match_before']))
        case "result":  # named by capixaba's score sheet, which has every field the others have
            sheet = words.sheet_of(bisca_result.result_fields(parse_rules({"variant": "capixaba"})))
            return words.result(d, who, sheet, "Bisca")
        case "bid":
            return say("{words_call_d_who}, giving {gives} for the trump card {takes}",
                       words_call_d_who=words.call(d, who), gives=d['gives'], takes=d['takes'])
        case "trick":
            text = words.trick(d, who)
            if d.get("draws"):
                text += say("; then they draw: {draws}",
                            draws=", ".join(f"{who(s)} {c}" for s, c in d["draws"]))
            for b in d.get("bonuses", []):
                text += say("; {b_name}: side {b_side} scores {b_points} ({b_rule})",
                            b_name=b['name'], b_side=b['side'], b_points=b['points'], b_rule=b['rule'])
            return text
    return words.any_event(kind, d, who)


PRESETS = (
    Preset(say("Bisca de tres"), {"variant": "tres"}, 2,
           say("Two players, three cards each, no duty to follow; 61 card points win a game point; the first to 4 "
               "wins the match.")),
    Preset(say("Bisca de nove"), {"variant": "nove"}, 2,
           say("Two players, nine cards each; once the stock is gone a trump lead must be answered with a trump; big "
               "wins score more.")),
    Preset(say("Bisca de quatro"), {"variant": "quatro"}, 4,
           say("Four players in pairs, three cards each; 91 points or every trick score more.")),
    Preset(say("Bisca capixaba"), {"variant": "capixaba"}, 4,
           say("Four in pairs; the cutter may knock for hearts, which double everything; the ace and seven of trumps "
               "in one trick score at once.")),
    Preset(say("Bisca de seis"), {"variant": "seis"}, 6, say("Six players in two teams of three, without the 2s.")),
)
RULE_FIELDS = (
    RuleField("variant", "tres (2 players, 3 cards), nove (2 players, 9 cards), quatro (4 in pairs), capixaba (4 in "
                         "pairs, the Espírito Santo game with rela bonuses and the knock) or seis (6 in two teams, "
                         "no 2s)", options=tuple(VARIANTS)),
    RuleField("conservative", "seis and quatro only: any win is 1 game point", options=(False, True)),
    RuleField("match_to", "the game points that win a match (4; 10 for the long comb)", low=1, high=50,
              asked=say("Game points that win a match: 4 as a rule, 10 for a long one")),
    RuleField("stake_per", "match: the losers pay the stake when a match ends; game-point: every hand's game points "
                           "are paid at once, the stake per point", options=("match", "game-point"),
              asked=say("What the stake pays"),
              said=(say("The stake once a match, from each loser"),
                    say("The stake for each game point, paid every hand"))),
    RuleField("majority_bonus", "true: the side with more card points (61 or more) also gets 1 game point",
              options=(False, True)),
)
# The settlement's codes as the players say them (the log keeps the codes).
CODES = {"all-120": say("all 120 card points")}
GAME = Game(
    name="bisca", title="Bisca", capabilities=Capabilities(),
    table=TableRules(target=lambda rules: rules.match_to, sides=lambda rules: rules.sides,
                     carries_match_into_deal=True),
    parse_rules=parse_rules, seat_count=seat_count, parse_deal=deal_event, initial_state=new_hand, decide=decide,
    evolve=evolve, is_terminal=is_over, settle=settle, parse_result=result_event, result_state=result_state,
    view=view, turn=lambda state: None if is_over(state) else state.turn, legal_cards=legal_cards, calls=calls,
    offers=offers, instead_of_turning=instead_of_turning,
    describe=describe, superseded=superseded, result_fields=bisca_result.result_fields, sheet=sheet, visible=visible,
    played=played, owed=owed,
    pack=lambda rules: PACKS[VARIANTS[rules.variant].pack], seating=seating, deals=deals,
    deal_fields=(*DEALT, DealField("stock", "cards", "the undealt cards, top first"),
                 DealField("trump", "card", "the face-up trump card, drawn last; null for a capixaba knock"),
                 DealField("trump_suit", "suit", "a capixaba knock: \"H\" with \"trump\": null")),
    docs={"cards": "the dealer's member turns the trump card, {\"trump\": \"6S\"} (a capixaba knock: "
                   "{\"trump\": null, \"trump_suit\": \"H\"}); each seat logs its first cards, and after each "
                   "trick the one card it drew, in drawing order (the trick's winner first; the last to draw "
                   "takes the face-up trump card and logs it too)"},
    seen_fields=(DealField("trump", "card", "the face-up trump card (no seat; the dealer's member); null for a "
                                            "capixaba knock"),
                 DealField("trump_suit", "suit", "a capixaba knock: \"H\" with \"trump\": null")),
    presets=PRESETS, rule_fields=RULE_FIELDS, glossary=glossary.TERMS, demo=demo.TABLES, codes=CODES)
