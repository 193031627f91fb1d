"""The attacker's tests of "Members hold their own keys" (API.md): each one is what the old
design let through, a token being all a member's word was. The organizer who is also the
admin, the operator who writes rows into the store, a proxy between a phone and the server,
a thief with a stolen phone: none of them confirms in a payer's name without that payer's
key, and each refusal appends nothing. And input that is not a signature or a key is a 400
problem, never a 500."""
from __future__ import annotations

import hashlib
import secrets

from tests.api.test_member_keys import (PROBLEM, STARE_WIN, balances, confirm, keyed_group, log,
                                        refused, result_by_admin, settled_by, signed_of, version, whole_kop_hand)
from tests.backends import run_raw
from tests.keys.devices import Device, b64url


def _pending_for(t, hand: str) -> list[str]:
    return t["admin"].get(f"{t['base']}/hands/{hand}").json["confirmation"]["waiting_for"]


def test_the_organizer_who_is_the_admin_cannot_confirm_in_a_keyed_payers_name_with_any_token_it_can_get(client):
    t = keyed_group(client, keyed=(1, 2, 3), organizer=True)
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    ola, ola_api = t["ola"], t["ola_api"]
    # Before Ala joins, the organizer keeps a spare invitation for her; Ala joins by another one.
    spare, link = (t["admin"].post(f"{base}/invitations", {"member": ala}).json["code"] for _ in range(2))
    joined = client.post(f"/v1/invitations/{link}", {"key": t["devices"][0].key})
    assert joined.status_code == 201 and joined.json["kid"] == t["devices"][0].kid, joined.json
    t["api"][0] = client.as_(joined.json["token"])
    hand = whole_kop_hand(t)["id"]  # Ala and Cyd pay 3.00 each; Ola, the organizer, wants Ala's 3.00 counted
    path = f"{base}/hands/{hand}/confirm"
    before = version(t)
    # The old way: a fresh invitation for Ala, redeemed by the organizer. A 409 now, and no code.
    invitation = t["admin"].post(f"{base}/invitations", {"member": ala})
    assert "code" not in refused(invitation, t, before, 409)
    # The spare one, kept from before Ala had a key, signs nobody in as her now, with a key or without.
    mallory = Device()
    refused(client.post(f"/v1/invitations/{spare}", {"key": mallory.key}), t, before, 409)
    refused(client.post(f"/v1/invitations/{spare}"), t, before, 409)
    # Another way to a token of Ala's: the admin rotates it. A token, but no signature.
    rotated = t["admin"].post(f"{base}/members/{ala}/token")
    assert rotated.status_code == 201 and rotated.json["token"], rotated.json
    assert version(t) == before
    assert t["api"][0].get(base).status_code == 401  # Ala's own token stopped, as rotation does
    as_ala = client.as_(rotated.json["token"])
    assert as_ala.get(base).status_code == 200  # the organizer is signed in as Ala...
    statement = refused(as_ala.post(path), t, before)["statement"]  # ...but cannot confirm
    assert statement["hand"] == hand and statement["act"] == "confirm"
    refused(confirm(t, 0, hand, device=ola, api=as_ala), t, before)  # Ola's own key is no key of Ala's
    refused(confirm(t, 0, hand, device=ola, api=ola_api), t, before)  # Ola pays nothing in it
    refused(t["admin"].post(path, headers=ola.header("confirm", g, hand=hand, settlement=settled_by(t, hand))),
            t, before)  # the admin token is no member
    table = f"{base}/tables/{t['table']}/confirm"
    refused(as_ala.post(table), t, before)
    refused(as_ala.post(table, {"signatures": [{"hand": hand, **ola.signature("confirm", g, hand=hand,
                                                                                 settlement=settled_by(t, hand))}]}),
            t, before)
    # Nor can the organizer give Ala a key of its own making: not as the admin, not as Ola...
    refused(t["admin"].post(f"{base}/members/{ala}/devices", {"key": mallory.key}), t, before)
    refused(ola_api.post(f"{base}/members/{ala}/devices", {"key": mallory.key}), t, before)
    # ...and with Ala's rotated token the key only waits for one of Ala's own devices.
    asked = as_ala.post(f"{base}/members/{ala}/devices", {"key": mallory.key})
    assert asked.status_code == 202 and asked.json == {"kid": mallory.kid, "pending": True}, asked.json
    approve = f"{base}/members/{ala}/devices/{mallory.kid}/approve"
    fields = {"member": ala, "key": mallory.key}
    for who, device in ((as_ala, mallory), (as_ala, ola), (t["admin"], ola), (t["admin"], mallory),
                        (ola_api, ola), (ola_api, mallory)):
        refused(who.post(approve, headers=device.header("approve_device", g, **fields)), t, before)
    refused(confirm(t, 0, hand, device=mallory, api=as_ala), t, before)  # a waiting key signs nothing
    assert version(t) == before and _pending_for(t, hand) == [ala, cyd] and balances(t) == [0, 0, 0, 0]
    keys = t["admin"].get(f"{base}/members/{ala}/devices").json
    assert [d["kid"] for d in keys["devices"]] == [t["devices"][0].kid]  # Ala's phone, and only it
    assert [w["kid"] for w in keys["waiting"]] == [mallory.kid]  # what Ala's phone shows her to refuse
    # Ala herself, handed the new token: her phone's signature is what binds her.
    r = confirm(t, 0, hand, api=as_ala)
    assert r.status_code == 201, r.json
    signed_of(log(t)[-1], t["devices"][0])


