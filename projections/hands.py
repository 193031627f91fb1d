"""A hand from its own events: the full model (the game's state, folded on demand from the
hand's events, which an index finds) and the summary row the projector keeps for every hand."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from events.types import HAND_EVENTS
from events.errors import Unprocessable
from games.engine import view_keys as keys
from games.engine.contract import Game
from games.registry import GAMES
from games.engine.seen import cards_in, names_a_card
from . import agreement
from .corrections import as_corrected, settlement_after


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
    confirmation: str | None = None  # once settled: "pending", "disputed" or "counted"
    confirmed_by: tuple[str, ...] = ()  # the payers who confirmed it (its logger agreed by logging it)
    disputes: tuple[dict, ...] = ()  # {"seq", "by", "reason"} of each dispute
    corrections: tuple[dict, ...] = ()  # the corrections that changed it (with_corrections), oldest first
    settled_by: str | None = None  # who appended its settlement
    waits: tuple[dict, ...] = ()  # corrections or voids of it that wait for the members they lower
    settled_seq: int | None = None  # the seq of its settlement event
    logged: dict | None = None  # its settlement as its settlement event logged it (what corrections change)

    @property
    def ended(self) -> bool:
        """Settled or voided: from then on nothing of the hand is sealed."""
        return self.settlement is not None or self.voided is not None or self.result is not None

    @property
    def decider(self) -> Game:
        """The game this hand is played at (its ``Game``: the Decider that folds, decides and
        settles it); ``game`` is its name, and a table's rules are its ``opened["rules"]``."""
        return game_of(self.game)

    @property
    def phase(self) -> str:
        return phase_of(self)


def phase_of(model: HandModel, view: Mapping | None = None) -> str:
    """Voided, done, or the phase the game's ``view`` of the hand in play says (asked of
    the game when not given)."""
    if model.voided is not None:
        return "voided"
    if model.settlement is not None:
        return "done"
    return keys.phase(view or model.decider.sight.view(model.state))


def start(envelope) -> HandModel:
    """A hand begins with its deal (or, on a score sheet, its result), which names the game
    and carries its rules."""
    d = envelope.data
    game, state = opened(envelope)
    if envelope.type == "result":
        return HandModel(envelope.hand, envelope.table, d["game"], state, seqs=(envelope.seq,), result=d["result"],
                         opened=d)
    return HandModel(envelope.hand, envelope.table, d["game"], state, seqs=(envelope.seq,), opened=d,
                     logged_by=logged({}, envelope))


def opened(envelope) -> tuple[Game, object]:
    """The game of the hand a deal or result event opens, and the hand's state then: all
    replay needs to decide its events again."""
    d = envelope.data
    game = game_of(d["game"])
    rules = parsed_rules(d["game"], d["rules"])
    return game, (game.result_state(rules, d) if envelope.type == "result" else game.initial_state(rules, d))


def logged(logged_by: Mapping[str, frozenset[str]], envelope) -> Mapping[str, frozenset[str]]:
    """Who has named which cards: a card a member logged (in a deal, or as cards seen) is
    never sealed from that member. The cards the service names in an event a member's
    request made (a trick's draws, the next round a play deals) are not that member's."""
    if envelope.type not in ("deal", "seat_cards"):
        return logged_by
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
    kind, d = envelope.type, envelope.data
    if kind == "settlement":
        return replace(model, seqs=seqs, settlement=d, settled_by=envelope.actor, settled_seq=envelope.seq,
                       logged=d, confirmation="pending" if d.get("confirmed") is False else "counted")
    if kind == "hand_voided":
        return replace(model, seqs=seqs, voided={**d, "seq": envelope.seq}, confirmation=None)
    if kind == "confirmation":
        confirmed = replace(model, seqs=seqs, confirmed_by=(*model.confirmed_by, envelope.actor))
        return confirmed if waiting_for(confirmed) else replace(confirmed, confirmation="counted")
    if kind == "dispute":
        dispute = {"seq": envelope.seq, "by": envelope.actor, "reason": d["reason"]}
        return replace(model, seqs=seqs, confirmation="disputed", disputes=(*model.disputes, dispute),
                       confirmed_by=tuple(m for m in model.confirmed_by if m != envelope.actor))
    if kind == "correction":  # what it changed is laid over from the hand's row (with_corrections)
        if d.get("hand") == model.id and "waits_for" in d and not d.get("void") and model.confirmation in (
                "pending", "disputed"):  # a new result: its payers confirm it anew
            new = next((settlement_after(s, model.settlement) for s in d.get("settlements", [])
                        if s["hand"] == model.id), model.settlement)  # recorded whole
            again = replace(model, seqs=seqs, settlement=new, settled_by="admin", confirmed_by=(),
                            confirmation="pending")
            return again if waiting_for(again) else replace(again, confirmation="counted")
        return replace(model, seqs=seqs)
    state = model.decider.evolve(model.state, envelope)  # evolve reads only .type and .data
    ended = model.settlement is not None or model.voided is not None
    return replace(model, seqs=seqs, state=state,
                   logged_by=model.logged_by if ended else logged(model.logged_by, envelope))


