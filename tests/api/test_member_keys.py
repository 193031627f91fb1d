"""Members hold their own keys (API.md, "Members hold their own keys"), through the API, as a
member's device meets it: the organizer is a member with its own key, a first key comes by
invitation or by the member's own token, a further device waits until one of the member's own
keys approves it, and each act that binds a member (confirm, dispute, result, cards, play,
pay_to, approve_device) is refused without a signature by a current key of that member over
exactly the statement API.md describes, built here from API.md's words alone
(tests/keys/devices.py). Members who never had a key act as before.

Payments count once their receiver signs (``received``, ``confirm_payment``), and ``bitka
verify``/``replay`` name an act written into the store without its member's signature; a
correction that lowers members counts once each of them signs ``agree``, and a tournament
round is drawn from its players' signed check-ins. The attacker's tests are in
test_keys_attacks.py."""
from __future__ import annotations

import hashlib


from events.store import NewEvent
from tests.backends import ON_SQLITE
from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.keys.devices import Device
from tests.money import minor

NAMES = ("Ala", "Bob", "Cyd", "Dan")
# Bob (seat 1) and Dan (seat 3) took 70 points in 3 tricks: Ala and Cyd pay 1.00 each.
STARE_WIN = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 70, "tricks": 3}
# The same stare took 40 in one trick: Bob and Dan pay.
STARE_LOSE = {"contract": "normal", "stare": [1, 3], "doubles": [], "points": 40, "tricks": 1}
# Ala played zolo alone and took 40 in one trick: she alone pays.
ZOLO_LOST = {"contract": "zolo", "declarer": 0, "doubles": [], "points": 40, "tricks": 1}
PROBLEM = "application/problem+json"


# ---------------------------------------------------------------------------------------
# A group whose members hold keys, and what a test reads of it.

def keyed_group(client, keyed=(0, 1, 2, 3), organizer: bool = False, game: str = "kop", rules: dict | None = None,
                currency: str = "PLN") -> dict:
    """A group of Ala, Bob, Cyd and Dan at a table (Kop by default) at 1.00 a stake. Each member
    named in ``keyed`` holds a device key of its own: Ala's by her invitation, the others' by
    their own token. With ``organizer``, Ola created the group as its organizer, with her key."""
    body = {"name": "Czwartek", "currency": currency}
    ola = Device() if organizer else None
    if organizer:
        body["organizer"] = {"name": "Ola", "key": ola.key}
    created = client.post("/v1/groups", body)
    assert created.status_code == 201, created.json
    g = created.json
    admin = client.as_(g["admin_token"])
    base = f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in NAMES]
    ids = [m["id"] for m in members]
    tokens = [m["token"] for m in members]
    devices = [Device() for _ in NAMES]
    joined = None
    for i in keyed:
        if i == 0:  # Ala joins by her invitation, with her phone's key
            invitation = admin.post(f"{base}/invitations", {"member": ids[0]})
            assert invitation.status_code == 201, invitation.json
            joined = client.post(f"/v1/invitations/{invitation.json['code']}", {"key": devices[0].key})
            assert joined.status_code == 201, joined.json
            tokens[0] = joined.json["token"]
            joined = joined.json
        else:  # the others were handed a token: they register their first key with it
            r = client.as_(tokens[i]).post(f"{base}/members/{ids[i]}/devices", {"key": devices[i].key})
            assert r.status_code == 201, r.json
            assert r.json == {"member": ids[i], "kid": devices[i].kid}
    table = admin.post(f"{base}/tables", {"game": game, "rules": rules or {}, "stake": "1.00", "seats": ids})
    assert table.status_code == 201, table.json
    out = {"group": g["id"], "admin": admin, "base": base, "ids": ids, "tokens": tokens, "devices": devices,
           "api": [client.as_(tok) for tok in tokens], "table": table.json["id"], "client": client,
           "joined": joined, "created": g}
    if organizer:
        out.update(ola=ola, ola_id=g["organizer"]["id"], ola_api=client.as_(g["organizer"]["token"]))
    return out


def version(t) -> int:
    return t["admin"].get(t["base"]).json["version"]


def log(t) -> list[dict]:
    r = t["admin"].get(f"{t['base']}/events?limit=1000")
    assert r.status_code == 200, r.json
    return r.json["events"]


def settled_by(t, hand: str) -> str:
    """The hash of the event that settled ``hand`` as it now stands, found in the log as API.md
    says: its ``settlement``, or the ``correction`` that last settled it again."""
    found = None
    for e in log(t):
        if e["type"] == "settlement" and e.get("hand") == hand:
            found = e["hash"]
        elif e["type"] == "correction" and (e["data"]["hand"] == hand or hand in [
                s["hand"] for s in e["data"].get("settlements", [])]):
            found = e["hash"]
    assert found is not None, f"no settlement of {hand} in the log"
    return found


