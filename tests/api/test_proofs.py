"""Proofs over HTTP: the public key, signed checkpoints, inclusion and consistency proofs,
the checkpoint every write carries, and the audit trail's proofs."""
import json

from events import merkle
from events.checkpoint import signature_holds
from tests.conftest import KOP_HANDS, KOP_TRICKS


def _key(client):
    [key] = client.get("/v1/keys").json["keys"]
    assert key["alg"] == "Ed25519"
    return key


def test_the_checkpoint_is_signed_by_the_published_key_and_names_its_size(kop_table, client):
    key = _key(client)
    cp = kop_table["member"].get(f"{kop_table['base']}/checkpoint").json
    assert cp["group"] == kop_table["group"] and cp["size"] == 6 and cp["key_id"] == key["id"]
    assert signature_holds(cp, key["public_key"])
    forged = dict(cp, root="00" * 32)
    assert not signature_holds(forged, key["public_key"])
    old = kop_table["member"].get(f"{kop_table['base']}/checkpoint?size=3").json
    assert old["size"] == 3 and old["root"] != cp["root"] and signature_holds(old, key["public_key"])


def test_out_of_range_sizes_are_422(kop_table):
    m, base = kop_table["member"], kop_table["base"]
    for path in ("checkpoint?size=7", "checkpoint?size=0", "proofs/inclusion?seq=7&size=6",
                 "proofs/inclusion?seq=0", "proofs/consistency?from=4&to=3", "proofs/consistency?from=1&to=9"):
        r = m.get(f"{base}/{path}")
        assert r.status_code == 422 and r.mimetype == "application/problem+json", path


def test_every_write_carries_the_checkpoint_after_it(kop_table, client):
    r = kop_table["admin"].post(f"{kop_table['base']}/members", {"name": "Eve"})
    cp = json.loads(r.headers["Bitka-Checkpoint"])
    assert cp["size"] == 7 and signature_holds(cp, _key(client)["public_key"])


def test_inclusion_and_consistency_proofs_verify_against_signed_roots(kop_table):
    m, base = kop_table["member"], kop_table["base"]
    old = m.get(f"{base}/checkpoint").json
    kop_table["admin"].post(f"{base}/tables/{kop_table['table']}/hands",
                            {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    new = m.get(f"{base}/checkpoint").json
    assert new["size"] == 12
    events = m.get(f"{base}/events?limit=1000").json["events"]
    for e in events:
        proof = m.get(f"{base}/proofs/inclusion?seq={e['seq']}&size={new['size']}").json
        view = {k: v for k, v in e.items() if k != "hash"} | {"group": kop_table["group"]}
        leaf = merkle.leaf_hash(json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
        assert proof["leaf"] == leaf.hex()
        assert merkle.verify_inclusion(leaf, e["seq"] - 1, new["size"], [bytes.fromhex(h) for h in proof["path"]],
                                       bytes.fromhex(new["root"]))
    proof = m.get(f"{base}/proofs/consistency?from={old['size']}&to={new['size']}").json
    assert merkle.verify_consistency(old["size"], new["size"], bytes.fromhex(old["root"]),
                                     bytes.fromhex(new["root"]), [bytes.fromhex(h) for h in proof["path"]])


def test_a_hands_audit_trail_proves_each_of_its_events_on_its_own(kop_table):
    t = kop_table
    body = {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]}
    hand = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands", body).json
    trail = t["member"].get(f"{t['base']}/hands/{hand['id']}/audit").json
    root = bytes.fromhex(trail["checkpoint"]["root"])
    for e in trail["events"]:
        p = e["proof"]
        assert merkle.verify_inclusion(bytes.fromhex(p["leaf"]), e["seq"] - 1, p["size"],
                                       [bytes.fromhex(h) for h in p["path"]], root)