def test_a_token_the_operator_writes_into_the_store_is_a_token_but_no_members_signature(client, app):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    hand = whole_kop_hand(t)["id"]
    token = secrets.token_urlsafe(32)
    run_raw(app.extensions["bitka.store"],  # whoever holds the store file (or the database) writes a row
            f"INSERT INTO credentials (token_hash, group_id, subject) VALUES "
            f"('{hashlib.sha256(token.encode()).hexdigest()}', '{g}', '{cyd}')")
    as_cyd = client.as_(token)
    assert as_cyd.get(base).status_code == 200  # the row is a token the service knows
    before = version(t)
    refused(as_cyd.post(f"{base}/hands/{hand}/confirm"), t, before)
    operator = Device()
    refused(confirm(t, 2, hand, device=operator, api=as_cyd), t, before)
    refused(confirm(t, 2, hand, device=t["devices"][1], api=as_cyd), t, before)  # Bob's real key is not Cyd's
    refused(as_cyd.post(f"{base}/tables/{t['table']}/confirm"), t, before)
    refused(as_cyd.post(f"{base}/hands/{hand}/dispute", {"reason": "no"}), t, before)
    refused(as_cyd.call("PUT", f"{base}/members/{cyd}/pay-to", {"iban": "DE89 3704 0044 0532 0130 00"}), t, before)
    refused(as_cyd.post(f"{base}/tables/{t['table']}/hands", {"result": STARE_WIN}), t, before)
    asked = as_cyd.post(f"{base}/members/{cyd}/devices", {"key": operator.key})
    assert asked.status_code == 202 and asked.json["pending"] is True, asked.json
    refused(as_cyd.post(f"{base}/members/{cyd}/devices/{operator.kid}/approve",
                        headers=operator.header("approve_device", g, member=cyd, key=operator.key)), t, before)
    assert _pending_for(t, hand) == [ala, cyd] and balances(t) == [0, 0, 0, 0]
    assert confirm(t, 2, hand).status_code == 201  # Cyd's own phone, with her own token