def whole_kop_hand(t, table: str | None = None) -> dict:
    """The admin logs the conftest's whole Kop hand: Ala (seat 0) and Cyd (seat 2) pay 3.00
    each, and it waits for both of them."""
    r = t["admin"].post(f"{t['base']}/tables/{table or t['table']}/hands",
                        {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": tr} for tr in KOP_TRICKS]})
    assert r.status_code == 201, r.json
    assert r.json["confirmation"]["state"] == "pending"
    assert r.json["confirmation"]["waiting_for"] == [t["ids"][0], t["ids"][2]]
    return r.json


def result_by_admin(t, result: dict, table: str | None = None) -> dict:
    r = t["admin"].post(f"{t['base']}/tables/{table or t['table']}/hands", {"result": result})
    assert r.status_code == 201, r.json
    return r.json


def balances(t) -> list[int]:
    shown = {b["member"]: minor(b["balance"]) for b in t["admin"].get(f"{t['base']}/balances").json["balances"]}
    return [shown[m] for m in t["ids"]]


def refused(r, t, before: int, status: int = 403) -> dict:
    """A refusal as API.md says it: the status, a problem+json body, and nothing appended."""
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:500])
    assert r.content_type.startswith(PROBLEM), r.content_type
    assert version(t) == before, "a refused request appended something"
    return r.json


def confirm(t, seat: int, hand: str, device: Device | None = None, api=None, **overrides):
    """Seat ``seat``'s member confirms ``hand``, signed by ``device`` (its own by default) over the
    statement API.md gives (``overrides`` change a field of it, for the tests that forge)."""
    device = device or t["devices"][seat]
    fields = {"hand": hand, "settlement": settled_by(t, hand), **overrides}
    group = fields.pop("group", t["group"])
    return (api or t["api"][seat]).post(f"{t['base']}/hands/{hand}/confirm",
                                        headers=device.header("confirm", group, **fields))


def signed_of(event: dict, device: Device) -> dict:
    signed = event["data"]["signed"]
    assert set(signed) >= {"kid", "nonce", "sig"}, signed
    assert signed["kid"] == device.kid and len(signed["nonce"]) == 32
    return signed


# ---------------------------------------------------------------------------------------
# What is built: these hold now.

def test_the_organizer_is_the_first_member_with_its_own_key_and_confirmations_stay_on_once_anyone_has_a_key(client):
    t = keyed_group(client, keyed=(), organizer=True)
    g, ola = t["created"], t["ola"]
    assert set(g["organizer"]) == {"id", "token"} and g["admin_token"] and g["organizer"]["token"] != g["admin_token"]
    members = t["admin"].get(t["base"]).json["members"]
    assert {"id": t["ola_id"], "name": "Ola"}.items() <= next(m for m in members if m["id"] == t["ola_id"]).items()
    [added] = [e for e in log(t) if e["type"] == "device_added"]
    assert added["data"] == {"member": t["ola_id"], "key": ola.key, "kid": ola.kid, "via": "token"}
    assert added["actor"] == t["ola_id"]
    shown = t["ola_api"].get(f"{t['base']}/members/{t['ola_id']}/devices")
    assert shown.status_code == 200, shown.json
    assert [(d["kid"], d["key"], d["via"], d["stopped_at"]) for d in shown.json["devices"]] == \
        [(ola.kid, ola.key, "token", None)]
    assert shown.json["waiting"] == [] and shown.json["resets"] == []
    # Ola's key counts at once: her acts are signed from now on (pay_to, the one act of her own here).
    before = version(t)
    unsigned = t["ola_api"].call("PUT", f"{t['base']}/members/{t['ola_id']}/pay-to", {"name": "Ola"})
    assert refused(unsigned, t, before)["statement"]["act"] == "pay_to"
    # Confirmations cannot be turned off once a member holds a key: joining agreed to them.
    off = t["admin"].call("PATCH", t["base"], {"confirmations": "off"})
    assert "key" in refused(off, t, before, 422)["detail"]

    # A group where nobody has a key yet may still turn them off, and on again; not after a first key.
    plain = keyed_group(client, keyed=())
    assert plain["admin"].call("PATCH", plain["base"], {"confirmations": "off"}).status_code == 200
    assert plain["admin"].call("PATCH", plain["base"], {"confirmations": "payers"}).status_code == 200
    dev = plain["devices"][1]
    assert plain["api"][1].post(f"{plain['base']}/members/{plain['ids'][1]}/devices", {"key": dev.key}) \
        .status_code == 201
    refused(plain["admin"].call("PATCH", plain["base"], {"confirmations": "off"}), plain, version(plain), 422)


