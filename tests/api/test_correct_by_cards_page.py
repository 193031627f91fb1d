"""The admin's correction page of a hand whose cards were logged starts from its cards as
logged: each seat's cards (and the game's face-up table, stock or trump card), its calls
and its tricks or plays in order, each in a field to edit. Fixing what was typed wrong and
sending it corrects the hand by its cards, as the API's ``cards`` correction does (the
balances move as the cards now give); a refusal of the rules is said in words beside its
field, the fields keep what was typed and nothing is appended. A hand logged by its result
keeps the result's form, and only the admin reaches the page."""
from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from games.bisca import game as bisca

from games.scopa import game as scopa
from games.engine.base import Command
from tests.api.test_pages import _signed_in
from tests.conftest import KOP_HANDS, KOP_TRICKS, Client, without_confirmations
from tests.money import minor


class _Form(HTMLParser):
    """The correction form's fields as a browser would send them (the submit button apart)."""

    def __init__(self):
        super().__init__()
        self.fields, self._select = {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") and (a.get("type") != "checkbox" or "checked" in a):
            self.fields[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and (self._select not in self.fields or "selected" in a):
            self.fields[self._select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def _form(page: str) -> dict:
    parser = _Form()
    parser.feed(page)
    return parser.fields


def _text(answer) -> str:
    return answer.get_data(as_text=True)


def _version(t) -> int:
    return t["admin"].get(t["base"]).json["version"]


def _balances(t) -> list[int]:
    shown = {b["member"]: minor(b["balance"]) for b in t["admin"].get(f"{t['base']}/balances").json["balances"]}
    return [shown[m["id"]] for m in t["members"]]


def _corrected(client, path: str, form: dict):
    """Shown with what it would change, then logged: the page's two steps."""
    shown = client.http.post(path, data={**form, "confirm": "no"})
    assert shown.status_code == 200 and "It would change this" in _text(shown), _text(shown)
    previewed = _form(_text(shown))["previewed"]
    return client.http.post(path, data={**form, "confirm": "yes", "previewed": previewed})


@pytest.fixture
def carded(client, kop_table):
    """A Kop hand logged by its deal and four tricks (Bob and Dan, stare, take every trick),
    and the admin signed in on this browser at its correction page."""
    without_confirmations(kop_table)
    hand = kop_table["admin"].post(f"{kop_table['base']}/tables/{kop_table['table']}/hands",
                                   {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                    "tricks": [{"cards": t} for t in KOP_TRICKS]}).json
    _signed_in(client, kop_table["admin"].token)
    return {**kop_table, "hand": hand["id"], "path": f"/g/{kop_table['group']}/hands/{hand['id']}/correct"}


def test_the_page_starts_from_the_cards_as_logged(client, carded):
    page = client.http.get(carded["path"])
    assert page.status_code == 200
    form = _form(_text(page))
    assert [form[f"deal-hands-{s}"] for s in range(4)] == [" ".join(h) for h in KOP_HANDS]
    assert [form[f"trick-{i}"] for i in range(4)] == [" ".join(t) for t in KOP_TRICKS]
    assert form["call-0"] == "" and form["call-seat-0"] == ""  # an empty row for a call forgotten
    text = _text(page)
    assert "Trick 1, led by Bob as logged" in text and "Ala dealt this hand." in text
    assert 'name="contract"' not in text and 'name="points"' not in text  # no result to type for it


def test_a_trick_fixed_on_the_page_corrects_the_hand_and_the_balances_move_as_its_cards_give(client, carded):
    assert _balances(carded) == [-300, 300, -300, 300]  # bez bitki: stare took every trick
    form = {**_form(_text(client.http.get(carded["path"]))), "reason": "Bob led AD in the third trick, not QC"}
    before = _version(carded)
    form["trick-2"] = "AD JC AC 10D"  # the one card typed wrong...
    refused = client.http.post(carded["path"], data={**form, "confirm": "no"})
    text = _text(refused)
    assert refused.status_code == 422 and "Trick 4:" in text and 'id="trick-3-error"' in text, text
    assert 'value="AD JC AC 10D"' in text  # the field keeps what was typed
    assert _version(carded) == before  # nothing appended
    form["trick-3"] = "10C 10S AS QC"  # ...and the last trick, which Cyd's jack now leads
    done = _corrected(client, carded["path"], form)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/hands/{carded['hand']}")
    assert _balances(carded) == [-100, 100, -100, 100]  # stare lost a trick: no bez bitki now
    correction = carded["admin"].get(f"{carded['base']}/events").json["events"][-1]
    assert correction["type"] == "correction" and correction["data"]["reason"] == form["reason"]
    assert correction["data"]["cards"]["tricks"][2:] == [{"cards": ["AD", "JC", "AC", "10D"]},
                                                         {"cards": ["10C", "10S", "AS", "QC"]}]
    again = client.http.post(carded["path"], data={**form, "confirm": "yes",
                                                   "previewed": _form(_text(client.http.post(
                                                       carded["path"], data={**form, "confirm": "no"})))["previewed"]})
    assert again.status_code == 303 and again.headers["Location"].endswith("?already=1")  # sent once
    assert _version(carded) == before + 1
    reopened = _form(_text(client.http.get(carded["path"])))  # the page starts from the cards as corrected
    assert reopened["trick-2"] == "AD JC AC 10D"


def test_a_call_forgotten_is_typed_into_an_empty_row(client, carded):
    form = {**_form(_text(client.http.get(carded["path"]))), "reason": "Ala said kontra",
            "call-seat-0": "0", "call-0": "kontra"}
    assert _corrected(client, carded["path"], form).status_code == 303
    assert _balances(carded) == [-600, 600, -600, 600]
    form = _form(_text(client.http.get(carded["path"])))
    assert (form["call-seat-0"], form["call-0"]) == ("0", "kontra") and form["call-1"] == ""


@pytest.mark.parametrize("change, words, field", [
    ({"deal-hands-2": "QH QD JC AH"}, "The deal:", "deal-hands-2"),  # AH dealt twice
    ({"trick-0": "AH QH QS AS"}, "Trick 1:", "trick-0"),  # Ala keeps her trumps back
    ({"trick-3": ""}, "not over with these cards", None),  # a trick left out
    ({"call-0": "kontra"}, "Call 1: choose who made it", "call-seat-0"),
])
def test_a_change_against_the_rules_is_refused_in_words_and_appends_nothing(client, carded, change, words, field):
    form = {**_form(_text(client.http.get(carded["path"]))), "reason": "typo", **change}
    before = _version(carded)
    refused = client.http.post(carded["path"], data={**form, "confirm": "no"})
    text = _text(refused)
    assert refused.status_code in (400, 422) and words in text and 'role="alert"' in text, text
    if field:
        assert f'id="{field}-error"' in text
    for name, value in change.items():
        assert _form(text)[name] == value  # kept as typed
    assert _version(carded) == before


def test_a_hand_logged_by_its_result_keeps_the_result_form(client, kop_table):
    hand = kop_table["admin"].post(f"{kop_table['base']}/tables/{kop_table['table']}/hands", {
        "result": {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}}).json
    _signed_in(client, kop_table["admin"].token)
    page = _text(client.http.get(f"/g/{kop_table['group']}/hands/{hand['id']}/correct"))
    assert 'name="contract"' in page and 'name="points"' in page and "deal-hands-0" not in page
    assert "Otherwise, its result as it should have been" in page


def test_a_member_cannot_reach_the_page(app, carded):
    client = Client(app.test_client())  # another browser: Bob's phone
    _signed_in(client, carded["members"][1]["token"])
    assert client.http.get(carded["path"]).status_code == 403
    page = _text(client.http.get(f"/g/{carded['group']}"))  # a form token of the member's own session
    token = page.split('name="form_token" value="', 1)[1].split('"', 1)[0]
    before = _version(carded)
    sent = client.http.post(carded["path"], data={"form_token": token, "once": "web-" + "a" * 22, "reason": "mine",
                                                  "void": "yes", "confirm": "no"})
    assert sent.status_code == 403 and "Only the group&#39;s admin corrects a hand" in _text(sent)
    assert _version(carded) == before


# Scopa and Bisca: a hand logged with one seat's last two cards in the wrong order.

def _options(game, state) -> list[Command]:
    if game.capabilities.logged_by == "plays":
        return [Command("play", p) for p in game.moves.legal_plays(state)]
    leader, n, ways = game.moves.turn(state), len(game.moves.held(state)), [[]]
    for i in range(n):
        ways = [w + [c] for w in ways for c in game.moves.legal_cards(state, (leader + i) % n, tuple(w))]
    return [Command("trick", {"cards": w}) for w in ways]


def _played(game, state, other_at: int | None = None) -> list[dict]:
    """The hand played out, the first legal way each time (the second at ``other_at``)."""
    made = []
    while not game.is_terminal(state):
        options = _options(game, state)
        command = options[1 if len(made) == other_at and len(options) > 1 else 0]
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        made.append(dict(command.data))
    return made


def _mistyped(game, state) -> tuple[list[dict], list[dict]]:
    """The hand as played, and as logged with the latest choice there was made otherwise."""
    played = _played(game, state)
    for at in reversed(range(len(played))):
        other = _played(game, state, at)
        if other != played:
            return played, other
    raise AssertionError("no other way")


def _table(kop_table, game: str, rules: dict) -> str:
    seats = [m["id"] for m in kop_table["members"][:2]]
    return kop_table["admin"].post(f"{kop_table['base']}/tables", {"game": game, "rules": rules, "stake": "1.00",
                                                                    "seats": seats}).json["id"]


def _scopa():
    deck = sorted(scopa.PACK)
    deal = {"dealer": 0, "hands": [deck[0:3], deck[3:6]], "table": deck[6:10], "stock": deck[10:]}
    rules = scopa.parse_rules({})
    return "scopa", {}, deal, scopa.new_hand(rules, scopa.deal_event(rules, deal).data), scopa.GAME


def _bisca():
    deck = sorted(bisca.PACKS["full"])
    random.Random(5).shuffle(deck)
    deal = {"dealer": 0, "hands": [deck[0:9], deck[9:18]], "trump": deck[-1], "stock": deck[18:-1]}
    rules = bisca.parse_rules({"variant": "nove"})
    state = bisca.new_hand(rules, {**bisca.deal_event(rules, deal).data, "match_before": [0, 0]})
    return "bisca", {"variant": "nove"}, deal, state, bisca.GAME


def _rows(kind: str, items: list[dict]) -> dict:
    if kind == "tricks":
        return {f"trick-{i}": " ".join(t["cards"]) for i, t in enumerate(items)}
    return {**{f"play-{i}": p["card"] for i, p in enumerate(items)},
            **{f"capture-{i}": " ".join(p.get("capture") or []) for i, p in enumerate(items)}}


@pytest.mark.parametrize("setup", [_scopa, _bisca], ids=["scopa", "bisca"])
def test_a_scopa_or_bisca_hand_opens_on_its_cards_and_is_corrected_by_them(client, kop_table, setup):
    name, rules, deal, state, game = setup()
    kind = "plays" if game.capabilities.logged_by == "plays" else "tricks"
    played, logged = _mistyped(game, state)
    without_confirmations(kop_table)
    base, table = kop_table["base"], _table(kop_table, name, rules)
    hand = kop_table["admin"].post(f"{base}/tables/{table}/hands", {"deal": deal, kind: logged}).json
    assert hand["phase"] == "done", hand
    _signed_in(client, kop_table["admin"].token)
    path = f"/g/{kop_table['group']}/hands/{hand['id']}/correct"
    form = _form(_text(client.http.get(path)))
    assert [form[f"deal-hands-{s}"] for s in range(2)] == [" ".join(h) for h in deal["hands"]]
    others = {k: v for k, v in deal.items() if k not in ("dealer", "hands")}
    for key, value in others.items():
        assert form[f"deal-{key}"] == (" ".join(value) if isinstance(value, list) else value)
    assert {k: form[k] for k in _rows(kind, logged)} == _rows(kind, logged)
    fixed = {k: v for k, v in _rows(kind, played).items() if form[k] != v}
    assert 1 <= len(fixed) <= 4  # a seat's two cards, the other way round
    done = _corrected(client, path, {**form, **fixed, "reason": "the last cards the other way round"})
    assert done.status_code == 303, _text(done)
    corrected = kop_table["admin"].get(f"{base}/events").json["events"][-1]["data"]
    assert corrected["cards"][kind] == [{k: v for k, v in item.items()} for item in _as_sent(kind, played)]
    fresh = _table(kop_table, name, rules)  # the hand as played, logged from the start at another table
    kop_table["admin"].post(f"{base}/tables/{fresh}/hands", {"deal": deal, kind: played})
    match = [kop_table["admin"].get(f"{base}/tables/{t}").json["match"] for t in (table, fresh)]
    assert match[0]["scores"] == match[1]["scores"], match


def _as_sent(kind: str, items: list[dict]) -> list[dict]:
    """Each trick or play as the page sends it: a capture the card makes given, none left out."""
    if kind == "tricks":
        return items
    return [{"card": p["card"], **({"capture": list(p["capture"])} if p.get("capture") else {})} for p in items]


def _logged(game, state, command: Command, log: list) -> object:
    for event in game.decide(state, command):
        state = game.evolve(state, event)
        log.append((event.type, dict(event.data)))
    return state


@pytest.mark.parametrize("setup", [_scopa, _bisca], ids=["scopa", "bisca"])
def test_a_hand_dealt_seat_by_seat_is_given_again_with_its_draws_back_in_the_stock(setup):
    """Each phone logged its own cards, the later rounds (Scopa) or each card drawn after a
    trick (Bisca) too: the page's cards are the whole deal a new hand would be dealt."""
    from games.engine import again
    name, rules, deal, state, game = setup()
    kind = "plays" if game.capabilities.logged_by == "plays" else "tricks"
    played, parsed = _played(game, state), game.parse_rules(rules)
    opened = {**game.parse_deal(parsed, {"dealer": deal["dealer"]}).data, "match_before": [0, 0]}
    log, seat_state = [("deal", opened)], game.initial_state(parsed, opened)
    dealt = {k: v for k, v in deal.items() if k not in ("dealer", "hands", "stock")}
    seat_state = _logged(game, seat_state, Command("cards", dealt), log)  # the face-up table, the trump card
    for seat in (1, 0):
        seat_state = _logged(game, seat_state, Command("cards", {"seat": seat, "cards": deal["hands"][seat]}), log)
    whole = state
    for item in played:
        events = []
        whole = _logged(game, whole, Command(kind[:-1], item), events)
        seat_state = _logged(game, seat_state, Command(kind[:-1], item), log)
        data = events[-1][1]
        drawn = data.get("draws") or [(s, c) for s, hand in enumerate(data.get("dealt") or []) for c in hand]
        for seat in sorted({s for s, _ in drawn}, reverse=True):  # each phone in its own time
            cards = [c for s, c in drawn if s == seat]
            seat_state = _logged(game, seat_state, Command("cards", {"seat": seat, "cards": cards}), log)
    assert game.is_terminal(seat_state)
    assert again.cards_of(game, parsed, log) == {"deal": deal, kind: played}
    first_draw = next(i for i, (kind_, _) in enumerate(log) if kind_ == "seat_cards" and any(
        k in ("trick", "play") for k, _ in log[:i]))
    assert again.cards_of(game, parsed, log[:first_draw]) is None  # the stock never seen: no whole deal
