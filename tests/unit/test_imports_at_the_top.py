"""Modules import at their top: no import inside a function, where it would hide a cycle
(the design keeps its modules in one direction: games <- events <- projections <- service,
cli). Imported late on purpose, and only these: prometheus_client (it chooses single- or
multi-process counting from PROMETHEUS_MULTIPROC_DIR when first imported, which the server
sets after bitka's modules are loaded); and in the command line, what only some commands
need and costs every other one its start: the Flask service and its schemas (serve,
correct, rotate-token), gunicorn and werkzeug's server, matplotlib (stats --plot)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("games", "events", "projections", "service", "cli")
LATE_ON_PURPOSE = {"prometheus_client", "prometheus_client.core"}
LATE_IN_THE_COMMAND_LINE = ("service", "marshmallow", "gunicorn", "werkzeug", "matplotlib")


def _late_on_purpose(module: str, name: str) -> bool:
    if module in LATE_ON_PURPOSE:
        return True
    return name.startswith("cli/") and module.split(".")[0] in LATE_IN_THE_COMMAND_LINE


def _imports_in_functions(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    names = [a.name for a in inner.names]
                elif isinstance(inner, ast.ImportFrom):
                    names = ["." * inner.level + (inner.module or "")]
                else:
                    continue
                late = [n for n in names if not _late_on_purpose(n, name)]
                if late:
                    found.append(f"{name}:{inner.lineno} in {node.name}: {', '.join(late)}")
    return found


def test_no_module_imports_inside_a_function():
    found = [line for top in CHECKED for path in sorted((ROOT / top).rglob("*.py"))
             for line in _imports_in_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_the_check_sees_an_import_inside_a_function_and_lets_prometheus_be_late():
    source = ("from . import base\n"
              "def page():\n    from . import pages\n    return pages\n"
              "def scrape():\n    from prometheus_client import generate_latest\n    return generate_latest\n")
    assert _imports_in_functions(source, "late.py") == ["late.py:3 in page: ."]