def test_a_first_key_comes_by_invitation_or_own_token_and_a_further_device_waits_for_a_key_the_member_holds(client):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    base = t["base"]
    assert t["joined"]["kid"] == t["devices"][0].kid and t["joined"]["member"] == ala
    assert t["joined"]["group"] == t["group"] and t["joined"]["confirmations"] == "payers" and t["joined"]["token"]
    added = [(e["data"]["member"], e["data"]["kid"], e["data"]["via"], e["actor"])
             for e in log(t) if e["type"] == "device_added"]
    assert added == [(ala, t["devices"][0].kid, "invitation", ala)] + [
        (m, t["devices"][i].kid, "token", m) for i, m in enumerate(t["ids"]) if i]

    before = version(t)
    # Ala holds a key: no invitation can sign in as her; the 409 names the two ways.
    again = t["admin"].post(f"{base}/invitations", {"member": ala})
    detail = refused(again, t, before, 409)["detail"]
    assert "approve" in detail and "reset" in detail
    # Only the member's own token registers a key of theirs: not the admin's, not another member's.
    stranger = Device()
    refused(t["admin"].post(f"{base}/members/{bob}/devices", {"key": stranger.key}), t, before)
    refused(t["api"][2].post(f"{base}/members/{bob}/devices", {"key": stranger.key}), t, before)
    # A key held by another member is no new device of Bob's.
    refused(t["api"][1].post(f"{base}/members/{bob}/devices", {"key": t["devices"][2].key}), t, before, 422)

    # Bob's second phone asks: 202, nothing appended, and it waits where his devices see it.
    phone = Device()
    asked = t["api"][1].post(f"{base}/members/{bob}/devices", {"key": phone.key})
    assert asked.status_code == 202 and asked.json == {"kid": phone.kid, "pending": True}, asked.json
    assert version(t) == before
    listed = t["api"][1].get(f"{base}/members/{bob}/devices").json
    assert [(w["kid"], w["key"]) for w in listed["waiting"]] == [(phone.kid, phone.key)]
    assert [d["kid"] for d in listed["devices"]] == [t["devices"][1].kid]

    approve = f"{base}/members/{bob}/devices/{phone.kid}/approve"
    fields = {"member": bob, "key": phone.key}
    unsigned = refused(t["api"][1].post(approve), t, before)
    assert unsigned["statement"] == {"act": "approve_device", "group": t["group"], "nonce": None, **fields}
    # Refused: the waiting phone approving itself, Ala's key, Bob's key over another key, the
    # admin's token or Cyd's token carrying Bob's good signature.
    refused(t["api"][1].post(approve, headers=phone.header("approve_device", t["group"], **fields)), t, before)
    refused(t["api"][1].post(approve, headers=t["devices"][0].header("approve_device", t["group"], **fields)),
            t, before)
    refused(t["api"][1].post(approve, headers=t["devices"][1].header("approve_device", t["group"], member=bob,
                                                                     key=stranger.key)), t, before)
    refused(t["admin"].post(approve, headers=t["devices"][1].header("approve_device", t["group"], **fields)),
            t, before)
    refused(t["api"][2].post(approve, headers=t["devices"][1].header("approve_device", t["group"], **fields)),
            t, before)
    assert t["api"][1].post(f"{base}/members/{bob}/devices/{stranger.kid}/approve",
                            headers=t["devices"][1].header("approve_device", t["group"], member=bob,
                                                           key=stranger.key)).status_code == 404  # never asked

    header = t["devices"][1].header("approve_device", t["group"], **fields)
    done = t["api"][1].post(approve, headers=header)
    assert done.status_code == 201 and done.json == {"member": bob, "kid": phone.kid}, done.json
    assert version(t) == before + 1
    event = log(t)[-1]
    assert event["type"] == "device_added" and event["actor"] == bob
    assert {k: event["data"][k] for k in ("member", "key", "kid", "via")} == \
        {"member": bob, "key": phone.key, "kid": phone.kid, "via": "approval"}
    assert signed_of(event, t["devices"][1])["nonce"] == header["Bitka-Signature"].split("nonce=")[1].split(",")[0]
    listed = t["api"][3].get(f"{base}/members/{bob}/devices").json  # any member reads a member's keys
    assert [d["kid"] for d in listed["devices"]] == [t["devices"][1].kid, phone.kid] and listed["waiting"] == []
    # The approved phone is a current key of Bob's: it signs his acts.
    put = t["api"][1].call("PUT", f"{base}/members/{bob}/pay-to", {"name": "Bob"},
                           headers=phone.header("pay_to", t["group"], member=bob, iban=None, name="Bob", pix=None,
                                                blik=None))
    assert put.status_code == 200, put.json


