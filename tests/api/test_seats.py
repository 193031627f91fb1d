"""Trust at the table: hands dealt seat by seat and played a card at a time at tables where
each seat logs its own cards. After every request, every read a member can make (the hand,
the log, the audit trail, stats, the CSV, the table, the pages, the verify button's
evidence) is scanned for a card that member must not see; and each hand settles exactly as
the same deal logged whole."""
from __future__ import annotations

import random
import re

import pytest

from games.baska import game as baska

from games.bisca import game as bisca

from games.kop import game as kop

from games.scopa import game as scopa
from games.engine.base import Command
from service.web.cards import face
from tests.backends import ON_SQLITE
from tests.command import run
from tests.concurrency import failures_in_threads
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.api.test_pages import _sign_in_form

QUOTED_CARD = re.compile(r'"((?:10|[2-9AKQJ])[CSHD])"')


class Seats:
    """One table with entry "seats", its members each with their own API token and their own
    signed-in browser, and the test's own account of which cards each of them may see."""

    def __init__(self, t, app, game: str, rules: dict, players: int):
        self.t, self.base, self.game = t, t["base"], game
        self.members = t["members"][:players]
        self.api = [t["member"].as_(m["token"]) for m in self.members]
        self.pages = []
        for m in self.members:
            browser = type(t["member"])(app.test_client())
            answer = browser.http.post("/signin", data={**_sign_in_form(browser), "token": m["token"]})
            assert answer.status_code == 303
            self.pages.append(browser)
        self.table = t["admin"].post(f"{self.base}/tables", {
            "game": game, "rules": {**rules, "entry": "seats"}, "stake": "1.00",
            "seats": [m["id"] for m in self.members]}).json
        assert self.table["rules"]["entry"] == "seats", self.table
        self.hand = None
        self.logged: set[str] = set()  # every card bitka has been told of in this hand
        self.public: set[str] = set()  # played, or face up on the table
        self.own: list[set[str]] = [set() for _ in self.members]  # each seat's own cards, ever
        self.reads = 0

    def open(self, dealer: int = 0):
        r = self.api[dealer].post(f"{self.base}/tables/{self.table['id']}/hands", {"deal": {"dealer": dealer}})
        assert r.status_code == 201 and r.json["phase"] == "dealing", r.json
        self.hand = r.json["id"]
        self.scan()

    def post(self, seat: int, what: str, body: dict, public: bool = False):
        r = self.api[seat].post(f"{self.base}/hands/{self.hand}/{what}", body)
        assert r.status_code == 201, (what, body, r.json)
        cards = set(body.get("cards") or []) | set(body.get("table") or []) | {body[k] for k in ("card", "trump")
                                                                               if body.get(k)}
        self.logged |= cards
        if public or what == "plays":
            self.public |= cards
        else:
            self.own[seat] |= cards
        self.scan()
        return r.json

    def forbidden(self, seat: int) -> set[str]:
        return self.logged - self.public - self.own[seat]

    def scan(self):
        """Every read of every member, looked through for a card it must not see."""
        hand = self.hand
        for seat, api in enumerate(self.api):
            bad = self.forbidden(seat)
            reads = {
                "hand": api.get(f"{self.base}/hands/{hand}"),
                "events": api.get(f"{self.base}/events?limit=1000"),
                "audit": api.get(f"{self.base}/hands/{hand}/audit"),
                "audit text": api.get(f"{self.base}/hands/{hand}/audit", headers={"Accept": "text/plain"}),
                "stats": api.get(f"{self.base}/stats"),
                "csv": api.get(f"{self.base}/ledger.csv"),
                "table": api.get(f"{self.base}/tables/{self.table['id']}"),
                "group": api.get(self.base),
            }
            browser = self.pages[seat].http
            pages = {"hand page": browser.get(f"/g/{self.t['group']}/hands/{hand}"),
                     "evidence": browser.get(f"/g/{self.t['group']}/hands/{hand}/evidence.json"),
                     "group page": browser.get(f"/g/{self.t['group']}")}
            for name, answer in {**reads, **pages}.items():
                assert answer.status_code == 200, (name, answer.status_code)
                text = answer.get_data(as_text=True)
                if name.endswith("page"):  # the cards a phone may pick up: every card it cannot see, all alike
                    text = re.sub(r'<form[^>]*class="picker".*?</form>', "", text, flags=re.S)
                self.reads += 1
                shown = set(QUOTED_CARD.findall(text))
                if name.endswith("page") or name == "audit text":
                    shown |= {c for c in bad if face(c)["words"] in text or re.search(rf"[\s=,>]{c}[\s,<&\"]", text)}
                assert not shown & bad, f"seat {seat} saw {sorted(shown & bad)} in the {name}"
            if bad:  # what is sealed says so, and keeps its hashes
                sealed = [e for e in reads["events"].json["events"] if e.get("sealed")]
                assert sealed and all(e["data"] == {} and len(e["leaf"]) == 64 and e["hash"] for e in sealed)

    def done(self):
        """Once the hand is over nothing is sealed from anyone."""
        for api in self.api:
            events = api.get(f"{self.base}/events?limit=1000").json["events"]
            assert not any("sealed" in e for e in events)
            state = api.get(f"{self.base}/hands/{self.hand}").json
            assert state["phase"] == "done" and None not in [c for h in state["deal"] for c in h]
        return self.t["admin"].get(f"{self.base}/hands/{self.hand}").json["settlement"]


