"""What a reader learns of cards hidden from it, tested as an attacker would: two worlds that
look the same to the reader (its own cards, every card played) but hide different cards in
the other seats. Every read it can make (the hand, the log, the audit trail, the live part
of the page) must be the same in both, byte for byte once the ids are set aside; and every
card of the pack sent into each refusal-prone form must get the same answer, whatever the
others hold."""
from __future__ import annotations

import json
import re
import time

from games.bisca import game as bisca
from service import steady
from tests.conftest import Client

# Seat 0 holds the same four cards in both worlds; seats 1-3 hold the rest differently. The
# first trick (AH QH QS JD) is legal in both.
SEAT_0 = ["10D", "JH", "JD", "AS"]
WORLDS = {
    "a": [SEAT_0, ["AH", "10H", "QC", "AD"], ["QH", "QD", "JC", "10C"], ["QS", "JS", "AC", "10S"]],
    "b": [SEAT_0, ["AH", "QD", "JC", "10S"], ["QH", "10H", "QC", "AC"], ["QS", "JS", "AD", "10C"]],
}
FIRST_TRICK = [(1, "AH"), (2, "QH"), (3, "QS"), (0, "JD")]
KOP_PACK = [r + s for r in ("A", "10", "Q", "J") for s in "CSHD"]
UNSTABLE = {"hash", "prev_hash", "leaf", "path", "recorded_at", "salt", "dealt_at", "timestamp", "signature", "root"}
ID = re.compile(r"\b[gmht]_[0-9a-f]{12}\b")
HEX = re.compile(r"\b[0-9a-f]{16,64}\b")  # hashes, in the audit trail's text
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")


