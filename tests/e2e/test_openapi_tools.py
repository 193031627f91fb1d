"""The OpenAPI document checked by tools nobody here wrote: Redocly's recommended rules (from
npm, pinned) find nothing in it, and a Python client that openapi-python-client (pinned, in
the test extras) generates from it plays a whole Kop hand against the real server, every
header it sends a parameter of its own (no ``with_headers``)."""
from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import start_server, stop_server

pytestmark = pytest.mark.e2e

REDOCLY = "@redocly/cli@2.77.0"  # the last release that runs on the machine's Node.js 20
CLIENT = "bitka_client"


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> Path:
    """The document as the service serves it, written to a file for the tools."""
    from service.app import create_app
    where = tmp_path_factory.mktemp("openapi")
    app = create_app({"BITKA_DB": str(where / "doc.db"), "BITKA_KEY": str(where / "doc.key"), "TESTING": True})
    path = where / "openapi.json"
    path.write_text(json.dumps(app.test_client().get("/v1/openapi.json").json, indent=1))
    app.extensions["bitka.store"].close()
    return path


def test_redocly_recommended_rules_find_no_error_and_no_warning(document, tmp_path):
    npx = shutil.which("npx")
    if npx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI lints the OpenAPI document with Redocly, but npx (Node.js's npm) is not installed")
        pytest.skip("npx is not installed: install Node.js and npm to lint the OpenAPI document with Redocly")
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}
    run = subprocess.run([npx, "--yes", REDOCLY, "lint", "--extends=recommended", "--format=json", str(document)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert "{" in out, f"redocly said nothing we can read (exit {run.returncode}): {run.stderr[-2000:]}"
    report = json.loads(out[out.index("{"):])
    problems = [f"{p['severity']} {p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}"
                for p in report["problems"]]
    assert report["totals"]["errors"] == 0 and report["totals"]["warnings"] == 0, "\n".join(problems)
    assert run.returncode == 0, run.stderr[-2000:]


@pytest.fixture
def generated(document, tmp_path):
    """The client openapi-python-client generates from the document, imported."""
    config = tmp_path / "client.json"
    config.write_text(json.dumps({"post_hooks": []}))  # no formatter run: the code is only imported
    run = subprocess.run([str(Path(sys.executable).parent / "openapi-python-client"), "generate", "--path",
                          str(document), "--meta", "none", "--output-path", str(tmp_path / CLIENT),
                          "--config", str(config)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Warning" not in run.stdout + run.stderr, run.stdout[-3000:] + run.stderr[-3000:]
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(CLIENT)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == CLIENT or m.startswith(CLIENT + ".")]:
            del sys.modules[name]


@pytest.fixture
def live(tmp_path):
    proc, base = start_server(tmp_path / "client.db", tmp_path)
    yield base
    stop_server(proc)


def _ok(response, status=200):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.parsed


def test_a_generated_client_plays_a_whole_kop_hand(generated, live):
    from bitka_client.api.events import events
    from bitka_client.api.groups import add_member, create_group, get_group
    from bitka_client.api.hands import add_play, add_trick, confirm_hand, get_audit, get_hand
    from bitka_client.api.money import assert_balance, balances, ledger_csv_export, settle_up
    from bitka_client.api.proofs import consistency, get_checkpoint, inclusion, keys
    from bitka_client.api.tables import get_table, new_hand, open_table
    from bitka_client.models import (AssertionIn, GroupCreate, GroupCreateCurrency, HandCreate, KopDeal, KopRules,
                                     KopRulesIn, KopRulesInRanking, MemberCreate, PlayIn, Problem, TableCreate,
                                     TrickIn)

    anyone = generated.Client(base_url=live)
    created = _ok(create_group.sync_detailed(client=anyone, body=GroupCreate("Czwartek", GroupCreateCurrency.PLN)),
                  201)
    g, admin = created.id, generated.AuthenticatedClient(base_url=live, token=created.admin_token)
    members = [_ok(add_member.sync_detailed(g, client=admin, body=MemberCreate(name), idempotency_key=f"m-{name}"),
                   201) for name in ("Ala", "Bob", "Cyd", "Dan")]
    again = _ok(add_member.sync_detailed(g, client=admin, body=MemberCreate("Ala"), idempotency_key="m-Ala"), 201)
    assert again.id == members[0].id and again.token_withheld is True  # a replay, not a fifth member

    opened = open_table.sync_detailed(g, client=admin, body=TableCreate(
        game="kop", seats=[m.id for m in members], stake="1.00", rules=KopRulesIn(ranking=KopRulesInRanking.AS_DYCHA)))
    table = _ok(opened, 201)
    assert isinstance(table.rules, KopRules) and opened.headers["Location"].endswith(table.id)
    version = opened.headers["ETag"]
    stale = new_hand.sync_detailed(g, table.id, client=admin, body=HandCreate(deal=KopDeal(0, KOP_HANDS)),
                                   if_match='"1"')
    assert stale.status_code == 412 and isinstance(stale.parsed, Problem) and stale.parsed.version == int(version[1:-1])

    dealt = new_hand.sync_detailed(g, table.id, client=admin, body=HandCreate(deal=KopDeal(0, KOP_HANDS)),
                                   if_match=version, idempotency_key="hand-1")
    hand = _ok(dealt, 201).id
    assert "Bitka-Checkpoint" in dealt.headers
    for cards in KOP_TRICKS[:3]:
        _ok(add_trick.sync_detailed(g, hand, client=admin, body=TrickIn(cards)), 201)
    for card in KOP_TRICKS[3]:
        played = _ok(add_play.sync_detailed(g, hand, client=admin, body=PlayIn(card=card)), 201)
    assert played.hand["settlement"]["payouts"]

    for payer in (p for p in played.hand["settlement"]["payouts"] if p["amount"].startswith("-")):
        token = next(m.token for m in members if m.id == payer["member"])  # every payer agrees
        member = generated.AuthenticatedClient(base_url=live, token=token)
        done = _ok(confirm_hand.sync_detailed(g, hand, client=member), 201)
    assert done.phase == "done" and isinstance(done.rules, KopRules)

    shown = get_hand.sync_detailed(g, hand, client=member)
    assert get_hand.sync_detailed(g, hand, client=member, if_none_match=shown.headers["ETag"]).status_code == 304
    assert _ok(get_table.sync_detailed(g, table.id, client=member)).next_dealer == 1
    assert len(_ok(get_group.sync_detailed(g, client=member)).members) == 4
    money = _ok(balances.sync_detailed(g, client=member))
    bez_bitki = ["-3.00", "-3.00", "3.00", "3.00"]
    assert money.total == "0.00" and sorted(b.balance for b in money.balances) == bez_bitki
    assert _ok(settle_up.sync_detailed(g, client=member)).transfers
    paged = events.sync_detailed(g, client=member, after=0, limit=2)
    assert len(_ok(paged).events) == 2 and 'rel="next"' in paged.headers["Link"]
    assert _ok(get_audit.sync_detailed(g, hand, client=member)).settlement is not None
    csv = ledger_csv_export.sync_detailed(g, client=member)
    assert csv.status_code == 200 and csv.headers["Content-Type"].startswith("text/csv") and b"," in csv.content

    wrong = assert_balance.sync_detailed(g, client=admin, body=AssertionIn(members[0].id, "99.00"))
    assert wrong.status_code == 422 and wrong.parsed.actual in ("-3.00", "3.00")  # a member of its own

    size = _ok(get_checkpoint.sync_detailed(g, client=member)).size
    assert _ok(inclusion.sync_detailed(g, client=member, seq=1, size=size)).leaf
    assert _ok(consistency.sync_detailed(g, client=member, from_=1, to=size)).to == size
    assert _ok(keys.sync_detailed(client=anyone)).keys[0].alg == "Ed25519"