def test_a_keyed_payer_confirms_with_a_signature_over_the_hand_and_the_settlement_it_stands_on(client):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    whole = whole_kop_hand(t)
    hand = whole["id"]
    settlement = settled_by(t, hand)
    path = f"{t['base']}/hands/{hand}/confirm"
    before = version(t)
    unsigned = refused(t["api"][2].post(path), t, before)
    assert unsigned["statement"] == {"act": "confirm", "group": t["group"], "nonce": None, "hand": hand,
                                     "settlement": settlement}
    assert "confirm" in unsigned["detail"] and "Bitka-Signature" in unsigned["detail"]
    wrong = refused(confirm(t, 2, hand, settlement="0" * 64), t, before)
    assert wrong["statement"]["settlement"] == settlement and wrong["statement"]["nonce"] is not None

    r = confirm(t, 2, hand)  # Cyd, the first of the two payers
    assert r.status_code == 201, r.json
    assert r.json["confirmation"]["state"] == "pending" and r.json["confirmation"]["waiting_for"] == [ala]
    event = log(t)[-1]
    assert event["type"] == "confirmation" and event["hand"] == hand and event["actor"] == cyd
    assert event["data"]["settlement"] == settlement
    signed_of(event, t["devices"][2])
    assert balances(t) == [0, 0, 0, 0]

    # The end of an evening: one tap per player, one signature per hand. At a second table Ala
    # lost two zolos: she alone pays in them.
    second = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                                       "seats": t["ids"]}).json["id"]
    solo = [result_by_admin(t, ZOLO_LOST, second), result_by_admin(t, ZOLO_LOST, second)]
    h2, h3 = (h["id"] for h in solo)
    table = f"{t['base']}/tables/{second}/confirm"
    before = version(t)
    statements = refused(t["api"][0].post(table), t, before)["statements"]
    assert statements == [{"act": "confirm", "group": t["group"], "nonce": None, "hand": h,
                           "settlement": settled_by(t, h)} for h in (h2, h3)]

    def signature(seat, h, **over):
        return {"hand": h, **t["devices"][seat].signature("confirm", t["group"], hand=h,
                                                          settlement=settled_by(t, h), **over)}
    refused(t["api"][0].post(table, {"signatures": [signature(0, h2)]}), t, before)  # h3 unsigned
    one = signature(0, h2)
    same_nonce = {"hand": h3, **t["devices"][0].signature("confirm", t["group"], nonce=one["nonce"], hand=h3,
                                                          settlement=settled_by(t, h3))}
    refused(t["api"][0].post(table, {"signatures": [one, same_nonce]}), t, before)
    swapped = [{**signature(0, h2), "hand": h3}, {**signature(0, h3), "hand": h2}]
    refused(t["api"][0].post(table, {"signatures": swapped}), t, before)
    refused(t["api"][0].post(table, {"signatures": [signature(2, h2), signature(2, h3)]}), t, before)  # Cyd's kid
    refused(t["admin"].post(table, {"signatures": [signature(0, h2), signature(0, h3)]}), t, before)  # no member
    nothing = t["api"][2].post(table)  # nothing waits for Cyd there
    assert nothing.status_code == 201 and nothing.json == {"confirmed": []}, nothing.json
    assert version(t) == before
    done = t["api"][0].post(table, {"signatures": [signature(0, h3), signature(0, h2)]})
    assert done.status_code == 201 and done.json == {"confirmed": [h2, h3]}, done.json
    assert version(t) == before + 2
    for event, h in zip(log(t)[-2:], (h2, h3), strict=True):
        assert event["type"] == "confirmation" and event["hand"] == h and event["actor"] == ala
        assert event["data"]["settlement"] == settled_by(t, h)
        signed_of(event, t["devices"][0])
    owed = [sum(minor(p["amount"]) for h in solo for p in h["settlement"]["payouts"] if p["seat"] == s)
            for s in range(4)]
    assert balances(t) == owed and owed[0] < 0  # the whole Kop hand still waits for Ala


def test_a_hands_settlement_hash_stays_the_settlements_after_a_first_confirmation_or_dispute(client):
    """The second payer signs the hash of the event that settled the hand, as the first did:
    a confirmation or a dispute appended to the hand settles nothing."""
    t = keyed_group(client)
    whole, other = whole_kop_hand(t)["id"], result_by_admin(t, STARE_WIN)["id"]
    settled = {h: settled_by(t, h) for h in (whole, other)}
    assert confirm(t, 2, whole).status_code == 201  # Cyd confirms the whole hand
    ala = t["devices"][0]
    disputed = t["api"][0].post(f"{t['base']}/hands/{other}/dispute", {"reason": "40, not 70"},
                                headers=ala.header("dispute", t["group"], hand=other, settlement=settled[other],
                                                   reason="40, not 70"))
    assert disputed.status_code == 201, disputed.json  # Ala disputes the other
    assert {h: settled_by(t, h) for h in (whole, other)} == settled
    before = version(t)
    said = {
        "Ala confirming the whole hand after Cyd": refused(
            t["api"][0].post(f"{t['base']}/hands/{whole}/confirm"), t, before)["statement"]["settlement"],
        "Bob disputing the other after Ala": refused(
            t["api"][1].post(f"{t['base']}/hands/{other}/dispute", {"reason": "x"}), t, before)
        ["statement"]["settlement"]}
    assert said == {"Ala confirming the whole hand after Cyd": settled[whole],
                    "Bob disputing the other after Ala": settled[other]}, \
        "the statement names the hash of the hand's latest confirmation or dispute, not of its settlement"
    r = confirm(t, 0, whole)
    assert r.status_code == 201 and r.json["confirmation"]["state"] == "counted", r.json
    assert log(t)[-1]["data"]["settlement"] == settled[whole]
    assert balances(t) == [-300, 300, -300, 300]