def whole(t, game: str, rules: dict, players: int, body: dict) -> dict:
    """The same deal logged whole, by one scorer, at a table of its own."""
    table = t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"][:players]]}).json
    r = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", body)
    assert r.status_code == 201 and r.json["phase"] == "done", r.json
    return r.json["settlement"]


def same_money(a: dict, b: dict):
    keys = ("outcome", "winner", "multiplier", "units", "payouts", "game_points", "explanation")
    assert {k: a.get(k) for k in keys} == {k: b.get(k) for k in keys}


def _seat_of(hands, card):
    return next(s for s, h in enumerate(hands) if card in h)


@ON_SQLITE
@pytest.mark.parametrize("module", [kop, baska])
def test_a_kop_or_baska_hand_seat_by_seat_shows_nobody_anothers_cards_and_settles_as_logged_whole(
        kop_table, app, module):
    t, name = kop_table, module.GAME.name
    table = Seats(t, app, name, {}, 4)
    table.open()
    for seat in range(4):
        table.post(seat, "cards", {"seat": seat, "cards": KOP_HANDS[seat]})
    for trick in KOP_TRICKS:
        for card in trick:
            table.post(_seat_of(KOP_HANDS, card), "plays", {"seat": _seat_of(KOP_HANDS, card), "card": card})
    settlement = table.done()
    same_money(settlement, whole(t, name, {}, 4, {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                                  "tricks": [{"cards": tr} for tr in KOP_TRICKS]}))
    assert table.reads > 500
    replayed = run("--db", app.config["BITKA_DB"], "replay")
    assert replayed.exit_code == 0, replayed.output


def _shuffled(pack, seed):
    deck = sorted(pack)
    random.Random(seed).shuffle(deck)
    return deck


@ON_SQLITE
def test_a_four_player_scopa_hand_with_its_stock_seen_round_by_round(kop_table, app):
    t, rules = kop_table, scopa.parse_rules({"players": 4})
    deck = next(d for d in (_shuffled(scopa.PACK, s) for s in range(50))
                if sum(c[:-1] == "K" for c in d[12:16]) < 3)
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6], deck[6:9], deck[9:12]], "table": deck[12:16],
            "stock": deck[16:]}
    state = scopa.new_hand(rules, scopa.deal_event(rules, deal).data)
    table = Seats(t, app, "scopa", {"players": 4}, 4)
    table.open()
    table.post(0, "cards", {"table": deal["table"]}, public=True)  # the dealer turns them up
    for seat in range(4):
        table.post(seat, "cards", {"seat": seat, "cards": deal["hands"][seat]})
    plays = []
    while not scopa.is_over(state):
        seat = state.turn
        move = dict(scopa.GAME.moves.legal_plays(state)[-1])
        table.public |= set(move.get("capture") or [])
        table.post(seat, "plays", {"seat": seat, **move})
        plays.append(move)
        for event in scopa.decide(state, Command("play", move)):
            state = scopa.evolve(state, event)
            for s, cards in enumerate(event.data.get("dealt") or []):  # the next round, seen seat by seat
                table.post(s, "cards", {"seat": s, "cards": list(cards)})
    settlement = table.done()
    assert len(plays) == 36
    same_money(settlement, whole(t, "scopa", {"players": 4}, 4, {"deal": deal, "plays": plays}))


