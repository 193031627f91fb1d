"""What every reader sees of a hand in play, in every game and variant and whichever way its
cards are logged: random legal hands (hypothesis) of every registered game, at a table of
each of its presets (and of the rules no preset plays, ``tests/every_game.py``), logged
seat by seat from each player's own token (``entry: "seats"``) or by one scorer who types
the whole deal (the admin, or a seated member), and read after every request by every
reader there is: each seat's member, the admin, and a member of the group not seated.

The attacker is any one of those readers, out to learn a card hidden from it. It reads all
it may of the hand: the hand state and its ETag, the group's log with its sealed markers,
the audit trail as JSON and as text, and the live part of the hand's page. It tries:

1. to find in those bytes a card its game does not put in its sight (``Game.sight.visible``:
   the cards played and face up, its own seat's) and it did not log itself, or a hidden
   card in an event not sealed; and to catch ``Game.sight.visible`` naming a card the contract
   hides (``Played.in_sight`` is this file's own reading of API.md, "Seats and sealed cards");
2. to tell apart two worlds that look the same to it: the same requests, but two cards it
   has not seen each lying in the other's place (two seats' cards, or a seat's and one in
   the stock; each hand laid out as its player sorts it, so that where a card stands tells
   of the others). Until one of the two comes into its sight, or the requests stop telling
   it the same, every read must be the same in both worlds byte for byte once the ids,
   hashes and times are set aside: order, lengths, positions, sealed markers and ETag; and
   so must the answers when it plays either card for the seat to play (where it may send a
   card for that seat, and the rules refuse the card in both worlds): a refusal is a read.

What is read when (``reads_now``, ``slow_read``), to keep a hand of forty cards read by eight
readers within seconds: the hand and the log by every reader after every step, but that at
a seats table the admin and the member not seated, whom the contract shows alike, take
turns; the reads that render the whole trail (the audit trail as JSON and as text, the page)
after every other step by one reader, in turn; a reader that sees every card (the scorer,
the admin of a scorer's table) only in turn, and once the hand is over. The other worlds
are read from the deal to ``COMPARED`` steps past the first call or card.
"""
from __future__ import annotations

import json
import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import product
from os.path import commonprefix

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from games.engine.autoplay import dealt_at_random
from games.engine.base import Command, Event
from games.engine.errors import RuleViolation
from games.registry import GAMES
from games.engine.table import deal_context
from service.web.cards import in_order
from tests.api.test_what_a_reader_learns import HEX, ID, TIME, stable
from tests.backends import ON_SQLITE
from tests.conftest import Client
from tests.every_game import uncovered

ADMIN, OUTSIDER = "admin", "outsider"  # the readers beside the seats (a seat is its number)
NAMES = ("Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil")
EXAMPLES = 1  # random hands per table and entry: each is played over HTTP in several worlds
SWAPS_TRIED = 24  # pairs of cards tried, in-process, for each other world
COMPARED = 6  # steps past the first call or card that an other world is read and compared
SIDE_BY_SIDE = 4  # readers reading at once, as phones do


@dataclass(frozen=True)
class Setup:
    """A table: its game and rules (``knock``: the dealer logs, instead of the card it turns
    up, the first thing its game offers instead, ``Game.moves.instead_of_turning``: the Capixaba
    cutter's knock for hearts)."""
    game: str
    rules: dict
    knock: bool = False

    def __str__(self):
        return "-".join([self.game, *map(str, self.rules.values()), *(["knock"] if self.knock else [])])


def instead_of_turning(game, rules) -> list:
    """What the dealer of a hand dealt seat by seat may log instead of the card it turns up."""
    state = game.initial_state(rules, {**game.parse_deal(rules, {"dealer": 0}).data, **deal_context(game, rules, None)})
    return list(game.moves.instead_of_turning(state, 0))


def setups() -> list:
    """(setup, entry) for each preset of each registered game, each way of logging it (and the
    dealer's knock where the game has one); once more, logged one way, with the rules no
    preset plays."""
    cases = []
    for name, game in GAMES.items():
        for preset in game.words.presets:
            rules = dict(preset.rules)
            knock = bool(instead_of_turning(game, game.parse_rules(rules)))
            for setup in (Setup(name, rules), *([Setup(name, rules, knock=True)] if knock else ())):
                cases += [pytest.param(setup, entry, id=f"{setup}-{entry}") for entry in ENTRIES]
        for rules in uncovered(name):
            setup, entry = Setup(name, rules), ENTRIES[len(cases) % 2]
            cases.append(pytest.param(setup, entry, id=f"{setup}-{entry}"))
    return cases




