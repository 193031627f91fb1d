"""A tournament's standings counted again, independently, as an acceptance checker would:
every table of every round drawn is read through the API (its hands, each hand's own
settlement payouts and whether it counts), placed by hand as API.md "Points, tables of five,
tournaments and seasons" says, and compared with GET .../standings after every few moves:
each player's place, points, small points, first places and every round entry, and
``rounds_played``; and every member's balance is the sum of what counts at every table of the
group, the hands that do not count exactly the balances' ``pending``.

The moves are random (seeded): hands logged by cards or by result, by the admin or by a
member seated at the table, at tables of four and of five (13 players: 4, 4, 5), confirmed at
once, in part, by the table's one tap, disputed, or left waiting until after their round
ended; the latest hand voided; hands of an earlier round corrected (other cards, another
result, the same again, a void; every hand of one table voided) once later rounds were drawn
or played, and the deals so owed played later, trick by trick; Baśka at Bytów's rules, whose
bok-rundy make a correction re-settle the table's later hands; confirmations turned off half
way; an evening table and a second tournament of some of the same players in the same group.
At the end the log replays (``bitka replay``) with nothing different.

Nothing here reads the service's own standings code: the count is this file's."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

import pytest

from games.engine.autoplay import hand_at_random
from games.engine.errors import RuleViolation
from games.registry import GAMES
from tests.api.test_tournaments import club
from tests.backends import ON_SQLITE
from tests.command import run
from tests.concurrency import failures_in_threads
from tests.oracles.results import random_kop_result
from tests.tournaments import check_in_every, entropy, shuffled_by, their_seed

PLACES = ([5, 3, 1, 0], [4, 3, 2, 1], [4, 2, 2, 0], [7, 4, 2, 1], [3, 3, 1, 0])


# ---------------------------------------------------------------- API.md, read by hand

def amount_minor(text: str, digits: int) -> int:
    """A money (or points) string as whole minor units, exactly."""
    value = Decimal(text) * (10 ** digits)
    assert value == value.to_integral_value(), text
    return int(value)


def amount_text(minor: int, digits: int) -> str:
    """Minor units as API.md writes money: exactly the currency's minor digits."""
    if digits == 0:
        return str(minor)
    sign = "-" if minor < 0 else ""
    whole, part = divmod(abs(minor), 10 ** digits)
    return f"{sign}{whole}.{part:0{digits}d}"


def points_text(value: Fraction) -> str:
    """Table points in the shortest decimal form; with no finite decimal, half-even to 2 places."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:  # a finite decimal: written exactly, no trailing zeros
        scale = 0
        while (value * 10 ** scale).denominator != 1:
            scale += 1
        text = str(Decimal(int(value * 10 ** scale)).scaleb(-scale))
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    q = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)
    return format(q, "f")


def place_table(small: dict[str, int], places: list[int]) -> dict[str, tuple[int, Fraction]]:
    """Each player's (place, table points) at one table: ordered by small points, players tied
    share the points of the places they cover (a fifth place is worth 0) and show the best."""
    ordered = sorted(small.values(), reverse=True)
    out = {}
    for member, s in small.items():
        covered = [i for i, v in enumerate(ordered) if v == s]
        worth = sum(Fraction(places[i]) if i < len(places) else Fraction(0) for i in covered)
        out[member] = (covered[0] + 1, worth / len(covered))
    return out


def overall(totals: dict[str, tuple[Fraction, int, int]]) -> dict[str, int]:
    """Each player's place overall: points, then small, then first places; ties share the best."""
    keys = sorted(totals.values(), reverse=True)
    return {m: keys.index(k) + 1 for m, k in totals.items()}


# ---------------------------------------------------------------- the tournaments as played

@dataclass
class Hand:
    id: str
    table: str
    dealer: int
    kind: str  # "cards" or "result"
    body: dict  # what was logged (or last corrected to)


@dataclass
class Tour:
    id: str
    players: list[str]
    places: list[int]
    deals: int
    rounds: int
    drawn: list[dict] = field(default_factory=list)


