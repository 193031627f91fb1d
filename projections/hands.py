"""A hand from its own events: the full model (the game's state, folded on demand from the
hand's events, which an index finds) and the summary row the projector keeps for every hand."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

from events.types import HAND_EVENTS
from events.errors import Unprocessable
from games.contract import Game
from games.registry import GAMES
from games.seen import cards_in


@dataclass(frozen=True)
class HandModel:
    id: str
    table: str
    game: str
    state: Any  # the game's own frozen state
    settlement: dict | None = None
    voided: dict | None = None
    seqs: tuple[int, ...] = ()
    result: dict | None = None  # a hand logged by its result alone, not card by card
    opened: dict | None = None  # its deal (or result) event's data: the dealer and the rules it was played by
    logged_by: Mapping[str, frozenset[str]] = field(default_factory=dict)  # actor -> the cards its events named

    @property
    def ended(self) -> bool:
        """Settled or voided: from then on nothing of the hand is sealed."""
        return self.settlement is not None or self.voided is not None or self.result is not None

    @property
    def rules(self) -> Game:
        """The game's rules of play (its ``Game``), which fold, decide and settle this hand."""
        return game_of(self.game)

    @property
    def phase(self) -> str:
        if self.voided is not None:
            return "voided"
        return "done" if self.settlement is not None else self.rules.view(self.state)["phase"]


def start(envelope) -> HandModel:
    """A hand begins with its deal (or, on a score sheet, its result), which names the game
    and carries its rules."""
    d = envelope.data
    game = game_of(d["game"])
    rules = parsed_rules(d["game"], d["rules"])
    if envelope.type == "result":
        return HandModel(envelope.hand, envelope.table, d["game"], game.result_state(rules, d),
                         seqs=(envelope.seq,), result=d["result"], opened=d)
    return HandModel(envelope.hand, envelope.table, d["game"], game.initial_state(rules, d), seqs=(envelope.seq,),
                     opened=d, logged_by=logged({}, envelope))


def logged(logged_by: Mapping[str, frozenset[str]], envelope) -> Mapping[str, frozenset[str]]:
    """Who has named which cards: a card a member logged is never sealed from that member."""
    named = cards_in(envelope.data)
    if not named:
        return logged_by
    return {**logged_by, envelope.actor: logged_by.get(envelope.actor, frozenset()) | named}


def game_of(name: str) -> Game:
    if name not in GAMES:  # a log imported from a newer bitka
        raise Unprocessable(f"this bitka does not know the game {name!r}, so it cannot show the hand")
    return GAMES[name]


def parsed_rules(game: str, raw: dict):
    """A game's rules from their stored form, parsed once per distinct set (replay starts
    thousands of hands)."""
    try:
        return _parsed_rules(game, tuple(sorted(raw.items())))
    except TypeError:  # a rule whose value is a list or object cannot be a cache key
        return game_of(game).parse_rules(raw)


@lru_cache(maxsize=64)
def _parsed_rules(game: str, items: tuple):
    return game_of(game).parse_rules(dict(items))


def apply(model: HandModel | None, envelope) -> HandModel:
    if envelope.type in ("deal", "result"):
        return start(envelope)
    seqs = (*model.seqs, envelope.seq)
    state, settlement, voided = model.state, model.settlement, model.voided
    if envelope.type == "settlement":
        settlement = envelope.data
    elif envelope.type == "hand_voided":
        voided = envelope.data
    else:
        state = model.rules.evolve(state, envelope)  # evolve reads only .type and .data
    return HandModel(model.id, model.table, model.game, state, settlement, voided, seqs, model.result, model.opened,
                     logged(model.logged_by, envelope) if settlement is None and voided is None else model.logged_by)


def fold(envelopes: Iterable) -> HandModel | None:
    model = None
    for env in envelopes:
        model = apply(model, env)
    return model


def render(model: HandModel) -> dict:
    """The hand state of API.md: id, table, game, phase, and the game's own view."""
    if model.result is not None:  # no cards were logged: show the result, not stand-in cards
        view = {"dealer": model.opened["dealer"], "rules": model.opened["rules"], "cards_logged": False,
                "result": model.result}
    else:
        view = model.rules.view(model.state)
    view.update({"id": model.id, "table": model.table, "game": model.game, "phase": model.phase,
                 "settlement": model.settlement, "voided": model.voided, "events": list(model.seqs)})
    return view


NAME = "hand"
EVENTS = HAND_EVENTS
READS_DATA_OF = frozenset({"deal", "result", "settlement", "hand_voided"})  # the summary counts the rest
_RESULT_KEYS = ("contract", "outcome", "winner", "multiplier", "payouts")
_PHASE_AFTER = {"bid": "auction", "trick": "play", "play": "play", "claim": "play",
                "settlement": "done", "hand_voided": "voided"}


def summarize(row: dict | None, event) -> dict | None:
    """The stored hand row, a pure fold that needs no game rules: phase, counts, outcome."""
    d = event.data
    if event.type in ("deal", "result"):
        dealing = event.type == "deal" and not cards_in(d)  # dealt seat by seat: the cards come later
        return {"id": event.hand, "table": event.table, "game": d["game"], "dealer": d["dealer"],
                "phase": "dealing" if dealing else "auction", "calls": 0, "tricks": 0, "plays": 0,
                "first_seq": event.seq, "last_seq": event.seq, "result": None, "voided": None,
                "dealt_at": event.recorded_at}
    if row is None:
        return None
    row = dict(row, last_seq=event.seq)
    if row["phase"] != "voided":
        row["phase"] = _PHASE_AFTER.get(event.type, row["phase"])
    if event.type == "bid":
        row["calls"] += 1
    elif event.type == "trick":
        row["tricks"] += 1
    elif event.type in ("play", "claim"):
        row["plays"] += 1
    elif event.type == "settlement":
        row["result"] = {k: d[k] for k in _RESULT_KEYS if k in d}
    elif event.type == "hand_voided":
        row["voided"] = d["reason"]
    return row