def with_corrections(model: HandModel, entries: Sequence[Mapping] | None) -> HandModel:
    """The hand as the corrections its table keeps for it (``entries``, oldest first) leave
    it: the latest word on its settlement (or its void), and each correction that changed it,
    its own or one of an earlier hand of its table that settled it again."""
    if not entries:
        return model
    entries = resolved(model, entries)
    settlement, voided, confirmation = model.settlement, model.voided, model.confirmation
    voided_at = (model.voided or {}).get("seq", 0)  # a void after a correction stands
    for entry in entries:
        if entry["seq"] < voided_at:
            continue
        if entry["hand"] == model.id:
            voided = {"reason": entry["reason"], "by_correction": entry["seq"]} if entry.get("void") else None
            if entry.get("void"):
                confirmation = None
            elif not entry.get("asks"):
                confirmation = "counted"  # logged before members' word was asked: the admin's word settled it
        if "settlement" in entry:
            settlement = entry["settlement"]
            if entry["hand"] != model.id and confirmation == "pending" and not waiting_for(
                    replace(model, settlement=settlement)):
                confirmation = "counted"  # a correction left nobody to agree
    return replace(model, state=_played_as_counted(model, entries), settlement=settlement, voided=voided,
                   confirmation=confirmation, corrections=tuple(entries))


def _played_as_counted(model: HandModel, entries: Sequence[Mapping]):
    """The hand's state by the cards it now counts by: those its latest correction of its own
    gave (its settlement is theirs), else those its events logged (a void by a correction
    leaves the hand as it was logged, as the page that corrects it again starts from it)."""
    latest = next((e for e in reversed(entries) if e["hand"] == model.id and (e.get("void") or e.get("cards"))),
                  None)
    if latest is None or not latest.get("cards") or model.opened is None:
        return model.state
    again = as_corrected(model.decider, parsed_rules(model.game, model.opened["rules"]), model.opened,
                         latest["cards"])
    return model.state if again is None else again


def resolved(model: HandModel, entries: Sequence[Mapping]) -> list[dict]:
    """The corrections' entries of a hand, each with the whole settlement it left the hand
    with where it changed it (a correction records what changed: projections/corrections.py),
    laid over its settlement as logged, in order, as the table's history saw it (from a void
    by the void endpoint on, the hand settled nothing)."""
    current = model.logged if model.logged is not None else model.settlement
    voided_at, out = (model.voided or {}).get("seq", 0), []
    for entry in entries:
        if voided_at and entry["seq"] > voided_at:
            current, voided_at = None, 0
        if "changed" in entry or "settlement" in entry:
            current = settlement_after(entry, current)
            entry = {**{k: v for k, v in entry.items() if k not in ("changed", "removed")}, "settlement": current}
        out.append(dict(entry))
    return out


def settled_at(model: HandModel) -> int | None:
    """The seq of the event that settled the hand as it now stands: the latest correction
    that settled it again, else its own settlement (None while it is not settled)."""
    if model.settlement is None:
        return None
    again = [e["seq"] for e in model.corrections if "settlement" in e or e["hand"] == model.id]
    return again[-1] if again else model.settled_seq


