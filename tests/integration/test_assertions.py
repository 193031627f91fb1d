"""A true balance assertion is re-checked by verify and replay, which fail once a copy of the
store is tampered so that it no longer holds."""
import hashlib
import sqlite3

from click.testing import CliRunner

from cli.main import bitka
from events.canonical import GENESIS, canonical_bytes
from events.store import Envelope, Store
from projections.projector import project
from service import ledger
from service.auth import Principal


def run(*args):
    return CliRunner().invoke(bitka, list(args))


def test_an_assertion_that_no_longer_holds_is_found_by_verify_and_replay(tmp_path):
    db = str(tmp_path / "club.db")
    assert run("--db", db, "demo").exit_code == 0
    store = Store(db, projector=project)
    with store.reading() as r:
        group = r.group_ids()[0]
        member = r.row("group", group, "")["members"][0]["id"]
        balance = r.row("balances", group, "")["members"][member]
    with store.writing() as w:
        agreed = ledger.assert_balance(w, group, Principal(group, "admin"), {"member": member,
                                                                          "balance": f"{balance / 100:.2f}"})
    assert run("--db", db, "verify").exit_code == 0 and run("--db", db, "replay").exit_code == 0
    # Rewrite one earlier payment (and every hash after it): the chain holds again, the assertion does not.
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_refuse_update")
    rows = conn.execute("SELECT position, group_id, seq, type, hand_id, table_id, data, actor, recorded_at, "
                        "prev_hash, hash FROM events WHERE group_id = ? ORDER BY seq", (group,)).fetchall()
    target = next(r[2] for r in rows if r[3] == "settlement")
    prev = GENESIS
    for row in rows:
        env = Envelope.from_row(row)
        data = dict(env.data)
        if env.seq == target:
            data["payouts"] = [dict(p, amount="0.00") for p in data["payouts"]]
        env = env._replace(data=data, prev_hash=prev)
        digest = hashlib.sha256(env.canonical()).hexdigest()
        conn.execute("UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE position = ?",
                     (canonical_bytes(data).decode(), prev, digest, env.position))
        prev = digest
    conn.commit()
    conn.close()
    verified = run("--db", db, "verify")
    assert verified.exit_code == 1 and f"seq {agreed['seq']}: the agreed balance of {member}" in verified.output
    replayed = run("--db", db, "replay")
    assert replayed.exit_code == 1 and "no longer holds" in replayed.output
