"""A hand's audit trail: every event with who appended it, when and its hash, and the
settlement explained step by step in words, down to each payout."""
from __future__ import annotations

from typing import Callable, Sequence

from events import acts
from events.sentences import say
from games.engine import words

from . import hands as hand_fold
from . import corrected
from .groups import member_name
from .typed import plain, typed


def _who(grow: dict, actor: str) -> str:
    return "admin" if actor == "admin" else f"{typed(member_name(grow, actor))} ({actor})"


def _seat(trow: dict, grow: dict, seat: int) -> str:
    return f"seat {seat} ({typed(member_name(grow, trow['seats'][seat]))})"


def summary(env, trow: dict, grow: dict) -> str:
    """An event of the hand in words: the game's own for its play, the ledger's for the rest."""
    d = env.data
    match env.type:
        case "settlement":
            waits = "" if d.get("confirmed", True) else say("; it counts once every player who pays in it confirms it")
            codes = hand_fold.game_of(trow["game"]).words.codes
            outcome = f" ({codes[d['outcome']]})" if d["outcome"] in codes else ""
            if d.get("winner") is None or d.get("winner") == []:
                return say("settlement: nobody wins the hand{outcome}, multiplier {multiplier:d}{waits}",
                           outcome=outcome, multiplier=d['multiplier'], waits=waits)
            return say("settlement: {winners_d_winner} win{outcome}, multiplier {multiplier:d}{waits}",
                       winners_d_winner=_winners(d['winner'], codes), outcome=outcome, multiplier=d['multiplier'],
                       waits=waits)
        case "hand_voided":
            return say("hand voided: {reason}", reason=typed(d['reason']))
        case "confirmation":
            return say("{who_grow_env_actor} confirms the settlement: it counts in the balances",
                       who_grow_env_actor=_who(grow, env.actor))
        case "dispute":
            return say("{who_grow_env_actor} disputes the settlement: {reason}",
                       who_grow_env_actor=_who(grow, env.actor), reason=typed(d['reason']))
        case "correction":
            return _correction_words(env, trow, grow)
        case "agreement":
            return say("{who} agrees to the correction at event {seq}, which lowers what they get",
                       who=_who(grow, env.actor), seq=d.get("seq"))
    return hand_fold.game_of(trow["game"]).words.describe(env.type, d, lambda seat: _seat(trow, grow, seat))


def _winners(winner, codes) -> str:
    """Who won, as the words of a sentence: a role, a side's seats, or a side's number."""
    if isinstance(winner, list):
        return " and ".join(f"seat {s}" for s in winner)
    if isinstance(winner, int):
        return f"side {winner}"
    return codes.get(winner, str(winner))


def _correction_words(env, trow: dict, grow: dict) -> str:
    d = env.data
    who = lambda seat: _seat(trow, grow, seat)  # noqa: E731 - a name for what games.engine.words takes
    if d.get("void"):
        what = say("voids it: it counts as never played")
    elif "cards" in d:
        what = say("logs it again card by card, as the rules check a new hand")
    else:
        game = hand_fold.game_of(trow["game"])
        sheet = words.sheet_of(game.forms.result_fields(hand_fold.parsed_rules(trow["game"], trow["rules"])))
        what = say("puts its result as {facts}",
                   facts=words.facts(d["result"], who, sheet))
    moved = "; ".join(say("hand {hand}: {payments}",
                          hand=a['hand'],
                          payments=", ".join(f"{_seat(trow, grow, p['seat'])} {_signed(p['amount'])}"
                                                          for p in a["payouts"] if _moves(p["amount"])))
                      for a in d["adjustments"])
    return (say("the admin corrects hand {hand} ({reason}) and {what}; {moved}",
                hand=d['hand'], reason=typed(d['reason']), what=what,
                moved=say("what each hand now pays more or less: {moved}", moved=moved) if moved
                else say("no payout changes")))


def _moves(amount: str) -> bool:
    return amount.strip("-0.") != ""


def _signed(amount: str) -> str:
    return amount if amount.startswith("-") else f"+{amount}"


def money_lines(settlement: dict, trow: dict, grow: dict) -> list[str]:
    s = settlement
    if not s["payouts"]:
        return [say("no money changes hands: the hand ended no game")]
    lines = [say("each payment is stake {stake} x {units:d} unit(s) x multiplier {multiplier:d}",
                 stake=s['stake'], units=s['units'], multiplier=s['multiplier'])]
    for p in s["payouts"]:
        who, amount = _seat(trow, grow, p["seat"]), f"{p['amount'].lstrip('-')} {grow['currency']}"
        if not _moves(p["amount"]):  # the dealer sitting out at a table of five, say
            lines.append(say("{who} neither pays nor receives", who=who))
        elif p["amount"].startswith("-"):
            lines.append(say("{who} pays {amount}", who=who, amount=amount))
        else:
            lines.append(say("{who} receives {amount}", who=who, amount=amount))
    return lines


