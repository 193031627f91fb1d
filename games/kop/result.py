"""Kop and Baśka hands logged by their result alone (a score sheet), settled by the very
functions that settle a hand logged card by card.

A result names the contract, who called it (or, in a normal game, which seats held the
black queens), the wesele partner, the doubles in order with their seats, and the card
points and tricks of the declaring (stare) side. bitka checks that these facts are
possible, then builds a hand that has them: a deal that gives those seats those queens
and jacks, the calls (judged by the real auction, so a double nobody could give is
refused), and tricks that carry those points. The cards themselves are stand-ins: the
hand's view and audit trail say plainly that they were not logged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from events.sentences import say

from ..engine.base import Command, Event
from ..engine.contract import ResultField
from ..engine.errors import Malformed, RuleViolation, require, whole_number
from ..engine.possible import pack_values, totals, why_impossible
from . import auction as auc
from .pack import CARD_POINTS, PACK
from .turns import PLAYERS, Turns, turns

QUEENS = ("QC", "QS", "QH", "QD")
MIN_TRICK = 8  # the four jacks: no trick of four cards is worth less
FIELDS = ("contract", "declarer", "partner", "stare", "doubles", "points", "tricks")


def applies(contract: str) -> tuple[str, ...]:
    """The fields a result of ``contract`` must have: who played it, the doubles, and the
    declaring side's points and tricks (a baska ends before any trick or double)."""
    if contract == "baska":
        return ("declarer",)
    who = {"normal": ("stare",), "wesele": ("declarer", "partner")}.get(contract, ("declarer",))
    return (*who, "doubles", "points", "tricks")


@dataclass(frozen=True)
class Engine:
    """What building a result's hand needs of the game it is for (Kop or Baśka)."""
    new_hand: Callable
    decide: Callable
    evolve: Callable


def result_event(module: Engine, rules, dealer: int, raw: Mapping) -> Event:
    """Check a result and return it, normalised, as the ``result`` event."""
    if not isinstance(raw, Mapping):
        raise Malformed("", say("result must be an object with contract, points and tricks"))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise RuleViolation(say("a {game} result has {fields}, not {unknown}",
                                game=rules.game, fields=', '.join(FIELDS), unknown=', '.join(unknown)))
    require(raw, ("contract",))
    contract = raw["contract"]
    if not isinstance(contract, str):
        raise Malformed("contract", say("contract must be the name of a contract, such as \"normal\""))
    known = ("normal", "cicha", *rules.ladder.contracts)
    if contract not in known:
        raise RuleViolation(say("contract must be one of {known}", known=', '.join(known)))
    require(raw, applies(contract))
    foreign = [f for f in FIELDS if f not in ("contract", *applies(contract)) and raw.get(f) not in (None, [])]
    if foreign:
        raise RuleViolation(say("a {contract} result has no {foreign}: it names {applies}",
                                contract=contract, foreign=' or '.join(foreign),
                                applies=', '.join(applies(contract))))
    doubled, t = "doubles" in applies(contract), turns(rules.players, dealer)
    result = {"contract": contract, "doubles": _seats(raw["doubles"], "doubles", t) if doubled else []}
    if contract == "normal":
        stare = _seats(raw.get("stare"), "stare", t)
        if len(stare) != 2 or stare[0] == stare[1]:
            raise RuleViolation(say("a normal game names the two seats that held QC and QS: \"stare\": [seat, seat]"))
        result["stare"] = stare
    else:
        result["declarer"] = _seat(raw.get("declarer"), "declarer", t)
    if contract == "wesele":
        partner = _seat(raw.get("partner"), "partner", t)
        if partner == result["declarer"]:
            raise RuleViolation(say("the wesele partner is another seat than the caller"))
        result["partner"] = partner
    if contract != "baska":
        result["points"], result["tricks"] = _points_and_tricks(raw)
    event = Event("result", {"dealer": dealer, "result": result})
    _built(module, rules, event.data, judged=True)  # the calls go through the real auction here
    return event


def _seat(value, name: str, t: Turns) -> int:
    """A seat the result names: one of the table's, and never one that sat the hand out."""
    last = t.seats - 1
    if not 0 <= whole_number(value, name, say("a seat from 0 to {last}", last=last)) <= last:
        raise RuleViolation(say("{name} must be a seat from 0 to {last}", name=name, last=last))
    if value in t.out:
        raise RuleViolation(say("{name} names seat {seat}, who dealt this hand and sat it out: a result names only "
                                "the four who played it", name=name, seat=value))
    return value