def test_a_signature_binds_only_the_statement_it_was_made_for(client):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    h1 = whole_kop_hand(t)["id"]
    h2 = result_by_admin(t, STARE_WIN)["id"]  # Ala and Cyd pay in both
    cyd_dev, ala_dev = t["devices"][2], t["devices"][0]
    s1, s2 = settled_by(t, h1), settled_by(t, h2)
    other = keyed_group(client)  # a group of its own, where Cyd's namesake holds another key
    before = version(t)
    for_h1 = cyd_dev.header("confirm", g, hand=h1, settlement=s1)
    cases = {
        "swapped onto another hand's confirm": (f"{base}/hands/{h2}/confirm", None, for_h1),
        "another hand, its own settlement": (f"{base}/hands/{h2}/confirm", None,
                                             cyd_dev.header("confirm", g, hand=h2, settlement=s1)),
        "this hand, another hand's settlement": (f"{base}/hands/{h1}/confirm", None,
                                                 cyd_dev.header("confirm", g, hand=h1, settlement=s2)),
        "another group": (f"{base}/hands/{h1}/confirm", None,
                          cyd_dev.header("confirm", other["group"], hand=h1, settlement=s1)),
        "another act: a dispute's signature on a confirm": (
            f"{base}/hands/{h1}/confirm", None,
            cyd_dev.header("dispute", g, hand=h1, settlement=s1, reason="no")),
        "a confirm's signature swapped onto a dispute": (f"{base}/hands/{h1}/dispute", {"reason": "no"}, for_h1),
        "a kid of another member (Ala's own good signature, Cyd's token)": (
            f"{base}/hands/{h1}/confirm", None, ala_dev.header("confirm", g, hand=h1, settlement=s1)),
        "Cyd's kid, another key's signature": (
            f"{base}/hands/{h1}/confirm", None,
            {"Bitka-Signature": for_h1["Bitka-Signature"].split("sig=")[0]
             + "sig=" + ala_dev.signature("confirm", g, hand=h1, settlement=s1)["sig"]}),
        "a nonce other than the one signed": (
            f"{base}/hands/{h1}/confirm", None,
            {"Bitka-Signature": for_h1["Bitka-Signature"].replace(
                for_h1["Bitka-Signature"].split("nonce=")[1].split(",")[0], secrets.token_hex(16))}),
        "no header: a proxy stripped it": (f"{base}/hands/{h1}/confirm", None, {}),
    }
    for why, (path, body, header) in cases.items():
        r = t["api"][2].post(path, body, headers=header)
        assert r.status_code == 403, (why, r.status_code, r.json)
        assert r.content_type.startswith(PROBLEM) and "statement" in r.json, (why, r.json)
        assert version(t) == before, why
    # The same header, untouched, on the request it was made for.
    r = t["api"][2].post(f"{base}/hands/{h1}/confirm", headers=for_h1)
    assert r.status_code == 201, r.json
    nonce = signed_of(log(t)[-1], cyd_dev)["nonce"]
    before = version(t)
    # A nonce the group's log holds is spent: Cyd's again, or by Ala, over a fresh statement.
    refused(t["api"][2].post(f"{base}/hands/{h2}/confirm",
                             headers=cyd_dev.header("confirm", g, nonce=nonce, hand=h2, settlement=s2)), t, before)
    refused(t["api"][0].post(f"{base}/hands/{h2}/confirm",
                             headers=ala_dev.header("confirm", g, nonce=nonce, hand=h2, settlement=s2)), t, before)
    refused(t["api"][2].post(f"{base}/tables/{t['table']}/confirm", {"signatures": [
        {"hand": h2, **cyd_dev.signature("confirm", g, nonce=nonce, hand=h2, settlement=s2)}]}), t, before)
    # In the other group the same nonce is fresh: its log holds nothing of this one.
    oh = result_by_admin(other, STARE_WIN)["id"]
    r = other["api"][2].post(f"{other['base']}/hands/{oh}/confirm", headers=other["devices"][2].header(
        "confirm", other["group"], nonce=nonce, hand=oh, settlement=settled_by(other, oh)))
    assert r.status_code == 201, r.json
    # A table's one tap: a signature swapped between hands does not confirm either.
    r = t["api"][2].post(f"{base}/tables/{t['table']}/confirm", {"signatures": [
        {"hand": h2, **cyd_dev.signature("confirm", g, hand=h1, settlement=s1)}]})
    refused(r, t, before)
    r = t["api"][2].post(f"{base}/hands/{h2}/confirm", headers=cyd_dev.header("confirm", g, hand=h2, settlement=s2))
    assert r.status_code == 201 and _pending_for(t, h2) == [ala], r.json


