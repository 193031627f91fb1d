"""Keeping the catalogs true: ``python -m service.i18n.catalogs update`` extracts every
message (pybabel, ``babel.cfg``) into ``messages.pot`` and brings each language's ``.po`` up
to date; ``check`` says what is wrong without writing (a catalog that misses a message or
keeps a stale one, a message left untranslated or fuzzy, a translation whose placeholders
differ from its message's, a sentence of the log declaring a placeholder two ways:
``extract.kinds``). The test suite runs ``check``, so CI fails on any of these.

``update`` carries a translation over where the code moved its English: a sentence of the
log whose context or declared placeholders changed (from a game's package to the engine,
``{points}`` declared ``{points:d}``) keeps its translation (``carried.py``)."""
from __future__ import annotations

import contextlib
import re
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from . import carried
from .extract import is_log, kinds
from .languages import CATALOGS, LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = CATALOGS / "messages.pot"
_PERCENT = re.compile(r"%\((\w+)\)[sd]")
_BRACES = re.compile(r"(?<!\{)\{(\w+)(?::d)?\}(?!\})")


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(target: Path) -> None:
    """Every message of the code, as pybabel finds it through ``babel.cfg``."""
    with contextlib.chdir(ROOT):  # locations relative to the repository
        _pybabel("extract", "-F", "babel.cfg", "-c", "Translators:", "-k", "lazy_gettext", "-k", "_l",
                 "--add-location=file", "--sort-output", "--no-wrap", "--project=bitka", "-o", str(target), ".")


def _keys(path: Path, locale: str | None = None) -> dict:
    with open(path, "rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m
                for m in read_po(f, locale=locale) if m.id}


def _placeholders(text) -> tuple[set, set]:
    texts = [text] if isinstance(text, str) else list(text)
    return ({n for t in texts for n in _PERCENT.findall(t)}, {n for t in texts for n in _BRACES.findall(t)})


def check() -> list[str]:
    """Every way the catalogs are not true to the code, one sentence each (empty: all true)."""
    wrong = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "messages.pot"
        extract(fresh)
        code, kept = _keys(fresh), _keys(TEMPLATE)
    for key in code.keys() - kept.keys():
        wrong.append(f"messages.pot misses {key!r}: run python -m service.i18n.catalogs update")
    for key in kept.keys() - code.keys():
        wrong.append(f"messages.pot keeps {key!r}, which the code no longer says: run the update")
    for context, msgid in code:
        if is_log(context) and isinstance(msgid, str):
            try:
                kinds(msgid)
            except ValueError as e:
                wrong.append(str(e))
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        po = CATALOGS / language / "LC_MESSAGES" / "messages.po"
        found = _keys(po, language)
        for key in code.keys() - found.keys():
            wrong.append(f"{language} misses {key!r}")
        for key in found.keys() - code.keys():
            wrong.append(f"{language} keeps the stale {key!r}")
        for key in code.keys() & found.keys():
            message = found[key]
            strings = [message.string] if isinstance(message.string, str) else list(message.string)
            if message.fuzzy or not all(strings):
                wrong.append(f"{language} does not translate {key!r}" + (" (fuzzy)" if message.fuzzy else ""))
                continue
            said = _placeholders(key[1])
            for string in strings:
                if _placeholders(string) != said and not _plural_count(key[1], string):
                    wrong.append(f"{language} translates {key!r} with other placeholders: {string!r}")
    return wrong


def _plural_count(msgid, string: str) -> bool:
    """A plural form may leave its number out (Polish "one" form: "jedno rozdanie")."""
    return not isinstance(msgid, str) and _placeholders(string)[0] <= {"num"} | _placeholders(msgid)[0]


def update() -> None:
    """Extract the messages and merge them into every language's catalog, each sentence of
    the log the code moved keeping its translation (``carried.over``)."""
    before = _keys(TEMPLATE) if TEMPLATE.exists() else {}
    extract(TEMPLATE)
    now = _keys(TEMPLATE)
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        po = CATALOGS / language / "LC_MESSAGES" / "messages.po"
        kept = _keys(po, language) if po.exists() else {}
        _merge(po, language)
        carried.over(po, language, kept, gone=before.keys() - now.keys())


def _merge(po: Path, language: str) -> None:
    """``messages.pot`` merged into a language's catalog (a new one made)."""
    if not po.exists():
        _pybabel("init", "-i", str(TEMPLATE), "-d", str(CATALOGS), "-l", language, "--no-wrap")
    else:
        _pybabel("update", "-i", str(TEMPLATE), "-d", str(CATALOGS), "-l", language, "--no-wrap",
                 "--ignore-obsolete", "--no-fuzzy-matching")


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
        return 0
    if argv[:1] == ["check"]:
        wrong = check()
        for line in wrong:
            print(line)
        print(f"{len(wrong)} problem(s) in the catalogs" if wrong else "the catalogs are true to the code")
        return 1 if wrong else 0
    print("usage: python -m service.i18n.catalogs update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
