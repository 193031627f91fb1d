"""A log re-enacted through the ledger: what ``bitka import`` holds each event to.

Anyone can recompute hashes, so an imported event is kept only if the API would have
appended it. Each event is rebuilt as the request its actor would have sent (a payment's
from, to and amount; a trick's cards; the confirmation of a hand; a correction's reason and
outcome...), put to the same authorization the routes and the admin's pages apply (what is
the admin's is the admin's) and to the same handler (service/handlers/, which lets the
games decide), and the events that handler appends must be exactly the recorded ones: type,
hand, table, data and actor. What the API draws at random the log fixes: the id of a new
group, member, table or hand (it must be well-formed and new to the group), and a salt
(16 bytes in hex, where the API adds one). A request that appends several events (the card
that ends a trick, the trick that ends a hand with its settlement) must be followed in the
log by every one of them (so a settlement is never a request of its own, nor a trick that
its last card ended).

A hand whose settlement records older rules than today's (``rules_version``) still has its
cards and calls judged by the games under the rules it records, as replay does
(projections/replay.py); who logged each of them and how its settlement is agreed are still
the API's of today.

What no import can catch: an event dropped, or changed into one its actor could have sent
(a payment of 300.00 for one of 3.00, recorded by its receiver), when nothing later in the
log depends on it (a balance the group agreed, a confirmation, a correction). That log is
another history the API could have written; only a checkpoint saved from the original
server tells the two apart.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, Mapping, Sequence

from events import acts
from events.errors import DomainError, Refused
from events.store import Envelope, NewEvent, Writer
from games.engine.seen import names_a_card
from projections import corrections
from projections.devices import NAME as DEVICES
from projections.integrity import well_formed
from projections.redecide import COMMANDS, RECORDED_BY_THE_TABLE, SALT, every_field
from . import auth, handlers
from .commands import (AddDevice, AddMember, Agree, ApproveDevice, AssertBalance, CheckIn, Confirm, ConfirmPayment,
                       Correct, CreateGroup, CreateTournament, Dispute, DrawRound, NewHand, OpenTable, Pay, Play,
                       ResetMember, SetPayDetails, UpdateGroup, VoidHand, Watch)
from .handlers.devices import WAITING
from .draws import Revealed

# What only the admin does: the routes' ``admin=True`` and the admin's pages (service/web/admin.py).
ADMIN_ONLY = {"group_updated": "changes the group's settings", "member_added": "adds a member",
              "table_opened": "opens a table", "hand_voided": "voids a hand", "correction": "corrects a hand",
              "tournament_created": "creates a tournament", "round_drawn": "draws a round",
              "watch_opened": "opens a watch link", "watch_closed": "ends a watch link"}
HAND_PLAY = frozenset({"deal", "result", "seat_cards", "bid", "trick", "play", "claim", "settlement"})
_NEW_ID = {"member_added": "member", "table_opened": "table", "deal": "hand", "result": "hand"}


class Fault(Exception):
    """Why the event at ``seq`` is not one the API would have appended there. ``rules``: the
    difference is in what a game decides (which older rules may have decided otherwise)."""

    def __init__(self, seq: int, why: str, taken: Sequence[Envelope] = (), rules: bool = False):
        super().__init__(why)
        self.seq, self.why, self.taken, self.rules = seq, why, tuple(taken), rules


class _Ahead:
    """The log's events one at a time, with those a request's handler takes beyond its own."""

    def __init__(self, envelopes: Iterable[Envelope]):
        self._rest: Iterator[Envelope] = iter(envelopes)
        self._back: deque[Envelope] = deque()

    def __iter__(self):
        return self

    def __next__(self) -> Envelope:
        return self._back.popleft() if self._back else next(self._rest)

    def take(self, n: int, group: str) -> list[Envelope]:
        """Up to ``n`` further events of ``group``."""
        taken = []
        while len(taken) < n:
            env = next(self, None)
            if env is None:
                break
            if env.group != group:
                self._back.appendleft(env)
                break
            taken.append(env)
        return taken

    def give_back(self, envelopes: Sequence[Envelope]) -> None:
        self._back.extendleft(reversed(envelopes))


class _AsTheApi:
    """The writer a handler is given: its reads are the import's, its append is compared with
    what the log recorded (and the recorded events kept), its tokens are nobody's."""

    def __init__(self, enactment: "Reenactment"):
        self._enactment = enactment

    def __getattr__(self, name):
        return getattr(self._enactment.w, name)

    def add_credential(self, digest: str, group: str, subject: str) -> None:
        """Tokens are never exported: the import mints the admin's own and no member's."""

    def append(self, group: str, events: Sequence[NewEvent], actor: str,
               expected_version: int | None = None) -> list[Envelope]:
        return self._enactment.appended(group, list(events), actor, expected_version)