ENTRIES = ("seats", "scorer")
SETUPS = setups()


# ---------------------------------------------------------------------------------------------
# A hand planned in-process by the game's own rules: the requests, and the hand after each.

@dataclass(frozen=True)
class Step:
    """One request: ``who`` sends it (a seat's member, or the admin); ``kind`` is ``open``
    (POST .../tables/{t}/hands) or the hand's ``cards``, ``bids``, ``plays`` or ``tricks``."""
    who: int | str
    kind: str
    body: dict


COMMAND = {"cards": "cards", "bids": "bid", "plays": "play", "tricks": "trick"}


class Table:
    """What the rules know of a setup: its game, rules, seats and pack."""

    def __init__(self, setup: Setup):
        self.setup, self.game = setup, GAMES[setup.game]
        self.rules = self.game.parse_rules(setup.rules)
        self.seats = self.game.seat_count(self.rules)
        self.pack = frozenset(self.game.sight.pack(self.rules))

    def after(self, state, step: Step):
        """The hand after ``step`` and the events it makes (RuleViolation: the rules refuse it)."""
        if step.kind == "open":
            data = {"game": self.game.name, "rules": self.rules.to_data(),
                    **self.game.parse_deal(self.rules, step.body["deal"]).data,
                    **deal_context(self.game, self.rules, None)}
            return self.game.initial_state(self.rules, data), [Event("deal", data)]
        events = self.game.decide(state, Command(COMMAND[step.kind], step.body))
        for event in events:
            state = self.game.evolve(state, event)
        return state, events

    def follow(self, steps: list[Step]) -> list[tuple]:
        """(hand, events) after each step, as far as the rules take ``steps``."""
        state, out = None, []
        for step in steps:
            try:
                state, events = self.after(state, step)
            except RuleViolation:
                break
            out.append((state, events))
        return out


def random_deal(t: Table, dealer: int, rng: random.Random) -> dict:
    """A whole deal of the pack shuffled, as the game deals it, shuffled again until the
    rules take it (``autoplay.dealt_at_random``); each hand laid out as a player sorts it
    (by suit, high to low), so that where a card lies tells of the others. With the knock,
    what the dealer logs instead of the card it turns up stands for it, and that card goes
    to the bottom of the stock."""
    deal = dealt_at_random(t.game, t.rules, rng, dealer)
    deal = {**deal, "hands": [in_order(h) for h in deal["hands"]]}
    if t.setup.knock:
        deal.update(instead_of_turning(t.game, t.rules)[0].body)
        left = sorted(t.pack - cards_named(deal))
        deal["stock"] = [*deal.get("stock", ()), *left]
        t.game.parse_deal(t.rules, deal)  # a deal the rules take, knock and all
    return deal


def owed_cards(t: Table, key: str, truth, state, deal: dict) -> dict:
    """What a hand dealt seat by seat (``state``) is owed next, from the deal as it truly lies
    (``truth``: the same hand dealt whole): what the deal put face up under ``key`` (the
    table's cards, the trump card, or what the dealer logs instead), or the cards a seat
    holds in truth that it has not logged yet (its first, a new round, a card drawn)."""
    if not key.isdigit():
        if t.setup.knock and key in instead_of_turning(t.game, t.rules)[0].body:
            return dict(instead_of_turning(t.game, t.rules)[0].body)
        return {key: deal[key]}
    seat, known = int(key), set(t.game.moves.held(state)[int(key)])
    return {"seat": seat, "cards": in_order([c for c in t.game.moves.held(truth)[seat] if c not in known])}


def calls(t: Table, state, rng: random.Random) -> list[tuple[int, dict]]:
    """A few calls before the first card, at random: each a call a seat's phone offers it
    (``Game.moves.offers``: a contract, a double, a swap) as the hand stands before them all,
    'pass' left out (those the rules refuse by the time they are sent are not sent)."""
    made = []
    for _ in range(rng.randrange(4) if t.game.moves.calls(state) else 0):
        seat = rng.randrange(t.seats)
        offers = [o.body for o in t.game.moves.offers(state, seat) if o.body.get("call") != "pass"]
        if offers:
            made.append((seat, {"seat": seat, **rng.choice(offers)}))
    return made


