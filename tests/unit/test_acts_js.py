"""The phones' witness checks members' signed acts as ``bitka verify`` does: static/acts.js, its
port of events/acts.py and projections/signatures.py, gives the same verdict as the Python on
the same log, event by event: an honest log of a keyed group (cards and plays signed seat by
seat, confirmations, a dispute, agreements to a void that lowered their members, pay-to details,
payments received, a device approved, a reset and a new first key after it), and that log forged
in each of the ways a store could be rewritten behind the members' backs (a signature dropped, a
field changed under it, a nonce used twice, a key nothing explains, one member's word said to be
another's, the admin setting how a member takes money...).

node runs acts.js (an ES module, beside keys.js and the vendored noble) once per log; the logs
are made through the API, then read whole (every hand over, so nothing is sealed)."""
from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from projections.signatures import Signatures
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.keys.devices import Device
from tests.keys.table import keyed_group

STATIC = Path(__file__).resolve().parents[2] / "service" / "web" / "static"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH: acts.js cannot be run here")

DRIVER = r"""
import { Signatures } from "./static/acts.js";
const input = JSON.parse(await new Promise((resolve) => {
  let text = ""; process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => { text += chunk; }); process.stdin.on("end", () => resolve(text));
}));
const out = input.logs.map(({ group, events }) => {
  const check = new Signatures(group);
  const found = events.map((e) => check.add(e));
  // The state is plain JSON: a phone keeps it between visits and goes on from where it was.
  const again = new Signatures(group);
  const half = Math.floor(events.length / 2);
  const first = events.slice(0, half).map((e) => again.add(e));
  const kept = new Signatures(group, JSON.parse(JSON.stringify(again.s)));
  return { found, resumed: [...first, ...events.slice(half).map((e) => kept.add(e))] };
});
process.stdout.write(JSON.stringify(out));
"""


