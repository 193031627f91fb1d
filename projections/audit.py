"""A hand's audit trail: every event with who appended it, when and its hash, and the
settlement explained step by step in words, down to each payout."""
from __future__ import annotations

import json
from typing import Sequence

from .groups import member_name
from . import hands as hand_fold


def _who(grow: dict, actor: str) -> str:
    return "admin" if actor == "admin" else f"{member_name(grow, actor)} ({actor})"


def _seat(trow: dict, grow: dict, seat: int) -> str:
    return f"seat {seat} ({member_name(grow, trow['seats'][seat])})"


def summary(env, trow: dict, grow: dict) -> str:
    d = env.data
    match env.type:
        case "deal":
            dealt = "; ".join(f"{_seat(trow, grow, s)}: {' '.join(h)}" for s, h in enumerate(d["hands"]))
            shown = ""
            if "table" in d:  # scopa
                shown = f"; table: {' '.join(d['table']) or 'empty'}; stock: {len(d['stock'])} cards"
            elif "trump" in d:  # bisca
                trump = d["trump"] or f"none, a knock for {d.get('trump_suit')}"
                shown = f"; trump card: {trump}; stock: {len(d['stock'])} cards; match before: {d['match_before']}"
            return f"{_seat(trow, grow, d['dealer'])} deals {d['game']} ({_rules(d['rules'])}). {dealt}{shown}"
        case "result":
            shown = ", ".join(f"{k} {json.dumps(v)}" for k, v in d["result"].items())
            return (f"{_seat(trow, grow, d['dealer'])} deals {d['game']}; the hand is logged by its result alone, "
                    f"without its cards: {shown}")
        case "play":
            return _play_summary(d, trow, grow)
        case "claim" if "tricks" in d:  # Kop and Baśka: throwing in
            counted = "; ".join(f"trick {t['trick']} {' '.join(t['cards'])}" for t in d["tricks"])
            return (f"{_seat(trow, grow, d['seat'])} throws in: every legal way to play the last "
                    f"{len(d['tricks'])} trick(s) settles alike; counted as {counted} (not played)")
        case "claim":
            certain = ", ".join(f"{k} {v}" for k, v in sorted(d["certain"].items())) or "nothing"
            return f"{_seat(trow, grow, d['seat'])} calls itself out (chiamarsi fuori); certain points: {certain}"
        case "bid":
            jack = f" with the holder of {d['jack']}" if d.get("jack") else ""
            swap = f", giving {d['gives']} for the trump card {d['takes']}" if d.get("gives") else ""
            return f"{_seat(trow, grow, d['seat'])} calls {d['call']}{jack}{swap}"
        case "trick":
            text = (f"trick {d['trick']}: {_seat(trow, grow, d['leader'])} leads; cards {' '.join(d['cards'])}; "
                    f"{_seat(trow, grow, d['winner'])} wins {d['points']} card points")
            if d.get("draws"):  # bisca
                text += "; then they draw: " + ", ".join(f"{_seat(trow, grow, s)} {c}" for s, c in d["draws"])
            for b in d.get("bonuses", []):
                text += f"; {b['name']}: side {b['side']} scores {b['points']} ({b['rule']})"
            return text
        case "settlement":
            return f"settlement: {d['winner']} win, outcome {d['outcome']}, multiplier {d['multiplier']}"
        case "hand_voided":
            return f"hand voided: {d['reason']}"
    return env.type


_WHY_CAPTURE = {
    "match": "a table card of the same value must be taken, before any sum",
    "sum": "no table card has its value, so it takes cards summing to it",
}


def _play_summary(d: dict, trow: dict, grow: dict) -> str:
    seat = _seat(trow, grow, d["seat"])
    if d["capture"]:
        text = f"{seat} plays {d['card']} and takes {'+'.join(d['capture'])} ({_WHY_CAPTURE[d['by']]})"
        if d["scopa"]:
            text += ": scopa"
    else:
        text = f"{seat} plays {d['card']}, which captures nothing, to the table"
    if "dealt" in d:
        text += "; every hand is empty, so 3 more cards go to each seat from the stock"
    if "sweep" in d:
        text += f"; the hand is over and {_seat(trow, grow, d['sweep']['seat'])}, the last to capture, takes " \
                f"{' '.join(d['sweep']['cards'])} (never a scopa)"
    return text


def _rules(rules: dict) -> str:
    return ", ".join(f"{k} {json.dumps(v)}" for k, v in sorted(rules.items()))


def money_lines(settlement: dict, trow: dict, grow: dict) -> list[str]:
    s = settlement
    if not s["payouts"]:
        return ["no money changes hands: the hand ended no game"]
    lines = [f"each payment is stake {s['stake']} x {s['units']} unit(s) x multiplier {s['multiplier']}"]
    for p in s["payouts"]:
        verb = "receives" if not p["amount"].startswith("-") else "pays"
        lines.append(f"{_seat(trow, grow, p['seat'])} {verb} {p['amount'].lstrip('-')} {grow['currency']}")
    return lines


def trail(events: Sequence, trow: dict, grow: dict) -> dict:
    model = hand_fold.fold(events)
    settlement = model.settlement
    explanation = []
    if settlement:
        explanation = [*settlement["explanation"], *money_lines(settlement, trow, grow)]
    return {
        "hand": model.id, "table": model.table, "game": model.game, "phase": model.phase,
        "events": [{"seq": e.seq, "type": e.type, "actor": e.actor, "by": _who(grow, e.actor),
                    "recorded_at": e.recorded_at, "prev_hash": e.prev_hash, "hash": e.hash,
                    "summary": summary(e, trow, grow)} for e in events],
        "settlement": settlement,
        "voided": model.voided,
        "explanation": explanation,
    }


def as_text(t: dict) -> str:
    out = [f"Hand {t['hand']} at table {t['table']} ({t['game']}), {t['phase']}", ""]
    for e in t["events"]:
        out.append(f"#{e['seq']} {e['type']} by {e['by']} at {e['recorded_at']}")
        out.append(f"    {e['summary']}")
        out.append(f"    hash {e['hash']} (prev {e['prev_hash'][:16]}...)")
    if t["explanation"]:
        out += ["", "How the settlement was reached:"]
        out += [f"  - {line}" for line in t["explanation"]]
    if t["voided"]:
        out += ["", f"Voided: {t['voided']['reason']}"]
    return "\n".join(out) + "\n"