def plan(t: Table, entry: str, scorer: int | str, rng: random.Random) -> tuple[dict, list[Step]]:
    """A random legal hand and its requests: at a seats table each seat sends its own cards,
    calls and plays (the dealer the face-up ones); at a scorer's table the scorer sends the
    whole deal, then every call and trick (whole, or a card at a time) or play."""
    dealer = rng.randrange(t.seats)
    deal, seats = random_deal(t, dealer, rng), entry == "seats"
    truth, _ = t.after(None, Step(scorer, "open", {"deal": deal}))
    steps = [Step(dealer if seats else scorer, "open", {"deal": {"dealer": dealer} if seats else deal})]
    state = t.after(None, steps[0])[0] if seats else truth
    whole_tricks = not seats and t.game.capabilities.logged_by == "tricks" and rng.random() < 0.5
    called = False

    def take(who, kind: str, body: dict) -> bool:
        nonlocal state, truth
        step = Step(who if seats else scorer, kind, body)
        try:
            state = t.after(state, step)[0]
        except RuleViolation:
            return False
        if seats and kind != "cards":
            truth = t.after(truth, step)[0]
        steps.append(step)
        return True

    while not t.game.is_terminal(state):
        owed = t.game.moves.owed(state)
        if owed:
            key = next(iter(owed))
            assert take(int(key) if key.isdigit() else dealer, "cards", owed_cards(t, key, truth, state, deal))
            continue
        if not called:
            called = True
            for seat, body in calls(t, state, rng):
                take(seat, "bids", body)
            if t.game.is_terminal(state):  # a call that wins at once (Baśka's baska: the four queens)
                break
        turn = t.game.moves.turn(state)
        if t.game.capabilities.logged_by == "plays":
            move = ("plays", {"seat": turn, **rng.choice(t.game.moves.legal_plays(state))})
        elif whole_tricks:
            cards = []
            for seat in t.game.trick_seats(state):
                cards.append(rng.choice(t.game.moves.legal_cards(state, seat, tuple(cards))))
            move = ("tricks", {"cards": cards})
        else:
            on_table = tuple(c["card"] for c in t.game.sight.view(state).get("current") or ())
            move = ("plays", {"seat": turn, "card": rng.choice(t.game.moves.legal_cards(state, turn, on_table))})
        if not take(turn, *move):  # a call the rules require first (Baśka's cicha that cannot be lost)
            assert any(take(seat, "bids", {"seat": seat, **offer.body}) for seat in range(t.seats)
                       for offer in t.game.moves.offers(state, seat)
                       if offer.body.get("call") != "pass"), f"{move} refused"
            assert take(turn, *move)
    return deal, steps


# ---------------------------------------------------------------------------------------------
# What a reader may see: the contract's words, read here apart from the games' ``visible``.

CARD = re.compile(r"(?:10|[2-9AKQJ])[CSHD]")


def cards_named(value) -> set[str]:
    """Every card in ``value`` but a call's jack (said aloud at the table, by design)."""
    if isinstance(value, str):
        return {value} if CARD.fullmatch(value) else set()
    if isinstance(value, dict):
        return {c for k, v in value.items() if k != "jack" for c in cards_named(v)}
    if isinstance(value, (list, tuple)):
        return {c for v in value for c in cards_named(v)}
    return set()


def face_up(events) -> set[str]:
    """Every card these events turn face up for all to see: played, put on the table, the
    trump card turned (and the 2 of trumps swapped for it), and every card of an event that
    says it is ``"shown": true`` (a card drawn in sight, a declaration)."""
    shown = set()
    for e in events:
        d = e.data
        shown.update(d.get("table") or ())
        if e.type in ("deal", "seat_cards") and d.get("trump"):
            shown.add(d["trump"])
        if e.type == "play":
            shown.add(d["card"])
        if e.type == "trick":
            shown.update(d["cards"])
        if e.type == "bid" and d.get("call") == "swap-2":
            shown.update((d["gives"], d["takes"]))
        if d.get("shown") is True:  # an event that shows every card it names to the table (a draw, a declaration)
            shown |= cards_named(d)
    return shown


def masked(value, hidden):
    """``value`` with each card of ``hidden`` as None (a call's jack kept: it is said aloud)."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, dict):
        return {k: v if k == "jack" else masked(v, hidden) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [masked(v, hidden) for v in value]
    return value


def swapped(value, x: str, y: str):
    """``value`` with the cards ``x`` and ``y`` each in the other's place."""
    if isinstance(value, str):
        return {x: y, y: x}.get(value, value)
    if isinstance(value, dict):
        return {k: swapped(v, x, y) for k, v in value.items()}
    if isinstance(value, list):
        return [swapped(v, x, y) for v in value]
    return value