def test_a_dispute_is_signed_over_the_hand_its_settlement_and_the_reason(client):
    t = keyed_group(client)
    hand = result_by_admin(t, STARE_WIN)["id"]
    path = f"{t['base']}/hands/{hand}/dispute"
    reason = {"reason": "Bob and Dan took 40, not 70"}
    before = version(t)
    said = refused(t["api"][0].post(path, reason), t, before)["statement"]
    assert said == {"act": "dispute", "group": t["group"], "nonce": None, "hand": hand,
                    "settlement": settled_by(t, hand), "reason": reason["reason"]}
    ala = t["devices"][0]
    other = ala.header("dispute", t["group"], hand=hand, settlement=settled_by(t, hand), reason="something else")
    refused(t["api"][0].post(path, reason, headers=other), t, before)
    as_confirm = ala.header("confirm", t["group"], hand=hand, settlement=settled_by(t, hand))
    refused(t["api"][0].post(path, reason, headers=as_confirm), t, before)
    good = ala.header("dispute", t["group"], hand=hand, settlement=settled_by(t, hand), reason=reason["reason"])
    r = t["api"][0].post(path, reason, headers=good)
    assert r.status_code == 201 and r.json["confirmation"]["state"] == "disputed", r.json
    event = log(t)[-1]
    assert event["type"] == "dispute" and event["data"]["reason"] == reason["reason"]
    assert event["data"]["settlement"] == settled_by(t, hand)
    signed_of(event, ala)


def test_a_hand_dealt_and_played_seat_by_seat_is_signed_by_each_seat_and_counts_at_once(client):
    t = keyed_group(client)
    table = t["admin"].post(f"{t['base']}/tables", {"game": "kop", "rules": {"entry": "seats"}, "stake": "1.00",
                                                      "seats": t["ids"]}).json["id"]
    opened = t["api"][0].post(f"{t['base']}/tables/{table}/hands", {"deal": {"dealer": 0}})  # opening: not signed
    assert opened.status_code == 201, opened.json
    hand = opened.json["id"]
    cards, plays = f"{t['base']}/hands/{hand}/cards", f"{t['base']}/hands/{hand}/plays"
    g = t["group"]
    before = version(t)
    said = refused(t["api"][1].post(cards, {"seat": 1, "cards": KOP_HANDS[1]}), t, before)["statement"]
    assert said == {"act": "cards", "group": g, "nonce": None, "hand": hand, "seat": 1, "cards": KOP_HANDS[1]}
    dev = t["devices"]
    # What a refused signature over cards does not match: the order, the seat, the hand.
    refused(t["api"][1].post(cards, {"seat": 1, "cards": KOP_HANDS[1]},
                             headers=dev[1].header("cards", g, hand=hand, seat=1, cards=sorted(KOP_HANDS[1]))),
            t, before)
    refused(t["api"][1].post(cards, {"seat": 1, "cards": KOP_HANDS[1]},
                             headers=dev[1].header("cards", g, hand=hand, seat=0, cards=KOP_HANDS[1])), t, before)
    refused(t["api"][1].post(cards, {"seat": 1, "cards": KOP_HANDS[1]},
                             headers=dev[1].header("cards", g, hand="h_other", seat=1, cards=KOP_HANDS[1])),
            t, before)
    # Seat 0 types its cards its own way; the statement names them canonically, in the order sent.
    typed = ["td", "jh", "J♦", "as"]
    r = t["api"][0].post(cards, {"seat": 0, "cards": typed},
                         headers=dev[0].header("cards", g, hand=hand, seat=0, cards=["10D", "JH", "JD", "AS"]))
    assert r.status_code == 201, r.json
    for seat in (1, 2, 3):
        r = t["api"][seat].post(cards, {"seat": seat, "cards": KOP_HANDS[seat]},
                                headers=dev[seat].header("cards", g, hand=hand, seat=seat, cards=KOP_HANDS[seat]))
        assert r.status_code == 201, r.json

    holder = {c: s for s, held in enumerate(KOP_HANDS) for c in held}
    first = KOP_TRICKS[0][0]
    before = version(t)
    said = refused(t["api"][1].post(plays, {"seat": 1, "card": first}), t, before)["statement"]
    assert said == {"act": "play", "group": g, "nonce": None, "hand": hand, "seat": 1, "card": first, "capture": None}
    refused(t["api"][1].post(plays, {"seat": 1, "card": first},  # no capture is null, not []
                             headers=dev[1].header("play", g, hand=hand, seat=1, card=first, capture=[])), t, before)
    refused(t["api"][1].post(plays, {"seat": 1, "card": first},  # another card
                             headers=dev[1].header("play", g, hand=hand, seat=1, card="AD", capture=None)),
            t, before)
    refused(t["api"][1].post(plays, {"seat": 1, "card": first},  # Dan's key, with Bob's token
                             headers=dev[3].header("play", g, hand=hand, seat=1, card=first, capture=None)),
            t, before)
    for trick in KOP_TRICKS:
        for card in trick:
            seat = holder[card]
            r = t["api"][seat].post(plays, {"seat": seat, "card": card},
                                    headers=dev[seat].header("play", g, hand=hand, seat=seat, card=card,
                                                             capture=None))
            assert r.status_code == 201, (card, r.json)
    state = t["admin"].get(f"{t['base']}/hands/{hand}").json
    assert state["confirmation"]["state"] == "counted", state["confirmation"]  # each seat sent its own, signed
    assert balances(t) == [-300, 300, -300, 300]
    events = [e for e in log(t) if e.get("hand") == hand]
    for e in events:
        if e["type"] == "seat_cards":
            signed_of(e, dev[e["data"]["seat"]])
        if e["type"] == "play":
            signed_of(e, dev[e["data"]["seat"]])
    assert sum(e["type"] == "play" for e in events) == 16 and sum(e["type"] == "seat_cards" for e in events) == 4