@ON_SQLITE
def test_a_capixaba_hand_with_each_draw_logged_by_its_drawer(kop_table, app):
    t, rules = kop_table, bisca.parse_rules({"variant": "capixaba"})
    deck = next(d for d in (_shuffled(bisca.PACKS["full"], s) for s in range(50)) if d[-1][:-1] not in ("A", "7"))
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6], deck[6:9], deck[9:12]], "trump": deck[-1],
            "stock": deck[12:-1]}
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    table = Seats(t, app, "bisca", {"variant": "capixaba"}, 4)
    table.open()
    for seat in range(4):
        table.post(seat, "cards", {"seat": seat, "cards": deal["hands"][seat]})
    table.post(0, "cards", {"trump": deal["trump"]}, public=True)
    tricks = []
    while not bisca.is_over(state):
        leader, cards = state.leader, []
        for i in range(4):
            cards.append(bisca.legal_cards(state, (leader + i) % 4, tuple(cards))[0])
        for i, card in enumerate(cards):
            table.post((leader + i) % 4, "plays", {"seat": (leader + i) % 4, "card": card})
        [event] = bisca.decide(state, Command("trick", {"cards": cards}))
        state = bisca.evolve(state, event)
        tricks.append(cards)
        for seat, card in event.data["draws"]:  # the winner draws first; the last takes the trump card
            table.post(seat, "cards", {"seat": seat, "cards": [card]})
    settlement = table.done()
    assert len(tricks) == 10
    same_money(settlement, whole(t, "bisca", {"variant": "capixaba"}, 4,
                                 {"deal": deal, "tricks": [{"cards": c} for c in tricks]}))


def test_a_member_logs_only_its_own_seat_and_a_card_seen_twice_names_nobody(kop_table, app):
    t = kop_table
    table = Seats(t, app, "kop", {}, 4)
    table.open()
    hand = f"{t['base']}/hands/{table.hand}"
    other = table.api[1].post(f"{hand}/cards", {"seat": 2, "cards": KOP_HANDS[2]})
    assert other.status_code == 403 and other.mimetype == "application/problem+json"
    table.post(1, "cards", {"seat": 1, "cards": KOP_HANDS[1]})
    twice = table.api[2].post(f"{hand}/cards", {"seat": 2, "cards": ["AH", *KOP_HANDS[2][1:]]})
    assert twice.status_code == 422 and "already seen" in twice.json["detail"]
    assert "seat 1" not in twice.json["detail"] and "Bob" not in twice.json["detail"]
    early = table.api[1].post(f"{hand}/plays", {"seat": 1, "card": "AH"})
    assert early.status_code == 422 and "not complete" in early.json["detail"]
    for seat in (0, 2, 3):
        table.post(seat, "cards", {"seat": seat, "cards": KOP_HANDS[seat]})
    assert table.api[0].post(f"{hand}/plays", {"seat": 1, "card": "AH"}).status_code == 403
    assert table.api[1].post(f"{hand}/tricks", {"cards": KOP_TRICKS[0]}).status_code == 403
    assert table.api[1].post(f"{hand}/bids", {"seat": 2, "call": "zolo"}).status_code == 403
    whole_deal = table.api[0].post(f"{t['base']}/tables/{table.table['id']}/hands",
                                   {"deal": {"dealer": 1, "hands": KOP_HANDS}})
    assert whole_deal.status_code in (403, 422)
    admin = t["admin"].get(hand).json
    assert admin["deal"] == [[None] * 4] * 4  # the admin may be playing: it sees no seat's cards here
    assert t["admin"].post(f"{hand}/plays", {"seat": 1, "card": "AH"}).status_code == 201  # but may log anything
    after = t["admin"].get(hand).json
    assert after["deal"][1] == ["AH", None, None, None] and after["current"] == [{"seat": 1, "card": "AH"}]
    assert after["deal"][0] == [None] * 4 and after["held"][1] == [None] * 3


