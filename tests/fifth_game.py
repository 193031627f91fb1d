"""A fifth game, small enough to read in one go, registered only by the tests that prove a
game needs nothing outside games/ but its ``Game`` value and its registration.

High card: two players, the four spades A K Q J, two cards each. Two tricks, each won by
the higher card (A > K > Q > J), the winner leading the next; whoever takes both tricks
wins the stake from the other, one each pays nobody.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from games import words
from games.base import Event, Settlement, Side, TableTerms, named_rules
from games.cards import check_exact_pack, dealt, parse_cards
from games.contract import Capabilities, Game, ResultField, TableRules
from games.errors import RuleViolation, require

PACK = frozenset({"AS", "KS", "QS", "JS"})
ORDER = ("A", "K", "Q", "J")


@dataclass(frozen=True)
class Rules:
    game = "highcard"

    def to_data(self) -> dict:
        return {}


@dataclass(frozen=True)
class State:
    dealer: int
    held: tuple[tuple[str, ...], ...]
    won: tuple[int, ...] = (0, 0)
    leader: int = 0
    tricks: tuple[tuple[str, ...], ...] = ()
    result: Mapping | None = None


def parse_deal(rules: Rules, raw: Mapping) -> Event:
    dealer, hands = dealt(raw, ("dealer", "hands"), 2, 2, "highcard")
    check_exact_pack(hands, PACK, "four-spade highcard")
    return Event("deal", {"dealer": dealer, "hands": hands})


def initial_state(rules: Rules, deal: Mapping) -> State:
    return State(deal["dealer"], tuple(tuple(h) for h in deal["hands"]), leader=(deal["dealer"] + 1) % 2)


def decide(state: State, command) -> list[Event]:
    if is_terminal(state):
        raise RuleViolation("the hand is over")
    cards = parse_cards(command.data.get("cards"))
    if command.kind != "trick" or len(cards) != 2:
        raise RuleViolation("a highcard hand takes tricks of two cards, leader first")
    for i, card in enumerate(cards):
        seat = (state.leader + i) % 2
        if card not in state.held[seat]:
            raise RuleViolation(f"seat {seat} does not hold {card}")
    higher = min(range(2), key=lambda i: ORDER.index(cards[i][:-1]))
    return [Event("trick", {"trick": len(state.tricks) + 1, "leader": state.leader, "cards": cards,
                            "winner": (state.leader + higher) % 2, "points": 0})]


def evolve(state: State, event) -> State:
    match event.type, event.data:
        case "trick", d:
            held = tuple(tuple(c for c in h if c not in d["cards"]) for h in state.held)
            won = tuple(n + (s == d["winner"]) for s, n in enumerate(state.won))
            return State(state.dealer, held, won, d["winner"], (*state.tricks, tuple(d["cards"])))
    return state


def is_terminal(state: State) -> bool:
    return state.result is not None or len(state.tricks) == 2


def settle(state: State, table: TableTerms) -> Settlement:
    won = list(state.result["tricks"]) if state.result else list(state.won)
    winner = next((s for s in range(2) if won[s] == 2), None)
    amounts = (0, 0) if winner is None else tuple(table.stake if s == winner else -table.stake for s in range(2))
    sides = tuple(Side((s,), f"seat {s}", 0, won[s]) for s in range(2))
    said = f"seat {winner} took both tricks" if winner is not None else "one trick each: nobody pays"
    return Settlement("sweep" if winner is not None else "split", "highcard", sides,
                      f"seat {winner}" if winner is not None else "nobody", 1, 1, (), amounts, table.members, (said,))


def parse_result(rules: Rules, dealer: int, raw: Mapping) -> Event:
    require(raw, ("tricks",))
    tricks = raw["tricks"]
    if not isinstance(tricks, list) or sorted(tricks) not in ([0, 2], [1, 1]):
        raise RuleViolation("tricks lists each seat's tricks, two in all")
    return Event("result", {"dealer": dealer, "result": {"tricks": tricks}})


def result_state(rules: Rules, data: Mapping) -> State:
    return State(data["dealer"], ((), ()), result=data["result"])


def view(state: State) -> dict:
    return {"dealer": state.dealer, "held": [list(h) for h in state.held], "tricks": [list(t) for t in state.tricks],
            "turn": None if is_terminal(state) else state.leader, "phase": "done" if is_terminal(state) else "play"}


def describe(kind: str, d: Mapping, who) -> str:
    if kind == "trick":
        return f"{who(d['leader'])} leads; {' '.join(d['cards'])}; {who(d['winner'])} takes it"
    return words.dealt(d, who) if kind == "deal" else words.any_event(kind, d, who)


GAME = Game(
    name="highcard", title="High card", capabilities=Capabilities(deal_on_page=True), table=TableRules(),
    parse_rules=lambda raw: named_rules(Rules, raw, "highcard"), seat_count=lambda rules: 2,
    parse_deal=parse_deal, initial_state=initial_state, decide=decide, evolve=evolve, is_terminal=is_terminal,
    settle=settle, parse_result=parse_result, result_state=result_state, view=view,
    turn=lambda state: None if is_terminal(state) else state.leader,
    legal_cards=lambda state, seat, played: list(state.held[seat]), calls=lambda state: [], describe=describe,
    superseded=lambda state, version: [],
    result_fields=lambda rules: (ResultField("tricks", "per-side", "Tricks taken"),))