def test_a_seated_member_logging_a_result_signs_the_table_the_dealer_and_the_result_as_sent(client):
    t = keyed_group(client)
    g, bob = t["group"], t["devices"][1]
    path = f"{t['base']}/tables/{t['table']}/hands"
    before = version(t)
    said = refused(t["api"][1].post(path, {"result": STARE_WIN}), t, before)["statement"]
    assert said == {"act": "result", "group": g, "nonce": None, "table": t["table"], "dealer": 0, "result": STARE_WIN}
    refused(t["api"][1].post(path, {"result": STARE_WIN},  # the dealer is the table's next one: seat 0
                             headers=bob.header("result", g, table=t["table"], dealer=1, result=STARE_WIN)), t, before)
    refused(t["api"][1].post(path, {"result": STARE_WIN},  # another result
                             headers=bob.header("result", g, table=t["table"], dealer=0, result=STARE_LOSE)),
            t, before)
    refused(t["api"][3].post(path, {"result": STARE_WIN},  # Bob's signature, Dan's token
                             headers=bob.header("result", g, table=t["table"], dealer=0, result=STARE_WIN)),
            t, before)
    r = t["api"][1].post(path, {"result": STARE_WIN},
                         headers=bob.header("result", g, table=t["table"], dealer=0, result=STARE_WIN))
    assert r.status_code == 201, r.json
    assert r.json["confirmation"]["state"] == "pending"
    assert r.json["confirmation"]["waiting_for"] == [t["ids"][0], t["ids"][2]]
    [event] = [e for e in log(t) if e["type"] == "result"]
    assert event["actor"] == t["ids"][1] and event["table"] == t["table"]
    signed_of(event, bob)
    # With the dealer in the body, the statement names it.
    dealt = {"dealer": 1, "result": STARE_LOSE}
    r = t["api"][1].post(path, dealt, headers=bob.header("result", g, table=t["table"], **dealt))
    assert r.status_code == 201, r.json
    assert balances(t) == [0, 0, 0, 0]  # neither counts until its payers confirm


def test_pay_to_details_are_the_members_own_and_signed_as_sent(client):
    t = keyed_group(client)
    ala, g = t["ids"][0], t["group"]
    path = f"{t['base']}/members/{ala}/pay-to"
    sent = {"iban": "PL61 1090 1014 0000 0712 1981 2874", "name": "Ala Nowak", "pix": ""}
    fields = {"member": ala, "iban": sent["iban"], "name": "Ala Nowak", "pix": None, "blik": None}
    before = version(t)
    # Attack 5 of the issue: the admin sends a winner's money to another account. Never.
    refused(t["admin"].call("PUT", path, sent), t, before)
    refused(t["admin"].call("PUT", path, sent, headers=t["devices"][0].header("pay_to", g, **fields)), t, before)
    refused(t["api"][1].call("PUT", path, sent, headers=t["devices"][0].header("pay_to", g, **fields)), t, before)
    said = refused(t["api"][0].call("PUT", path, sent), t, before)["statement"]
    assert said == {"act": "pay_to", "group": g, "nonce": None, **fields}
    kept = {**fields, "iban": "PL61109010140000071219812874"}  # as kept, not as sent
    refused(t["api"][0].call("PUT", path, sent, headers=t["devices"][0].header("pay_to", g, **kept)), t, before)
    r = t["api"][0].call("PUT", path, sent, headers=t["devices"][0].header("pay_to", g, **fields))
    assert r.status_code == 200, r.json
    assert r.json["iban"] == "PL61109010140000071219812874" and r.json["name"] == "Ala Nowak"
    event = log(t)[-1]
    assert event["type"] == "pay_details" and event["actor"] == ala
    signed_of(event, t["devices"][0])
    assert t["api"][2].get(path).json["iban"] == "PL61109010140000071219812874"