def _seats(value, name: str, t: Turns) -> list[int]:
    if not isinstance(value, list):
        raise Malformed(name, say("{name} must be a list of seats ([] for none)", name=name))
    return [_seat(v, name, t) for v in value]


def _points_and_tricks(raw: Mapping) -> tuple[int, int]:
    points = whole_number(raw["points"], "points", say("a whole number from 0 to 104"))
    tricks = whole_number(raw["tricks"], "tricks", say("a whole number from 0 to 4"))
    if not 0 <= tricks <= 4:
        raise RuleViolation(say("tricks (the declaring side's) must be from 0 to 4"))
    if not 0 <= points <= 104:
        raise RuleViolation(say("points (the declaring side's) must be from 0 to 104: there are 104 in the pack"))
    why = possible(points, tricks)
    if why:
        raise RuleViolation(say("{points:d} card points in {tricks:d} trick(s) is impossible: {why}",
                                points=points, tricks=tricks, why=why))
    return points, tricks


def possible(points: int, tricks: int) -> str | None:
    """None when some arrangement of the 16-card pack gives the declaring side ``points`` in
    ``tricks`` tricks (its 4 x tricks cards add up to them; the other side holds the rest);
    else why not."""
    return why_impossible(points, PLAYERS * tricks, pack_values(PACK, CARD_POINTS))


def _stand_in_deal(result: Mapping, t: Turns) -> list[list[str]]:
    """Hands that give the named seats the queens and jacks the result implies (none to a
    seat that sits the hand out)."""
    hands: list[list[str]] = [[] for _ in range(t.seats)]
    contract = result["contract"]
    if contract == "normal":
        hands[result["stare"][0]].append("QC")
        hands[result["stare"][1]].append("QS")
    elif contract in ("cicha", "wesele"):
        hands[result["declarer"]] += ["QC", "QS"]
        if contract == "wesele":
            hands[result["partner"]].append("JC")  # the caller holds no jack: JC is the partner's
    elif contract == "baska":
        hands[result["declarer"]] += list(QUEENS)
    else:  # a solo contract: the black queens apart, away from the declarer, so nobody is silent
        others = t.others(result["declarer"])
        hands[others[0]].append("QC")
        hands[others[1]].append("QS")
    placed = {c for h in hands for c in h}
    rest = [c for c in ("QH", "QD", "JS", "JH", "JD", "JC", "AC", "10C", "AS", "10S", "AH", "10H", "AD", "10D")
            if c not in placed]
    avoid_jacks = result["declarer"] if contract == "wesele" else None
    for seat in t.players:
        while len(hands[seat]) < 4:
            pick = next(c for c in rest if not (seat == avoid_jacks and c.startswith("J")))
            rest.remove(pick)
            hands[seat].append(pick)
    return hands


def result_state(module: Engine, rules, data: Mapping):
    """The hand a recorded result describes, its calls folded as recorded: a result logged
    under older rules (say, a double today's refuse) still reads back."""
    return _built(module, rules, data, judged=False)


def _built(module: Engine, rules, data: Mapping, judged: bool):
    """The hand a result describes: stand-in cards, the calls (through the game's decide
    when ``judged``) and tricks carrying the declaring side's points."""
    result = data["result"]
    t = turns(rules.players, data["dealer"])
    state = module.new_hand(rules, {"dealer": data["dealer"], "hands": _stand_in_deal(result, t)})
    calls = []
    if result["contract"] == "wesele":  # the partner holds JC, the highest jack the caller lacks
        calls.append({"seat": result["declarer"], "call": "wesele", "jack": "JC"})
    elif result["contract"] not in ("normal", "cicha"):
        calls.append({"seat": result["declarer"], "call": result["contract"]})
    for i, seat in enumerate(result["doubles"]):
        calls.append({"seat": seat, "call": auc.next_double_name(i, rules.ladder)})
    for call in calls:
        try:
            events = module.decide(state, Command("bid", call)) if judged else [Event("bid", call)]
        except RuleViolation as e:
            raise RuleViolation(say("{call} by seat {seat}: {why}",
                                    call=call['call'], seat=call['seat'], why=e.detail)) from None
        for event in events:
            state = module.evolve(state, event)
    if result["contract"] == "baska":
        return state
    return _with_tricks(module, state, result, t)