class Reenactment:
    """Each event of the log, in (group, seq) order, put to the ledger on ``w``: kept (inserted
    as recorded, the projector making its rows) or named in ``faults``. After the first fault
    the rest is kept without judging (no rows made): the import is refused, and replay's
    findings are said beside it."""

    def __init__(self, w: Writer, older_rules: set[tuple[str, str]] = frozenset()):
        self.w, self.older = w, older_rules
        self.faults: list[str] = []
        self._api = _AsTheApi(self)
        self._ahead: _Ahead | None = None
        self._asked: Envelope | None = None  # the event whose request is being decided
        self._made: list[Envelope] | None = None  # what its append kept
        self._used: dict[str, set[str]] = {}  # per group: the ids given to members, tables and hands

    def run(self, envelopes: Iterable[Envelope]) -> list[str]:
        self._ahead = _Ahead(envelopes)
        for env in self._ahead:
            if self.faults:
                self.w.insert([env])
                continue
            try:
                self._enact(env)
            except Fault as f:
                self._refuse(env, f)
        return self.faults

    def _refuse(self, env: Envelope, fault: Fault) -> None:
        kept = {e.seq for e in self._made or ()}
        if fault.rules and env.type in HAND_PLAY and (env.group, env.hand) in self.older:
            # Its game's rules then are judged by replay, under the rules its settlement records.
            self._ahead.give_back([e for e in fault.taken if e.seq != env.seq and e.seq not in kept])
            if env.seq not in kept:
                self.w.insert([env])
            return
        self.faults.append(f"group {env.group}: seq {fault.seq}: {fault.why}")
        self.w.projector = None  # nothing of it is kept: rows need not be made
        self.w.insert([e for e in (fault.taken or (env,)) if e.seq not in kept])

    def _enact(self, env: Envelope) -> None:
        self._made = None
        command = self._command(env)
        self._asked = env
        play = env.type in HAND_PLAY
        try:
            handlers.handle(command, self._api)
        except Fault:
            raise
        except Refused as e:
            raise Fault(env.seq, f"the API refuses this {env.type} from {env.actor} (403): {e.detail}",
                        self._taken_on_failure(env)) from None
        except DomainError as e:
            raise Fault(env.seq, f"the API refuses this {env.type} from {env.actor}: {e.detail}",
                        self._taken_on_failure(env), rules=play) from None
        except Exception as e:  # a log no request could have made can break a handler: a finding, not a crash
            raise Fault(env.seq, f"the {env.type} is not one the API could have appended (deciding it again "
                                 f"failed: {type(e).__name__}: {e})", self._taken_on_failure(env), rules=play) from None
        if self._made is None:
            raise Fault(env.seq, f"the API appends nothing for this {env.type}: "
                                 + ("the group has that setting already" if env.type == "group_updated"
                                    else "its request changes nothing"))

    def _taken_on_failure(self, env: Envelope) -> tuple[Envelope, ...]:
        """What a handler that failed after its append kept (nothing more to insert), else the event."""
        return tuple(self._made) if self._made else (env,)

    def _command(self, env: Envelope):
        """The request ``env`` answers, as its actor would have sent it (signed as it was: a
        field its signature holds apart is the one the request sent)."""
        g, actor = env.group, env.actor
        signed, d = _signed(env)
        if env.type == "group_created":
            if env.seq != 1:
                raise Fault(env.seq, "the API opens a group's log with group_created, and only there")
            return CreateGroup(d.get("name"), d.get("currency"), d.get("confirmations", "payers"))
        group = self.w.row("group", g, "")
        if group is None:
            raise Fault(env.seq, "the group's log does not begin with group_created")
        if actor != auth.ADMIN and actor not in {m["id"] for m in group["members"]}:
            raise Fault(env.seq, f"{actor!r} is neither the admin nor a member of the group: the API knows no token "
                                 "of theirs")
        if env.type in ADMIN_ONLY and actor != auth.ADMIN:
            raise Fault(env.seq, f"the API refuses it (403): {actor} {ADMIN_ONLY[env.type]}, which only the admin does")
        match env.type:
            case "group_updated":
                return UpdateGroup(g, actor, {"confirmations": d.get("confirmations")})
            case "member_added":
                return AddMember(g, actor, d.get("name"))
            case "table_opened":
                if "tournament" in d:
                    raise Fault(env.seq, "a table of a tournament's round is opened only by its round's draw")
                return OpenTable(g, actor, _table_body(d))
            case "tournament_created":
                body = {k: d.get(k) for k in ("name", "game", "rules", "players", "rounds", "deals", "places",
                                              "stake")}
                return CreateTournament(g, actor, body, Revealed(commitments={1: d.get("commitment")}),
                                        tournament=d.get("tournament"), draw=2 if d.get("draw") == 2 else 1)
            case "round_drawn":
                tables = d.get("tables") if isinstance(d.get("tables"), list) else []
                absent = d.get("absent") if isinstance(d.get("absent"), list) else []
                return DrawRound(g, actor, d.get("tournament"), _revealed(d),
                                 tables=tuple(t.get("id") for t in tables if isinstance(t, Mapping)),
                                 absent=tuple(absent))
            case "check_in":
                return CheckIn(g, actor, d.get("tournament"), d.get("round"), d.get("entropy"), signed)
            case "watch_opened" | "watch_closed":
                return Watch(g, actor, d.get("tournament"), d.get("watch"), env.type == "watch_opened")
            case "deal" | "result":
                return NewHand(g, actor, env.table, _hand_body(env._replace(data=d)), signed)
            case "seat_cards" | "bid" | "trick" | "play" | "claim":
                body = {k: d[k] for k in every_field(env.type) if d.get(k) is not None}
                return Play(g, actor, env.hand, COMMANDS[env.type][0], body, signed)
            case "hand_voided":
                return VoidHand(g, actor, env.hand, d.get("reason"))
            case "confirmation":
                return Confirm(g, actor, env.hand, signed)
            case "dispute":
                return Dispute(g, actor, env.hand, d.get("reason"), signed)
            case "device_added" if d.get("via") == "approval":
                self.w.put_row(WAITING, g, f"{d.get('member')}:{d.get('kid')}",
                               {"member": d.get("member"), "kid": d.get("kid"), "key": d.get("key"), "asked_at": ""})
                return ApproveDevice(g, actor, d.get("member"), d.get("kid"), signed)
            case "device_added":
                return AddDevice(g, actor, d.get("member"), d.get("key"), d.get("via"))
            case "member_reset":
                return ResetMember(g, actor, d.get("member"), d.get("reason"))
            case "correction":
                return Correct(g, actor, env.hand, d.get("reason"), d.get("result"), d.get("cards"))
            case "payment":
                return Pay(g, actor, {"from": d.get("from"), "to": d.get("to"), "amount": d.get("amount")}, signed)
            case "agreement":
                return Agree(g, actor, env.hand, signed)
            case "payment_received":
                return ConfirmPayment(g, actor, d.get("seq") if isinstance(d.get("seq"), int) else 0, signed)
            case "assertion":
                return AssertBalance(g, actor, {"member": d.get("member"), "balance": d.get("balance")})
            case "pay_details":
                return SetPayDetails(g, actor, d.get("member"), {k: v for k, v in d.items() if k != "member"}, signed,
                                     before_keys=not self.w.rows(DEVICES, g))
            case "settlement":
                if "confirmed" not in d:
                    raise Fault(env.seq, "the settlement does not say whether it waits for its payers' word "
                                         "(confirmed), as the API's always does")
                raise Fault(env.seq, "no request makes a settlement by itself: the API appends it with the call, "
                                     "trick, play or claim that ends its hand", rules=True)
        raise Fault(env.seq, f"no request of the API appends a {env.type}")

    def appended(self, group: str, events: list[NewEvent], actor: str, expected: int | None) -> list[Envelope]:
        """The handler's append: the same events as the log's from the asked one on, or a Fault."""
        asked = self._asked
        if self._made is not None or not events:
            raise Fault(asked.seq, "the API appends this request's events at once")
        if asked.type == "group_created":
            group = asked.group  # the new group's id is the log's
        if expected is not None and expected != self.w.version(group):
            raise Fault(asked.seq, f"the API appends this {asked.type} only at version {expected}")
        events = self._with_new_id(asked, events)
        recorded = [asked, *self._ahead.take(len(events) - 1, asked.group)]
        play = asked.type in HAND_PLAY
        for made, kept in zip(events, recorded, strict=False):  # a missing one is said after
            shown = self._as_made_today(kept)
            why = _difference(made, actor, shown, shown if kept is asked else asked)
            if why:
                raise Fault(kept.seq, why, recorded,
                            rules=play and actor == kept.actor and (made.hand, made.table) == (kept.hand, kept.table))
        if len(recorded) < len(events):
            missing = events[len(recorded)]
            raise Fault(recorded[-1].seq, f"the API appends a {missing.type} after this {recorded[-1].type} "
                                          "(the same request makes it), which the log does not have", recorded,
                        rules=play)
        self._made = self.w.insert(recorded)
        return self._made

    def _as_made_today(self, kept: Envelope) -> Envelope:
        """A correction logged before corrections recorded only what changed in each later
        hand (every settlement whole), as the ledger records it today, to compare; the log
        keeps it as it was."""
        d = kept.data
        if kept.type != "correction" or not isinstance(d.get("settlements"), list) or not all(
                isinstance(e, Mapping) and "hand" in e and ("settlement" in e or "changed" in e)
                for e in d["settlements"]):
            return kept
        try:
            past = corrections.history(self.w.table_events(kept.group, kept.table, kept.seq - 1))
            return kept._replace(data=corrections.as_made_today(d, past))
        except (KeyError, TypeError, ValueError):  # not a correction the ledger could read: said as a difference
            return kept

    def _with_new_id(self, asked: Envelope, events: list[NewEvent]) -> list[NewEvent]:
        """The events with the id the handler drew for a new member, table or hand replaced by
        the log's, which must be well-formed and new to the group."""
        used = self._used.setdefault(asked.group, set())
        if asked.type == "group_created":
            if not well_formed(asked.group):
                raise Fault(asked.seq, f"the group id {asked.group!r} is not well-formed")
            return events
        what = _NEW_ID.get(asked.type)
        if what is None:
            return events
        drawn = events[0].data.get(what) if what == "member" else getattr(events[0], what)
        given = asked.data.get("member") if what == "member" else getattr(asked, what)
        if not well_formed(given):
            raise Fault(asked.seq, f"the {what} id {given!r} is not well-formed")
        if given in used:
            raise Fault(asked.seq, f"the {what} id {given} was used before: the API gives each new member, table "
                                   "and hand an id of its own")
        used.add(given)
        return [_renamed(e, drawn, given) for e in events]