def test_members_who_never_had_a_key_act_as_before_and_need_no_signature(client):
    t = keyed_group(client, keyed=(1,))  # only Bob holds a key
    ala, bob, cyd, dan = t["ids"]
    hand = whole_kop_hand(t)["id"]
    r = t["api"][0].post(f"{t['base']}/hands/{hand}/confirm")  # Ala: before keys
    assert r.status_code == 201 and r.json["confirmation"]["waiting_for"] == [cyd], r.json
    assert "signed" not in log(t)[-1]["data"]
    h2 = result_by_admin(t, STARE_LOSE)["id"]  # Bob and Dan pay
    d = t["api"][3].post(f"{t['base']}/hands/{h2}/dispute", {"reason": "we took 70"})
    assert d.status_code == 201 and "signed" not in log(t)[-1]["data"], d.json
    before = version(t)
    refused(t["api"][1].post(f"{t['base']}/hands/{h2}/confirm"), t, before)  # Bob holds a key: he signs
    put = t["api"][3].call("PUT", f"{t['base']}/members/{dan}/pay-to", {"name": "Dan"})
    assert put.status_code == 200, put.json
    assert t["admin"].call("PUT", f"{t['base']}/members/{dan}/pay-to", {"name": "Mallory"}).status_code == 403
    # Cyd, keyless, confirms the table in one tap with no body; then takes a key, and from then on signs.
    assert t["api"][2].post(f"{t['base']}/tables/{t['table']}/confirm").json == {"confirmed": [hand]}
    h3 = result_by_admin(t, STARE_WIN)["id"]
    assert t["api"][2].post(f"{t['base']}/members/{cyd}/devices", {"key": t["devices"][2].key}).status_code == 201
    before = version(t)
    refused(t["api"][2].post(f"{t['base']}/hands/{h3}/confirm"), t, before)
    assert confirm(t, 2, h3).status_code == 201
    assert balances(t) == [-300, 300, -300, 300]


def test_a_payment_counts_only_once_its_receiver_signs_for_it(client):
    t = keyed_group(client)
    ala, bob = t["ids"][:2]
    g = t["group"]
    paid = t["api"][0].post(f"{t['base']}/payments", {"from": ala, "to": bob, "amount": "3.00"})  # Ala, the payer
    assert paid.status_code == 201, paid.json
    event = log(t)[-1]
    shown = t["admin"].get(f"{t['base']}/balances").json
    assert balances(t) == [0, 0, 0, 0]
    assert shown["pending"] == [{"payment": event["seq"], "state": "pending", "from": ala, "to": bob,
                                 "amount": "3.00", "waiting_for": [bob]}]
    path = f"{t['base']}/payments/{event['seq']}/confirm"
    before = version(t)
    said = refused(t["api"][1].post(path), t, before)["statement"]
    assert said == {"act": "confirm_payment", "group": g, "nonce": None, "payment": event["hash"]}
    refused(t["api"][0].post(path, headers=t["devices"][0].header("confirm_payment", g, payment=event["hash"])),
            t, before)  # the payer does not confirm what she says she paid
    r = t["api"][1].post(path, headers=t["devices"][1].header("confirm_payment", g, payment=event["hash"]))
    assert r.status_code == 201, r.json
    assert balances(t) == [300, -300, 0, 0]
    # The receiver recording it himself signs `received`, and it counts at once.
    body = {"from": ala, "to": bob, "amount": "1.00"}
    before = version(t)
    refused(t["api"][1].post(f"{t['base']}/payments", body), t, before)
    r = t["api"][1].post(f"{t['base']}/payments", body,
                         headers=t["devices"][1].header("received", g, **body))
    assert r.status_code == 201, r.json
    assert balances(t) == [400, -400, 0, 0]


@ON_SQLITE
def test_verify_replay_and_import_name_an_unsigned_or_forged_act_written_into_the_store(client, app, tmp_path):
    t = keyed_group(client)
    db = app.config["BITKA_DB"]
    hand = whole_kop_hand(t)["id"]
    assert confirm(t, 2, hand).status_code == 201  # Cyd signs: the honest part
    assert run("--db", db, "verify").exit_code == 0
    store = app.extensions["bitka.store"]
    # Whoever runs the server writes acts past the API, hash chain and all: Ala's confirmation
    # unsigned, then one "signed" with a signature over something else.
    forged = {"kid": t["devices"][0].kid, "nonce": "ab" * 16, "sig": t["devices"][0].sign({"act": "forged"})}
    with store.writing(t["group"]) as w:
        w.append(t["group"], [NewEvent("confirmation", {"settlement": settled_by(t, hand)}, hand=hand,
                                       table=t["table"])], t["ids"][0], expected_version=w.version(t["group"]))
    unsigned_seq = log(t)[-1]["seq"]
    h2 = result_by_admin(t, ZOLO_LOST)["id"]
    with store.writing(t["group"]) as w:
        w.append(t["group"], [NewEvent("confirmation", {"settlement": settled_by(t, h2), "signed": forged},
                                       hand=h2, table=t["table"])], t["ids"][0],
                 expected_version=w.version(t["group"]))
    forged_seq = log(t)[-1]["seq"]
    out = tmp_path / "log.jsonl"
    assert run("--db", db, "export", "--group", t["group"], "--out", str(out)).exit_code == 0
    for name, found in (("verify", run("--db", db, "verify")), ("replay", run("--db", db, "replay")),
                        ("import", run("--db", str(tmp_path / "imported.db"), "import", str(out)))):
        assert found.exit_code == 1, (name, found.output)
        assert "Traceback" not in found.output, (name, found.output)
        assert f"seq {unsigned_seq}" in found.output or f"seq {forged_seq}" in found.output, (name, found.output)
    said = run("--db", db, "verify").output
    assert f"seq {unsigned_seq}" in said and f"seq {forged_seq}" in said, said


