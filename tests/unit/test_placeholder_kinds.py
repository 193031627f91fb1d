"""What a placeholder of the log's sentences holds is declared by its template, not guessed
from its name (issue 45, point 4): ``{points:d}`` holds a whole number (``str.format``
refuses words there), ``{points}`` words. Renaming a placeholder changes no sentence's
reading, and every template declares each placeholder one way, as the code gives it."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from events.sentences import say
from service.i18n import catalogs, phrases
from service.i18n.carried import words
from service.i18n.extract import HEARD, SAY, is_log, kinds, template
from tests.unit.test_said_sentences import _said_modules

ROOT = Path(__file__).resolve().parents[2]
_GROUP = re.compile(r"\(\?P(?:<\w+>|=\w+\))")


def _log_templates() -> list[tuple[str, str]]:
    with open(catalogs.TEMPLATE, "rb") as f:
        return [(m.context, m.id) for m in read_po(f) if is_log(m.context) and isinstance(m.id, str) and m.id]


def _renamed(source: str) -> str:
    return re.sub(r"(?<!\{)\{(\w+)((?::d)?)\}", lambda m: "{renamed_" + m.group(1) + m.group(2) + "}", source)


def test_a_number_declared_reads_numbers_only_and_words_read_anything_whatever_the_name():
    number, _seats, _sides, _words = phrases._fields("side {side} takes {worth:d} in {tricks:d} trick(s)")
    assert number.match("side 1 takes 12 in 3 trick(s)") and not number.match("side 1 takes 4 points in 3 trick(s)")
    named, *_ = phrases._fields("side {side} takes {points} in {tricks} trick(s)")  # named for a count: still words
    assert named.match("side 1 takes 4 points (12 thirds) in three trick(s)")
    with pytest.raises(ValueError):
        say("side {side} takes {points:d} in {tricks:d} trick(s)", side=1, points="4 points", tricks=3)


def test_renaming_a_placeholder_changes_no_templates_reading():
    for context, source in _log_templates():
        pattern, seats, sides, between = phrases._fields(source)
        again, seats_again, sides_again, between_again = phrases._fields(_renamed(source))
        assert _GROUP.sub("(?P_)", pattern.pattern) == _GROUP.sub("(?P_)", again.pattern), (context, source)
        assert between == between_again and len(seats) == len(seats_again) and len(sides) == len(sides_again)


_CACHES = (phrases._messages, phrases.templates, phrases.asides, phrases._candidates)


@pytest.fixture
def fresh_readings():
    for cache in _CACHES:
        cache.cache_clear()
    yield
    for cache in _CACHES:
        cache.cache_clear()


SENTENCES = [  # each a sentence the rules write, read by a template with a number declared
    "side 0 70 in 6 tricks",
    "trick 3: seat 1 leads; cards 7H AH 2H QH; seat 2 wins 11 card points",
    "side 1 takes 76 card points (61 to 90): one game",
    "each payment is stake 0.50 PLN x 2 unit(s) x multiplier 4",
    "seat 2 is dealt 9 cards; bisca deals 10 to each seat",
]


def test_every_sentence_reads_the_same_with_every_placeholder_renamed(monkeypatch, fresh_readings):
    said = [phrases.say(sentence, "pl") for sentence in SENTENCES]
    assert all(s != sentence for s, sentence in zip(said, SENTENCES, strict=True)), said
    with open(catalogs.CATALOGS / "pl" / "LC_MESSAGES" / "messages.po", "rb") as f:
        renamed = read_po(f, locale="pl")
    for message in renamed:  # every placeholder renamed, in the English and in its translation alike
        if is_log(message.context) and isinstance(message.id, str) and message.id not in ("seat {seat}", "side {side}"):
            message.id, message.string = _renamed(message.id), _renamed(message.string or "") or message.string
    monkeypatch.setattr(phrases, "catalog", lambda language: renamed if language == "pl" else None)
    for cache in _CACHES:
        cache.cache_clear()
    assert [phrases.say(sentence, "pl") for sentence in SENTENCES] == said


def test_each_template_declares_each_placeholder_one_way_and_the_same_words_alike():
    declared: dict[str, dict[str, bool]] = {}
    for context, source in _log_templates():
        found = kinds(source)  # ValueError: a placeholder declared two ways, or with another format
        assert declared.setdefault(words(source), found) == found, (context, source, declared[words(source)])


def _a_number(value: ast.expr) -> bool:
    """Whether ``value`` is a whole number as the code reads (an int, a length, sums of them)."""
    if isinstance(value, ast.Constant):
        return type(value.value) is int
    if isinstance(value, ast.Call):
        return getattr(value.func, "id", None) in ("len", "int") or getattr(value.func, "attr", None) in ("count",
                                                                                                         "index")
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
        return _a_number(value.left) and _a_number(value.right)
    return isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) and _a_number(value.operand)


def _words(value: ast.expr) -> bool:
    """Whether ``value`` is words as the code reads (a string, a sentence said, a join)."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    if isinstance(value, ast.JoinedStr):
        return True
    if isinstance(value, ast.Call):
        return getattr(value.func, "id", None) in (SAY, HEARD, "str", "repr") or getattr(value.func, "attr", None) in (
            "join", "format")
    return False


@pytest.mark.parametrize("module", _said_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_placeholder_is_declared_as_the_code_fills_it(module):
    wrong = []
    for node in ast.walk(ast.parse(module.read_text())):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == SAY):
            continue
        source = template(node)
        declared = kinds(source) if source else {}
        for value in node.keywords:
            if value.arg in declared and _a_number(value.value) and not declared[value.arg]:
                wrong.append(f"{module.name}:{node.lineno}: {{{value.arg}}} is given a number: declare it :d")
            if value.arg in declared and _words(value.value) and declared[value.arg]:
                wrong.append(f"{module.name}:{node.lineno}: {{{value.arg}:d}} is given words")
    assert not wrong, "\n".join(wrong)