def _signed(env: Envelope) -> tuple[acts.Signed | None, Mapping]:
    """An event's signature, and its data as its request sent it: without ``signed``, each field
    the signature holds apart put back (the capture asked, where the service chose another)."""
    block = env.data.get("signed") if isinstance(env.data, Mapping) else None
    if not isinstance(block, Mapping):
        return None, env.data
    try:
        signed = acts.checked(block)
    except acts.BadSignature as e:
        raise Fault(env.seq, f"its signature cannot be read ({e})") from None
    asked = {k: v for k, v in block.items() if k not in ("kid", "nonce", "sig")}
    return signed, {**{k: v for k, v in env.data.items() if k != "signed"}, **asked}


def _renamed(event: NewEvent, drawn: str, given: str) -> NewEvent:
    data = {k: given if v == drawn else v for k, v in event.data.items()}
    return NewEvent(event.type, data, given if event.hand == drawn else event.hand,
                    given if event.table == drawn else event.table)


def _table_body(d: Mapping) -> dict:
    """A table's opening as the request for it: its ``entry`` is a rule there."""
    rules = d.get("rules")
    if "entry" in d and isinstance(rules, Mapping):
        rules = {**rules, "entry": d["entry"]}
    body = {"game": d.get("game"), "rules": rules, "seats": d.get("seats"), "stake": d.get("stake")}
    if "dealer" in d:
        body["dealer"] = d["dealer"]
    return body