def laid_out(body: dict) -> dict:
    """A deal's hands, or a seat's cards, as a player sorts them (the stock keeps its order)."""
    if "deal" in body:
        return {**body, "deal": laid_out(body["deal"])}
    if body.get("hands"):
        return {**body, "hands": [in_order(h) for h in body["hands"]]}
    if "seat" in body and "cards" in body:
        return {**body, "cards": in_order(body["cards"])}
    return body


class Played:
    """A hand as it went in one world: the deal as the cards truly lie (logged whole or not),
    the requests, and the hand and its events after each step."""

    def __init__(self, table: Table, entry: str, deal: dict, steps: list[Step]):
        self.table, self.entry, self.deal, self.steps = table, entry, deal, steps
        self.after = table.follow(steps)
        self.shown, self.aloud, shown, aloud = [], [], set(), set()  # after each step
        for _, events in self.after:
            shown |= face_up(events)
            aloud |= {e.data["jack"] for e in events if e.type == "bid" and e.data.get("jack")}
            self.shown.append(frozenset(shown))
            self.aloud.append(frozenset(aloud))
        # the first call or card (or the step before the last: a baska call wins at once)
        self.first_card = min(next(k for k, s in enumerate(steps) if s.kind in ("plays", "tricks", "bids")),
                              len(steps) - 2)

    def swapped(self, x: str, y: str) -> Played:
        """The other world: the same requests, with ``x`` and ``y`` each in the other's place
        (and each hand laid out again, as its player sorts it)."""
        return Played(self.table, self.entry, laid_out(swapped(self.deal, x, y)),
                      [Step(s.who, s.kind, laid_out(swapped(s.body, x, y))) for s in self.steps])

    def over(self, k: int) -> bool:
        return self.table.game.is_terminal(self.after[k][0])

    def sees_every_hand(self, reader) -> bool:
        return reader == ADMIN and self.entry == "scorer"

    def logged(self, reader, k: int) -> set[str]:
        """The cards ``reader`` named itself, in the deal or in the cards it logged."""
        return {c for s in self.steps[:k + 1] if s.who == reader and s.kind in ("open", "cards")
                for c in cards_named(s.body)}

    def in_sight(self, reader, k: int) -> frozenset[str]:
        """What the contract lets ``reader`` see after step ``k``: once the hand is over, or
        as the admin of a scorer's table, everything; else every card turned face up, its
        own seat's, and those it logged itself."""
        if self.over(k) or self.sees_every_hand(reader):
            return self.table.pack
        own = self.table.game.moves.held(self.after[k][0])[reader] if isinstance(reader, int) else ()
        return self.shown[k].union(own, self.logged(reader, k))

    def may_show(self, reader, k: int) -> frozenset[str]:
        """What the service may show ``reader`` after step ``k``: what its game puts in its
        sight (``visible``) and what it logged itself; everything to whoever sees every hand,
        and once the hand is over."""
        if self.over(k) or self.sees_every_hand(reader):
            return self.table.pack
        seat = reader if isinstance(reader, int) else None
        return self.table.game.sight.visible(self.after[k][0], seat) | self.logged(reader, k)

    def told(self, reader, k: int) -> list:
        """What step ``k`` tells ``reader``: its events with each card out of its sight masked."""
        hidden = self.table.pack - self.in_sight(reader, k)
        return [(e.type, masked(e.data, hidden)) for e in self.after[k][1]]


# ---------------------------------------------------------------------------------------------
# The other worlds: two cards hidden from a reader, each in the other's place.

def looks_the_same(a: Played, b: Played, reader, x: str, y: str) -> int:
    """For how many steps two worlds look the same to ``reader``: while the hand is in play
    in both, the rules take each step in both, each step tells it the same, and neither
    card of the swap is in its sight in either."""
    for k in range(len(b.after)):
        if a.over(k) or b.over(k) or {x, y} & (a.in_sight(reader, k) | b.in_sight(reader, k)):
            return k
        if a.told(reader, k) != b.told(reader, k):
            return k
    return len(b.after)