def test_a_scorers_whole_deal_is_sealed_from_the_others_until_the_hand_ends(kop_table):
    t = kop_table
    scorer, bob = t["member"], t["member"].as_(t["members"][1]["token"])
    hand = scorer.post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    assert hand["deal"] == KOP_HANDS  # the scorer logged them all
    seen = bob.get(f"{t['base']}/hands/{hand['id']}").json
    assert seen["deal"][1] == KOP_HANDS[1] and seen["deal"][0] == [None] * 4 and seen["held"][2] == [None] * 4
    [deal] = [e for e in bob.get(f"{t['base']}/events").json["events"] if e["type"] == "deal"]
    assert deal["sealed"] is True and deal["data"] == {} and len(deal["leaf"]) == 64
    proof = bob.get(f"{t['base']}/proofs/inclusion?seq={deal['seq']}&size={deal['seq']}").json
    assert proof["leaf"] == deal["leaf"]
    [unsealed] = [e for e in scorer.get(f"{t['base']}/events").json["events"] if e["type"] == "deal"]
    assert "sealed" not in unsealed and len(unsealed["data"]["salt"]) == 32  # its hash cannot be tried card by card
    for cards in KOP_TRICKS:
        scorer.post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": cards})
    [opened] = [e for e in bob.get(f"{t['base']}/events").json["events"] if e["type"] == "deal"]
    assert "sealed" not in opened and opened["data"]["hands"] == KOP_HANDS


def test_who_plays_with_whom_stays_hidden_while_the_cards_that_tell_it_are(kop_table):
    """A normal game's sides are the holders of QC and QS: a member who does not hold both
    learns them as the queens fall, not from bitka. A refusal names no card it may not see."""
    t = kop_table
    scorer, bob = t["member"], t["member"].as_(t["members"][1]["token"])  # Bob, seat 1, holds QC
    hand = scorer.post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    assert hand["contract"] == "normal" and hand["sides"]  # the scorer typed every card
    seen = bob.get(f"{t['base']}/hands/{hand['id']}").json
    assert seen["contract"] is None and seen["declarer"] is None and seen["sides"] == []
    refused = bob.post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": ["AH", "10C", "QS", "JD"]})
    assert refused.status_code == 422 and refused.json["detail"] == \
        "seat 2 may not play 10C here", refused.json  # not why: QH QD JC are not Bob's to see
    told = scorer.post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": ["AH", "10C", "QS", "JD"]})
    assert told.json["detail"] == "seat 2 holds QH QD JC and must follow trumps"
    for cards in KOP_TRICKS[:1]:  # QS falls in the first trick: the sides are known to all
        scorer.post(f"{t['base']}/hands/{hand['id']}/tricks", {"cards": cards})
    seen = bob.get(f"{t['base']}/hands/{hand['id']}").json
    assert seen["contract"] == "normal" and [s["seats"] for s in seen["sides"]] == [[1, 3], [0, 2]]


def test_a_refusal_says_the_same_whether_another_seat_lacks_the_card_or_holds_it(kop_table):
    """Probing with cards one may not see gets one sentence whatever the truth: who holds a
    card, whether a seat holds a black queen, whether a claim fails, are not told."""
    t = kop_table
    scorer, bob = t["member"], t["member"].as_(t["members"][1]["token"])
    hand = scorer.post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    path = f"{t['base']}/hands/{hand['id']}"
    said = set()
    for card in ("AC", "10C", "QS", "JD", "AH"):  # AC, 10C: seat 3's and seat 2's; QS: seat 3's; JD: seat 0's
        r = bob.post(f"{path}/tricks", {"cards": ["AH", card, "QS", "JD"]})
        said.add(r.json["detail"].replace(card, "X"))
    assert said == {"seat 2 may not play X here", "X is played twice in this trick"}
    wesele = [bob.post(f"{path}/bids", {"seat": s, "call": "wesele"}).json["detail"] for s in (0, 2, 3)]
    assert wesele == [f"seat {s} may not call wesele with its cards" for s in (0, 2, 3)]
    own = bob.post(f"{path}/bids", {"seat": 1, "call": "wesele"}).json["detail"]
    assert "both black queens may call wesele; seat 1 lacks" in own  # of his own seat he is told why
    before = scorer.get(t["base"]).json["version"]
    bob.post(f"{path}/plays", {"seat": 1, "card": "AH"})
    assert bob.post(f"{path}/bids", {"seat": 2, "call": "zolo"}).json["detail"] == \
        "the auction closed when the first card was played"  # a call after the lead would wipe it
    assert scorer.get(t["base"]).json["version"] == before + 1


