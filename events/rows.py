"""Projection rows: one JSON row per (projection, group, key), written in the append's
transaction and read by the API, the pages and replay."""
from __future__ import annotations

import json
from typing import Mapping, Sequence


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
        return json.loads(text) if text is not None else None

    def rows(self, name: str, group: str | None = None) -> dict[tuple[str, str], dict]:
        sql, args = "SELECT group_id, key, data FROM projection_rows WHERE name = ?", [name]
        if group is not None:
            sql, args = sql + " AND group_id = ?", [name, group]
        return {(g, k): json.loads(d) for g, k, d in self.conn.execute(sql, args)}

    def rows_of(self, name: str, group: str, keys: Sequence[str]) -> dict[str, dict]:
        """The rows of these keys (up to a few hundred at a time), keyed by key."""
        marks = ",".join("?" * len(keys))
        found = self.conn.execute(
            f"SELECT key, data FROM projection_rows WHERE name = ? AND group_id = ? AND key IN ({marks})",
            (name, group, *keys))
        return {k: json.loads(d) for k, d in found}

    def row_keys(self, name: str, group: str) -> set[str]:
        return {k for (k,) in self.conn.execute(
            "SELECT key FROM projection_rows WHERE name = ? AND group_id = ?", (name, group))}



class RowWrites:
    def put_row(self, name: str, group: str, key: str, data: Mapping) -> None:
        self.conn.execute(
            "INSERT INTO projection_rows (name, group_id, key, data) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name, group_id, key) DO UPDATE SET data = excluded.data",
            (name, group, key, json.dumps(data, sort_keys=True, ensure_ascii=False)))

    def drop_rows(self, group: str | None = None) -> None:
        if group is None:
            self.conn.execute("DELETE FROM projection_rows")
        else:
            self.conn.execute("DELETE FROM projection_rows WHERE group_id = ?", (group,))

    def mark_position(self, name: str, position: int) -> None:
        self.conn.execute(
            "INSERT INTO projection_positions (name, position) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET position = CASE WHEN excluded.position > projection_positions.position "
            "THEN excluded.position ELSE projection_positions.position END", (name, position))

