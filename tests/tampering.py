"""What whoever holds the store's file can do to it: rewrite events behind bitka's back."""
from __future__ import annotations

import hashlib
import sqlite3
from typing import Callable

from events import merkle
from events.canonical import GENESIS, canonical_bytes
from events.store import Envelope

REFUSE_UPDATE = ("CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events "
                 "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END")


def rewrite_log(db: str, change: Callable[[int, dict], dict], rehash: bool = True,
                restore_triggers: bool = True) -> None:
    """Apply ``change(seq, data) -> data`` to every stored event. With ``rehash``, recompute
    every hash, link and Merkle node after it, so that the chain holds again; with
    ``restore_triggers``, put the append-only trigger back, so that nothing but the content
    gives the rewrite away."""
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_refuse_update")
    rows = conn.execute("SELECT position, group_id, seq, type, hand_id, table_id, data, actor, recorded_at, "
                        "prev_hash, hash FROM events ORDER BY group_id, seq").fetchall()
    conn.execute("DELETE FROM merkle_nodes")
    group, prev = None, GENESIS
    for row in rows:
        env = Envelope.from_row(row)
        if env.group != group:
            group, prev = env.group, GENESIS
        data = change(env.seq, dict(env.data))
        env = env._replace(data=data, prev_hash=prev if rehash else env.prev_hash)
        digest = hashlib.sha256(env.canonical()).hexdigest() if rehash else env.hash
        conn.execute("UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE position = ?",
                     (canonical_bytes(data).decode(), env.prev_hash, digest, env.position))
        made = merkle.parents_completed(env.seq - 1, merkle.leaf_hash(env.canonical()), _nodes(conn, env.group))
        conn.executemany("INSERT OR REPLACE INTO merkle_nodes VALUES (?, ?, ?, ?)",
                         [(env.group, lv, i, h) for lv, i, h in made])
        prev = digest
    if restore_triggers:
        conn.execute(REFUSE_UPDATE)
    conn.commit()
    conn.close()


def _nodes(conn, group):
    sql = "SELECT hash FROM merkle_nodes WHERE group_id = ? AND level = ? AND idx = ?"
    return lambda level, index: conn.execute(sql, (group, level, index)).fetchone()[0]


def rechained(envelopes: list[dict]) -> list[str]:
    """Export lines (envelopes with their group) with every hash and link recomputed, as
    anyone forging a log to import can do: what import must see through by content."""
    lines, prev, group = [], GENESIS, None
    for env in envelopes:
        if env["group"] != group:
            group, prev = env["group"], GENESIS
        env = {**env, "prev_hash": prev}
        body = {k: v for k, v in env.items() if k != "hash"}
        env["hash"] = prev = hashlib.sha256(canonical_bytes(body)).hexdigest()
        lines.append(canonical_bytes(env).decode("utf-8"))
    return lines


def append_forged(db: str, group: str, type_: str, data: dict, actor: str, hand: str | None = None,
                  table: str | None = None, projector=None) -> int:
    """Write one event at the end of a group's log straight into the store, as its operator
    can: the hash, the link and the Merkle nodes made as bitka would make them, and the rows
    moved by ``projector`` (projections.projector.project) so that every answer agrees with
    it. Only what the event itself says can give it away. Its seq."""
    from events.database import open_store
    from events.envelope import utc_now
    conn = sqlite3.connect(db)
    seq, prev = conn.execute("SELECT seq, hash FROM events WHERE group_id = ? ORDER BY seq DESC LIMIT 1",
                             (group,)).fetchone()
    conn.close()
    env = Envelope(0, group, seq + 1, type_, hand, table, data, actor, utc_now(), prev, "")
    env = env._replace(hash=hashlib.sha256(env.canonical()).hexdigest())
    store = open_store(db, projector=projector)
    with store.writing(group) as w:
        w.insert([env])
    store.close()
    return seq + 1
