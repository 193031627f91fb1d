"""The live projector keeps the settlements that wait for confirmation in rows of their own:
an event reads and writes only the ones it names, whatever else waits, and the rows it
leaves are those the balances fold gives over the whole log."""
from __future__ import annotations

from events.envelope import Envelope
from projections import balances
from projections.projector import project

MEMBERS = ["m1", "m2", "m3", "m4"]


def _env(seq, kind, data, hand=None, actor="m1"):
    return Envelope(position=seq, group="g", seq=seq, type=kind, hand=hand, table="t" if hand else None, data=data,
                    actor=actor, recorded_at="2026-12-02T00:00:00Z", prev_hash="0" * 64, hash=f"{seq:064x}")


class Rows:
    """A store of rows in memory that counts what it is asked."""

    def __init__(self):
        self.rows, self.waiting, self.asked, self.written = {}, {}, [], []

    def row(self, name, group, key):
        return self.rows.get((name, group, key))

    def put_row(self, name, group, key, data):
        self.rows[name, group, key] = data

    def mark_position(self, name, position):
        pass

    def pending_entry(self, group, hand):
        self.asked.append(hand)
        return self.waiting.get(hand)

    def put_pending(self, group, hand, entry):
        self.written.append(hand)
        self.waiting[hand] = entry

    def drop_pending(self, group, hand):
        self.written.append(hand)
        del self.waiting[hand]


def _settlement(seq, hand):  # m1 logs it; m1 and m3 pay: m3 has to agree
    amounts = ["-1.00", "1.00", "-1.00", "1.00"]
    payouts = [{"seat": i, "member": m, "amount": a} for i, (m, a) in enumerate(zip(MEMBERS, amounts, strict=True))]
    return _env(seq, "settlement", {"payouts": payouts, "confirmed": False}, hand=hand)


def test_an_event_reads_and_writes_only_the_waiting_settlements_it_names():
    rows, log = Rows(), [_env(1, "group_created", {"name": "G", "currency": "PLN"})]
    log += [_env(2 + i, "member_added", {"member": m, "name": m}) for i, m in enumerate(MEMBERS)]
    log += [_settlement(10 + i, f"h{i}") for i in range(200)]
    project(rows, log)
    assert len(rows.waiting) == 200 and "pending" not in rows.row("balances", "g", "")
    rows.asked, rows.written = [], []
    project(rows, [_env(300, "confirmation", {}, hand="h7", actor="m3")])
    assert rows.asked == ["h7"] and rows.written == ["h7"]  # one row read, one row dropped: it counts now
    assert "h7" not in rows.waiting and rows.row("balances", "g", "")["members"] == {"m1": -100, "m2": 100,
                                                                                     "m3": -100, "m4": 100}
    rows.asked, rows.written = [], []
    project(rows, [_env(301, "payment", {"from": "m1", "to": "m2", "amount": "1.00"})])
    assert rows.asked == [] and rows.written == []


def test_the_rows_left_are_what_the_fold_gives_over_the_whole_log():
    rows, folded = Rows(), None
    log = [_env(1, "group_created", {"name": "G", "currency": "PLN"})]
    log += [_env(2 + i, "member_added", {"member": m, "name": m}) for i, m in enumerate(MEMBERS)]
    log += [_settlement(10 + i, f"h{i}") for i in range(5)]
    log += [_env(20, "dispute", {"reason": "no"}, hand="h1", actor="m3"), _env(21, "confirmation", {}, hand="h2",
                                                                              actor="m3"),
            _env(22, "hand_voided", {"reason": "x"}, hand="h3")]
    for env in log:
        project(rows, [env])  # one event a transaction, as the service writes them
        folded = balances.apply(folded, env)
    assert rows.waiting == folded["pending"] and sorted(rows.waiting) == ["h0", "h1", "h4"]
    assert rows.row("balances", "g", "") == {k: v for k, v in folded.items() if k != "pending"}
