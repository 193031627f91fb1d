"""The hand's log on its page names its columns in the reader's language: each header is a
message of its own, with its own note for translators (pybabel gives a note to the first
message of a line only, so five headers on one line left "Hash" without one, and Polish
kept the English word); "Hash" is asked for afresh under the context "log column", so
that each language translates the word its readers use rather than keeping the English."""
from __future__ import annotations

from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

LOG = Path(__file__).resolve().parents[2] / "service" / "web" / "templates" / "_hand_log.html"


def test_each_column_of_a_hands_log_is_a_message_with_a_note_for_its_translators():
    notes: dict[tuple[str | None, str], list[str]] = {}
    for _line, message, comments, context in extract_from_file("jinja2", str(LOG), keywords=DEFAULT_KEYWORDS,
                                                                comment_tags=("Translators:",)):
        notes.setdefault((context, message if isinstance(message, str) else message[0]), []).extend(comments)
    for column in [(None, "seq"), (None, "Event"), (None, "By"), (None, "When"), ("log column", "Hash")]:
        assert column in notes and notes[column], f"the log's column {column[1]!r} has no note for translators"
    assert "cryptographic hash" in " ".join(notes[("log column", "Hash")])
    assert (None, "Hash") not in notes  # the bare word, kept untranslated in Polish, is no longer asked for
    summary = [key for key in notes if key[1].startswith("%(num)d event")]
    assert summary and notes[summary[0]], "the folded log's line has no note for translators"