# ---------------------------------------------------------------------------------------
# Corrections that wait for the members they lower, and draws from the players' check-ins.

def test_a_correction_that_lowers_members_amounts_counts_only_once_each_of_them_signs_agree(client):
    t = keyed_group(client)
    g = t["group"]
    lost = result_by_admin(t, ZOLO_LOST)  # Ala alone pays, and confirms: it counts
    hand = lost["id"]
    assert confirm(t, 0, hand).status_code == 201
    counted = [minor(p["amount"]) for p in lost["settlement"]["payouts"]]
    assert balances(t) == counted and counted[0] < 0 < counted[1]
    won = {**ZOLO_LOST, "points": 70, "tricks": 3}
    fixed = t["admin"].post(f"{t['base']}/hands/{hand}/correct", {"reason": "Ala took 70", "result": won})
    assert fixed.status_code == 201, fixed.json
    c_hash = next(e["hash"] for e in log(t) if e["type"] == "correction")
    # Bob, Cyd and Dan now pay: until each of them agrees, the hand counts as before.
    assert balances(t) == counted
    path = f"{t['base']}/hands/{hand}/agree"
    before = version(t)
    said = refused(t["api"][1].post(path), t, before)["statement"]
    assert said == {"act": "agree", "group": g, "nonce": None, "hand": hand, "correction": c_hash}
    refused(t["api"][0].post(path, headers=t["devices"][0].header("agree", g, hand=hand, correction=c_hash)),
            t, before)  # Ala is not lowered by it
    refused(t["api"][1].post(path, headers=t["devices"][2].header("agree", g, hand=hand, correction=c_hash)),
            t, before)  # Cyd's key, Bob's token
    for seat in (1, 2):
        r = t["api"][seat].post(path, headers=t["devices"][seat].header("agree", g, hand=hand, correction=c_hash))
        assert r.status_code == 201, r.json
        assert balances(t) == counted
    r = t["api"][3].post(path, headers=t["devices"][3].header("agree", g, hand=hand, correction=c_hash))
    assert r.status_code == 201, r.json
    now = [minor(p["amount"]) for p in fixed.json["hand"]["settlement"]["payouts"]]
    assert balances(t) == now and now[0] > 0


def test_a_tournament_round_is_drawn_from_every_players_signed_check_in_entropy(client):
    t = keyed_group(client)
    g = t["group"]
    made = t["admin"].post(f"{t['base']}/tournaments", {"name": "Puchar", "game": "kop", "rules": {},
                                                         "players": t["ids"], "rounds": 1, "deals": 1,
                                                         "places": [5, 3, 1, 0], "stake": "1.00"})
    assert made.status_code == 201, made.json
    assert made.json["draw"] == 2
    x = made.json["id"]
    rounds = f"{t['base']}/tournaments/{x}/rounds"
    before = version(t)
    early = refused(t["admin"].post(rounds, {}), t, before, 422)
    assert all(NAMES[i] in early["detail"] for i in range(4))
    entropies = []
    for seat in range(4):
        entropy = hashlib.sha256(f"entropy {seat}".encode()).hexdigest()
        path = f"{rounds}/1/check-in"
        fields = {"tournament": x, "round": 1, "entropy": entropy}
        if seat == 0:
            refused(t["api"][0].post(path, {"entropy": entropy}), t, version(t))
        r = t["api"][seat].post(path, {"entropy": entropy}, headers=t["devices"][seat].header("check_in", g, **fields))
        assert r.status_code == 201, r.json
        entropies.append(bytes.fromhex(entropy))
    last = log(t)[-1]
    assert last["type"] == "check_in" and last["data"]["entropy"] == entropies[-1].hex()
    drawn = t["admin"].post(rounds, {})
    assert drawn.status_code == 201, drawn.json
    seed = hashlib.sha256(bytes.fromhex(drawn.json["secret"]) + b"".join(entropies)).hexdigest()
    assert drawn.json["seed"] == seed and drawn.json["after"] == last["seq"]
