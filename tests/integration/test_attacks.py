"""Four attacks on a copy of a real store, each caught: a changed event, history rewritten
with every hash recomputed (caught only by a saved checkpoint), a truncated log, and a
forged checkpoint signature."""
import json
import sqlite3

import pytest

from tests.command import demo_store, run
from tests.tampering import rechained, rewrite_log


@pytest.fixture
def evening(tmp_path):
    """A store after an evening of play, and the checkpoint a member saved at its end."""
    db = str(tmp_path / "club.db")
    group = demo_store(db)
    saved = tmp_path / "thursday.json"
    result = run("--db", db, "checkpoint", "--group", group)
    assert result.exit_code == 0
    saved.write_text(result.output)
    return db, group, saved


def _renamed(seq, data):
    return dict(data, name="Mallory") if seq == 2 else data


def test_an_untouched_store_extends_its_checkpoint_even_after_more_play(evening):
    db, group, saved = evening
    assert run("--db", db, "verify", "--checkpoint", str(saved)).exit_code == 0
    assert run("--db", db, "demo").exit_code == 0  # more play, in another group
    assert run("--db", db, "verify", "--checkpoint", str(saved)).exit_code == 0


def test_attack_one_event_changed_is_caught(evening):
    db, group, saved = evening
    rewrite_log(db, _renamed, rehash=False)
    plain = run("--db", db, "verify")
    assert plain.exit_code == 1 and f"group {group}: first bad seq 2" in plain.output
    against = run("--db", db, "verify", "--checkpoint", str(saved))
    assert against.exit_code == 1 and "history was rewritten" in against.output


def test_attack_history_rewritten_with_every_hash_recomputed_is_caught_only_by_the_checkpoint(evening):
    db, group, saved = evening
    rewrite_log(db, _renamed, rehash=True)
    assert run("--db", db, "verify").exit_code == 0  # the chain holds: it was recomputed
    against = run("--db", db, "verify", "--checkpoint", str(saved))
    assert against.exit_code == 1
    assert "no longer hash to the saved checkpoint's root: history was rewritten" in against.output


def test_attack_log_truncated_is_caught(evening):
    db, group, saved = evening
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_refuse_delete")
    conn.execute("DELETE FROM events WHERE seq > (SELECT max(seq) - 5 FROM events)")
    conn.commit()
    conn.close()
    against = run("--db", db, "verify", "--checkpoint", str(saved))
    assert against.exit_code == 1 and "the log was truncated" in against.output


def test_attack_forged_checkpoint_signature_is_caught(evening, tmp_path):
    db, group, saved = evening
    cp = json.loads(saved.read_text())
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(dict(cp, root="ab" * 32)))  # a root the server never signed
    result = run("--db", db, "verify", "--checkpoint", str(forged))
    assert result.exit_code == 1 and "signature does not hold" in result.output


# The operator's side: an export that could destroy a store, an import that believed any
# consistent hashes. Each forged log below has every hash and link recomputed
# (tests/tampering.py rechained), so only what it means can give it away.

@pytest.fixture
def exported(evening, tmp_path):
    db, group, _ = evening
    out = tmp_path / "club.jsonl"
    assert run("--db", db, "export", "--group", group, "--out", str(out)).exit_code == 0
    return [json.loads(line) for line in out.read_text().splitlines()], group


def _import(tmp_path, lines, name="forged.jsonl"):
    from events.database import open_store
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    db = str(tmp_path / f"{name}.db")
    result = run("--db", db, "import", str(path))
    with open_store(db).reading() as r:
        left = r.count()
    return result, left


def _first(envelopes, kind):
    return next(i for i, e in enumerate(envelopes) if e["type"] == kind)


def test_an_honest_export_imports_and_replays(exported, tmp_path):
    envelopes, group = exported
    result, left = _import(tmp_path, rechained(envelopes))
    assert result.exit_code == 0 and f"imported group {group}" in result.output and left == len(envelopes)
    assert run("--db", str(tmp_path / "forged.jsonl.db"), "replay").exit_code == 0


def _refused(tmp_path, envelopes, said):
    result, left = _import(tmp_path, rechained(envelopes))
    assert result.exit_code == 1, result.output
    assert said in result.output and "nothing was imported" in result.output, result.output
    assert left == 0 and "Traceback" not in result.output


def test_import_refuses_a_settlement_paying_every_seat(exported, tmp_path):
    envelopes, _ = exported
    at = _first(envelopes, "settlement")
    data = envelopes[at]["data"]
    envelopes[at]["data"] = {**data, "payouts": [{**p, "amount": "100.00"} for p in data["payouts"]]}
    _refused(tmp_path, envelopes, f"seq {envelopes[at]['seq']}: the settlement's payouts do not sum to zero")


def test_import_refuses_a_member_added_twice(exported, tmp_path):
    envelopes, _ = exported
    twice = dict(envelopes[_first(envelopes, "member_added")], seq=len(envelopes) + 1)
    _refused(tmp_path, envelopes + [twice], f"seq {twice['seq']}: member {twice['data']['member']} is added a second")


