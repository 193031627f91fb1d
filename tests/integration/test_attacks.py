"""Four attacks on a copy of a real store, each caught: a changed event, history rewritten
with every hash recomputed (caught only by a saved checkpoint), a truncated log, and a
forged checkpoint signature."""
import json
import sqlite3

import pytest

from tests.command import demo_store, run
from tests.tampering import rewrite_log


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