def waiting_for(model: HandModel) -> list[str]:
    """The payers of the hand's settlement who have not agreed to it yet (none once it counts)."""
    if model.settlement is None or model.confirmation == "counted":
        return []
    return agreement.waiting_for(agreement.payers(model.settlement.get("payouts", [])), model.settled_by,
                                 model.confirmed_by)


def fold(envelopes: Iterable) -> HandModel | None:
    model = None
    for env in envelopes:
        model = apply(model, env)
    return model


def render(model: HandModel) -> dict:
    """The hand state of API.md: id, table, game, phase, and the game's own view."""
    if model.result is not None:  # no cards were logged: show the result, not stand-in cards
        view = {keys.DEALER: model.opened["dealer"], "rules": model.opened["rules"], "cards_logged": False,
                "result": model.result}
        phase = model.phase
    else:
        view = model.decider.sight.view(model.state)
        phase = phase_of(model, view)
    view.update({"id": model.id, "table": model.table, "game": model.game, keys.PHASE: phase,
                 "settlement": model.settlement, "voided": model.voided, "events": list(model.seqs),
                 "confirmation": _confirmation(model),
                 "corrections": [_correction_shown(c) for c in model.corrections],
                 "correction_waiting": _waiting_shown(model.waits[0]) if model.waits else None})
    return view


def _waiting_shown(entry: Mapping) -> dict:
    """A correction (or void) that changes the hand and waits: until each member it lowers
    agrees, the hand counts as before."""
    return {"seq": entry["seq"], "correction": entry.get("hash"), "agreed": list(entry["agreed"]),
            "waiting_for": [m for m in entry["waiting_for"] if m not in entry["agreed"]]}


def _confirmation(model: HandModel) -> dict | None:
    """Whether the settlement counts in the balances yet: ``pending`` until every payer has
    agreed, ``disputed`` (out of the balances) until they have or the admin corrects it, or
    ``counted``; with who it waits for and who confirmed it."""
    if model.confirmation is None:
        return None
    because = (model.settlement or {}).get("confirmed_because")
    return {"state": model.confirmation, "waiting_for": waiting_for(model), "confirmed_by": list(model.confirmed_by),
            "disputes": list(model.disputes),
            **({"because": because} if because and model.confirmation == "counted" else {})}


def _correction_shown(entry: Mapping) -> dict:
    shown = {k: entry[k] for k in ("seq", "hand", "reason") if k in entry}
    if entry.get("void"):
        shown["void"] = True
    elif "cards" in entry or entry.get("by_cards"):  # its cards are kept with the hand it corrected
        shown["cards"] = entry.get("cards")
    else:
        shown["result"] = entry.get("result")
    if "settlement" in entry:
        shown["payouts"] = (entry["settlement"] or {}).get("payouts", [])
    return shown


NAME = "hand"
# Only the hand's own play: what is said of it later (a confirmation, a correction) is kept
# where it can still change, with the balances and with its table.
EVENTS = HAND_EVENTS
READS_DATA_OF = frozenset({"deal", "result", "settlement", "hand_voided"})  # the summary counts the rest
_RESULT_KEYS = ("contract", "outcome", "winner", "multiplier", "payouts")
_PHASE_AFTER = {"bid": "auction", "trick": "play", "play": "play", "claim": "play",
                "settlement": "done", "hand_voided": "voided"}


def summarize(row: dict | None, event) -> dict | None:
    """The stored hand row, a pure fold that needs no game rules: phase, counts, outcome."""
    d = event.data
    if event.type in ("deal", "result"):
        dealing = event.type == "deal" and not names_a_card(d)  # dealt seat by seat: the cards come later
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
        row["result"] = _summary(d)
    elif event.type == "hand_voided":
        row["voided"] = d["reason"]
    return row


def _summary(settlement: Mapping | None) -> dict | None:
    return None if settlement is None else {k: settlement[k] for k in _RESULT_KEYS if k in settlement}
