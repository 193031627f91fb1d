"""A group that has played every game and preset bitka has, in every way a hand is logged
(card by card, whole, by its score sheet, in progress, corrected, voided, waiting for its
payers), and every page a member or the admin opens of it: what the sweeps of the pages
in each language read."""
from __future__ import annotations

import random
import re

from games.engine.autoplay import dealt_at_random, hand_at_random, play_through
from games.engine.errors import RuleViolation
from games.engine.table import deal_context
from games.registry import GAMES
from tests.conftest import Client
from tests.tournaments import entropy

MEMBERS = ("Ala", "Bartek", "Celina", "Darek", "Ela", "Filip")  # names no language reads as a word of its own
TYPED = ("Źle policzone", "Pomyłka w kartach", "Rozdanie od nowa")  # the admin's reasons for corrections
PAY_TO = {"iban": "PL61 1090 1014 0000 0712 1981 2874", "blik": "+48 600 100 200"}  # and the member's name
BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}


def _signed_in(app, token: str) -> Client:
    """A browser signed in with ``token`` (the admin's or a member's), as the sign-in page does it."""
    browser = Client(app.test_client())
    page = browser.http.get("/?choose=1").get_data(as_text=True)
    signin = re.search(r'name="signin_token" value="([^"]*)"', page).group(1)
    done = browser.http.post("/signin", data={"signin_token": signin, "token": token})
    assert done.status_code == 303, done.get_data(as_text=True)
    return browser


def _random_hand(game, rules, chance: random.Random, dealer: int) -> dict:
    """A random legal hand's body (dealt again when its deal may not be played: Baśka's unlosable cicha)."""
    for _ in range(20):
        try:
            return hand_at_random(game, rules, chance, dealer)
        except RuleViolation:
            continue
    raise AssertionError(f"{game.name}: no playable deal in 20")


def _score_sheet(game, rules, chance: random.Random, dealer: int) -> dict:
    """The score sheet of a random hand played to its end: a result logged alone."""
    for _ in range(20):
        deal = dealt_at_random(game, rules, chance, dealer)
        state = game.initial_state(rules, {**game.parse_deal(rules, deal).data, **deal_context(game, rules, None)})
        try:
            state, _commands = play_through(game, state, chance.choice)
        except RuleViolation:
            continue
        return {"dealer": dealer, "result": dict(game.forms.sheet(state))}
    raise AssertionError(f"{game.name}: no playable deal in 20")


def _dealer(client: Client, table: str) -> int:
    """Who deals the table's next hand."""
    return _ok(client.get(table), 200)["next_dealer"]


def _ok(answer, status=201) -> dict:
    assert answer.status_code == status, answer.json
    return answer.json


def _agreed(admin: Client, base: str, members: list, corrected: dict) -> None:
    """Each member a correction lowers agrees to it (it counts once they all have)."""
    tokens = {m["id"]: m["token"] for m in members}
    hand = corrected["correction"]["hand"]
    for member in corrected["correction"]["waits_for"]:
        _ok(admin.as_(tokens[member]).post(f"{base}/hands/{hand}/agree"))


def _play_preset(admin: Client, member: Client, gid: str, members: list, name: str, number: int) -> dict[str, str]:
    """A table of one preset with a hand of each kind (whole, later, by its score sheet and
    corrected, by its cards and corrected, voided, in play): its pages by name."""
    game, base = GAMES[name], f"/v1/groups/{gid}"
    preset = game.words.presets[number]
    table = _ok(admin.post(f"{base}/tables", {"game": name, "rules": dict(preset.rules), "stake": "0.50",
                                             "seats": [m["id"] for m in members[:preset.players]]}))
    rules, chance, tag = game.parse_rules(preset.rules), random.Random(f"{name}-{number}"), f"{name}:{number}"
    at, page = f"{base}/tables/{table['id']}", f"/g/{gid}"
    first = _dealer(member, at)
    whole = _ok(member.post(f"{at}/hands", _random_hand(game, rules, chance, first)))
    later = _ok(admin.post(f"{at}/hands", _random_hand(game, rules, chance, _dealer(member, at))))
    sheet_dealer = _dealer(member, at)
    sheet = _ok(member.post(f"{at}/hands", _score_sheet(game, rules, chance, sheet_dealer)))
    again = _score_sheet(game, rules, chance, sheet_dealer)["result"]
    _agreed(admin, base, members, _ok(admin.post(f"{base}/hands/{sheet['id']}/correct",
                                                 {"reason": TYPED[0], "result": again})))
    cards = _random_hand(game, rules, chance, first)
    _agreed(admin, base, members, _ok(admin.post(f"{base}/hands/{whole['id']}/correct",
                                                 {"reason": TYPED[1], "cards": cards})))
    voided = _ok(admin.post(f"{at}/hands", _random_hand(game, rules, chance, _dealer(member, at))))
    _agreed(admin, base, members, _ok(admin.post(f"{base}/hands/{voided['id']}/correct",
                                                 {"reason": TYPED[2], "void": True})))
    deal = _random_hand(game, rules, chance, _dealer(member, at))["deal"]
    opened = _ok(member.post(f"{at}/hands", {"deal": deal}))
    return {f"{tag} table": f"{page}/tables/{table['id']}", f"{tag} score sheet": f"{page}/tables/{table['id']}/result",
            f"{tag} hand": f"{page}/hands/{whole['id']}", f"{tag} correct": f"{page}/hands/{whole['id']}/correct",
            f"{tag} later hand": f"{page}/hands/{later['id']}",
            f"{tag} score-sheet hand": f"{page}/hands/{sheet['id']}",
            f"{tag} score-sheet correct": f"{page}/hands/{sheet['id']}/correct",
            f"{tag} voided hand": f"{page}/hands/{voided['id']}",
            f"{tag} hand in play": f"{page}/hands/{opened['id']}", f"{tag} live": f"{page}/hands/{opened['id']}/live"}


