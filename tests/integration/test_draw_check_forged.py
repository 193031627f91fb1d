"""``bitka draw --check --log`` on logs crafted by hand, every hash and link recomputed (as
anyone forging a log can): an id that is a list or an object, two tables of one draw sharing
an id, an event slipped between a draw and its tables. Each is a finding in words with exit
1, never a traceback and never "ok"."""
from __future__ import annotations

import json

import pytest

from events import draw
from tests.command import run
from tests.tampering import rechained

SECRET = bytes(range(32))
PLAYERS = [f"m_{i}" for i in range(8)]


def _event(seq: int, type_: str, data: dict, table: str | None = None) -> dict:
    env = {"group": "g_forged", "seq": seq, "type": type_, "data": data, "actor": "admin",
           "recorded_at": f"2026-12-01T20:00:{seq:02d}.000000Z", "prev_hash": "", "hash": ""}
    return env | ({"table": table} if table else {})


def _genuine() -> list[dict]:
    """A tournament of eight Kop players and its first round's draw, as bitka writes them: the
    draw and then its two tables, in the same write."""
    created = _event(1, "tournament_created", {
        "tournament": "tn_1", "game": "kop", "rules": {}, "players": PLAYERS, "rounds": 1, "deals": 1,
        "stake": "0.50", "commitment": draw.commitment(SECRET)})
    first_hash = json.loads(rechained([created])[0])["hash"]
    seeded = draw.seed(SECRET, first_hash)
    seats = draw.tables(draw.shuffled(PLAYERS, seeded), [4, 4])
    drawn = _event(2, "round_drawn", {
        "tournament": "tn_1", "round": 1, "secret": SECRET.hex(), "after": 1, "seed": seeded.hex(),
        "commitment": None, "tables": [{"id": "t_a", "seats": seats[0]}, {"id": "t_b", "seats": seats[1]}]})
    opened = [_event(3 + i, "table_opened", {"table": t, "game": "kop", "seats": s, "tournament": "tn_1",
                                              "round": 1}, table=t)
              for i, (t, s) in enumerate((("t_a", seats[0]), ("t_b", seats[1])))]
    return [created, drawn, *opened]


def _checked(tmp_path, events: list[dict]):
    for seq, env in enumerate(events, 1):
        env["seq"] = seq
    log = tmp_path / "forged.jsonl"
    log.write_text("\n".join(rechained(events)) + "\n")
    said = run("draw", "--check", "--log", str(log))
    assert said.exception is None or isinstance(said.exception, SystemExit), said.output
    return said


def _shared_id(events):
    events[1]["data"]["tables"][1]["id"] = "t_a"
    events[3]["data"]["table"] = events[3]["table"] = "t_a"


def _slipped_in(events):
    events.insert(3, _event(0, "member_added", {"member": "m_9", "name": "Zed"}))


def _list_id(events):
    events[0]["data"]["tournament"] = ["tn_1"]


def _object_table(events):
    events[1]["data"]["tables"][0]["id"] = {"id": "t_a"}


def _list_table(events):
    events[2]["data"]["table"] = ["t_a"]


def _list_check_in(events):
    events.insert(1, _event(0, "check_in", {"tournament": ["tn_1"], "member": "m_0", "round": 1}))


def _object_tables(events):
    events[1]["data"]["tables"] = {"t_a": []}


@pytest.mark.parametrize("forge, finding", [
    (_shared_id, "two of its tables share one id (t_a)"),
    (_slipped_in, "its table t_b is not opened right after it: member_added at seq 4 comes between"),
    (_list_id, "tournament_created at seq 1: its tournament id ['tn_1'] is not text"),
    (_object_table, "a table's id in it is not text"),
    (_list_table, "its table t_a is not opened right after it"),
    (_list_check_in, "check_in at seq 2: its tournament id ['tn_1'] is not text"),
    (_object_tables, "its tables are not a list of tables"),
])
def test_a_crafted_log_is_a_finding_in_words_never_a_traceback_or_ok(tmp_path, forge, finding):
    held = _checked(tmp_path, _genuine())
    assert held.exit_code == 0 and held.output.count("ok: ") == 3, held.output  # the draw and its two tables
    events = _genuine()
    forge(events)
    said = _checked(tmp_path, events)
    assert said.exit_code == 1 and "DIFFERS: " in said.output and finding in said.output, said.output


def test_a_draws_tables_never_opened_is_a_finding(tmp_path):
    said = _checked(tmp_path, _genuine()[:3])
    assert said.exit_code == 1 and "its table t_b is never opened after it" in said.output, said.output
