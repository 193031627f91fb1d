"""verify's check of the money: the balances folded from the events themselves, with the
very fold the projections use (projections/balances.py), compared with the balances shown
elsewhere: the store's projection row (``bitka verify``) or a server's ``GET .../balances``
(``bitka verify --url``). Counted balances and pending settlements both; a difference is a
sentence naming the member (or hand) that differs, first in the order the log added them.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from events.money import format_amount
from events.types import EVENT_TYPES
from projections import balances
from projections.ledger_views import MONEY_EVENTS, money_faults

# What a fold of events that are not bitka's (forged with their hashes, or garbled) raises.
UNFOLDABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError)


class Folded:
    """Each group's balances row, folded on the side of a pass over the log. An event that
    does not fold is held back (what checks the events next would fail on it) and the first
    of each group is kept, in words; the fold goes on past it, as ``money_faults``' does."""

    def __init__(self):
        self.rows: dict[str, dict | None] = {}
        self.unfolded: dict[str, str] = {}  # group -> the first event that does not fold, in words

    def through(self, envelopes: Iterable) -> Iterator:
        """``envelopes``, each folded as it passes, but for those that do not fold."""
        for env in envelopes:
            if env.type not in balances.EVENTS or self.fold(env):
                yield env

    def fold(self, env) -> bool:
        """Fold ``env`` into its group's row; False when it does not fold."""
        row = self.rows.get(env.group)
        try:
            if env.type == "assertion":
                balances.disagreement(row, env.data)  # an agreed balance that cannot even be read
            self.rows[env.group] = balances.apply(row, env)
            return True
        except UNFOLDABLE as e:
            self.unfolded.setdefault(env.group, f"group {env.group}: first bad seq {env.seq}: the {env.type} event "
                                                f"does not fold into the balances: {_why(e)}")
            return False


def _why(e: Exception) -> str:
    if isinstance(e, KeyError):
        return f"it names {e.args[0]!r}, which the events before it never gave (a member, a hand or a field)"
    return f"{e} ({type(e).__name__})"


def store_faults(reader, group: str | None) -> list[str]:
    """``bitka verify``'s money checks of the store: assertions, members added twice and sums
    (``money_faults``), then each group's stored balances row against its events' fold."""
    folded = Folded()
    found = money_faults(folded.through(reader.scan(group, unread=EVENT_TYPES - MONEY_EVENTS)))
    groups = [group] if group else reader.group_ids()
    for g in groups:  # a group whose events do not fold has no fold to compare
        if g not in folded.unfolded:
            found += _stored_differences(g, folded.rows.get(g), reader.row("balances", g, ""),
                                         reader.pending_entries(g))
    return [folded.unfolded[g] for g in groups if g in folded.unfolded] + found


def _stored_differences(group: str, row: dict | None, stored, waiting: list) -> list[str]:
    if row is None:
        return []  # no group_created: the chain check names what is missing
    if not isinstance(stored, dict):
        return [f"group {group}: there is no stored balances row, though its events give balances"]
    try:
        shown = {m: format_amount(v, row["digits"]) for m, v in stored["members"].items()}
    except UNFOLDABLE as e:
        return [f"group {group}: the stored balances row is not one bitka writes ({type(e).__name__}: {e})"]
    try:
        pending = balances.listed(waiting, row["digits"]) + balances.payments_waiting(stored)
    except UNFOLDABLE as e:
        return [f"group {group}: a stored settlement that waits for confirmation is not one bitka writes "
                f"({type(e).__name__}: {e})"]
    return differences(group, row, shown, pending, STORED)


class Words:
    """How a difference is said: whose balances, and what the events are."""

    def __init__(self, shown: str, events: str):
        self.shown, self.events = shown, events


STORED = Words("the stored balances row", "its events")
SERVED = Words("the server's balances", "the events it serves")


def remote_faults(group: str, envelopes: list, served: dict) -> list[str]:
    """``bitka verify --url``'s money checks: the served events folded (as the store's are)
    and compared with the ``GET .../balances`` answer ``served``."""
    folded = Folded()
    found = money_faults(list(folded.through(envelopes)))
    if group in folded.unfolded:
        return [folded.unfolded[group], *found]
    row = folded.rows.get(group)
    if row is None:
        return [f"group {group}: the events the server serves never create the group"]
    shown = {}
    for entry in served["balances"]:
        shown[entry["member"]] = entry["balance"]
    found += differences(group, row, shown, served.get("pending") or [], SERVED)
    total = format_amount(sum(row["members"].values()), row["digits"])
    if "total" in served and served["total"] != total and not found:
        found.append(f"group {group}: the server's balances total {served['total']}, but {SERVED.events} give {total}")
    return found


def differences(group: str, row: dict, shown: dict, pending: list, words: Words) -> list[str]:
    """Each member whose balance in ``shown`` (member -> decimal string) is not the one the
    folded ``row`` gives, then each pending settlement that differs (``pending`` as
    ``pending_view`` lists them)."""
    given = {m: format_amount(v, row["digits"]) for m, v in row["members"].items()}
    found = [f"group {group}: member {m}'s balance is {shown[m]} in {words.shown}, but {words.events} give {v}"
             for m, v in given.items() if m in shown and shown[m] != v]
    found += [f"group {group}: member {m} is missing from {words.shown}; {words.events} give it {v}"
              for m, v in given.items() if m not in shown]
    found += [f"group {group}: {words.shown} give member {m} {v}, but {words.events} never add that member"
              for m, v in shown.items() if m not in given]
    found += _pending_differences(group, _pending(balances.pending_view(row)), _pending(pending), words)
    given_payments = {e["payment"]: e for e in balances.payments_waiting(row)}
    shown_payments = {e["payment"]: e for e in pending if "payment" in e}
    return found + [f"group {group}: payment {seq} is {'pending' if seq in shown_payments else 'not pending'} in "
                    f"{words.shown}, but {words.events} make it {'pending' if seq in given_payments else 'counted'}"
                    for seq in sorted(set(given_payments) | set(shown_payments))
                    if given_payments.get(seq) != shown_payments.get(seq)]


def _pending(entries: list) -> dict[str, tuple]:
    """Pending settlements as compared: hand -> (state, payouts, who is awaited)."""
    return {e["hand"]: (e["state"], [(p["seat"], p["member"], p["amount"]) for p in e["payouts"]],
                        sorted(e["waiting_for"])) for e in entries if "hand" in e}


def _pending_differences(group: str, given: dict, shown: dict, words: Words) -> list[str]:
    hands = [*given, *(h for h in shown if h not in given)]
    return [f"group {group}: hand {h}'s settlement is {_said(shown.get(h))} in {words.shown}, but {words.events} "
            f"make it {_said(given.get(h))}" for h in hands if given.get(h) != shown.get(h)]


def _said(entry: tuple | None) -> str:
    if entry is None:
        return "not pending (it counts, or there is none)"
    state, payouts, waiting = entry
    paid = ", ".join(f"{member} {amount}" for _, member, amount in payouts)
    return f"{state} ({paid}; waiting for {', '.join(map(str, waiting)) or 'nobody'})"