def other_worlds(a: Played, readers, rng: random.Random) -> list[tuple[Played, tuple[str, str], dict]]:
    """Worlds each with two cards swapped between two places (two seats' hands, or a hand
    and the stock), enough of them that each reader with cards hidden from it is misled by
    one past the first call or card; each with the swap, of those tried, that misleads its
    readers the longest, and the number of steps it misleads each (up to ``COMPARED`` past
    the first call or card)."""
    places = [*a.deal["hands"], *([a.deal["stock"]] if a.deal.get("stock") else [])]
    uncovered, worlds = {r for r in readers if a.in_sight(r, 0) != a.table.pack}, []
    while uncovered:
        seats = [s for s in uncovered if isinstance(s, int)]
        # a swap there hides from all of them (not in the hand of a seat sitting it out: it has none)
        free = [p for p in range(len(places)) if p not in seats and places[p]]
        if len(free) < 2:
            free = [p for p in range(len(places)) if p != min(seats) and places[p]]
        options = list(product(places[free[-2]], places[free[-1]]))
        rng.shuffle(options)
        best = None
        for x, y in options[:SWAPS_TRIED]:
            b = a.swapped(x, y)
            span = {r: min(looks_the_same(a, b, r, x, y), a.first_card + COMPARED) for r in uncovered}
            if best is None or sum(span.values()) > sum(best[2].values()):
                best = (b, (x, y), span)
        b, swap, span = best
        misled = {r: k for r, k in span.items() if k > a.first_card}
        assert misled, f"{a.table.setup}: no swap of places {free[-2:]} misleads {sorted(map(str, uncovered))}"
        worlds.append((b, swap, misled))
        uncovered -= set(misled)
    return worlds


def question(a: Played, k: int, card: str) -> dict:
    """A play that asks where ``card`` is: the card, for the seat to play (in Scopa taking
    itself, a capture no card can make)."""
    body = {"seat": a.table.game.moves.turn(a.after[k][0]) or 0, "card": card}
    return {**body, "capture": [card]} if a.table.game.capabilities.logged_by == "plays" else body


def refused(played: Played, k: int, body: dict) -> bool:
    """Do the rules refuse the play ``body`` after step ``k``?"""
    try:
        played.table.after(played.after[k][0], Step(ADMIN, "plays", body))
    except RuleViolation:
        return True
    return False


def may_play_for(a: Played, reader, seat: int) -> bool:
    """May ``reader`` send a card for ``seat``: the admin always, a seated member at a
    scorer's table, and its own seat at a seats table."""
    return reader == ADMIN or reader == seat or (a.entry == "scorer" and isinstance(reader, int))


def questions(a: Played, worlds, readers: list) -> dict[tuple, list[dict]]:
    """What the readers each world misleads ask, one after each step, in turn: each swapped
    card played for the seat to play, where the rules refuse it in both worlds (a card they
    take would be played, not asked) and the reader may send it. The plays, by reader and
    step."""
    asked = {}
    for b, swap, misled in worlds:
        askers = [r for r in readers if r in misled and r != OUTSIDER]
        for k in range(max(misled.values())):
            r = askers[k % len(askers)] if askers else None
            if r is None or k >= misled[r]:
                continue
            plays = [q for q in (question(a, k, c) for c in swap)
                     if may_play_for(a, r, q["seat"]) and refused(a, k, q) and refused(b, k, q)]
            if plays:
                asked[r, k] = plays
    return asked


# ---------------------------------------------------------------------------------------------
# The hand over HTTP, in a group of its own.