def test_a_seat_probing_for_seen_cards_must_send_a_hand_it_could_hold(kop_table, app):
    t = kop_table
    table = Seats(t, app, "kop", {}, 4)
    table.open()
    table.post(1, "cards", {"seat": 1, "cards": KOP_HANDS[1]})
    hand = f"{t['base']}/hands/{table.hand}"
    probe = table.api[2].post(f"{hand}/cards", {"seat": 2, "cards": ["AH", "8C", "8C", "8C"]})
    assert probe.status_code == 422 and probe.json["detail"] == "8C is not in the kop pack"  # asks nothing of AH


@pytest.mark.parametrize("game", ["kop", "bisca"])
def test_two_phones_playing_the_same_card_at_once_log_it_once(kop_table, game):
    """Both threads send seat 1's card; one is logged, the other is told it was played."""
    t = kop_table
    if game == "kop":
        table, cards, body = t["table"], KOP_HANDS, {"deal": {"dealer": 0, "hands": KOP_HANDS}}
        card = "AH"
    else:
        deck = _shuffled(bisca.PACKS["full"], 3)
        table = t["admin"].post(f"{t['base']}/tables", {"game": "bisca", "rules": {}, "stake": "1.00",
                                                         "seats": [m["id"] for m in t["members"][:2]]}).json["id"]
        body = {"deal": {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "trump": deck[-1], "stock": deck[6:-1]}}
        cards, card = body["deal"]["hands"], body["deal"]["hands"][1][0]
    hand = t["member"].post(f"{t['base']}/tables/{table}/hands", body).json["id"]
    before = t["member"].get(t["base"]).json["version"]
    answers = []
    errors = failures_in_threads(lambda: answers.append(t["member"].post(
        f"{t['base']}/hands/{hand}/plays", {"seat": _seat_of(cards, card), "card": card})), 2)
    assert errors == []
    codes = sorted(a.status_code for a in answers)
    assert codes[0] == 201 and codes[1] in (409, 422), [a.json for a in answers]
    late = next(a for a in answers if a.status_code != 201)
    assert "already played" in late.json["detail"] or late.status_code == 409
    assert t["member"].get(t["base"]).json["version"] == before + 1
    plays = [e for e in t["member"].get(f"{t['base']}/events").json["events"] if e["type"] == "play"]
    assert [p["data"]["card"] for p in plays] == [card]


def test_the_openapi_document_says_how_each_game_s_cards_arrive(client):
    doc = client.get("/v1/openapi.json").json
    cards = doc["paths"]["/v1/groups/{group}/hands/{hand}/cards"]["post"]
    assert {"201", "403", "422"} <= set(cards["responses"])
    assert "Scopa:" in cards["description"] and "Bisca:" in cards["description"]
    assert "seat" in doc["paths"]["/v1/groups/{group}/hands/{hand}/plays"]["post"]["description"]


def _capixaba_deal(seed):
    deck = next(d for d in (_shuffled(bisca.PACKS["full"], s) for s in range(seed, seed + 50))
                if d[-1][:-1] not in ("A", "7") and "2" + d[-1][-1] in d[0:3])
    return {"dealer": 0, "hands": [deck[0:3], deck[3:6], deck[6:9], deck[9:12]], "trump": deck[-1],
            "stock": deck[12:-1]}


