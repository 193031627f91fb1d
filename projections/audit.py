"""A hand's audit trail: every event with who appended it, when and its hash, and the
settlement explained step by step in words, down to each payout."""
from __future__ import annotations

from typing import Sequence

from .groups import member_name
from . import hands as hand_fold


def _who(grow: dict, actor: str) -> str:
    return "admin" if actor == "admin" else f"{member_name(grow, actor)} ({actor})"


def _seat(trow: dict, grow: dict, seat: int) -> str:
    return f"seat {seat} ({member_name(grow, trow['seats'][seat])})"


def summary(env, trow: dict, grow: dict) -> str:
    """An event of the hand in words: the game's own for its play, the ledger's for the rest."""
    d = env.data
    match env.type:
        case "settlement":
            return f"settlement: {d['winner']} win, outcome {d['outcome']}, multiplier {d['multiplier']}"
        case "hand_voided":
            return f"hand voided: {d['reason']}"
    return hand_fold.game_of(trow["game"]).describe(env.type, d, lambda seat: _seat(trow, grow, seat))


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