def test_a_signature_over_a_settlement_that_a_correction_replaced_no_longer_confirms(client):
    """Baśka, bytow-2005: hand 1 is settled; the admin corrects hand 0 into a du, which makes
    hand 1 part of a bok-runda and settles it again. A signature Bob made over hand 1's first
    settlement (kept by a phone that was offline, or by a proxy) no longer confirms it."""
    t = keyed_group(client, game="baska", rules={"variant": "bytow-2005"})
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    plain = {"contract": "normal", "stare": [0, 2], "doubles": [], "points": 70, "tricks": 3}  # Bob and Dan pay
    du = {"contract": "zolo-du", "declarer": 1, "doubles": [], "points": 104, "tricks": 4}
    h0, h1 = result_by_admin(t, plain)["id"], result_by_admin(t, plain)
    assert h1["settlement"].get("bok_runda") is not True
    h1 = h1["id"]
    first = settled_by(t, h1)
    kept = t["devices"][1].header("confirm", g, hand=h1, settlement=first)
    fixed = t["admin"].post(f"{base}/hands/{h0}/correct", {"reason": "it was Bob's du", "result": du})
    assert fixed.status_code == 201, fixed.json
    assert h1 in {a["hand"] for a in fixed.json["correction"]["adjustments"]}
    assert t["admin"].get(f"{base}/hands/{h1}").json["settlement"]["bok_runda"] is True
    now = settled_by(t, h1)
    assert now != first and now == log(t)[-1]["hash"]  # the correction settled it again
    before = version(t)
    said = refused(t["api"][1].post(f"{base}/hands/{h1}/confirm", headers=kept), t, before)["statement"]
    assert said["settlement"] == now, said
    r = confirm(t, 1, h1)
    assert r.status_code == 201, r.json
    assert log(t)[-1]["data"]["settlement"] == now


def test_a_lost_phone_reset_stops_its_key_and_tokens_and_a_new_key_confirms_where_everyone_sees_it(client):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    hand = whole_kop_hand(t)["id"]
    old = t["devices"][0]
    stolen = old.header("confirm", g, hand=hand, settlement=settled_by(t, hand))  # the thief holds Ala's phone
    before = version(t)
    refused(t["api"][1].post(f"{base}/members/{ala}/reset", {"reason": "Bob says so"}), t, before)  # admin only
    refused(t["api"][0].post(f"{base}/members/{ala}/reset", {"reason": "me"}), t, before)
    reason = "Ala's phone was stolen on the tram"
    reset = t["admin"].post(f"{base}/members/{ala}/reset", {"reason": reason})
    assert reset.status_code == 201, reset.json
    assert reset.json["member"] == ala and reset.json["stopped"] == [old.kid], reset.json
    event = log(t)[-1]
    assert event["type"] == "member_reset" and event["actor"] == "admin"
    assert event["data"]["member"] == ala and event["data"]["reason"] == reason
    before = version(t)
    assert t["api"][0].get(base).status_code == 401  # the phone's token stopped with its key
    assert t["api"][0].post(f"{base}/hands/{hand}/confirm", headers=stolen).status_code == 401
    # A token the admin mints for Ala carries the stopped key no further, nor none at all:
    # a reset does not take Ala back to before keys.
    minted = client.as_(t["admin"].post(f"{base}/members/{ala}/token").json["token"])
    stopped = refused(minted.post(f"{base}/hands/{hand}/confirm", headers=stolen), t, before)
    assert "reset" in stopped["detail"] or "stopped" in stopped["detail"], stopped["detail"]
    refused(minted.post(f"{base}/hands/{hand}/confirm"), t, before)
    # Ala joins again by a new invitation with her new phone's key: "via": "reset".
    invitation = t["admin"].post(f"{base}/invitations", {"member": ala})
    assert invitation.status_code == 201, invitation.json
    phone = Device()
    joined = client.post(f"/v1/invitations/{invitation.json['code']}", {"key": phone.key})
    assert joined.status_code == 201 and joined.json["kid"] == phone.kid, joined.json
    event = log(t)[-1]
    assert event["type"] == "device_added" and event["data"]["via"] == "reset" and event["data"]["kid"] == phone.kid
    shown = t["api"][2].get(f"{base}/members/{ala}/devices").json  # Cyd sees it all
    assert [(d["kid"], d["via"], d["stopped_at"] is not None) for d in shown["devices"]] == \
        [(old.kid, "invitation", True), (phone.kid, "reset", False)]
    assert [r["reason"] for r in shown["resets"]] == [reason]
    before = version(t)
    refused(client.as_(joined.json["token"]).post(f"{base}/hands/{hand}/confirm", headers=stolen), t, before)
    r = confirm(t, 0, hand, device=phone, api=client.as_(joined.json["token"]))
    assert r.status_code == 201, r.json
    signed_of(log(t)[-1], phone)