class World:
    """A group whose table plays one hand: a member in each seat, and one not seated."""

    def __init__(self, client, t: Table, entry: str, dealer: int):
        g = client.post("/v1/groups", {"name": "Thursday", "currency": "EUR"}).json
        self.base, self.http, self.clients, self.browsers = f"/v1/groups/{g['id']}", client, {}, {}
        admin = client.as_(g["admin_token"])
        members = [admin.post(f"{self.base}/members", {"name": n}).json for n in (*NAMES[:t.seats], "Olek")]
        self.tokens = {ADMIN: g["admin_token"], OUTSIDER: members[-1]["token"],
                       **{s: m["token"] for s, m in enumerate(members[:-1])}}
        rules = {**t.setup.rules, **({"entry": "seats"} if entry == "seats" else {})}
        table = admin.post(f"{self.base}/tables", {"game": t.setup.game, "rules": rules, "stake": "1.00",
                                                    "dealer": dealer, "seats": [m["id"] for m in members[:-1]]})
        assert table.status_code == 201, table.json
        self.table, self.hand = table.json["id"], None
        self.ids = [g["id"], *(m["id"] for m in members), self.table]

    def send(self, step: Step) -> None:
        path = (f"{self.base}/tables/{self.table}/hands" if step.kind == "open"
                else f"{self.base}/hands/{self.hand}/{step.kind}")
        r = self.http.as_(self.tokens[step.who]).post(path, step.body)
        assert r.status_code == 201, (step, r.json)
        if step.kind == "open":
            self.hand, self.before = r.json["id"], r.json["events"][0] - 1
            self.ids.append(self.hand)

    def client_of(self, reader) -> Client:
        """``reader``'s own API client: each reader reads from its own, side by side."""
        if reader not in self.clients:
            self.clients[reader] = Client(self.http.http.application.test_client(use_cookies=False),
                                          self.tokens[reader])
        return self.clients[reader]

    def browser(self, reader):
        """A browser signed in to the pages as ``reader`` (signed in the first time it is asked)."""
        if reader not in self.browsers:
            browser = self.http.http.application.test_client()
            page = browser.get("/").get_data(as_text=True)
            form = {"signin_token": re.search(r'name="signin_token" value="([^"]+)"', page).group(1),
                    "token": self.tokens[reader]}
            assert browser.post("/signin", data=form).status_code == 303
            self.browsers[reader] = browser
        return self.browsers[reader]

    def reads(self, reader, slow: str | None) -> dict[str, str]:
        """What ``reader`` can read of the hand as it is served: the hand and its ETag, the
        log from the hand's deal on, and the ``slow`` read if one is asked for (the audit
        trail as JSON or as text, or the live part of the hand's page)."""
        who, audit = self.client_of(reader), f"{self.base}/hands/{self.hand}/audit"
        hand = who.get(f"{self.base}/hands/{self.hand}")
        assert hand.status_code == 200, hand.json
        read = {"hand": hand.get_data(as_text=True), "etag": hand.headers["ETag"],
                "events": who.get(f"{self.base}/events?after={self.before}&limit=1000").get_data(as_text=True)}
        if slow == "audit":
            read[slow] = who.get(audit).get_data(as_text=True)
        elif slow == "audit text":
            read[slow] = who.get(audit, headers={"Accept": "text/plain"}).get_data(as_text=True)
        elif slow == "live":
            page = self.browser(reader).get(f"/g/{self.ids[0]}/hands/{self.hand}/live")
            assert page.status_code == 200
            read[slow] = page.get_data(as_text=True)
        return read

    def ask(self, reader, plays: list[dict]) -> str:
        """``reader`` sends each of ``plays``, which the rules refuse: the answers."""
        answers = []
        for body in plays:
            r = self.client_of(reader).post(f"{self.base}/hands/{self.hand}/plays", body)
            assert r.status_code != 201, f"the service took {body} from {reader!r}, which the rules refuse"
            answers.append({"status": r.status_code, "problem": r.json})
        return json.dumps(answers)

    def stable(self, read: dict[str, str]) -> dict[str, str]:
        """A read with what differs between any two groups (ids, hashes, times, the pages'
        one-time keys) set aside: what two worlds that look the same must show alike."""
        out = {}
        for channel, text in read.items():
            if channel in JSON:
                text = json.dumps(stable(json.loads(text)), sort_keys=True)
            for i, known in enumerate(self.ids):
                text = text.replace(known, f"<id{i}>")
            text = WHEN.sub(r"\1<time>\2", ONCE.sub("<once>", text))
            out[channel] = TIME.sub("<time>", HEX.sub("<hex>", ID.sub("<id>", text)))
        return out


JSON = ("hand", "events", "audit", "asked")
ONCE = re.compile(r"web-[A-Za-z0-9_-]{22}")  # a page form's one-time key
WHEN = re.compile(r'(<td class="when"[^>]*>)[^<]*(</td>)')  # a time as a page writes it


CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AKQJ])[CSHD](?![0-9A-Za-z])")
SIGNATURE = re.compile(r'"signature":\s*"[^"]*"')  # a checkpoint's, in base64
# Set aside from the page's cards (the two worlds compare them): the picker of the cards a
# seat may pick up (every card nobody has shown it) and the calls its seat may make now (a
# wesele names the jack it would bring, as the call will say aloud).
OFFERS = re.compile(r'<div class="pack">.*?</div>|<section aria-labelledby="my-calls-h".*?</section>', re.S)
CARD_ON_PAGE = re.compile(r'value="((?:10|[2-9AKQJ])[CSHD])"|\b(ace|king|queen|jack|10|[2-9]) of '
                          r'(clubs|spades|hearts|diamonds)\b|\b(10|[2-9AKQJ])<span aria-hidden="true">([♣♠♥♦])</span>')
RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J"}
SUIT_WORDS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}