class World:
    """A group with four members at a Kop table where each seat logs its own cards."""

    def __init__(self, client, name: str):
        g = client.post("/v1/groups", {"name": name, "currency": "PLN"}).json
        self.base = f"/v1/groups/{g['id']}"
        self.admin = client.as_(g["admin_token"])
        members = [self.admin.post(f"{self.base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
        self.seat = [client.as_(m["token"]) for m in members]
        self.ids = [g["id"], *(m["id"] for m in members)]
        self.table = self.admin.post(f"{self.base}/tables", {
            "game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
            "seats": [m["id"] for m in members]}).json["id"]
        hand = self.seat[0].post(f"{self.base}/tables/{self.table}/hands", {"deal": {"dealer": 0}})
        assert hand.status_code == 201, hand.json
        self.hand = hand.json["id"]
        self.ids += [self.table, self.hand]

    def send(self, who: Client, what: str, body: dict):
        return who.post(f"{self.base}/hands/{self.hand}/{what}", body)

    def reads(self, who: Client) -> str:
        """Everything ``who`` can read of the hand, with what differs between any two groups
        (ids, hashes, times) set aside."""
        shown = {
            "hand": who.get(f"{self.base}/hands/{self.hand}").json,
            "events": who.get(f"{self.base}/events?limit=1000").json["events"],
            "audit": who.get(f"{self.base}/hands/{self.hand}/audit").json,
            "audit text": who.get(f"{self.base}/hands/{self.hand}/audit",
                                  headers={"Accept": "text/plain"}).get_data(as_text=True),
            "etag": who.get(f"{self.base}/hands/{self.hand}").headers.get("ETag"),
        }
        text = json.dumps(stable(shown), sort_keys=True)
        for i, known in enumerate(self.ids):
            text = text.replace(known, f"<id{i}>")
        return TIME.sub("<time>", HEX.sub("<hex>", ID.sub("<id>", text)))


def stable(value):
    """``value`` without what differs between any two groups (hashes, times, salts)."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in UNSTABLE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def _both(client):
    return {name: World(client, "Thursday Kop") for name in WORLDS}


def _log_cards(worlds, seats):
    for name, w in worlds.items():
        for seat in seats:
            r = w.send(w.seat[seat], "cards", {"seat": seat, "cards": WORLDS[name][seat]})
            assert r.status_code == 201, r.json


def test_a_seat_and_a_seated_admin_read_the_same_in_two_worlds_that_look_the_same_to_them(client):
    worlds = _both(client)
    a, b = worlds["a"], worlds["b"]

    def same_to_readers():
        assert a.reads(a.seat[0]) == b.reads(b.seat[0])
        assert a.reads(a.admin) == b.reads(b.admin)  # the admin may be playing: it learns no seat's cards

    _log_cards(worlds, (1, 2, 3))
    same_to_readers()
    _log_cards(worlds, (0,))
    same_to_readers()
    for seat, card in FIRST_TRICK:
        for w in worlds.values():
            assert w.send(w.seat[seat], "plays", {"seat": seat, "card": card}).status_code == 201
        same_to_readers()
    shown = a.seat[0].get(f"{a.base}/hands/{a.hand}").json
    assert shown["deal"][0] == SEAT_0 and shown["deal"][1] == ["AH", None, None, None]
    assert shown["held"][2] == [None] * 3 and shown["sides"] == []


def test_a_played_card_stands_first_in_its_seats_row_whatever_its_place_in_the_hand(client):
    """Seat 1's hand is kept in suit order; it plays its third card. The row another seat sees
    must be [QC, ?, ?, ?], not [?, ?, QC, ?]: where the played card stands would tell the
    reader what the hidden ones rank against it."""
    w = World(client, "Order")
    hands = [["QD", "JH", "JD", "AS"], ["AH", "10H", "QC", "AD"], ["QH", "10D", "JC", "10C"],
             ["QS", "JS", "AC", "10S"]]
    for seat, cards in enumerate(hands):
        assert w.send(w.seat[seat], "cards", {"seat": seat, "cards": cards}).status_code == 201
    assert w.send(w.seat[1], "plays", {"seat": 1, "card": "QC"}).status_code == 201
    for reader in (w.seat[0], w.admin, w.seat[2]):
        shown = reader.get(f"{w.base}/hands/{w.hand}").json
        assert shown["deal"][1] == ["QC", None, None, None], shown["deal"]
        assert shown["current"] == [{"seat": 1, "card": "QC"}]
    assert w.seat[1].get(f"{w.base}/hands/{w.hand}").json["deal"][1] == hands[1]  # its own, as logged


def test_every_card_of_the_pack_sent_into_a_refusal_gets_the_same_answer_whatever_others_hold(client):
    """Seat 0 has logged nothing; the others have. Each card X of the pack, sent twice among
    seat 0's cards, is refused for being named twice, in the same words for every X, in both
    worlds: the refusal once named X for cards nobody logged and "?" for the others'."""
    worlds = _both(client)
    _log_cards(worlds, (1, 2, 3))
    answers = {}
    for name, w in worlds.items():
        version = w.seat[0].get(w.base).json["version"]
        said = set()
        for card in KOP_PACK:
            r = w.send(w.seat[0], "cards", {"seat": 0, "cards": [card, card, "JD", "AS"]})
            assert r.status_code == 422
            said.add((r.json["detail"].replace(card, "X"), r.headers.get("Content-Length") is None))
        answers[name] = said
        assert w.seat[0].get(w.base).json["version"] == version  # nothing appended
    assert answers["a"] == answers["b"] and len(answers["a"]) == 1, answers


def test_a_card_already_seen_is_refused_naming_the_senders_own_card_only_when_its_hand_was_staked(client):
    """A card held by another seat is refused only when the request was otherwise right (it
    would have logged the sender's hand), and the refusal names the card the sender sent."""
    w = World(client, "Staked")
    _log_cards({"a": w}, (1,))
    r = w.send(w.seat[0], "cards", {"seat": 0, "cards": ["QC", "JH", "JD", "AS"]})
    assert r.status_code == 422 and r.json["detail"].startswith("QC was already seen")
    assert "?" not in r.json["detail"] and "seat 1" not in r.json["detail"] and "Bob" not in r.json["detail"]
    short = w.send(w.seat[0], "cards", {"seat": 0, "cards": ["QC", "JH", "JD"]})
    assert short.status_code == 422 and "3 cards" in short.json["detail"]  # the count is said first


def _scorer_bisca(client):
    g = client.post("/v1/groups", {"name": "Bisca", "currency": "EUR"}).json
    base = f"/v1/groups/{g['id']}"
    admin = client.as_(g["admin_token"])
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("João", "Rita")]
    table = admin.post(f"{base}/tables", {"game": "bisca", "rules": {"variant": "nove"}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json["id"]
    return base, admin, [client.as_(m["token"]) for m in members], table


def test_a_bisca_card_played_to_the_trick_is_seen_by_the_player_who_must_answer_it(client):
    base, admin, seats, table = _scorer_bisca(client)
    cards = sorted(bisca.PACKS[bisca.VARIANTS["nove"].pack])
    n = bisca.VARIANTS["nove"].hand
    deal = {"dealer": 0, "hands": [cards[:n], cards[n:2 * n]], "trump": cards[-1], "stock": cards[2 * n:-1]}
    hand = admin.post(f"{base}/tables/{table}/hands", {"deal": deal}).json  # the scorer: the admin
    led = next(c for c in deal["hands"][1])  # seat 1 leads (seat 0 deals)
    assert admin.post(f"{base}/hands/{hand['id']}/plays", {"seat": 1, "card": led}).status_code == 201
    seen = seats[0].get(f"{base}/hands/{hand['id']}").json
    assert seen["current"] == [{"seat": 1, "card": led}]
    assert seen["deal"][1][0] == led and seen["held"][1] == [None] * (n - 1)
    assert seen["deal"][0] == deal["hands"][0] and seen["trump"] == deal["trump"]


# Seat 1 holds both black queens and calls wesele where the rules choose the partner's jack:
# the highest jack it lacks, JH in world a (it holds JC and JS), JS in world b. Seats 0 and 2
# hold the same cards in both worlds.
WESELE_WORLDS = {
    "a": [["10D", "JH", "JD", "AS"], ["QC", "QS", "JC", "JS"], ["QH", "QD", "AH", "10C"], ["10H", "AC", "AD", "10S"]],
    "b": [["10D", "JH", "JD", "AS"], ["QC", "QS", "JC", "10H"], ["QH", "QD", "AH", "10C"], ["JS", "AC", "AD", "10S"]],
}


def test_a_wesele_whose_jack_the_rules_choose_tells_nobody_what_its_caller_holds(client):
    """Which jack the rules choose tells what the caller holds (JH: both higher jacks), so the
    call goes into the log as the table hears it, "wesele", and who plays with whom stays
    hidden from every reader who cannot see those jacks, the caller and its partner included."""
    worlds = {name: World(client, "Wesele") for name in WESELE_WORLDS}
    for name, w in worlds.items():
        for seat, cards in enumerate(WESELE_WORLDS[name]):
            assert w.send(w.seat[seat], "cards", {"seat": seat, "cards": cards}).status_code == 201
        called = w.send(w.seat[1], "bids", {"seat": 1, "call": "wesele"})
        assert called.status_code == 201, called.json
        assert called.json["sides"] == []  # not even the caller knows who holds that jack
    a, b = worlds["a"], worlds["b"]
    for reader in (0, 2):
        assert a.reads(a.seat[reader]) == b.reads(b.seat[reader]), reader
    assert a.reads(a.admin) == b.reads(b.admin)
    shown = a.seat[0].get(f"{a.base}/hands/{a.hand}").json
    assert shown["calls"] == [{"seat": 1, "call": "wesele"}] and shown["sides"] == []
    assert shown["contract"] == "wesele" and shown["declarer"] == 1  # the call itself is said aloud


def test_a_claim_is_answered_no_sooner_than_the_longest_search_whatever_the_hands(client, monkeypatch):
    """Judging a throw-in searches the hands the claimant cannot see: refused from a single
    way in a millisecond, after the whole search in up to half a second (red team: 0.8 ms
    against 19-110 ms, by the hidden cards). Every claim is answered after the same floor."""
    monkeypatch.setattr(steady, "CLAIM", 0.25)
    worlds = _both(client)
    _log_cards(worlds, (0, 1, 2, 3))
    for w in worlds.values():
        started = time.monotonic()
        refused = w.send(w.seat[0], "claims", {"seat": 0})
        assert refused.status_code == 422 and time.monotonic() - started >= 0.25
    assert len({w.send(w.seat[0], "claims", {"seat": 0}).json["detail"] for w in worlds.values()}) == 1