def _revealed(d: Mapping) -> Revealed:
    """What a recorded draw revealed: its round's secret, and its commitment to the next."""
    number = d.get("round")
    if not isinstance(number, int) or isinstance(number, bool):
        return Revealed()
    return Revealed(secrets={number: d.get("secret")}, commitments={number + 1: d.get("commitment")})


def _hand_body(env: Envelope) -> dict:
    """A new hand's request: its result (with its dealer), or its deal as dealt (a deal seat by
    seat: its dealer alone); what the hand records from its table the API adds itself."""
    d = env.data
    if env.type == "result":
        return {"dealer": d.get("dealer"), "result": d.get("result")}
    dealt = {k: v for k, v in d.items() if k not in RECORDED_BY_THE_TABLE and k != "salt"}
    return {"deal": dealt if names_a_card(dealt) else {"dealer": dealt.get("dealer")}}


def _difference(made: NewEvent, actor: str, kept: Envelope, asked: Envelope) -> str | None:
    """What differs between the event the API makes and the one the log keeps (None: nothing)."""
    if made.type != kept.type:
        return (f"the {asked.type} at seq {asked.seq} makes a {made.type} here (the API appends it with it), "
                f"not a {kept.type}")
    if actor != kept.actor:
        return f"the API records this {kept.type} as {actor}'s, not {kept.actor}'s"
    if (made.hand, made.table) != (kept.hand, kept.table):
        return f"the API records this {kept.type} at hand {made.hand} of table {made.table}"
    data, recorded = dict(made.data), dict(kept.data)
    if ("salt" in data) != ("salt" in recorded):
        return (f"the {kept.type} has no salt, which the API adds to an event naming cards still hidden" if "salt" in
                data else f"the {kept.type} has a salt, which the API adds only to an event naming cards still hidden")
    if "salt" in data:
        if not isinstance(recorded["salt"], str) or not SALT.fullmatch(recorded["salt"]):
            return "the event's salt is not 16 random bytes in lowercase hex"
        data["salt"] = recorded["salt"]
    if data != recorded:
        changed = sorted(k for k in set(data) | set(recorded) if data.get(k) != recorded.get(k))
        said = f"the {kept.type} recorded is not the one the API makes"
        said += " from that request" if kept is asked else f" with the {asked.type} at seq {asked.seq}"
        return f"{said} (in {', '.join(changed)})"
    return None