def test_the_cards_the_service_deals_are_not_the_logging_members_to_see(kop_table):
    """Whoever logs a Bisca trick's last card does not thereby see what each seat drew."""
    t = kop_table
    deal = _capixaba_deal(0)
    table = t["admin"].post(f"{t['base']}/tables", {"game": "bisca", "rules": {"variant": "capixaba"},
                                                     "stake": "1.00", "seats": [m["id"] for m in t["members"]]}).json
    hand = t["admin"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": deal}).json["id"]
    ala = t["member"]  # seat 0
    rules = bisca.parse_rules({"variant": "capixaba"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    cards, leader = [], state.leader
    for i in range(4):
        cards.append(bisca.legal_cards(state, (leader + i) % 4, tuple(cards))[0])
    assert ala.post(f"{t['base']}/hands/{hand}/tricks", {"cards": cards}).status_code == 201
    seen = ala.get(f"{t['base']}/hands/{hand}").json
    [trick] = bisca.decide(state, Command("trick", {"cards": cards}))
    drawn = {card for seat, card in trick.data["draws"] if seat != 0}  # what the other three drew
    assert not drawn & {c for h in seen["held"] for c in h if c}  # the other seats' draws stay sealed
    assert not drawn & set(QUOTED_CARD.findall(ala.get(f"{t['base']}/events").get_data(as_text=True)))


def test_a_capixaba_swap_seat_by_seat_keeps_the_hand_going_and_comes_before_the_first_card(kop_table, app):
    t = kop_table
    deal = _capixaba_deal(10)
    table = Seats(t, app, "bisca", {"variant": "capixaba"}, 4)
    table.open()
    for seat in range(4):
        table.post(seat, "cards", {"seat": seat, "cards": deal["hands"][seat]})
    path = f"{t['base']}/hands/{table.hand}"
    assert table.api[0].post(f"{path}/cards", {}).status_code == 422  # not a 500
    assert table.api[0].post(f"{path}/cards", {"cards": ["AC"]}).status_code == 422
    table.post(0, "cards", {"trump": deal["trump"]}, public=True)
    two = "2" + deal["trump"][-1]
    holder = next(s for s, h in enumerate(deal["hands"]) if two in h)
    swapped = table.api[holder].post(f"{path}/bids", {"seat": holder, "call": "swap-2"})
    assert swapped.status_code == 201 and swapped.json["stock_left"] == 28 and swapped.json["trump"] == two
    table.public.add(two)  # the 2 is face up now, and the trump card in the holder's hand
    table.own[holder].add(deal["trump"])
    rules = bisca.parse_rules({"variant": "capixaba"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    state = bisca.evolve(state, bisca.decide(state, Command("bid", {"seat": holder, "call": "swap-2"}))[0])
    leader = state.leader
    first = bisca.legal_cards(state, leader)[0]
    table.post(leader, "plays", {"seat": leader, "card": first})
    late = table.api[holder].post(f"{path}/bids", {"seat": holder, "call": "swap-2"})
    assert late.status_code == 422
    for i in range(1, 4):
        seat = (leader + i) % 4
        table.post(seat, "plays", {"seat": seat, "card": bisca.legal_cards(state, seat, (first,))[0]})
    assert t["admin"].get(path).json["awaiting"]  # the draws are owed: the hand goes on


def test_a_page_shows_nobody_which_cards_a_seat_holds_and_no_cache_keeps_it(kop_table, client):
    from tests.api.test_pages import _signed_in
    t = kop_table
    hand = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS}}).json
    _signed_in(client, t["members"][2]["token"])
    pages = [client.http.get(f"/g/{t['group']}/hands/{hand['id']}/play?cards={card}").get_data(as_text=True)
             for card in ("AH", "AC")]  # seat 1 holds AH, not AC
    assert "cannot be seat" not in pages[0] + pages[1] and pages[0].count("card sealed") == pages[1].count(
        "card sealed")
    answer = client.http.get(f"/g/{t['group']}/hands/{hand['id']}")
    assert answer.headers["Cache-Control"] == "private, no-store" and "Cookie" in answer.headers["Vary"]


def test_playing_a_card_someone_else_holds_says_not_whose_it_is(kop_table, app):
    """At a seats table, on its own turn, a seat that sends a card it does not hold is told
    just that: not who holds it."""
    t = kop_table
    table = Seats(t, app, "kop", {}, 4)
    table.open()
    for seat in range(4):
        table.post(seat, "cards", {"seat": seat, "cards": KOP_HANDS[seat]})
    path = f"{t['base']}/hands/{table.hand}/plays"
    said = {table.api[1].post(path, {"seat": 1, "card": card}).json["detail"].replace(card, "X")
            for card in ("AC", "QH", "JD")}  # seat 3's, seat 2's, seat 0's
    assert said == {"seat 1 may not play X here"}
