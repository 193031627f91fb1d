"""Random histories through the API, for the export-and-import round trip (issue 44): a group
plays a game (every entry of games.registry.GAMES in turn, by construction) with payers who
confirm, voids, corrections by a hand's cards and voids of past hands, pay-to details,
payments and a tournament; then every row of the store, to compare with the store an
export of it imports into."""
from __future__ import annotations

import random

from games.engine.autoplay import hand_at_random
from games.engine.errors import RuleViolation
from games.registry import GAMES

from .conftest import Client

NAMES = ("Ala", "Bob", "Cyd", "Dan", "Eve")


def history(client: Client, game_name: str, rng: random.Random, hands: int = 6) -> str:
    """A random evening of ``game_name`` through the API; the group's id."""
    game = GAMES[game_name]
    g = client.post("/v1/groups", {"name": f"Round trip {game_name}", "currency": "PLN"}).json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in NAMES]
    phones = {m["id"]: client.as_(m["token"]) for m in members}
    ids = [m["id"] for m in members]
    preset = game.words.presets[0]
    rules = game.parse_rules(preset.rules)
    seats = ids[:preset.players]
    table = admin.post(f"{base}/tables", {"game": game_name, "rules": dict(preset.rules), "stake": "0.50",
                                          "seats": seats}).json
    assert "id" in table, table
    _pay_to(phones, base, ids, rng)
    logged = _play(admin, phones, base, table["id"], game, rules, len(seats), hands, rng)
    for _ in range(2):  # corrections of past hands: the whole hand again by its cards, or a void
        hand = rng.choice(logged)
        shown = admin.get(f"{base}/hands/{hand}").json
        if rng.random() < 0.5:
            body = {"reason": "the cards were mistyped",
                    "cards": _random_hand(game, rules, rng, shown["dealer"])}
        else:
            body = {"reason": "a misdeal", "void": True}
        r = admin.post(f"{base}/hands/{hand}/correct", body)
        assert r.status_code in (201, 422), r.json  # 422: already never played, or a card game that
        # ended with its match, which its cards alone cannot settle again
        _agree(phones, base, admin.get(f"{base}/hands/{hand}").json)
    _payments(admin, phones, base, ids, rng)
    _tournament(admin, phones, base, game_name, game, ids, rng)
    return g["id"]


def _pay_to(phones, base, ids, rng) -> None:
    member = rng.choice(ids)
    r = phones[member].call("PUT", f"{base}/members/{member}/pay-to", {"name": "Ala Kowalska",
                                                                        "iban": "PL61109010140000071219812874"})
    assert r.status_code == 200, r.json


def _play(admin, phones, base, table, game, rules, seats, hands, rng) -> list[str]:
    logged = []
    for _ in range(hands):
        view = admin.get(f"{base}/tables/{table}").json
        body = _random_hand(game, rules, rng, view["next_dealer"])
        r = admin.post(f"{base}/tables/{table}/hands", body)
        assert r.status_code == 201, r.json
        logged.append(r.json["id"])
        if rng.random() < 0.15:  # the latest hand voided: it counts as never played
            void = admin.post(f"{base}/hands/{r.json['id']}/void", {"reason": "misdeal"})
            assert void.status_code == 201, void.json
        elif rng.random() < 0.8:
            _confirmed(phones, base, r.json)
    return logged


def _confirmed(phones, base, hand) -> None:
    for payer in (hand.get("confirmation") or {}).get("waiting_for", []):
        r = phones[payer].post(f"{base}/hands/{hand['id']}/confirm")
        assert r.status_code == 201, r.json


def _agree(phones, base, hand) -> None:
    waiting = hand.get("correction_waiting")
    for member in (waiting or {}).get("waiting_for", []):
        r = phones[member].post(f"{base}/hands/{hand['id']}/agree")
        assert r.status_code == 201, r.json


def _payments(admin, phones, base, ids, rng) -> None:
    for _ in range(2):
        src, dst = rng.sample(ids, 2)
        by = phones[src] if rng.random() < 0.5 else admin  # the payer's record waits for its receiver
        r = by.post(f"{base}/payments", {"from": src, "to": dst, "amount": f"{rng.randint(1, 900) / 100:.2f}"})
        assert r.status_code == 201, r.json
        if r.json.get("pending") and rng.random() < 0.7:
            seq = r.json["seq"]
            ok = phones[dst].post(f"{base}/payments/{seq}/confirm")
            assert ok.status_code == 201, ok.json


def _tournament(admin, phones, base, game_name, game, ids, rng) -> None:
    preset = game.words.presets[0]
    players = ids[:4]
    r = admin.post(f"{base}/tournaments", {"name": "Cup", "game": game_name, "rules": dict(preset.rules),
                                           "players": players, "rounds": 1, "deals": 1, "places": [3, 2, 1, 0],
                                           "stake": "0.50"})
    if r.status_code == 422:  # four players fit no tables of this game
        return
    assert r.status_code == 201, r.json
    drawn = admin.post(f"{base}/tournaments/{r.json['id']}/rounds", {"absent": players})
    assert drawn.status_code == 201, drawn.json
    rules = game.parse_rules(preset.rules)
    for table in drawn.json["tables"]:
        body = _random_hand(game, rules, rng, 0)
        hand = admin.post(f"{base}/tables/{table['id']}/hands", body)
        assert hand.status_code == 201, hand.json
        _confirmed(phones, base, hand.json)


# Every table of a store but what an import makes anew (the admin's token) or never carries
# (idempotency keys, sign-ins, invitations), as sorted rows.
TABLES = {"events": "group_id, seq, type, hand_id, table_id, data, actor, recorded_at, prev_hash, hash",
          "projection_rows": "name, group_id, key, data",
          "pending_settlements": "group_id, hand_id, table_id, seq, data",
          "merkle_nodes": "group_id, level, idx, hash"}


def every_row(conn) -> dict[str, list[tuple]]:
    """Each compared table's rows, sorted, bytes as bytes (a connection of either backend)."""
    found = {}
    for table, columns in TABLES.items():
        rows = conn.execute(f"SELECT {columns} FROM {table}").fetchall()
        found[table] = sorted(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in rows)
    return found


def _random_hand(game, rules, rng, dealer: int) -> dict:
    """A random legal hand played without calls: a deal whose cards a game's rules do not let
    go uncalled (Baśka's cicha with both black queens and a hand that takes 53) is dealt again."""
    for _ in range(50):
        try:
            return hand_at_random(game, rules, rng, dealer)
        except RuleViolation:
            continue
    raise AssertionError(f"no hand of {game.name} could be played without calls in 50 deals")