def cards_read(channel: str, text: str) -> set[str]:
    """The cards a read names anywhere: in its data or its words (not in hashes and
    signatures, whose base64 may spell one by chance); on a page, as a form's value, in
    words or as rank and suit symbol."""
    if channel != "live":
        return set(CARD_IN_TEXT.findall(HEX.sub("", SIGNATURE.sub("", text))))
    found = set()
    for value, rank, suit, face, symbol in CARD_ON_PAGE.findall(OFFERS.sub("", text)):
        found.add(value or (RANK_WORDS.get(rank, rank) + SUIT_WORDS[suit] if rank else face + SYMBOLS[symbol]))
    return found


# ---------------------------------------------------------------------------------------------
# The checks.

def shows_only_what_it_may(played: Played, k: int, reader, read: dict[str, str], asked=()) -> None:
    """No card outside what ``reader`` may see after step ``k`` in any byte it is served,
    and in the hand all it may see of it; nor does its game's ``visible`` name a card the
    contract hides."""
    t, state, step = played.table, played.after[k][0], played.steps[k]
    may, seat = played.may_show(reader, k), reader if isinstance(reader, int) else None
    beyond = t.game.sight.visible(state, seat) - played.in_sight(reader, k)
    assert not beyond, f"{t.setup}, after {step}: visible(hand, {seat}) names {sorted(beyond)}, hidden from it"
    for channel, text in read.items():
        said_back = cards_named(list(asked)) if channel == "asked" else set()  # a refusal says back what was sent
        leaked = (cards_read(channel, text) & t.pack) - may - played.aloud[k] - said_back
        assert not leaked, f"{t.setup}, after {step}: the {channel} shows {reader!r} {sorted(leaked)}"
    if not played.over(k):
        shown = cards_named(json.loads(read["hand"]))
        assert shown == cards_named(t.game.sight.view(state)) & may, (
            f"{t.setup}, after {step}: the hand shows {reader!r} {sorted(shown)}, not all it may see")


def sealed_exactly(played: Played, k: int, reader, read: dict[str, str], final: dict[int, dict]) -> None:
    """In the log and the audit trail read after step ``k`` an event is sealed exactly when
    its data names a card ``reader`` may not see then (``final``: each event as read once the
    hand is over, with the cards it names); a sealed event keeps its hashes and gives its
    Merkle leaf."""
    hidden = played.table.pack - played.may_show(reader, k)
    for shown in json.loads(read["events"])["events"]:
        whole = final[shown["seq"]]
        assert (shown["hash"], shown["prev_hash"]) == (whole["hash"], whole["prev_hash"])
        assert shown.get("sealed", False) == bool(whole["cards"] & hidden), (played.table.setup, k, reader, shown)
        if shown.get("sealed"):
            assert shown["data"] == {} and shown["leaf"]
    for shown in json.loads(read.get("audit", '{"events": []}'))["events"]:  # read in turn
        sealed = bool(final[shown["seq"]]["cards"] & hidden)
        assert shown.get("sealed", False) == sealed, (played.table.setup, k, reader, shown)


SLOW = ("audit", "live", "audit text")  # the reads that render the whole trail
SLOW_EVERY = 2  # steps