def witness_verdicts(logs: list[tuple[str, list[dict]]]) -> list[dict]:
    """What acts.js finds of each event of each log (and again, resumed half way from its kept state)."""
    where = Path(__import__("tempfile").mkdtemp(prefix="acts_js"))
    try:
        (where / "static").mkdir()
        for name in ("acts.js", "keys.js"):
            shutil.copy(STATIC / name, where / "static" / name)
        shutil.copytree(STATIC / "vendor", where / "static" / "vendor")
        (where / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        (where / "driver.js").write_text(DRIVER, encoding="utf-8")
        given = {"logs": [{"group": group, "events": events} for group, events in logs]}
        done = subprocess.run([NODE, "driver.js"], cwd=where, input=json.dumps(given), capture_output=True,
                              text=True, encoding="utf-8", timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    finally:
        shutil.rmtree(where, ignore_errors=True)


def python_verdicts(group: str, events: list[dict]) -> list[str | None]:
    check = Signatures(group)
    return [check.add(SimpleNamespace(group=group, **{k: e.get(k) for k in (
        "seq", "type", "hand", "table", "data", "actor", "hash", "recorded_at")})) for e in events]


def same(py: str | None, js: str | None) -> bool:
    """The same verdict: both none, or the same sentence (an unreadable signature's own reason,
    which each language words its way, aside)."""
    if py is None or js is None:
        return py is js
    cut = "its signature cannot be read ("
    return py.split(cut)[0] == js.split(cut)[0] if cut in py else py == js


# ---------------------------------------------------------------------------------------------
# An honest log, made through the API.

def honest_log(client) -> tuple[str, list[dict], dict]:
    g = keyed_group(client, seats=True)
    base, dev = f"/v1/groups/{g.id}", g.devices
    ids = g.members

    def as_(seat):
        return g.tokens[ids[seat]]

    # A hand dealt and played seat by seat, every seat's cards and every card signed by its own key.
    dealer = g.admin.get(f"{base}/tables/{g.table}").json["next_dealer"]
    hand = as_(dealer).post(f"{base}/tables/{g.table}/hands", {"deal": {"dealer": dealer}}).json["id"]
    held = {seat: KOP_HANDS[(seat - dealer) % 4] for seat in range(4)}
    for seat in range(4):
        r = as_(seat).post(f"{base}/hands/{hand}/cards", {"seat": seat, "cards": held[seat]},
                           headers=dev[ids[seat]].header("cards", g.id, hand=hand, seat=seat, cards=held[seat]))
        assert r.status_code == 201, r.json
    holder = {c: s for s, cards in held.items() for c in cards}
    for trick in KOP_TRICKS:
        for card in trick:
            seat = holder[card]
            r = as_(seat).post(f"{base}/hands/{hand}/plays", {"seat": seat, "card": card},
                               headers=dev[ids[seat]].header("play", g.id, hand=hand, seat=seat, card=card,
                                                             capture=None))
            assert r.status_code == 201, r.json

    # A whole hand the admin logs: one payer confirms, the other disputes; a second one both confirm.
    disputed = g.hand()
    payers = disputed["confirmation"]["waiting_for"]
    assert g.confirm(payers[0], disputed["id"]).status_code == 201
    said = {"hand": disputed["id"], "settlement": g.settlement_hash(disputed["id"]), "reason": "not so"}
    r = g.tokens[payers[1]].post(f"{base}/hands/{disputed['id']}/dispute", {"reason": "not so"},
                                 headers=dev[payers[1]].header("dispute", g.id, **said))
    assert r.status_code == 201, r.json
    counted = g.hand()
    for payer in counted["confirmation"]["waiting_for"]:
        assert g.confirm(payer, counted["id"]).status_code == 201
    # The admin voids it: it counts as before until each member the void lowers agrees, signed.
    voided = g.admin.post(f"{base}/hands/{counted['id']}/correct", {"reason": "misdeal", "void": True})
    assert voided.status_code == 201, voided.json
    correction = [e for e in g.events() if e["type"] == "correction"][-1]["hash"]
    for member in g.admin.get(f"{base}/hands/{counted['id']}").json["correction_waiting"]["waiting_for"]:
        r = g.tokens[member].post(f"{base}/hands/{counted['id']}/agree",
                                  headers=dev[member].header("agree", g.id, hand=counted["id"], correction=correction))
        assert r.status_code == 201, r.json

    # How Bożena takes money, her own and signed; a payment she receives, and one the admin records for her.
    bob = ids[1]
    body = {"iban": None, "name": "Bożena", "pix": None, "blik": None}
    r = g.tokens[bob].call("PUT", f"{base}/members/{bob}/pay-to", {"name": "Bożena"},
                           headers=dev[bob].header("pay_to", g.id, member=bob, **body))
    assert r.status_code in (200, 201), r.json
    paid = {"from": ids[0], "to": bob, "amount": "1.50"}
    r = g.tokens[bob].post(f"{base}/payments", paid, headers=dev[bob].header("received", g.id, **paid))
    assert r.status_code == 201, r.json
    r = g.admin.post(f"{base}/payments", {**paid, "amount": "0.50"})
    assert r.status_code == 201, r.json
    pending = [e for e in g.events() if e["type"] == "payment"][-1]
    r = g.tokens[bob].post(f"{base}/payments/{pending['seq']}/confirm",
                           headers=dev[bob].header("confirm_payment", g.id, payment=pending["hash"]))
    assert r.status_code == 201, r.json

    # Dorota's second phone, approved by her first; Cyprian's phone lost: the admin resets him and
    # he joins again with a new key, which then signs for him.
    dan, cyd = ids[3], ids[2]
    second = Device()
    assert g.tokens[dan].post(f"{base}/members/{dan}/devices", {"key": second.key}).status_code == 202
    r = g.tokens[dan].post(f"{base}/members/{dan}/devices/{second.kid}/approve",
                           headers=dev[dan].header("approve_device", g.id, member=dan, key=second.key))
    assert r.status_code == 201, r.json
    r = g.tokens[dan].call("PUT", f"{base}/members/{dan}/pay-to", {"name": "Dorota"},
                           headers=second.header("pay_to", g.id, member=dan, iban=None, name="Dorota", pix=None,
                                                 blik=None))
    assert r.status_code in (200, 201), r.json
    assert g.admin.post(f"{base}/members/{cyd}/reset", {"reason": "lost phone"}).status_code in (200, 201)
    code = g.admin.post(f"{base}/invitations", {"member": cyd}).json["code"]
    anew = Device()
    joined = client.post(f"/v1/invitations/{code}", {"key": anew.key})
    assert joined.status_code == 201, joined.json
    r = client.as_(joined.json["token"]).call("PUT", f"{base}/members/{cyd}/pay-to", {"name": "Cyprian"},
                                              headers=anew.header("pay_to", g.id, member=cyd, iban=None,
                                                                  name="Cyprian", pix=None, blik=None))
    assert r.status_code in (200, 201), r.json
    return g.id, g.events(), {"members": ids, "devices": dev, "old_cyd": dev[cyd]}


# ---------------------------------------------------------------------------------------------
# The same log, forged.

def forgeries(group: str, events: list[dict], who: dict) -> dict[str, list[dict]]:
    """Each way of rewriting the log a witness must see, as the log it leaves."""
    def first(kind, where=lambda e: True):
        return next(i for i, e in enumerate(events) if e["type"] == kind and where(e))

    def forged(change):
        copied = copy.deepcopy(events)
        change(copied)
        return copied

    confirmation = first("confirmation")
    play = first("play")
    cards = first("seat_cards")
    pay_details = first("pay_details")
    approval = first("device_added", lambda e: e["data"]["via"] == "approval")
    later = first("device_added", lambda e: e["data"]["via"] == "reset")
    payment = first("payment", lambda e: "signed" in e["data"])
    waiting = first("payment", lambda e: e["data"].get("pending"))
    received = first("payment_received")
    dispute = first("dispute")
    agreement = first("agreement")
    other_hand = next(e["hand"] for e in events if e["type"] == "settlement" and e["hand"] != events[dispute]["hand"])

    def drop_signature(at):
        return lambda log: log[at]["data"].pop("signed")

    def set_data(at, **changed):
        return lambda log: log[at]["data"].update(changed)

    def nonce_again(log):
        log[play + 1]["data"]["signed"]["nonce"] = log[play]["data"]["signed"]["nonce"]

    def sig_of_another(log):
        log[play + 1]["data"]["signed"]["sig"] = log[play]["data"]["signed"]["sig"]

    def in_anothers_name(log):  # the same confirmation, said to be the other payer's
        log[confirmation]["actor"] = next(m for m in who["members"] if m != log[confirmation]["actor"])

    def key_nothing_explains(log):
        stranger = Device()
        log[later]["data"].update(key=stranger.key, kid=stranger.kid, via="token")
        log[later]["data"]["member"] = who["members"][0]  # Ala held a current key: no token adds one

    def kid_not_its_keys(log):
        log[approval]["data"]["kid"] = Device().kid

    def approval_unsigned(log):
        log[approval]["data"].pop("signed")

    def reset_never_made(log):
        log[approval]["data"]["via"] = "reset"
        log[approval]["data"].pop("signed")

    def stopped_key_signs(log):  # Cyprian's old key, stopped by the reset, signs after it
        old = who["old_cyd"]
        at = len(log) - 1
        fields = {"member": log[at]["data"]["member"], "iban": None, "name": "Cyprian", "pix": None, "blik": None}
        said = old.signature("pay_to", group, **fields)
        log[at]["data"]["signed"] = said

    def payment_counts_unasked(log):
        log[waiting]["data"].pop("pending")

    def admin_sets_pay_to(log):
        log[pay_details]["actor"] = "admin"
        log[pay_details]["data"].pop("signed")

    def resigned(e, act, **fields):  # the member's own key signing what the event now says
        e["data"].update(fields)
        e["data"]["signed"] = who["devices"][e["actor"]].signature(act, group, **fields)

    def confirms_other_settlement(log):
        settled = next(e["hash"] for e in log if e["type"] == "settlement" and e["hand"] == other_hand)
        resigned(log[confirmation], "confirm", hand=log[confirmation]["hand"], settlement=settled)
        log[confirmation]["data"].pop("hand")

    def confirms_no_payment(log):
        resigned(log[received], "confirm_payment", payment="0" * 64)

    def agrees_to_no_correction(log):
        resigned(log[agreement], "agree", hand=log[agreement]["hand"], correction="0" * 64)
        log[agreement]["data"].pop("hand")

    return {
        "a confirmation's signature dropped": forged(drop_signature(confirmation)),
        "a card's signature dropped": forged(drop_signature(play)),
        "a seat's cards changed under their signature": forged(set_data(cards, cards=["AS", "AH", "AD", "AC"])),
        "a card played changed under its signature": forged(set_data(play, card="7S")),
        "a dispute's reason changed": forged(set_data(dispute, reason="it was right")),
        "pay-to details changed": forged(set_data(pay_details, iban="PL61109010140000071219812874")),
        "a payment's amount changed": forged(set_data(payment, amount="15.00")),
        "a nonce used twice": forged(nonce_again),
        "another act's signature": forged(sig_of_another),
        "a confirmation in another member's name": forged(in_anothers_name),
        "a key nothing explains": forged(key_nothing_explains),
        "a kid that is not its key's": forged(kid_not_its_keys),
        "an approval nobody signed": forged(approval_unsigned),
        "a reset never made": forged(reset_never_made),
        "a stopped key signing": forged(stopped_key_signs),
        "a payment counted without its receiver": forged(payment_counts_unasked),
        "the admin setting pay-to details": forged(admin_sets_pay_to),
        "a confirmation of another hand's settlement": forged(confirms_other_settlement),
        "a confirmation of no payment": forged(confirms_no_payment),
        "an agreement to no correction": forged(agrees_to_no_correction),
        "an agreement's signature dropped": forged(drop_signature(agreement)),
        "a malformed nonce": forged(set_data(confirmation, signed={**events[confirmation]["data"]["signed"],
                                                                  "nonce": "XYZ"})),
    }


def test_the_witness_and_verify_give_the_same_verdict_on_every_event(client):
    group, events, who = honest_log(client)
    assert any("signed" in e["data"] for e in events) and not any(e.get("sealed") for e in events)
    logs = {"honest": events, **forgeries(group, events, who)}
    verdicts = witness_verdicts([(group, log) for log in logs.values()])
    for (name, log), js in zip(logs.items(), verdicts, strict=True):
        py = python_verdicts(group, log)
        differ = [(e["seq"], p, j) for e, p, j in zip(log, py, js["found"], strict=True) if not same(p, j)]
        assert not differ, f"{name}: verify and the witness differ: {differ}"
        assert js["resumed"] == js["found"], f"{name}: the witness's kept state does not go on as it was"
        if name == "honest":
            assert py == [None] * len(log), [f for f in py if f]
        else:
            assert any(py), f"{name}: verify finds nothing"