@dataclass
class Play:
    client: object
    app: object
    players: int
    confirmations: str
    seed: int
    rng: random.Random = field(init=False)
    moves: list[str] = field(default_factory=list)
    hands: dict[str, Hand] = field(default_factory=dict)
    tours: dict[str, Tour] = field(default_factory=dict)
    seats_at: dict[str, list[str]] = field(default_factory=dict)  # every table: its members by seat
    round_of: dict[str, tuple[str, int]] = field(default_factory=dict)  # a tournament table: (tournament, round)
    checks: int = 0
    memo: dict[str, list[dict]] = field(default_factory=dict)  # a table's hands as last read

    def __post_init__(self):
        self.rng = random.Random(f"{self.players}-{self.confirmations}-{self.seed}")
        self.currency, self.stake, self.digits = (("PLN", "0.50", 2) if self.seed % 3 == 2 else ("points", "1", 0))
        self.c = club(self.client, self.players, currency=self.currency, confirmations=self.confirmations)
        self.admin, self.base = self.c["admin"], self.c["base"]
        self.names = {m["id"]: m["name"] for m in self.c["members"]}
        # Baśka at Bytów's rules has bok-rundy (after a 52-52 or a du): a correction there
        # re-settles the table's later hands too, waiting ones included.
        self.game, self.rules = ("baska", {"variant": "bytow-2005"}) if self.seed % 3 == 1 else ("kop", {})
        self.engine = GAMES[self.game]
        self.main = self.tournament(self.c["ids"], self.rng.choice(PLACES), self.rng.choice([2, 3]), 3)
        evening = self.rng.sample(self.c["ids"], 4)  # an evening table of the same group: no tournament's
        r = self.admin.post(f"{self.base}/tables", {"game": self.game, "rules": self.rules, "stake": self.stake,
                                                    "seats": evening})
        assert r.status_code == 201, r.json
        self.evening = r.json["id"]
        self.seats_at[self.evening] = evening
        self.moves.append(f"evening table {self.evening}")

    # -- reading
    def get(self, path: str) -> dict:
        r = self.admin.get(f"{self.base}{path}")
        assert r.status_code == 200, (path, r.json)
        return r.json

    def as_member(self, member: str):
        return self.admin.as_(self.c["tokens"][member])

    def hand_state(self, hand: str) -> dict:
        return self.get(f"/hands/{hand}")

    def hands_at(self, table: str, fresh: bool = False) -> list[dict]:
        """The states of every hand the table lists, read again after any write at the table."""
        if fresh or table not in self.memo:
            self.memo[table] = [self.hand_state(h) for h in self.get(f"/tables/{table}")["hands"]]
        return self.memo[table]

    def played_at(self, table: str) -> int:
        """Hands settled and not voided at the table, read from the table and its hands."""
        return sum(1 for s in self.hands_at(table) if s["voided"] is None and s.get("settlement"))

    def where(self, table: str) -> str:
        if table not in self.round_of:
            return f"{table} (evening)"
        x, number = self.round_of[table]
        return f"{table} ({'main' if x == self.main.id else 'side'} round {number})"

    # -- writing
    def post(self, who, path: str, body=None, table: str | None = None):
        """A write: the hands of ``table`` (of every table, without one) are read again after it."""
        r = who.post(f"{self.base}{path}", body)
        if table is None:
            self.memo.clear()
        else:
            self.memo.pop(table, None)
        return r

    def tournament(self, players: list[str], places: list[int], deals: int, rounds: int) -> Tour:
        r = self.admin.post(f"{self.base}/tournaments", {
            "name": "Puchar", "game": self.game, "rules": self.rules, "players": players, "rounds": rounds,
            "deals": deals, "places": places, "stake": self.stake})
        assert r.status_code == 201, r.json
        tour = Tour(r.json["id"], players, places, deals, rounds)
        self.tours[tour.id] = tour
        self.moves.append(f"tournament {tour.id} of {self.game} ({len(players)} players): places={places} "
                          f"deals={deals} rounds={rounds} currency={self.currency}")
        return tour

    def draw(self, tour: Tour) -> list[str]:
        number = len(tour.drawn) + 1
        arrived = tour.players[::-1]  # each from their own phone, the last player first (the moves' rng untouched)
        check_in_every(self.client, self.base, tour.id, number, self.c["tokens"], arrived)
        r = self.post(self.admin, f"/tournaments/{tour.id}/rounds")
        assert r.status_code == 201, r.json
        seed = their_seed(bytes.fromhex(r.json["secret"]), [entropy(p, number) for p in tour.players])
        assert r.json["seed"] == seed.hex() and r.json["absent"] == []
        order = [m for table in r.json["tables"] for m in table["seats"]]
        assert order == shuffled_by(tour.players, seed), "the draw is not the one its check-ins make"
        tour.drawn.append(r.json)
        for table in r.json["tables"]:
            self.round_of[table["id"]] = (tour.id, r.json["round"])
            self.seats_at[table["id"]] = table["seats"]
        self.moves.append(f"draw round {r.json['round']} of {tour.id}: " + " ".join(
            f"{t['id']}({len(t['seats'])})" for t in r.json["tables"]))
        return [t["id"] for t in r.json["tables"]]

    def result_for(self, seats: int, dealer: int) -> dict:
        """A score-sheet result for a hand dealt by ``dealer`` at a table of ``seats`` (the four
        who play: every seat, or all but the dealer at a table of five)."""
        active = [(dealer + 1 + k) % seats for k in range(4)] if seats == 5 else list(range(4))
        return random_kop_result(self.rng, self.game, active)

    def cards_for(self, at: dict, dealer: int) -> dict:
        """A random legal whole hand; a deal the rules want played otherwise (at Bytów, a cicha
        nobody can lose must be called) is dealt again, as at the table."""
        for _ in range(50):
            try:
                return hand_at_random(self.engine, self.engine.parse_rules(at["rules"]), self.rng, dealer)
            except RuleViolation:
                continue
        raise AssertionError("no playable deal in 50")

    def body_for(self, table: str, dealer: int, kind: str) -> dict:
        at = self.get(f"/tables/{table}")
        if kind == "cards":
            return self.cards_for(at, dealer)
        return {"dealer": dealer, "result": self.result_for(len(at["seats"]), dealer)}

    def log_hand(self, table: str, leave_pending: bool = False) -> dict:
        """One whole hand at ``table``, by cards or by result, by the admin or a seated member;
        then, where it waits, its payers confirm it at once, in part, dispute it, or not yet."""
        at = self.get(f"/tables/{table}")
        dealer = at["next_dealer"]
        kind = "cards" if self.rng.random() < (0.5 if self.game == "baska" else 0.75) else "result"
        logger = None if self.rng.random() < 0.4 else self.rng.choice(self.seats_at[table])
        who = self.admin if logger is None else self.as_member(logger)
        for _ in range(50):
            body = self.body_for(table, dealer, kind)
            r = self.post(who, f"/tables/{table}/hands", body, table)
            if r.status_code == 201:
                break
            assert r.status_code == 422 and kind == "result", r.json  # a result no hand allows: drawn again
        else:
            raise AssertionError("no result drawn was one the service takes")
        hand = r.json
        self.hands[hand["id"]] = Hand(hand["id"], table, dealer, kind, body)
        state = hand["confirmation"]["state"]
        self.moves.append(f"hand {hand['id']} at {self.where(table)} by {'admin' if logger is None else logger} "
                          f"({kind}): {[p['amount'] for p in hand['settlement']['payouts']]} {state}")
        if self.confirmations == "off":
            assert state == "counted", hand["confirmation"]
        elif state == "pending" and not leave_pending:
            self.answer(hand)
        return hand

    def log_together(self, tables: list[str]) -> None:
        """A hand at each of ``tables`` logged at the same moment, each on a thread of its own (a
        409, a concurrent append that won the race, is sent again), as a hall's tables do."""
        bodies = {}
        for table in tables:
            at = self.get(f"/tables/{table}")
            bodies[table] = (at["next_dealer"], self.cards_for(at, at["next_dealer"]))
        queue, answers = list(tables), {}

        def send():
            table = queue.pop()
            for _ in range(50):
                r = self.admin.post(f"{self.base}/tables/{table}/hands", bodies[table][1])
                if r.status_code != 409:
                    break
            answers[table] = r
        errors = failures_in_threads(send, len(tables))
        assert not errors, errors
        self.memo.clear()
        for table in tables:
            r = answers[table]
            assert r.status_code == 201, r.json
            self.hands[r.json["id"]] = Hand(r.json["id"], table, bodies[table][0], "cards", bodies[table][1])
            self.moves.append(f"hand {r.json['id']} at {self.where(table)} by admin, at once with the others: "
                              f"{[p['amount'] for p in r.json['settlement']['payouts']]} "
                              f"{r.json['confirmation']['state']}")
        for table in tables:
            if answers[table].json["confirmation"]["state"] == "pending":
                self.answer(answers[table].json)

    def answer(self, hand: dict) -> None:
        """What the payers of a waiting hand do, at random."""
        waiting = hand["confirmation"]["waiting_for"]
        roll = self.rng.random()
        if roll < 0.4:
            self.confirm_all(hand["id"])
        elif roll < 0.55 and len(waiting) > 1:
            self.confirm(hand["id"], waiting[0])
        elif roll < 0.75:
            self.dispute(hand["id"])
        # else: left waiting, for later (maybe after its round ended)

    def confirm(self, hand: str, member: str) -> None:
        r = self.post(self.as_member(member), f"/hands/{hand}/confirm", None, self.hands[hand].table)
        assert r.status_code == 201, r.json
        self.moves.append(f"confirm {hand} by {member}: {r.json['confirmation']['state']}")

    def confirm_all(self, hand: str) -> None:
        """Every payer the hand waits for agrees; some by the hand, some by the table's one tap."""
        for member in self.hand_state(hand)["confirmation"]["waiting_for"]:
            if self.rng.random() < 0.3:
                table = self.hands[hand].table
                r = self.post(self.as_member(member), f"/tables/{table}/confirm", None, table)
                assert r.status_code == 201, r.json
                self.moves.append(f"table confirm {table} by {member}: {r.json['confirmed']}")
            else:
                self.confirm(hand, member)
        state = self.hand_state(hand)["confirmation"]
        assert state["state"] == "counted", (hand, state)

    def dispute(self, hand: str) -> None:
        """A payer it waits for disputes it, or now and then another member seated at the table."""
        state = self.hand_state(hand)
        seated = self.seats_at[self.hands[hand].table]
        member = self.rng.choice(state["confirmation"]["waiting_for"] if self.rng.random() < 0.75 else seated)
        r = self.post(self.as_member(member), f"/hands/{hand}/dispute", {"reason": "not what I saw"},
                      self.hands[hand].table)
        assert r.status_code == 201, r.json
        self.moves.append(f"dispute {hand} by {member}")

    def waiting_hands(self) -> list[str]:
        return [s["id"] for table in dict.fromkeys(h.table for h in self.hands.values()) for s in self.hands_at(table)
                if s["voided"] is None and s.get("settlement") and s["confirmation"]["state"] != "counted"]

    def settle_some(self, share: float = 0.5) -> None:
        for hand in self.waiting_hands():
            if self.rng.random() < share:
                self.confirm_all(hand)

    def correct(self, hand: Hand, void: bool = False) -> None:
        """The admin corrects ``hand``: a void, or other cards or another result (its dealer
        kept), or now and then the very same again (a correction that changes no money)."""
        if void:
            change = {"void": True}
        elif self.rng.random() < 0.2:
            change = {"cards": hand.body} if hand.kind == "cards" else {"result": hand.body["result"]}
        elif hand.kind == "cards":
            change = {"cards": self.body_for(hand.table, hand.dealer, "cards")}
        else:
            change = {"result": self.body_for(hand.table, hand.dealer, "result")["result"]}
        was = self.hand_state(hand.id)["confirmation"]  # a correction of a hand still pending is a new result
        for _ in range(50):
            r = self.post(self.admin, f"/hands/{hand.id}/correct", {"reason": "the sheet was wrong", **change},
                          hand.table)
            if r.status_code == 201 or "result" not in change:
                break
            change = {"result": self.body_for(hand.table, hand.dealer, "result")["result"]}
        assert r.status_code == 201, r.json
        adjusted = {a["hand"]: [p["amount"] for p in a["payouts"]] for a in r.json["correction"]["adjustments"]}
        self.moves.append(f"correct {hand.id} at {self.where(hand.table)} "
                          f"{'void' if void else 'to ' + next(iter(change))}: adjustments {adjusted}")
        self.agree_all(hand.id, r.json["correction"]["waits_for"])
        after = self.hand_state(hand.id)
        if void:
            assert after["voided"] is not None and after.get("settlement") is None, after.get("voided")
        else:  # a correction of a hand that counted counts once those it lowers agree; of one still waiting, it is
            # a new result that counts once its payers confirm it
            state = after["confirmation"]["state"]
            assert state == "counted" if was and was["state"] == "counted" else state in ("counted", "pending"), (
                was, after["confirmation"])
            hand.body = change["cards"] if "cards" in change else {"dealer": hand.dealer, "result": change["result"]}

    def agree_all(self, hand: str, waits_for: list[str]) -> None:
        """Each member a correction or a void lowers agrees to it (their word, as API.md asks), so
        that it counts: until then the hand counts as before, which the count here does not follow."""
        waiting = self.hand_state(hand).get("correction_waiting")
        assert set(waits_for) <= set(waiting["waiting_for"] if waiting else []), (waits_for, waiting)
        for member in (waiting["waiting_for"] if waiting else []):
            r = self.post(self.as_member(member), f"/hands/{hand}/agree", None, self.hands[hand].table)
            assert r.status_code == 201, r.json
            self.moves.append(f"agree to the correction of {hand} by {member}")
        assert self.hand_state(hand).get("correction_waiting") is None

    def live(self, hand: Hand) -> bool:
        return self.hand_state(hand.id)["voided"] is None

    def correct_earlier(self, tour: Tour, before_round: int) -> None:
        """The admin corrects a hand of one of the tournament's rounds before ``before_round``;
        a waiting or disputed hand is preferred."""
        candidates = [h for h in self.hands.values() if self.round_of.get(h.table, ("", 0))[0] == tour.id
                      and self.round_of[h.table][1] < before_round and self.live(h)]
        if not candidates:
            return
        waiting = set(self.waiting_hands())
        chosen = [h for h in candidates if h.id in waiting]
        self.correct(self.rng.choice(chosen if chosen and self.rng.random() < 0.5 else candidates),
                     void=self.rng.random() < 0.3)

    def void_table(self, table: str) -> None:
        """Every hand of the table voided by correction, the first ones first: it has played nothing."""
        for hand in [h for h in self.hands.values() if h.table == table and self.live(h)]:
            self.correct(hand, void=True)

    def void_latest(self, table: str) -> None:
        latest = self.get(f"/tables/{table}")["latest_hand"]["id"]
        r = self.post(self.admin, f"/hands/{latest}/void", {"reason": "misdeal"}, table)
        assert r.status_code == 201, r.json
        self.agree_all(latest, (r.json.get("correction_waiting") or {}).get("waiting_for", []))
        self.moves.append(f"void latest {latest} at {self.where(table)}")

    def hand_by_tricks(self, table: str) -> None:
        """A deal owed at a table (an earlier round's, after a void) logged as it is played:
        the deal, a look at the standings while it is in play, then trick by trick."""
        at = self.get(f"/tables/{table}")
        body = self.cards_for(at, at["next_dealer"])
        r = self.post(self.admin, f"/tables/{table}/hands", {"deal": body["deal"]}, table)
        assert r.status_code == 201, r.json
        hid = r.json["id"]
        self.hands[hid] = Hand(hid, table, at["next_dealer"], "cards", body)
        self.moves.append(f"deal {hid} at {self.where(table)}, in play")
        self.check("a hand in play")
        for trick in body["tricks"]:
            r = self.post(self.admin, f"/hands/{hid}/tricks", trick, table)
            assert r.status_code == 201, r.json
        state = self.hand_state(hid)
        self.moves.append(f"tricks of {hid}: {[p['amount'] for p in state['settlement']['payouts']]} "
                          f"{state['confirmation']['state']}")
        if state["confirmation"]["state"] != "counted" and self.rng.random() < 0.5:
            self.confirm_all(hid)

    def owed(self, tour: Tour) -> list[str]:
        """The tournament's tables (of any round drawn) that have not played their deals."""
        return [t["id"] for d in tour.drawn for t in d["tables"] if self.played_at(t["id"]) < tour.deals]

    def confirmations_off(self) -> None:
        r = self.admin.call("PATCH", self.base, {"confirmations": "off"})
        assert r.status_code == 200, r.json
        self.confirmations = "off"
        self.moves.append("confirmations turned off (hands already waiting still wait)")

    # -- the independent count
    def counted_at(self, table: str, fresh: bool) -> tuple[dict[str, int], int, set[str]]:
        """What counts of each seat's payouts at the table, the hands it has played (settled,
        not voided), and its hands that wait (pending or disputed)."""
        small = {m: 0 for m in self.seats_at[table]}
        played, waiting = 0, set()
        for h in self.hands_at(table, fresh):
            if h["voided"] is not None or not h.get("settlement"):
                continue  # voided (never played) or still in play
            played += 1
            if h["confirmation"]["state"] != "counted":
                waiting.add(h["id"])
                continue
            payouts = h["settlement"]["payouts"]
            assert sum(amount_minor(p["amount"], self.digits) for p in payouts) == 0, payouts
            for p in payouts:
                small[p["member"]] += amount_minor(p["amount"], self.digits)
        return small, played, waiting

    def standings(self, tour: Tour, fresh: bool) -> tuple[int, dict[str, dict]]:
        """rounds_played and each player's standing, from the tables of every round drawn."""
        read = self.get(f"/tournaments/{tour.id}")
        assert [d["round"] for d in read["drawn_rounds"]] == list(range(1, len(tour.drawn) + 1))
        entries: dict[str, list[dict]] = {m: [] for m in read["players"]}
        rounds_played = 0
        for drawn in read["drawn_rounds"]:
            complete = True
            for table in drawn["tables"]:
                small, played, _ = self.counted_at(table["id"], fresh)
                complete &= played >= tour.deals
                if played == 0:
                    continue  # a table not started places nobody
                for m, (place, points) in place_table(small, tour.places).items():
                    entries[m].append({"round": drawn["round"], "table": table["id"], "small": small[m],
                                       "place": place, "points": points})
            rounds_played += complete
        totals = {m: (sum((e["points"] for e in es), Fraction(0)), sum(e["small"] for e in es),
                      sum(e["place"] == 1 for e in es)) for m, es in entries.items()}
        places = overall(totals)
        return rounds_played, {
            m: {"name": self.names[m], "place": places[m], "points": points_text(totals[m][0]),
                "small": amount_text(totals[m][1], self.digits), "first_places": totals[m][2],
                "rounds": [{**e, "small": amount_text(e["small"], self.digits), "points": points_text(e["points"])}
                           for e in sorted(es, key=lambda e: e["round"])]}
            for m, es in entries.items()}

    def compare(self, tour: Tour, fresh: bool) -> list[str]:
        rounds_played, mine = self.standings(tour, fresh)
        got = self.get(f"/tournaments/{tour.id}/standings")
        name = "main" if tour is self.main else "side"
        diffs = []
        if got["rounds_played"] != rounds_played:
            diffs.append(f"{name} rounds_played: expected {rounds_played}, got {got['rounds_played']}")
        theirs = {p["member"]: p for p in got["players"]}
        if sorted(theirs) != sorted(mine) or len(got["players"]) != len(mine):
            diffs.append(f"{name} players: expected {sorted(mine)}, got {[p['member'] for p in got['players']]}")
        for m, want in mine.items():
            have = theirs.get(m)
            if have is None:
                continue
            for k in ("name", "place", "points", "small", "first_places"):
                if have[k] != want[k]:
                    diffs.append(f"{name} {m} {k}: expected {want[k]!r}, got {have[k]!r}")
            if have["rounds"] != want["rounds"]:
                diffs.append(f"{name} {m} rounds: expected {want['rounds']}, got {have['rounds']}")
        order = [(-Fraction(p["points"]), -Decimal(p["small"]), -p["first_places"]) for p in got["players"]]
        if order != sorted(order) or [p["place"] for p in got["players"]] != sorted(p["place"] for p in got["players"]):
            diffs.append(f"{name} players not listed best first: " + str(
                [(p["place"], p["points"], p["small"], p["first_places"]) for p in got["players"]]))
        return diffs

    def check(self, when: str, fresh: bool = False) -> None:
        self.checks += 1
        fresh = fresh or self.checks % 5 == 0
        diffs = [d for tour in self.tours.values() for d in self.compare(tour, fresh)]
        money, waiting = {m: 0 for m in self.c["ids"]}, set()
        for table in self.get("")["tables"]:
            small, _, held = self.counted_at(table["id"], fresh)
            waiting |= held
            for m, v in small.items():
                money[m] += v
        balances = self.get("/balances")
        shown = {b["member"]: amount_minor(b["balance"], self.digits) for b in balances["balances"]}
        if shown != money:  # no payments: the balances are what counts at the group's tables
            diffs.append(f"balances: counted from the hands {money}, GET balances {shown}")
        if {p["hand"] for p in balances["pending"]} != waiting:
            diffs.append(f"pending: hands not counted {sorted(waiting)}, GET balances lists "
                         f"{sorted(p['hand'] for p in balances['pending'])}")
        assert not diffs, (f"{self.players} players, confirmations {self.confirmations}, seed {self.seed}, "
                           f"check {self.checks} ({when}):\n  " + "\n  ".join(diffs)
                           + "\nmoves:\n  " + "\n  ".join(self.moves))

    def maybe_check(self, when: str) -> None:
        if self.rng.random() < 0.35:
            self.check(when)


