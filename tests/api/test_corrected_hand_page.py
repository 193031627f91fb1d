"""A hand corrected by its cards is shown as it now counts, on its page and in its hand
state alike: the deal, the tricks (or plays) and the trumps of the cards the correction
gave, beside the settlement the correction made of them, never the cards first logged
beside the correction's settlement (the trumps of one deal over the explanation of another,
a pair shown winning six tricks where the explanation says two). The log keeps both
versions: the tricks first logged, and the correction with its cards."""
from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from games.engine.base import Command
from games.registry import GAMES
from service.web.cards import SYMBOLS, suit_words
from service.web.words import said
from tests.api.every_page import _random_hand
from tests.api.test_pages import _signed_in
from tests.backends import ON_SQLITE
from tests.conftest import without_confirmations

NAMES = ("Ala", "Bartek", "Celina", "Darek", "Ela", "Filip")
_SUIT_OF = {symbol: suit for suit, symbol in SYMBOLS.items()}
_TRUMPS = re.compile(r"^Trumps: (\w+)[ .]")


class _Page(HTMLParser):
    """What a hand's page shows: each trick's (or play's) cards and its winner, the trumps
    line, and the lines of the explanation, as text."""

    def __init__(self):
        super().__init__()
        self.rows: list[dict] = []  # {"cards": [code], "winner": name}
        self.paragraphs: list[str] = []
        self.explanation: list[str] = []
        self._in: list[str] = []  # the open elements that matter, innermost last
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "ol" and "tricks" in classes:
            self._in.append("rows")
        elif tag == "ul" and "explanation" in classes:
            self._in.append("explanation")
        elif tag == "li" and self._in[-1:] == ["rows"]:
            self.rows.append({"cards": [], "winner": None})
        elif tag == "li" and self._in[-1:] == ["explanation"]:
            self._in.append("line")
            self._text = []
        elif tag == "p" and not self._in:
            self._in.append("p")
            self._text = []
        elif tag == "span" and "card" in classes and self._in[-1:] == ["rows"]:
            self._in.append("card")
            self._text = []
        elif tag == "strong" and self._in[-1:] == ["rows"]:
            self._in.append("winner")
            self._text = []
        elif tag == "span" and self._in[-1:] == ["card"]:
            self._in.append("suit")

    def handle_endtag(self, tag):
        if not self._in:
            return
        inner = self._in[-1]
        if tag == "span" and inner == "suit":
            self._in.pop()
        elif tag == "span" and inner == "card":
            self._in.pop()
            face = "".join(self._text)
            self.rows[-1]["cards"].append(face[:-1] + _SUIT_OF[face[-1]])
        elif tag == "strong" and inner == "winner":
            self._in.pop()
            self.rows[-1]["winner"] = "".join(self._text).strip()
        elif tag == "li" and inner == "line":
            self._in.pop()
            self.explanation.append(" ".join("".join(self._text).split()))
        elif tag == "p" and inner == "p":
            self._in.pop()
            self.paragraphs.append(" ".join("".join(self._text).split()))
        elif (tag, inner) in (("ol", "rows"), ("ul", "explanation")):
            self._in.pop()

    def handle_data(self, data):
        if self._in and self._in[-1] in ("card", "suit", "winner", "line", "p"):
            self._text.append(data)


def _shown(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    return parser


def _ok(answer, status=201) -> dict:
    assert answer.status_code == status, answer.json
    return answer.json


def _played(game, rules, cards: dict):
    """The hand the correction's cards give, played by the rules: what the page must show."""
    state = game.initial_state(rules, game.parse_deal(rules, cards["deal"]).data)
    for kind in ("tricks", "plays"):
        for item in cards.get(kind) or []:
            for event in game.decide(state, Command(kind[:-1], item)):
                state = game.evolve(state, event)
    return game.sight.view(state)


@ON_SQLITE
def test_a_hand_corrected_by_its_cards_shows_the_cards_its_settlement_was_made_of(app, client):
    chance = random.Random(7)
    group = client.post("/v1/groups", {"name": "Czwartek", "currency": "PLN"}).json
    admin, base = client.as_(group["admin_token"]), f"/v1/groups/{group['id']}"
    members = [_ok(admin.post(f"{base}/members", {"name": name})) for name in NAMES]
    without_confirmations({"admin": admin, "base": base})
    _signed_in(client, group["admin_token"])
    sides_counted = set()
    for name, game in GAMES.items():
        for preset in game.words.presets:
            rules = game.parse_rules(preset.rules)
            table = _ok(admin.post(f"{base}/tables", {"game": name, "rules": dict(preset.rules), "stake": "0.50",
                                                     "seats": [m["id"] for m in members[:preset.players]]}))
            at = f"{base}/tables/{table['id']}"
            dealer = _ok(admin.get(at), 200)["next_dealer"]
            logged = _ok(admin.post(f"{at}/hands", _random_hand(game, rules, chance, dealer)))
            cards = _random_hand(game, rules, chance, dealer)
            corrected = _ok(admin.post(f"{base}/hands/{logged['id']}/correct", {"reason": "typo", "cards": cards}))
            assert corrected["correction"]["cards"] == cards
            settlement = next(s["settlement"] for s in corrected["correction"]["settlements"]
                              if s["hand"] == logged["id"])
            where = f"{name} {dict(preset.rules)}"

            state = _ok(admin.get(f"{base}/hands/{logged['id']}"), 200)
            expected = _played(game, rules, cards)
            for key in ("deal", "tricks", "plays", "trump_suit"):
                assert state.get(key) == expected.get(key), (where, key)
            assert state["settlement"] == settlement, where

            page = client.http.get(f"/g/{group['id']}/hands/{logged['id']}", headers={"Accept-Language": "en"})
            assert page.status_code == 200, where
            shown = _shown(page.get_data(as_text=True))
            seats = list(NAMES[:preset.players])
            if game.capabilities.logged_by == "tricks":
                assert [r["cards"] for r in shown.rows] == [t["cards"] for t in cards["tricks"]], where
            else:
                assert [r["cards"][0] for r in shown.rows] == [p["card"] for p in cards["plays"]], where
            sides = [list(s) for s in game.table.sides(rules)]
            with app.test_request_context():
                lines = [said(line, seats, sides, "en", game=name) for line in settlement["explanation"]]
                suits = suit_words()
            trumps = [m.group(1) for m in map(_TRUMPS.match, shown.paragraphs) if m]
            assert trumps == ([suits[expected["trump_suit"]]] if expected.get("trump_suit") else []), where
            assert shown.explanation[:len(lines)] == lines, where
            for side in settlement.get("sides") or []:
                if "tricks" in side and game.capabilities.logged_by == "tricks":
                    won = sum(r["winner"] in {seats[s] for s in side["seats"]} for r in shown.rows)
                    assert won == side["tricks"], (where, side, [r["winner"] for r in shown.rows])
                    sides_counted.add(name)
    tricks = {name for name, game in GAMES.items() if game.capabilities.logged_by == "tricks"}
    assert sides_counted == tricks, "the tricks each side took were not counted on every trick game's page"