# Headers that are not `kid=<32 hex>, nonce=<32 hex>, sig=<base64url of 64 bytes>`.
KID, NONCE, SIG = "0" * 32, "1" * 32, b64url(bytes(64))
BAD_HEADERS = {
    "empty": "",
    "spaces": "   ",
    "no sig": f"kid={KID}, nonce={NONCE}",
    "no nonce": f"kid={KID}, sig={SIG}",
    "no kid": f"nonce={NONCE}, sig={SIG}",
    "a part twice": f"kid={KID}, kid={KID}, nonce={NONCE}, sig={SIG}",
    "a part more": f"kid={KID}, nonce={NONCE}, sig={SIG}, alg=ed25519",
    "no equals": f"kid {KID}, nonce={NONCE}, sig={SIG}",
    "semicolons": f"kid={KID}; nonce={NONCE}; sig={SIG}",
    "kid not hex": f"kid={'z' * 32}, nonce={NONCE}, sig={SIG}",
    "kid upper case": f"kid={'AB' * 16}, nonce={NONCE}, sig={SIG}",
    "kid short": f"kid={'0' * 31}, nonce={NONCE}, sig={SIG}",
    "kid long": f"kid={'0' * 33}, nonce={NONCE}, sig={SIG}",
    "kid empty": f"kid=, nonce={NONCE}, sig={SIG}",
    "nonce not hex": f"kid={KID}, nonce={'g' * 32}, sig={SIG}",
    "nonce short": f"kid={KID}, nonce={'1' * 30}, sig={SIG}",
    "nonce long": f"kid={KID}, nonce={'1' * 64}, sig={SIG}",
    "sig not base64url": f"kid={KID}, nonce={NONCE}, sig={'!' * 86}",
    "sig of 63 bytes": f"kid={KID}, nonce={NONCE}, sig={b64url(bytes(63))}",
    "sig of 65 bytes": f"kid={KID}, nonce={NONCE}, sig={b64url(bytes(65))}",
    "sig empty": f"kid={KID}, nonce={NONCE}, sig=",
    "sig standard base64": f"kid={KID}, nonce={NONCE}, sig={'+/' * 43}",
    "huge kid": f"kid={'a' * 100_000}, nonce={NONCE}, sig={SIG}",
    "huge sig": f"kid={KID}, nonce={NONCE}, sig={'A' * 200_000}",
    "huge header": "kid=" + ",".join(["x"] * 50_000),
    "latin-1 bytes": f"kid={'é' * 32}, nonce={NONCE}, sig={SIG}",
}
# Keys that are not the base64url of 32 bytes.
BAD_KEYS = {
    "31 bytes": b64url(bytes(range(31))),
    "33 bytes": b64url(bytes(range(33))),
    "64 bytes": b64url(bytes(range(64))),
    "empty": "",
    "not base64url": "!" * 43,
    "standard base64": "+/" * 21 + "A",
    "huge": "A" * 100_000,
    "a number": 12345,
    "null": None,
    "a list": [b64url(bytes(32))],
    "an object": {"key": b64url(bytes(32))},
}