def _tournament(admin: Client, gid: str, members: list) -> dict[str, str]:
    """A tournament of every member at the first way of playing for two (three tables of two),
    round 1 drawn from every player's check-in but the last one's (drawn without it), a hand
    played at its first table and one in play at its second, and Ala checked in for round 2
    already (Bartek, whose pages are read, not yet): its pages by name, and its watch page."""
    game, preset = next((g, p) for g in GAMES.values() for p in g.words.presets if p.players == 2)
    base, page = f"/v1/groups/{gid}", f"/g/{gid}/tournaments"
    made = _ok(admin.post(f"{base}/tournaments", {"name": "Noc kart", "game": game.name, "rules": dict(preset.rules),
                                                  "players": [m["id"] for m in members], "rounds": 2, "deals": 3,
                                                  "places": [2, 0], "stake": "0.50"}))
    rounds = f"{base}/tournaments/{made['id']}/rounds"
    for m in members[:-1]:
        _ok(admin.as_(m["token"]).post(f"{rounds}/1/check-in", {"entropy": entropy(m["id"], 1)}))
    tables = _ok(admin.post(rounds, {"absent": [members[-1]["id"]]}))["tables"]
    _ok(admin.as_(members[0]["token"]).post(f"{rounds}/2/check-in", {"entropy": entropy(members[0]["id"], 2)}))
    rules, chance = game.parse_rules(preset.rules), random.Random("tournament")
    at = [f"{base}/tables/{t['id']}" for t in tables]
    _ok(admin.post(f"{at[0]}/hands", _random_hand(game, rules, chance, _dealer(admin, at[0]))))
    _ok(admin.post(f"{at[1]}/hands", {"deal": _random_hand(game, rules, chance, _dealer(admin, at[1]))["deal"]}))
    watch = _ok(admin.post(f"{base}/tournaments/{made['id']}/watch"))
    return {"tournaments": page, "new tournament": f"{page}/new", "tournament": f"{page}/{made['id']}",
            "seat plan": f"{page}/{made['id']}/rounds/1", "standings": f"{page}/{made['id']}/standings",
            "tournament table": f"/g/{gid}/tables/{tables[0]['id']}", "watch": f"/t/{watch['code']}"}


def played(app) -> dict:
    """The group, its browsers (the admin's, and a seated member's: Bartek, who logged the
    hands) and its pages to read, by name."""
    api = Client(app.test_client())
    group = _ok(api.post("/v1/groups", {"name": "Noc kart", "currency": "PLN"}))
    gid, admin = group["id"], api.as_(group["admin_token"])
    base = f"/v1/groups/{gid}"
    members = [_ok(admin.post(f"{base}/members", {"name": name})) for name in MEMBERS]
    member = api.as_(members[1]["token"])  # Bartek logs the hands: the others' shares wait for them
    pages: dict[str, str] = {}
    for name, game in GAMES.items():
        for number in range(len(game.words.presets)):
            pages.update(_play_preset(admin, member, gid, members, name, number))
        pages[f"{name} words"] = f"/glossary/{name}"
    pages.update(_tournament(admin, gid, members))
    _ok(admin.post(f"{base}/payments", {"from": members[0]["id"], "to": members[2]["id"], "amount": "1.50"}))
    for m in members:  # how each takes money: settle-up shows the codes to pay them with
        _ok(admin.as_(m["token"]).call("PUT", f"{base}/members/{m['id']}/pay-to", {**PAY_TO, "name": m["name"]}),
            200)
    pages.update({"group": f"/g/{gid}", "summary": f"/g/{gid}/summary", "summary picture": f"/g/{gid}/summary.svg",
                  "members": f"/g/{gid}/members", "new table": f"/g/{gid}/tables/new",
                  "devices": f"/g/{gid}/devices", "hall": f"/g/{gid}/hall", "no network": "/offline",
                  "start": "/?choose=1", "new group": "/new",
                  "not found": "/no/such/page"})
    return {"group": gid, "admin": admin, "members": members, "pages": pages, "api": base,
            "browsers": {"admin": _signed_in(app, group["admin_token"]),
                         "member": _signed_in(app, members[1]["token"])}}
