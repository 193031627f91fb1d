"""One way to state a rule for every game: ``given`` a deal and the events so far, ``when`` a
command comes, ``then`` these events are decided, or the command is ``refused`` with a
sentence. Everything goes through the game's ``Game`` contract, as the service does.

    given(kop.GAME, deal).when("bid", seat=1, call="zolo").then(("bid", {"seat": 1, "call": "zolo"}))
    given(kop.GAME, deal, ("bid", {...})).when("trick", cards=[...]).refused("must follow")
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from games.engine import table
from games.engine.base import Command, Event
from games.engine.contract import Game
from games.engine.errors import RuleViolation


def given(game: Game, deal: Mapping, *events, rules: Mapping | None = None) -> "Scenario":
    """A hand of ``game`` dealt as ``deal`` (at a table with ``rules``), with ``events``
    ((type, data) pairs, or Events) already folded into it."""
    parsed = game.parse_rules(rules or {})
    data = {**game.parse_deal(parsed, deal).data, **table.deal_context(game, parsed, None)}
    state = game.initial_state(parsed, data)
    for event in events:
        state = game.evolve(state, event if isinstance(event, Event) else Event(*event))
    return Scenario(game, state)


@dataclass(frozen=True)
class Scenario:
    game: Game
    state: Any

    def when(self, kind: str, **data) -> "When":
        return When(self.game, self.state, Command(kind, data))


@dataclass(frozen=True)
class When:
    game: Game
    state: Any
    command: Command

    def then(self, *expected) -> Any:
        """The events decided are exactly ``expected`` ((type, data) pairs; a data of ``...``
        is not compared); returns the state after them."""
        events = self.game.decide(self.state, self.command)
        got = [(e.type, dict(e.data)) for e in events]
        want = [(kind, data) for kind, data in expected]
        assert [k for k, _ in got] == [k for k, _ in want], got
        for (_, data), (_, wanted) in zip(got, want, strict=True):
            if wanted is not ...:
                assert data == wanted, data
        state = self.state
        for event in events:
            state = self.game.evolve(state, event)
        return state

    def refused(self, match: str) -> str:
        """The command is refused with a sentence that says ``match`` (a regular expression)."""
        try:
            self.game.decide(self.state, self.command)
        except RuleViolation as e:
            assert re.search(match, e.detail), e.detail
            return e.detail
        raise AssertionError(f"{self.command} was not refused")