def test_malformed_signature_headers_and_keys_are_400_problems_never_500_and_append_nothing(client):
    t = keyed_group(client)
    ala, bob, cyd, dan = t["ids"]
    g, base = t["group"], t["base"]
    hand = whole_kop_hand(t)["id"]
    phone = Device()
    assert t["api"][1].post(f"{base}/members/{bob}/devices", {"key": phone.key}).status_code == 202
    before = version(t)

    def bad(r, why):
        assert r.status_code == 400, (why, r.status_code, r.get_data(as_text=True)[:300])
        assert r.content_type.startswith(PROBLEM), (why, r.content_type)
        assert {"type", "title", "status", "detail"} <= set(r.json), (why, r.json)
        assert version(t) == before, why

    for why, text in BAD_HEADERS.items():
        header = {"Bitka-Signature": text}
        bad(t["api"][2].post(f"{base}/hands/{hand}/confirm", headers=header), f"confirm: {why}")
        bad(t["api"][0].post(f"{base}/hands/{hand}/dispute", {"reason": "no"}, headers=header), f"dispute: {why}")
        bad(t["api"][1].post(f"{base}/members/{bob}/devices/{phone.kid}/approve", headers=header),
            f"approve: {why}")
        bad(t["api"][1].call("PUT", f"{base}/members/{bob}/pay-to", {"name": "Bob"}, headers=header),
            f"pay-to: {why}")
        bad(t["api"][1].post(f"{base}/tables/{t['table']}/hands", {"result": STARE_WIN}, headers=header),
            f"result: {why}")
    good = {"hand": hand, **t["devices"][2].signature("confirm", g, hand=hand, settlement=settled_by(t, hand))}
    bodies = {
        "signatures not a list": {"signatures": "x"},
        "a signature not an object": {"signatures": ["x"]},
        "no kid": {"signatures": [{k: v for k, v in good.items() if k != "kid"}]},
        "no hand": {"signatures": [{k: v for k, v in good.items() if k != "hand"}]},
        "kid not hex": {"signatures": [{**good, "kid": "z" * 32}]},
        "nonce short": {"signatures": [{**good, "nonce": "1" * 31}]},
        "sig of 63 bytes": {"signatures": [{**good, "sig": b64url(bytes(63))}]},
        "sig not base64url": {"signatures": [{**good, "sig": "*" * 86}]},
        "sig a number": {"signatures": [{**good, "sig": 7}]},
        "hand huge": {"signatures": [{**good, "hand": "h" * 100_000}]},
        "a list body": [good],
        "a string body": "signatures",
        "too many": {"signatures": [good] * 1001},
    }
    for why, body in bodies.items():
        bad(t["api"][2].post(f"{base}/tables/{t['table']}/confirm", body), f"table confirm: {why}")
    not_json = t["api"][2].http.post(f"{base}/tables/{t['table']}/confirm", data=b"{not json",
                                     headers={"Authorization": f"Bearer {t['tokens'][2]}",
                                              "Content-Type": "application/json"})
    bad(not_json, "table confirm: not JSON")

    dan_new = Device()
    for why, key in BAD_KEYS.items():
        bad(t["api"][1].post(f"{base}/members/{bob}/devices", {"key": key}), f"devices: {why}")
        bad(client.post("/v1/groups", {"name": "Ola's", "currency": "PLN", "organizer": {"name": "Ola", "key": key}}),
            f"organizer: {why}")
    # A key that is no key, at an invitation: a 400, and the code is not used up by it.
    r = t["admin"].post(f"{base}/members", {"name": "Ewa"})
    ewa = r.json["id"]
    code = t["admin"].post(f"{base}/invitations", {"member": ewa}).json["code"]
    before = version(t)
    for why, key in BAD_KEYS.items():
        bad(client.post(f"/v1/invitations/{code}", {"key": key}), f"invitation: {why}")
    joined = client.post(f"/v1/invitations/{code}", {"key": dan_new.key})
    assert joined.status_code == 201 and joined.json["kid"] == dan_new.kid, joined.json
    # Nothing the checks above met was a member's act: every pending settlement still waits.
    assert _pending_for(t, hand) == [ala, cyd] and balances(t) == [0, 0, 0, 0]
    assert not any(e["type"] == "confirmation" for e in log(t))