def events_of(reader, group: str, hand: str) -> list:
    """The events a hand's trail shows: its own, and each correction of an earlier hand of
    its table that settled it again, in seq order."""
    own = reader.hand_events(group, hand)
    if not own:
        return own
    elsewhere = [entry["seq"] for entry in corrected.of_hand(reader, group, hand,
                                                             reader.row("table", group, own[0].table))
                 if entry["hand"] != hand]
    found = [reader.events(group, seq - 1, 1)[0] for seq in elsewhere]
    return sorted([*own, *found], key=lambda e: e.seq)


def trail(events: Sequence, trow: dict, grow: dict, marked: bool = False, keys: dict | None = None) -> dict:
    """The trail of a hand from its events (with the corrections of its table that changed
    it, in their place by seq). ``marked``: what members typed (names, reasons) stays marked
    as typed (projections/typed.py) for a reader that says the trail's words again. ``keys``:
    each member's devices row, to say of each act which key signed it (one added after a reset
    named as such), or that it was logged before keys."""
    said = (lambda text: text) if marked else plain
    own = [e for e in events if e.hand == events[0].hand]
    model = hand_fold.with_corrections(hand_fold.fold(own), corrected.from_events(events, own[0].hand))
    settlement = model.settlement
    explanation = []
    if settlement:
        explanation = [*settlement["explanation"], *money_lines(settlement, trow, grow)]
    for entry in model.corrections:
        explanation.append(say("corrected by event {seq} of the log ({reason}): {outcome}",
                               seq=entry['seq'], reason=typed(entry['reason']),
                               outcome=_what_became_of(entry, model)))
    if model.confirmation in ("pending", "disputed"):
        explanation.append(say("it does not count in the balances yet: {why}",
                               why=say("it is disputed") if model.confirmation == "disputed"
                               else say("not every player who pays in it has confirmed it")))
    return {
        "hand": model.id, "table": model.table, "game": model.game, "phase": model.phase,
        "events": [{"seq": e.seq, "type": e.type, "actor": e.actor, "by": said(_who(grow, e.actor)),
                    "recorded_at": e.recorded_at, "prev_hash": e.prev_hash, "hash": e.hash,
                    "summary": said(summary(e, trow, grow)),
                    **({"signed": said(signed_by(e, grow, keys))} if keys is not None and _is_act(e) else {})}
                   for e in events],
        "settlement": settlement,
        "voided": model.voided,
        "explanation": [said(line) for line in explanation],
    }


def _is_act(env) -> bool:
    return env.actor != "admin" and acts.act_of(env.type, env.data, env.actor) is not None


def signed_by(env, grow: dict, keys: dict) -> str:
    """Who signed a member's act, in words: the key, and whether a reset came before it was added."""
    block = env.data.get("signed")
    if not isinstance(block, dict):
        return say("not signed (before keys)")
    who = _who(grow, env.actor)
    key = next((k for k in (keys.get(env.actor) or {}).get("keys", []) if k["kid"] == block.get("kid")), None)
    if key is not None and key["via"] == "reset":
        return say("signed by {who}'s key {kid}, added after the admin reset {who}'s devices",
                   who=who, kid=block.get("kid"))
    return say("signed by {who}'s key {kid}", who=who, kid=block.get("kid"))


def _what_became_of(entry: dict, model) -> str:
    """What a correction did to this hand."""
    if entry.get("void") and entry["hand"] == model.id:
        return say("this hand counts as never played")
    if "settlement" in entry:
        return say("this hand was settled again")
    return say("its settlement did not change")


def as_text(t: dict, speak: Callable[[str], str] = str) -> str:
    """The trail as plain text; ``speak`` puts each line of words in the reader's language."""
    out = [speak(say("Hand {hand} at table {table} ({game}), {phase}",
                   hand=t['hand'], table=t['table'], game=t['game'], phase=t['phase'])), ""]
    for e in t["events"]:
        out.append(speak(say("#{seq} {type} by {by} at {recorded_at}",
                           seq=e['seq'], type=e['type'], by=e['by'], recorded_at=e['recorded_at'])))
        out.append(f"    {e['summary']}")
        if "signed" in e:
            out.append(f"    {e['signed']}")
        out.append(speak(say("    hash {hash} (prev {prev}...)",
                           hash=e['hash'], prev=e['prev_hash'][:16])))
    if t["explanation"]:
        out += ["", speak(say("How the settlement was reached:"))]
        out += [f"  - {line}" for line in t["explanation"]]
    if t["voided"]:
        out += ["", speak(say("Voided: {voided_reason}", voided_reason=typed(t['voided']['reason'])))]
    return plain("\n".join(out)) + "\n"