def slow_read(readers: list, k: int, reader) -> str | None:
    """The slow read ``reader`` makes after step ``k``: after every other step one reader
    makes one, in turn, so that each reader makes each of them in turn too."""
    if k % SLOW_EVERY:
        return None
    turn = k // SLOW_EVERY % (len(readers) * len(SLOW))
    return SLOW[turn // len(readers)] if readers[turn % len(readers)] == reader else None


def reads_now(played: Played, k: int, reader) -> bool:
    """Does ``reader`` read all it reads at every step after step ``k``: every reader with a
    card hidden from it, but that at a seats table the admin and the member not seated, who
    see alike by the contract, take turns; and everyone once the hand is over (a reader that
    sees every card reads only then, and in turn)."""
    if k == len(played.steps) - 1:
        return True
    if played.in_sight(reader, k) == played.table.pack:
        return False
    return not (played.entry == "seats" and reader == (ADMIN, OUTSIDER)[k % 2])


def played_over_http(client, played: Played, readers: list, reading: dict,
                     asked: dict[tuple, list[dict]]) -> tuple[World, dict[object, dict]]:
    """``played`` sent over HTTP in a group of its own, a step at a time; after step ``k``
    each reader ``r`` with ``reading[r] > k`` reads what it can (``reads_now``, ``slow_read``;
    the readers side by side, as phones do), sends the plays it ``asked`` then, and is shown
    only what it may see. The reads, by reader and step."""
    world = World(client, played.table, played.entry, played.deal["dealer"])
    reads = {r: {} for r in reading}
    with ThreadPoolExecutor(max_workers=SIDE_BY_SIDE) as side_by_side:
        for k, step in enumerate(played.steps[:max(reading.values())]):
            world.send(step)
            now = [(r, slow_read(readers, k, r)) for r, steps in reading.items() if k < steps]
            now = [(r, slow) for r, slow in now if slow or (r, k) in asked or reads_now(played, k, r)]
            for (r, _), read in zip(now, side_by_side.map(lambda reading: world.reads(*reading), now), strict=True):
                if asked.get((r, k)):
                    read["asked"] = world.ask(r, asked[r, k])
                reads[r][k] = read
                shows_only_what_it_may(played, k, r, read, asked.get((r, k), ()))
    return world, reads


def apart(a: dict[str, str], b: dict[str, str]) -> str | None:
    """Where two reads first differ: the channel and the text around it (None: nowhere)."""
    for channel in a:
        if a[channel] != b[channel]:
            at = len(commonprefix([a[channel], b[channel]]))
            return f"the {channel}: ...{a[channel][max(0, at - 150):at + 80]!r} / ...{b[channel][at:at + 80]!r}"
    return None


@pytest.fixture
def client(db_url, tmp_path):
    """The service on each backend, with no limit on the groups one address creates: every
    world is a group of its own."""
    from service.app import create_app
    app = create_app({"BITKA_DB": db_url, "BITKA_KEY": str(tmp_path / "bitka.key"), "TESTING": True,
                      "BITKA_GROUPS_PER_HOUR": 0})
    yield Client(app.test_client())
    app.extensions["bitka.store"].close()


@ON_SQLITE
@pytest.mark.parametrize("setup, entry", SETUPS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=True))
def test_no_reader_learns_a_card_hidden_from_it(client, setup, entry, rng):
    t, rng = Table(setup), random.Random(f"{setup} {entry} {rng.random()}")  # a stream of its own per table
    scorer = ADMIN if rng.random() < 0.5 else rng.randrange(t.seats)  # the admin at about every other table
    a = Played(t, entry, *plan(t, entry, scorer, rng))
    assert len(a.after) == len(a.steps) and a.over(len(a.steps) - 1)
    readers = [*range(t.seats), ADMIN, OUTSIDER]
    worlds = other_worlds(a, readers, rng)
    asked = questions(a, worlds, readers)
    world_a, reads_a = played_over_http(client, a, readers, {r: len(a.steps) for r in readers}, asked)
    final = {e["seq"]: {**e, "cards": cards_named(e["data"])}
             for e in json.loads(world_a.reads(ADMIN, None)["events"])["events"]}
    for r in readers:
        for k, read in reads_a[r].items():
            sealed_exactly(a, k, r, read, final)
    for b, _, misled in worlds:
        world_b, reads_b = played_over_http(client, b, readers, misled, asked)
        for r, steps in misled.items():
            for k in sorted(set(reads_b[r]) & set(range(steps))):
                told = apart(world_a.stable(reads_a[r][k]), world_b.stable(reads_b[r][k]))
                assert told is None, f"{t.setup}: {r!r} tells two worlds apart after {a.steps[k]}: {told}"


@pytest.mark.parametrize("entry", ["seats", "scorer"])
def test_a_scopa_capture_refused_tells_nobody_that_the_seat_holds_the_card(client, entry):
    """A capture is judged only for a card the seat holds: the admin of a seats table, or a
    member at a scorer's, learnt the hand of the seat to play card by card, sending each
    with a capture no card makes ("4S (4) captures nothing" for a card the seat holds, "QD is
    not in seat 1's hand" for one it does not). Now every card not face up gets one answer;
    the seat itself is still told the rule."""
    t = Table(Setup("scopa", {"players": 2}))
    a = Played(t, entry, *plan(t, entry, ADMIN, random.Random(3)))
    world = World(client, t, entry, a.deal["dealer"])
    for step in a.steps[:a.first_card]:
        world.send(step)
    k = a.first_card - 1
    state = a.after[k][0]
    asker = ADMIN if entry == "seats" else 1 - state.turn  # neither sees the hand of the seat to play

    def answer(reader, card: str) -> str:
        return json.loads(world.ask(reader, [question(a, k, card)]))[0]["problem"]["detail"]

    said = {answer(asker, card).replace(card, "X") for card in sorted(t.pack - set(state.table))}
    assert said == {f"seat {state.turn} may not play X here"}
    assert "captur" in answer(state.turn, state.held[state.turn][0])  # its own card: the rule, in full