def side_tournament(p: Play) -> None:
    """A second tournament of four of the same players in the same group, played (and one of
    its hands corrected) while the main one's round 2 is in play."""
    side = p.tournament(p.rng.sample(p.c["ids"], 4), p.rng.choice(PLACES), 2, 1)
    p.check("a second tournament created")
    [table] = p.draw(side)
    for _ in range(side.deals):
        p.log_hand(table)
        p.maybe_check("the second tournament")
    p.correct(p.rng.choice([h for h in p.hands.values() if h.table == table]))
    p.check("the second tournament played and corrected")


def scenario(client, app, players: int, confirmations: str, seed: int) -> Play:
    p = Play(client, app, players, confirmations, seed)
    main = p.main
    p.check("before any draw")
    p.log_hand(p.evening)
    for number in range(1, main.rounds + 1):
        if number == 3 and confirmations == "payers" and seed % 3 == 0:
            p.confirmations_off()
        tables = p.draw(main)
        p.check(f"round {number} drawn")
        p.log_together(tables)  # every table's first deal at once
        p.check(f"round {number}: a deal at every table at once")
        todo = [t for t in tables for _ in range(main.deals - 1)]
        p.rng.shuffle(todo)  # the tables of a round play side by side
        for i, table in enumerate(todo):
            last = i == len(todo) - 1
            p.log_hand(table, leave_pending=last)
            if not last and p.rng.random() < 0.08:
                p.void_latest(table)
                p.maybe_check("after a void")
                p.log_hand(table)
            if number > 1 and p.rng.random() < 0.12:
                p.correct_earlier(main, number)
                p.check("after a correction of an earlier round")
            if p.confirmations == "payers" and p.rng.random() < 0.15:
                p.settle_some(0.4)
            if p.rng.random() < 0.1:
                p.log_hand(p.evening)
            if number == 2 and i == 0:
                side_tournament(p)
            p.maybe_check(f"round {number}")
        p.check(f"round {number} played", fresh=True)
        if number > 1:
            p.correct_earlier(main, number)
            p.check(f"round {number} played, an earlier round corrected")
        if number == 2:
            p.void_table(p.rng.choice([t["id"] for t in main.drawn[0]["tables"]]))
            p.check("every hand of a round 1 table voided")
        for table in p.owed(main):  # a deal voided in an earlier round is owed there: played now
            while p.round_of[table][1] < number and p.played_at(table) < main.deals:
                p.hand_by_tricks(table)
                p.check("an owed deal played")
        if p.confirmations == "payers":
            p.check(f"round {number} ended with hands waiting")
    if p.waiting_hands():  # the last ones agree, long after their rounds ended
        p.settle_some(1.0)
        p.check("every hand agreed", fresh=True)
    p.correct_earlier(main, main.rounds + 1)
    p.check("a last correction")
    for table in p.owed(main):
        while p.played_at(table) < main.deals:
            p.hand_by_tricks(table)
    p.settle_some(1.0)
    p.check("the end", fresh=True)
    assert not p.owed(main) and not p.waiting_hands()
    final = p.get(f"/tournaments/{main.id}/standings")
    assert final["rounds_played"] == main.rounds
    reader = p.as_member(p.rng.choice(main.players))  # a player reads the same standings as the admin
    assert reader.get(f"{p.base}/tournaments/{main.id}/standings").json == final
    return p


