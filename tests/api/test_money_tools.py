"""Balance assertions, statistics and the ledger as CSV, over HTTP; settle-up's method."""
import csv
import io

from tests.conftest import KOP_HANDS, KOP_TRICKS, agreed


def _hand(t):
    r = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands",
                        {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": c} for c in KOP_TRICKS]})
    assert r.status_code == 201 and r.json["confirmation"]["state"] == "pending"  # the admin is no payer
    return agreed(t, r.json)  # Ala and Cyd pay 3.00 each: each confirms


def test_a_true_assertion_is_recorded_and_a_false_one_refused_showing_the_balance(kop_table):
    t = kop_table
    _hand(t)  # seat 1 wins 3.00 (bez bitki)
    bob = t["members"][1]["id"]
    r = t["member"].post(f"{t['base']}/assertions", {"member": bob, "balance": "2.00"})
    assert r.status_code == 422 and r.json["actual"] == "3.00" and "balance is 3.00, not 2.00" in r.json["detail"]
    r = t["member"].post(f"{t['base']}/assertions", {"member": bob, "balance": "3.00"})
    assert r.status_code == 201 and r.json["balance"] == "3.00"
    events = t["member"].get(f"{t['base']}/events?limit=1000").json["events"]
    assert events[-1]["type"] == "assertion" and events[-1]["data"] == {"member": bob, "balance": "3.00"}


def test_statistics_per_member(kop_table):
    t = kop_table
    t["admin"].post(f"{t['base']}/members", {"name": "Ela"})  # a member no hand here moves
    hand = _hand(t)
    stats = {m["name"]: m for m in t["member"].get(f"{t['base']}/stats").json["members"]}
    assert stats["Bob"]["hands_played"] == 1 and stats["Bob"]["hands_won"] == 1
    assert stats["Ala"]["contracts"] == {"normal": {"played": 1, "won": 0}}
    assert stats["Ala"]["worst_hand"]["amount"] == "-3.00" and stats["Ala"]["worst_hand"]["hand"] == hand["id"]
    assert stats["Bob"]["balance_after"][-1]["balance"] == "3.00"
    # A point only where a member's balance moved (the settlement waited for two confirmations):
    # a series grows with what moved that member, not with every step of the group.
    assert [p["balance"] for p in stats["Ela"]["balance_after"]] == ["0.00"]
    bob = [p["balance"] for p in stats["Bob"]["balance_after"]]
    assert all(a != b for a, b in zip(bob, bob[1:], strict=False)), bob


def test_the_ledger_as_csv_has_one_row_per_payout_with_running_balances(kop_table):
    t = kop_table
    _hand(t)
    ids = [m["id"] for m in t["members"]]
    t["admin"].post(f"{t['base']}/payments", {"from": ids[0], "to": ids[1], "amount": "3.00"})
    r = t["member"].get(f"{t['base']}/ledger.csv")
    assert r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert [(x["kind"], x["name"], x["amount"], x["balance"]) for x in rows] == [
        ("payout", "Ala", "-3.00", "-3.00"), ("payout", "Bob", "3.00", "3.00"), ("payout", "Cyd", "-3.00", "-3.00"),
        ("payout", "Dan", "3.00", "3.00"), ("payment", "Ala", "3.00", "0.00"), ("payment", "Bob", "-3.00", "0.00")]
    assert rows[0]["game"] == "kop" and rows[0]["contract"] == "normal"


def test_settle_up_says_it_is_exact(kop_table):
    _hand(kop_table)
    r = kop_table["member"].get(f"{kop_table['base']}/settle-up").json
    assert r["method"] == "exact" and len(r["transfers"]) == 2