def _with_tricks(module: Engine, state, result: Mapping, t: Turns):
    declaring = result["stare"][0] if result["contract"] == "normal" else result["declarer"]
    other = t.others(*(result.get("stare") or [declaring, result.get("partner")]))[0]
    points, tricks = result["points"], result["tricks"]
    won = [points - MIN_TRICK * (tricks - 1)] + [MIN_TRICK] * (tricks - 1) if tricks else []
    lost = [104 - points - MIN_TRICK * (3 - tricks)] + [MIN_TRICK] * (3 - tricks) if tricks < 4 else []
    for number, (winner, p) in enumerate([(declaring, p) for p in won] + [(other, p) for p in lost], 1):
        state = module.evolve(state, Event("trick", {"trick": number, "leader": t.players[0], "cards": [],
                                                     "winner": winner, "points": p}))
    return state


CONTRACT_WORDS = {"normal": say("normal game (no call)"), "cicha": say("cicha (black queens, silent)"),
                  "baska": say("baśka (all four queens)")}


def _whole(text, high: int) -> int | None:
    """A number a score sheet holds as typed (a string, or a number), if it is one from 0 to ``high``."""
    text = str(text if text is not None else "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 and int(text) <= high else None


def _who(values: Mapping) -> str:
    """Who the score sheet asks for, by the contract: who called it, or who held the queens."""
    contract = values.get("contract") or "normal"
    if contract == "cicha":
        return say("Who held both black queens (QC and QS) and played alone?")
    if contract == "baska":
        return say("Who held all four queens?")
    return say("Who called {contract}?", contract=contract)


def _side(values: Mapping, normal: str, wesele: str, alone: str) -> str:
    """The declaring side's question in the contract's words: the stare, the wesele pair, or one alone."""
    return {"normal": normal, "wesele": wesele}.get(values.get("contract") or "normal", alone)


def _points_possible(values: Mapping):
    """The declaring side's card points that its tricks can hold (None until the tricks are known)."""
    tricks = _whole(values.get("tricks"), 4)
    return None if tricks is None else totals(pack_values(PACK, CARD_POINTS), PLAYERS * tricks)


def _tricks_possible(values: Mapping):
    """The tricks that can hold the declaring side's card points (None until those are known)."""
    points = _whole(values.get("points"), 104)
    return None if points is None else {t for t in range(5) if possible(points, t) is None}


def result_fields(rules) -> tuple[ResultField, ...]:
    """The score sheet of a Kop or Baśka hand: the fields of ``applies`` for each contract, in
    the order a player thinks of them (the contract, who, the doubles, then the numbers), each
    asked in the chosen contract's words, the numbers with the totals their tricks can hold."""
    contracts = ("normal", "cicha", *rules.ladder.contracts)
    ladder = rules.ladder
    doubles = (*ladder.doubles, *([ladder.extra_double] * (rules.max_doubles or 16)))[:rules.max_doubles or 16]

    def applies_to(name):
        return lambda values: name in applies(values.get("contract") or "normal")
    return (
        ResultField("contract", "choice", "Contract", options=tuple((c, CONTRACT_WORDS.get(c, c)) for c in contracts),
                    default="normal", noun=say("contract")),
        ResultField("stare", "seats", say("Normal game: who held QC and QS (stare)? Tick two."), count=2,
                    when=applies_to("stare")),
        ResultField("declarer", "seat", say("Any other contract: who called it (or plays cicha)?"),
                    when=applies_to("declarer"), asked=_who),
        ResultField("partner", "seat", say("Wesele: who was the partner?"), when=applies_to("partner"),
                    noun=say("partner")),
        ResultField("doubles", "doubles", say("Doubles, in the order they were given"), options=tuple(doubles),
                    when=applies_to("doubles"), noun=say("doubles")),
        ResultField("points", "number", say("Card points of the declaring side (stare), 0 to 104"), high=104,
                    when=applies_to("points"), noun=say("card points"), plausible=_points_possible,
                    asked=lambda values: _side(values, say("Card points of the stare (who held QC and QS), 0 to 104"),
                                               say("Card points of the wesele pair, 0 to 104"),
                                               say("Card points of the one who played alone, 0 to 104"))),
        ResultField("tricks", "number", say("Tricks they took, 0 to 4"), high=4, when=applies_to("tricks"),
                    noun=say("tricks"), plausible=_tricks_possible,
                    asked=lambda values: _side(values, say("Tricks they took, 0 to 4"), say("Tricks they took, 0 to 4"),
                                               say("Tricks the one who played alone took, 0 to 4"))),
    )
