"""The log's sentences are said with ``say(template, name=value)`` (events/sentences.py): the
template is the catalog message and its placeholders are the names its author gave, so a
refactoring that renames a variable changes no catalog, and only what is said goes to the
translators."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from events.sentences import say
from service.i18n.extract import SAY, sentences

ROOT = Path(__file__).resolve().parents[2]
_PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)(?::d)?\}(?!\})")  # "{name}", or "{name:d}": a number


def _said_modules() -> list[Path]:
    """Every module babel.cfg sends to the log extractor."""
    config = (ROOT / "babel.cfg").read_text()
    found: set[Path] = set()
    for pattern in re.findall(r"^\[bitka_log: (.+)\]$", config, re.M):
        found.update(ROOT.glob(pattern.replace("**.py", "**/*.py")))
    return sorted(found)


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == SAY:
            yield node


def test_the_extractor_reads_every_game_module():
    said = {p.relative_to(ROOT).parts[0] for p in _said_modules()}
    assert "games" in said
    games = {p for p in (ROOT / "games").rglob("*.py")}
    assert games <= set(_said_modules())


@pytest.mark.parametrize("module", _said_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sentence_is_one_literal_template_with_exactly_its_named_values(module):
    wrong = []
    for call in _calls(ast.parse(module.read_text())):
        where = f"{module.relative_to(ROOT)}:{call.lineno}"
        if len(call.args) != 1 or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            wrong.append(f"{where}: the template is not one literal string")
            continue
        named = set(_PLACEHOLDER.findall(call.args[0].value))
        given = {k.arg for k in call.keywords}
        if None in given or named != given:
            wrong.append(f"{where}: placeholders {sorted(named)}, values {sorted(map(str, given))}")
    assert not wrong, "\n".join(wrong)


class _Renamed(ast.NodeTransformer):
    """Every variable (and argument) named ``old`` renamed ``new``, as a refactoring would."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id == self.old:
            node.id = self.new
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        if node.arg == self.old:
            node.arg = self.new
        return node


@pytest.mark.parametrize("module, variable", [("games/kop/game.py", "seat"), ("games/bisca/scoring.py", "champions"),
                                              ("games/scopa/game.py", "card"), ("projections/audit.py", "entry")])
def test_renaming_a_variable_changes_no_message(module, variable):
    source = (ROOT / module).read_text()
    tree = ast.parse(source)
    assert any(isinstance(n, ast.Name) and n.id == variable for n in ast.walk(tree)), "the variable is used"
    renamed = ast.unparse(_Renamed(variable, "renamed_" + variable).visit(tree))
    assert renamed != ast.unparse(ast.parse(source))
    assert sorted(t for _, t in sentences(renamed)) == sorted(t for _, t in sentences(source))


def test_only_what_is_said_is_extracted():
    source = ('CODES = "AED AFN ALL"\n'
              'FIELD = RuleField("deal", "how the cards are dealt, face up or not")\n'
              'def refuse(seat):\n'
              '    raise RuleViolation(say("seat {seat} may not play now", seat=seat))\n')
    assert [t for _, t in sentences(source)] == ["seat {seat} may not play now"]


def test_say_fills_the_template_and_keeps_literal_braces():
    said = say("a card played is {{\"seat\", \"card\"}}, not {extra}", extra="x")
    assert said == 'a card played is {"seat", "card"}, not x'
    assert say("a trick is {{\"cards\"}}") == 'a trick is {"cards"}'
    assert say("{card} ({value}) makes {value}", card="7D", value=7) == "7D (7) makes 7"
