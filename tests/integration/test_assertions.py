"""A true balance assertion is re-checked by verify and replay, which fail once a copy of the
store is tampered so that it no longer holds."""


from tests.command import run
from events.database import Store
from projections.projector import project
from events.money import format_amount
from service import handlers
from service.commands import AssertBalance
from tests.tampering import rewrite_log


def test_an_assertion_that_no_longer_holds_is_found_by_verify_and_replay(tmp_path):
    db = str(tmp_path / "club.db")
    assert run("--db", db, "demo").exit_code == 0
    store = Store(db, projector=project)
    with store.reading() as r:
        group = r.group_ids()[0]
        member = r.row("group", group, "")["members"][0]["id"]
        balance = r.row("balances", group, "")["members"][member]
    with store.writing() as w:
        agreed = handlers.handle(AssertBalance(group, "admin", {"member": member,
                                                                "balance": format_amount(balance, 2)}), w)
    assert run("--db", db, "verify").exit_code == 0 and run("--db", db, "replay").exit_code == 0
    # Rewrite one earlier payment (and every hash after it): the chain holds again, the assertion does not.
    with store.reading() as r:
        target = next(e.seq for e in r.scan(group) if e.type == "settlement")

    def nobody_paid(seq, data):
        if seq == target:
            data["payouts"] = [dict(p, amount="0.00") for p in data["payouts"]]
        return data

    rewrite_log(db, nobody_paid, restore_triggers=False)
    verified = run("--db", db, "verify")
    assert verified.exit_code == 1 and f"seq {agreed.seq}: the agreed balance of {member}" in verified.output
    replayed = run("--db", db, "replay")
    assert replayed.exit_code == 1 and "no longer holds" in replayed.output
