"""A hand folded from its own events (deal, bids, tricks, settlement, void) and its view."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from games.base import Event
from games.registry import game as game_module


@dataclass(frozen=True)
class HandModel:
    id: str
    table: str
    game: str
    state: Any  # the game's own frozen state
    settlement: dict | None = None
    voided: dict | None = None
    seqs: tuple[int, ...] = ()

    @property
    def module(self):
        return game_module(self.game)

    @property
    def phase(self) -> str:
        if self.voided is not None:
            return "voided"
        return "done" if self.settlement is not None else self.module.view(self.state)["phase"]


def start(envelope) -> HandModel:
    """A hand begins with its deal event, which names the game and carries its rules."""
    d = envelope.data
    module = game_module(d["game"])
    state = module.new_hand(module.parse_rules(d["rules"]), d)
    return HandModel(envelope.hand, envelope.table, d["game"], state, seqs=(envelope.seq,))


def apply(model: HandModel | None, envelope) -> HandModel:
    if envelope.type == "deal":
        return start(envelope)
    seqs = (*model.seqs, envelope.seq)
    if envelope.type == "settlement":
        return replace(model, settlement=envelope.data, seqs=seqs)
    if envelope.type == "hand_voided":
        return replace(model, voided=envelope.data, seqs=seqs)
    state = model.module.evolve(model.state, Event(envelope.type, envelope.data))
    return replace(model, state=state, seqs=seqs)


def fold(envelopes: Iterable) -> HandModel | None:
    model = None
    for env in envelopes:
        model = apply(model, env)
    return model


def render(model: HandModel) -> dict:
    """The hand state of API.md: id, table, game, phase, and the game's own view."""
    view = model.module.view(model.state)
    view.update({"id": model.id, "table": model.table, "game": model.game, "phase": model.phase,
                 "settlement": model.settlement, "voided": model.voided, "events": list(model.seqs)})
    return view
