"""Projection rows: one JSON row per (projection, group, key), written in the append's
transaction and read by the API, the pages and replay; and the settlements that wait for
confirmation, one row each (``pending_settlements``), beside their group's balances row, so
that a write costs the same however many wait, and their list is read in log order, a page at
a time, or by table."""
from __future__ import annotations

import json
from typing import Mapping, Sequence

import orjson  # reads: nearly every request reads the group's row, and many more


class RowReads:
    # A read's snapshot never changes, so a row it read once is not read again (a request
    # asks for its table's and group's rows in several places); each caller gets a dict of
    # its own. A write changes rows as it goes, and keeps none.
    snapshot_rows: dict[tuple[str, str, str], str | None] | None = None

    def row(self, name: str, group: str, key: str) -> dict | None:
        kept = self.snapshot_rows
        if kept is not None and (name, group, key) in kept:
            text = kept[(name, group, key)]
        else:
            found = self.conn.execute(
                "SELECT data FROM projection_rows WHERE name = ? AND group_id = ? AND key = ?",
                (name, group, key)).fetchone()
            text = found[0] if found else None
            if kept is not None:
                kept[(name, group, key)] = text
        return orjson.loads(text) if text is not None else None

    def rows(self, name: str, group: str | None = None) -> dict[tuple[str, str], dict]:
        sql, args = "SELECT group_id, key, data FROM projection_rows WHERE name = ?", [name]
        if group is not None:
            sql, args = sql + " AND group_id = ?", [name, group]
        return {(g, k): orjson.loads(d) for g, k, d in self.conn.execute(sql, args)}

    def rows_of(self, name: str, group: str, keys: Sequence[str]) -> dict[str, dict]:
        """The rows of these keys (up to a few hundred at a time), keyed by key."""
        if not keys:
            return {}  # PostgreSQL refuses an empty IN ()
        marks = ",".join("?" * len(keys))
        found = self.conn.execute(
            f"SELECT key, data FROM projection_rows WHERE name = ? AND group_id = ? AND key IN ({marks})",
            (name, group, *keys))
        return {k: orjson.loads(d) for k, d in found}

    def rows_in_order(self, name: str, group: str, after: str = "", limit: int = 100,
                      newest_first: bool = False) -> list[tuple[str, dict]]:
        """(key, row) of ``limit`` rows at most, in the order of their keys: those after key
        ``after`` (from the first when empty); ``newest_first``, from the last down, those
        before ``after``."""
        sql, args = "SELECT key, data FROM projection_rows WHERE name = ? AND group_id = ?", [name, group]
        if after or not newest_first:
            sql, args = sql + (" AND key < ?" if newest_first else " AND key > ?"), [*args, after]
        sql += (" ORDER BY key DESC" if newest_first else " ORDER BY key") + " LIMIT ?"
        args.append(limit)
        return [(k, orjson.loads(d)) for k, d in self.conn.execute(sql, args)]

    def rows_before(self, name: str, group: str, key: str) -> int:
        """How many rows of ``name`` in ``group`` have a key before ``key`` (an index's count)."""
        return self.conn.execute("SELECT count(*) FROM projection_rows WHERE name = ? AND group_id = ? AND key < ?",
                                 (name, group, key)).fetchone()[0]

    def row_keys(self, name: str, group: str) -> set[str]:
        return {k for (k,) in self.conn.execute(
            "SELECT key FROM projection_rows WHERE name = ? AND group_id = ?", (name, group))}

    def pending_entry(self, group: str, hand: str) -> dict | None:
        """The settlement of ``hand`` while it waits for confirmation (None once it counts)."""
        found = self.conn.execute("SELECT data FROM pending_settlements WHERE group_id = ? AND hand_id = ?",
                                  (group, hand)).fetchone()
        return orjson.loads(found[0]) if found else None

    def pending_entries(self, group: str, table: str | None = None, after: int = 0,
                        limit: int | None = None) -> list[tuple[str, dict]]:
        """(hand, entry) of the settlements that wait, in the order they were logged: those
        logged after seq ``after``, of one table when given, ``limit`` of them at most."""
        sql, args = "SELECT hand_id, data FROM pending_settlements WHERE group_id = ? AND seq > ?", [group, after]
        if table is not None:
            sql, args = sql + " AND table_id = ?", [*args, table]
        sql += " ORDER BY seq"
        if limit is not None:
            sql, args = sql + " LIMIT ?", [*args, limit]
        return [(hand, orjson.loads(data)) for hand, data in self.conn.execute(sql, args)]

    def pending_count(self, group: str) -> int:
        return self.conn.execute("SELECT count(*) FROM pending_settlements WHERE group_id = ?",
                                 (group,)).fetchone()[0]



class RowWrites:
    def put_row(self, name: str, group: str, key: str, data: Mapping) -> None:
        self.conn.execute(
            "INSERT INTO projection_rows (name, group_id, key, data) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name, group_id, key) DO UPDATE SET data = excluded.data",
            (name, group, key, json.dumps(data, sort_keys=True, ensure_ascii=False)))

    def drop_row(self, name: str, group: str, key: str) -> None:
        self.conn.execute("DELETE FROM projection_rows WHERE name = ? AND group_id = ? AND key = ?", (name, group, key))

    def drop_rows(self, group: str | None = None) -> None:
        for table in ("projection_rows", "pending_settlements"):
            if group is None:
                self.conn.execute(f"DELETE FROM {table}")
            else:
                self.conn.execute(f"DELETE FROM {table} WHERE group_id = ?", (group,))

    def put_pending(self, group: str, hand: str, entry: Mapping) -> None:
        """Keep (or change) a settlement that waits; ``entry`` names its table and seq."""
        self.conn.execute(
            "INSERT INTO pending_settlements (group_id, hand_id, table_id, seq, data) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (group_id, hand_id) DO UPDATE SET table_id = excluded.table_id, seq = excluded.seq, "
            "data = excluded.data",
            (group, hand, entry["table"], entry["seq"], json.dumps(entry, sort_keys=True, ensure_ascii=False)))

    def drop_pending(self, group: str, hand: str) -> None:
        """A settlement that counts now, or is gone (voided)."""
        self.conn.execute("DELETE FROM pending_settlements WHERE group_id = ? AND hand_id = ?", (group, hand))

    def mark_position(self, name: str, position: int) -> None:
        self.conn.execute(
            "INSERT INTO projection_positions (name, position) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET position = CASE WHEN excluded.position > projection_positions.position "
            "THEN excluded.position ELSE projection_positions.position END", (name, position))