@ON_SQLITE
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("confirmations", ["off", "payers"])
@pytest.mark.parametrize("players", [13, 8])
def test_standings_are_what_an_independent_count_of_the_hands_gives(client, app, players, confirmations, seed):
    p = scenario(client, app, players, confirmations, seed)
    assert p.checks >= 10
    said = run("--db", app.config["BITKA_DB"], "replay")
    assert said.exit_code == 0, said.output


def test_the_standings_rows_kept_on_each_backend_count_as_the_hands_do(client, app):
    """One scenario on each backend: the standings rows are moved in the store's own transaction."""
    assert scenario(client, app, 13, "payers", 0).checks >= 10


# ---------------------------------------------------------------- the reading, checked

def test_the_hand_count_places_as_api_md_says():
    """This file's own reading of the rules, on cases written out by hand."""
    five = place_table({"a": 3, "b": 3, "c": 0, "d": -3, "e": -3}, [5, 3, 1, 0])
    assert five == {"a": (1, 4), "b": (1, 4), "c": (3, 1), "d": (4, 0), "e": (4, 0)}
    three = place_table({"a": 2, "b": 0, "c": 0, "d": 0}, [5, 3, 1, 0])
    assert three == {"a": (1, 5), "b": (2, Fraction(4, 3)), "c": (2, Fraction(4, 3)), "d": (2, Fraction(4, 3))}
    level = place_table({"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}, [5, 3, 1, 0])
    assert {v for v in level.values()} == {(1, Fraction(9, 5))}
    assert [points_text(v) for v in (Fraction(4), Fraction(1, 2), Fraction(9, 4), Fraction(4, 3), Fraction(8, 3),
                                     Fraction(0), Fraction(9, 5), Fraction(10))] == \
        ["4", "0.5", "2.25", "1.33", "2.67", "0", "1.8", "10"]
    assert overall({"a": (Fraction(5), 1, 1), "b": (Fraction(3), 2, 0), "c": (Fraction(3), 2, 0),
                    "d": (Fraction(3), 1, 1)}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert [amount_text(v, 2) for v in (-150, 0, 5)] == ["-1.50", "0.00", "0.05"] and amount_text(-4, 0) == "-4"