@pytest.mark.parametrize("where, value", [("group", ""), ("hand", "../../etc/passwd\u202e\u0000")])
def test_import_refuses_empty_or_path_like_ids(exported, tmp_path, where, value):
    envelopes, _ = exported
    hand = envelopes[_first(envelopes, "deal")]["hand"]
    for e in envelopes:
        if where == "group":
            e["group"] = value
        elif e.get("hand") == hand:
            e["hand"] = value
    _refused(tmp_path, envelopes, "is not well-formed")


def test_import_refuses_a_trick_whose_winner_was_changed(exported, tmp_path):
    envelopes, _ = exported
    at = _first(envelopes, "trick")
    data = envelopes[at]["data"]
    envelopes[at]["data"] = {**data, "winner": (data["winner"] + 1) % 4}
    _refused(tmp_path, envelopes, f"seq {envelopes[at]['seq']}: the trick recorded is not the one its own cards make")


def test_import_refuses_a_payment_to_someone_who_is_not_a_member(exported, tmp_path):
    envelopes, group = exported
    member = envelopes[_first(envelopes, "member_added")]["data"]["member"]
    paid = {**envelopes[-1], "seq": len(envelopes) + 1, "type": "payment", "actor": "admin",
            "data": {"from": member, "to": "m_nobody", "amount": "1.00"}}
    paid.pop("hand", None), paid.pop("table", None)
    _refused(tmp_path, envelopes + [paid], "a payment is between two different members of the group")


@pytest.mark.parametrize("line, said", [
    ('{"seq": NaN}', "NaN is not a JSON number"),
    ('{"seq": 1e400}', "1e400 is a fraction"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ('{"seq": "\\ud800", "type": 1}', "is not an exported event envelope"),
    ('{"seq": 1, "type": "group_created", "group": "g_1", "actor": "admin", "recorded_at": "x", "prev_hash": "0",'
     ' "hash": "0", "data": {"name": "\\ud800"}}', "a lone surrogate"),
])
def test_import_of_malformed_lines_says_what_is_wrong_without_a_traceback(tmp_path, line, said):
    result, left = _import(tmp_path, [line])
    assert result.exit_code == 1 and said in result.output and "Traceback" not in result.output, result.output
    assert left == 0


def test_import_of_bytes_that_are_not_utf8_or_a_line_too_long_is_refused_early(tmp_path):
    from events.database import open_store
    for name, body, said in (("latin.jsonl", b'{"name": "Zo\xe9"}\n', "line 1 is not UTF-8"),
                             ("long.jsonl", b'{"data": "' + b"x" * (2 << 20) + b'"}\n', "is longer than")):
        path = tmp_path / name
        path.write_bytes(body)
        db = str(tmp_path / f"{name}.db")
        result = run("--db", db, "import", str(path))
        assert result.exit_code == 1 and said in result.output and "Traceback" not in result.output, result.output
        with open_store(db).reading() as r:
            assert r.count() == 0


@pytest.mark.parametrize("target, said", [("store", "is the store"), ("wal", "write-ahead log"),
                                          ("key", "is the signing key"), ("existing", "exists already")])
def test_export_refuses_to_write_over_the_store_its_key_or_a_file(evening, tmp_path, target, said):
    db, group, saved = evening
    before = open(db, "rb").read()
    out = {"store": db, "wal": db + "-wal", "key": db + ".key", "existing": str(saved)}[target]
    result = run("--db", db, "export", "--group", group, "--out", out)
    assert result.exit_code == 2 and said in result.output
    assert open(db, "rb").read() == before and run("--db", db, "verify").exit_code == 0
    if target == "existing":
        assert run("--db", db, "export", "--group", group, "--out", out, "--force").exit_code == 0
        assert json.loads(open(out).readline())["group"] == group


@pytest.mark.parametrize("out, code, said", [("/dev/full", 1, "No space left on device"),
                                             ("missing/club.jsonl", 2, "there is no directory")])
def test_export_to_a_full_device_or_a_missing_directory_is_a_sentence(evening, tmp_path, out, code, said):
    db, group, _ = evening
    result = run("--db", db, "export", "--group", group, "--out", out if out.startswith("/") else
                 str(tmp_path / out))
    assert result.exit_code == code and said in result.output and "Traceback" not in result.output


def test_a_member_added_twice_behind_bitkas_back_is_found_by_verify_and_replay(evening):
    """Appended through the store itself (hashes and Merkle nodes right): the second
    member_added zeroes that member's balance, so the balances no longer sum to zero."""
    from events.database import open_store
    from events.store import NewEvent
    from projections.projector import project
    db, group, _ = evening
    store = open_store(db, projector=project)
    with store.reading() as r:
        first = next(e for e in r.scan(group) if e.type == "member_added")
    with store.writing() as w:
        [again] = w.append(group, [NewEvent("member_added", dict(first.data))], "admin")
    store.close()
    verified = run("--db", db, "verify")
    assert verified.exit_code == 1 and f"seq {again.seq}: member {first.data['member']} is added a second time" \
        in verified.output
    replayed = run("--db", db, "replay")
    assert replayed.exit_code == 1 and f"seq {again.seq}: member {first.data['member']} is added a second time" \
        in replayed.output
