"""Whoever runs the server holds the store file, can write any row and recompute every hash,
link and Merkle node. What they cannot make is a member's signature: an act written into the
store in a member's name is found by `bitka verify`, `replay` and `import`, naming its seq."""
from __future__ import annotations

import json

import pytest

from projections.projector import project
from tests.command import run
from tests.keys.devices import Device
from tests.keys.table import keyed_group
from tests.tampering import append_forged, rewrite_log

pytestmark = pytest.mark.usefixtures("sqlite_only")


@pytest.fixture
def sqlite_only(db_url):
    if db_url.startswith("postgresql"):
        pytest.skip("the store file is SQLite's: the operator's rows are written with sqlite3")


def _checks(db: str, group: str, tmp_path) -> dict[str, tuple[int, str]]:
    """What verify, replay and import each say of the store."""
    found = {"verify": run("--db", db, "verify"), "replay": run("--db", db, "replay")}
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "log.jsonl"
    assert run("--db", db, "export", "--group", group, "--out", str(out)).exit_code == 0
    found["import"] = run("--db", str(tmp_path / "imported.db"), "import", str(out))
    return {name: (r.exit_code, r.output) for name, r in found.items()}


def test_a_confirmation_written_into_the_store_in_a_payers_name_is_found_by_every_check(client, db_url, tmp_path):
    g = keyed_group(client)
    hand = g.hand()
    payer = hand["confirmation"]["waiting_for"][0]
    assert g.confirm(payer, hand["id"]).status_code == 201  # one payer signs: the honest part
    other = hand["confirmation"]["waiting_for"][1]
    assert all(r[0] == 0 for r in _checks(db_url, g.id, tmp_path / "before").values())

    # The operator writes the other payer's confirmation, unsigned, as the API would have written it before keys.
    seq = append_forged(db_url, g.id, "confirmation", {}, other, hand=hand["id"], table=g.table, projector=project)
    assert g.admin.get(f"/v1/groups/{g.id}/hands/{hand['id']}").json["confirmation"]["state"] == "counted"
    checks = _checks(db_url, g.id, tmp_path / "after")
    for name, (code, said) in checks.items():
        assert code == 1, (name, said)
        assert f"seq {seq}" in said, (name, said)
    assert "carries no signature" in checks["verify"][1]


def test_a_key_added_behind_the_members_back_and_an_act_signed_with_it_are_found(client, db_url, tmp_path):
    g = keyed_group(client)
    hand = g.hand()
    payer = hand["confirmation"]["waiting_for"][0]
    thief = Device()
    settled = g.settlement_hash(hand["id"])
    added = append_forged(db_url, g.id, "device_added", {"member": payer, "key": thief.key, "kid": thief.kid,
                                                         "via": "token"}, payer, projector=project)
    signature = thief.signature("confirm", g.id, hand=hand["id"], settlement=settled)
    append_forged(db_url, g.id, "confirmation", {"settlement": settled, "signed": signature}, payer, hand=hand["id"],
                  table=g.table, projector=project)
    for name, (code, said) in _checks(db_url, g.id, tmp_path).items():
        assert code == 1 and f"seq {added}" in said, (name, said)


def test_a_signed_confirmation_moved_onto_another_settlement_is_found(client, db_url, tmp_path):
    g = keyed_group(client)
    first, second = g.hand(), g.hand()
    payer = first["confirmation"]["waiting_for"][0]
    assert g.confirm(payer, first["id"]).status_code == 201
    events = g.events()
    confirmed = next(e for e in events if e["type"] == "confirmation")
    other = g.settlement_hash(second["id"])

    def moved(seq, data):  # the signed statement named the first hand's settlement: now it names the second's
        return {**data, "settlement": other} if seq == confirmed["seq"] else data
    rewrite_log(db_url, moved)
    code, said = _checks(db_url, g.id, tmp_path)["verify"]
    assert code == 1 and f"seq {confirmed['seq']}" in said, said
    assert json.dumps(said)  # said in words, not a traceback
    assert "Traceback" not in said
